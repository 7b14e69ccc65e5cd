import type { CallbackEventType } from '../callbacks/events.js';
import type { CallbackDelivery, DeliveryAttempt } from './delivery.js';
import { describeAnswer, escapeForLog, forReference, urlForLog } from './log.js';

/**
 * One callback in a {@link DeliveryReport}: where it went, how many attempts, and how it ended.
 *
 * @example
 * ```ts
 * import type { DeliveryReportEntry } from 'hosted-payments/sandbox';
 *
 * const entry: DeliveryReportEntry = {
 *   type: 'payout.succeeded',
 *   reference: '700000000123',
 *   url: 'http://127.0.0.1:3000/webhooks/payouts?…',
 *   copy: 0,
 *   attempts: 6,
 *   state: 'failed',
 *   lastAnswer: '401 invalid_signature',
 * };
 * ```
 */
export interface DeliveryReportEntry {
  readonly type: CallbackEventType;
  /** The order it is about: `hp_ref` of a signed callback URL, or the request's reference. */
  readonly reference?: string | undefined;
  /** The callback URL without its query string (`?…` where the signature was). */
  readonly url: string;
  /** 0 for the first delivery, 1… for deliberate duplicates. */
  readonly copy: number;
  readonly attempts: number;
  readonly state: CallbackDelivery['state'];
  /** What the last attempt got: `200`, `401 invalid_signature`, `ECONNREFUSED`, `timeout`; absent before any attempt. */
  readonly lastAnswer?: string | undefined;
}

/**
 * What `waitForIdle()` resolves with: every callback since the sandbox started and how it ended.
 * `ok` is false as soon as one was not delivered (given up or cancelled; a callback dropped on
 * purpose by a test value does not count); `summary` says which, one line each. The counts and
 * `ok` cover every callback; `deliveries` keeps the latest 1000 or so (failed and cancelled ones
 * longest), and `summary` says how many it left out and how those ended.
 *
 * @example
 * ```ts
 * import { startSandbox } from 'hosted-payments/sandbox';
 *
 * const sandbox = await startSandbox();
 * // … initiate payments with callback URLs pointing at your route …
 * const report = await sandbox.waitForIdle();
 * if (!report.ok) throw new Error(report.summary);
 * // 2 callbacks: 1 delivered, 1 failed
 * //   ✗ payment.card.succeeded for ORDER-1 to http://127.0.0.1:3000/webhooks/payments?… failed after 6 attempts: 401 invalid_signature
 * await sandbox.close();
 * ```
 */
export interface DeliveryReport {
  /**
   * True when every callback since the sandbox started was delivered (or dropped on purpose),
   * listed in `deliveries` or not; false while one is pending.
   */
  readonly ok: boolean;
  /**
   * Callbacks delivered since the sandbox started, kept in `deliveries` or not (`failed`,
   * `cancelled` and `dropped` count the same way).
   */
  readonly delivered: number;
  /** Callbacks given up on after their retries. */
  readonly failed: number;
  /** Callbacks cancelled by `close()` before they were delivered or given up on. */
  readonly cancelled: number;
  /** Callbacks a test value asked the sandbox never to send. */
  readonly dropped: number;
  /** Callbacks still being delivered: 0 once `waitForIdle()` resolves; a timed-out wait reports them. */
  readonly pending: number;
  /**
   * The callbacks kept, oldest first: every pending one, and finished ones up to 1000 in all. To
   * make room the oldest delivered or dropped one goes first; a failed or cancelled one only when
   * no other finished one is left.
   */
  readonly deliveries: readonly DeliveryReportEntry[];
  /** The callbacks of `deliveries` that failed or were cancelled. */
  readonly failures: readonly DeliveryReportEntry[];
  /**
   * A count line over every callback since the sandbox started; when `deliveries` left some out,
   * a line saying how many and how they ended; then one line per failed, cancelled, dropped or
   * still pending callback of `deliveries`, then a `hint:` line per answer with one usual cause (an
   * unsigned URL, a refused signature, a 404 or 405, `ECONNREFUSED`). With no callback at all it
   * says none was scheduled (often an initiation that was not awaited).
   */
  readonly summary: string;
}

// An initiation's callback is scheduled when the sandbox answers it: a waitForIdle() called before
// that answer arrived finds nothing to wait for.
const NOTHING_SCHEDULED =
  'none was scheduled (was every initiation awaited before waitForIdle()? a callback is scheduled when the sandbox answers the request)';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function describeEntry(entry: DeliveryReportEntry, sending: boolean): string {
  const copy = entry.copy > 0 ? ` (duplicate ${entry.copy})` : '';
  const target = escapeForLog(`${entry.type}${copy}${forReference(entry.reference)} to ${entry.url}`);
  if (entry.state === 'dropped') return `  - ${target} dropped on purpose (test value), never sent`;
  const how = entry.lastAnswer ? `: ${entry.lastAnswer}` : '';
  if (entry.state === 'pending') {
    if (sending) {
      return `  … ${target} pending: sent, no answer yet (attempt ${entry.attempts + 1})${entry.attempts > 0 ? `; before${how}` : ''}`;
    }
    return entry.attempts === 0
      ? `  … ${target} pending, not sent yet`
      : `  … ${target} pending after ${plural(entry.attempts, 'attempt')}${how}`;
  }
  return `  ✗ ${target} ${entry.state} after ${plural(entry.attempts, 'attempt')}${how}`;
}

