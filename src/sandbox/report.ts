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
 * purpose by a test value does not count); `summary` says which, one line each.
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
  /** True when every callback was delivered (or dropped on purpose); false while one is pending. */
  readonly ok: boolean;
  readonly delivered: number;
  readonly failed: number;
  readonly cancelled: number;
  readonly dropped: number;
  /** Callbacks still being delivered: 0 once `waitForIdle()` resolves; a timed-out wait reports them. */
  readonly pending: number;
  /** Every callback, oldest first (the latest 1000). */
  readonly deliveries: readonly DeliveryReportEntry[];
  /** The callbacks that failed or were cancelled. */
  readonly failures: readonly DeliveryReportEntry[];
  /**
   * A count line, then one line per failed, cancelled, dropped or still pending callback, then a
   * `hint:` line per answer with one usual cause (an unsigned URL, a refused signature, a 404 or
   * 405, `ECONNREFUSED`). With no callback at all it says none was scheduled (often an initiation
   * that was not awaited).
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

/** Builds the report of a set of deliveries; `sending` holds the ids of those with an attempt in flight. */
export function buildDeliveryReport(
  deliveries: readonly CallbackDelivery[],
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
  const count = (state: CallbackDelivery['state']) => entries.filter((e) => e.state === state).length;
  const failures = entries.filter((e) => e.state === 'failed' || e.state === 'cancelled');
  const counts = (['delivered', 'failed', 'cancelled', 'dropped', 'pending'] as const)
    .map((state) => [state, count(state)] as const)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  const head =
    entries.length === 0
      ? `0 callbacks: ${NOTHING_SCHEDULED}`
      : `${plural(entries.length, 'callback')}: ${counts.join(', ')}`;
  const lines = entries.flatMap((entry, index) =>
    entry.state === 'delivered' ? [] : [describeEntry(entry, sending.has(deliveries[index]!.id))],
  );
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
    ok: failures.length === 0 && count('pending') === 0 && scheduled === 0,
    delivered: count('delivered'),
    failed: count('failed'),
    cancelled: count('cancelled'),
    dropped: count('dropped'),
    pending: count('pending') + scheduled,
    deliveries: entries,
    failures,
    summary: [head, ...lines, ...hints].join('\n'),
  };
}