/** Where the cause of a route's `500 handler_failed` is, said by the report and by `trigger`. */
export const HANDLER_FAILED_CAUSE =
  'its onError has the cause (onEvent threw, or a body parser such as express.json() read the body before the route)';

/**
 * What to try after an attempt's answer, for the answers with one usual cause: a signature refused
 * (unsigned URL, or another secret or origin), the route failing on the callback, a path nothing
 * serves, nothing listening.
 */
function hintFor(url: string, last: DeliveryAttempt): string | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  const route = `${target.origin}${target.pathname}`;
  if (last.status === 401 && last.reason === 'invalid_signature') {
    return target.searchParams.has('hp_sig')
      ? `the route at ${route} refused the URL's signature (401 invalid_signature): give it the secret the URL was signed with, and a publicOrigin of ${target.origin} (or none)`
      : 'a callback URL has no hp_sig, and a route with a secret refuses an unsigned callback (401 invalid_signature): sign it with signCallbackUrl before you initiate';
  }
  if (last.status === 500 && last.reason === 'handler_failed') {
    return `the route at ${route} failed on the callback (500 handler_failed): ${HANDLER_FAILED_CAUSE}`;
  }
  if (last.status === 404) {
    return `the server answered 404 for POST ${target.pathname}: is your route mounted at this path (a trailing slash counts)?`;
  }
  if (last.status === 405) {
    return `the server answered 405 for POST ${target.pathname}: something is there, but not for POST; mount your route for POST`;
  }
  if (last.error === 'ECONNREFUSED') {
    return `nothing listens at ${target.origin} (ECONNREFUSED): start your server, on that port, before the payment's callback is due`;
  }
  return undefined;
}

/**
 * How many callbacks reached each final state, counted when they reach it, so that the report
 * counts every callback though the queue keeps only the latest ones.
 */
export interface DeliveryTotals {
  readonly delivered: number;
  readonly failed: number;
  readonly cancelled: number;
  readonly dropped: number;
}

const FINAL_STATES = ['delivered', 'failed', 'cancelled', 'dropped'] as const;

/** `200 delivered, 1 failed`: the states with a count above 0, in the order of `counts`. */
const describeCounts = (counts: readonly (readonly [string, number])[]): string =>
  counts
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`)
    .join(', ');

/**
 * Builds the report of the deliveries kept: `totals` counts every delivery that finished, kept or
 * not, `scheduled` the copies not recorded yet, and `sending` holds the ids of those with an
 * attempt in flight.
 */
export function buildDeliveryReport(
  deliveries: readonly CallbackDelivery[],
  totals: DeliveryTotals,
  scheduled = 0,
  sending: Pick<ReadonlySet<number>, 'has'> = new Set(),
): DeliveryReport {
  const entries = deliveries.map((delivery): DeliveryReportEntry => {
    const last = delivery.attempts.at(-1);
    return {
      type: delivery.type,
      ...(delivery.reference === undefined ? {} : { reference: delivery.reference }),
      url: urlForLog(delivery.url),
      copy: delivery.copy,
      attempts: delivery.attempts.length,
      state: delivery.state,
      ...(last ? { lastAnswer: describeAnswer(last) } : {}),
    };
  });
  const kept = { delivered: 0, failed: 0, cancelled: 0, dropped: 0, pending: 0 };
  for (const entry of entries) kept[entry.state] += 1;
  const failures = entries.filter((e) => e.state === 'failed' || e.state === 'cancelled');
  const pending = kept.pending;
  const total = FINAL_STATES.reduce((sum, state) => sum + totals[state], pending);
  const head =
    total === 0
      ? `0 callbacks: ${NOTHING_SCHEDULED}`
      : `${plural(total, 'callback')}: ${describeCounts([
          ...FINAL_STATES.map((state) => [state, totals[state]] as const),
          ['pending', pending],
        ])}`;
  const lines = entries.flatMap((entry, index) =>
    entry.state === 'delivered' ? [] : [describeEntry(entry, sending.has(deliveries[index]!.id))],
  );
  // Every callback the queue no longer keeps had finished: the totals beyond the entries kept in
  // each state say how they ended.
  const notKept = total - entries.length;
  if (notKept > 0) {
    const ended = describeCounts(FINAL_STATES.map((state) => [state, totals[state] - kept[state]] as const));
    lines.unshift(
      `  … ${plural(notKept, 'callback')} not listed (${entries.length} kept, failed and cancelled ones longest): ${ended}`,
    );
  }
  // What to try, once per distinct hint, after the lines of the callbacks it is about.
  const hints = new Set<string>();
  for (const delivery of deliveries) {
    const last = delivery.attempts.at(-1);
    const hint =
      delivery.state === 'delivered' || last === undefined ? undefined : hintFor(delivery.url, last);
    if (hint !== undefined) hints.add(`hint: ${escapeForLog(hint)}`);
  }
  // A copy scheduled (a duplicate delivery) but not recorded yet is pending work too.
  if (scheduled > 0)
    lines.push(`  … ${plural(scheduled, 'callback')} scheduled, not recorded yet (a duplicate delivery)`);
  return {
    ok: totals.failed === 0 && totals.cancelled === 0 && pending === 0 && scheduled === 0,
    delivered: totals.delivered,
    failed: totals.failed,
    cancelled: totals.cancelled,
    dropped: totals.dropped,
    pending: pending + scheduled,
    deliveries: entries,
    failures,
    summary: [head, ...lines, ...hints].join('\n'),
  };
}
