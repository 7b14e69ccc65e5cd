import type { CallbackEventType } from '../callbacks/events.js';
import type { CallbackPayload } from '../callbacks/schemas.js';
import { callbackReference, escapeForLog, redactSignature, urlForLog, type SandboxLogger } from './log.js';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import { MAX_TIMER_MS } from '../internal/timers.js';
import { buildDeliveryReport, type DeliveryReport, type DeliveryTotals } from './report.js';
import { answerExcerpt, redactSecrets } from './answer-excerpt.js';
import { jsonErrorCode } from '../internal/json.js';

/**
 * What the merchant answered to one delivery attempt: its status and, for a refusal with a JSON
 * body such as `{ "error": "invalid_signature" }`, that code (any other refusal's body: a short
 * excerpt of it, in double quotes).
 *
 * @example
 * ```ts
 * import type { CallbackAnswer } from 'hosted-payments/sandbox';
 *
 * const answer: CallbackAnswer = { status: 401, reason: 'invalid_signature' };
 * ```
 */
export interface CallbackAnswer {
  readonly status: number;
  readonly reason?: string | undefined;
}

/**
 * Sends one callback: resolves with the HTTP status the merchant answered (or a
 * {@link CallbackAnswer}), rejects when there was no answer. The default POSTs JSON with `fetch`.
 *
 * @example
 * ```ts
 * import { createSandboxApp, type CallbackTransport } from 'hosted-payments/sandbox';
 *
 * const received: unknown[] = [];
 * const capture: CallbackTransport = async ({ url, payload }) => {
 *   received.push({ url, payload });
 *   return 200;
 * };
 * createSandboxApp({ transport: capture });
 * ```
 */
export type CallbackTransport = (request: {
  readonly url: string;
  readonly type: CallbackEventType;
  readonly payload: CallbackPayload;
  readonly body: string;
  readonly signal: AbortSignal;
}) => Promise<number | CallbackAnswer>;

/**
 * One attempt at delivering a callback.
 *
 * @example
 * ```ts
 * import { startSandbox } from 'hosted-payments/sandbox';
 *
 * const sandbox = await startSandbox();
 * const [first] = sandbox.deliveries[0]?.attempts ?? [];
 * console.log(first?.status ?? first?.error);
 * ```
 */
export interface DeliveryAttempt {
  readonly at: Date;
  /** The merchant's HTTP status, when it answered. */
  readonly status?: number | undefined;
  /**
   * The `error` code of a refusal's JSON body (`invalid_signature`, `reference_mismatch`, …: letters,
   * `_`, `.`, `-`, at most 64); for any other refusal with a body, what it said as one line of at
   * most 200 characters in double quotes (`"Cannot POST /hooks"`: an HTML page as its text, a card
   * number as `**** 4242`, the delivery's signature and the API key the sandbox received as
   * `[redacted]`).
   */
  readonly reason?: string | undefined;
  /** Why there was no answer (`ECONNREFUSED`, `timeout`, …). */
  readonly error?: string | undefined;
}

/**
 * A callback the sandbox has sent or is sending, with every attempt so far.
 *
 * @example
 * ```ts
 * import { startSandbox } from 'hosted-payments/sandbox';
 *
 * const sandbox = await startSandbox();
 * await sandbox.waitForIdle();
 * for (const d of sandbox.deliveries) console.log(d.type, d.state, d.attempts.length);
 * ```
 */
export interface CallbackDelivery {
  readonly id: number;
  readonly type: CallbackEventType;
  /**
   * The callback URL as given, signature included. Not enumerable: `JSON.stringify`,
   * `util.inspect` and a test runner's diff leave it out (a signed URL's `hp_sig` is a bearer
   * token for its reference) and show {@link CallbackDelivery.redactedUrl} instead.
   */
  readonly url: string;
  /** The callback URL with the value of `hp_sig` replaced by `[redacted]`; `hp_ref` is kept. */
  readonly redactedUrl: string;
  /** The order it is about: `hp_ref` of a signed callback URL, or the request's reference. */
  readonly reference?: string | undefined;
  readonly payload: CallbackPayload;
  /** 0 for the first delivery, 1… for deliberate duplicates (`duplicateDeliveries`). */
  readonly copy: number;
  readonly attempts: readonly DeliveryAttempt[];
  /**
   * `pending` until a 2xx (`delivered`), the last retry (`failed`) or `close()` (`cancelled`);
   * `dropped` when a test value asked the sandbox never to send it.
   */
  readonly state: 'pending' | 'delivered' | 'failed' | 'cancelled' | 'dropped';
}

/**
 * Options of `waitForIdle()`: how long to wait at most. Without them it waits for as long as the
 * retries take (about 16 s for a refused callback with the default settings).
 *
 * @example
 * ```ts
 * import { startSandbox, type WaitForIdleOptions } from 'hosted-payments/sandbox';
 *
 * const sandbox = await startSandbox({ callbackDelayMs: 0, retryDelayMs: 10, deliveryRetries: 1 });
 * const options: WaitForIdleOptions = { timeout: 4000 };
 * const report = await sandbox.waitForIdle(options); // rejects after 4 s, naming what is pending
 * await sandbox.close();
 * ```
 */
export interface WaitForIdleOptions {
  /**
   * Rejects after this many ms if a callback is still pending, with an error whose message is the
   * report's summary and whose `report` field is the report. Keep it under your test's timeout.
   */
  readonly timeout?: number | undefined;
  /** Rejects when it aborts, the same way, with the signal's reason as `cause`. */
  readonly signal?: AbortSignal | undefined;
}

const WAIT_FOR_IDLE_OPTIONS: OptionNames<WaitForIdleOptions> = { timeout: true, signal: true };

function checkWaitForIdleOptions(options: WaitForIdleOptions | undefined): void {
  refuseUnknownOptions('waitForIdle', options, WAIT_FOR_IDLE_OPTIONS);
  const { timeout, signal } = (options ?? {}) as { timeout?: unknown; signal?: unknown };
  if (
    timeout !== undefined &&
    (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout < 0 || timeout > MAX_TIMER_MS)
  ) {
    const got = typeof timeout === 'number' ? String(timeout) : typeof timeout;
    throw new TypeError(`waitForIdle: timeout must be a number of ms from 0 to 2147483647, got ${got}`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError('waitForIdle: signal must be an AbortSignal, e.g. AbortSignal.timeout(4000)');
  }
}

/**
 * The rejection of a `waitForIdle()` that stopped waiting: the summary of what is still pending
 * (each with its reference and last answer) and how to make retries end sooner in tests.
 */
function notIdleError(
  why: string,
  report: DeliveryReport,
  cause: unknown,
): Error & { report: DeliveryReport } {
  const message =
    `waitForIdle: callbacks still pending ${why}\n${report.summary}\n` +
    'A refused callback is retried deliveryRetries times (default 5) with a backoff doubling from ' +
    'retryDelayMs (default 500 ms), about 16 s in all; in tests give the sandbox small ' +
    'callbackDelayMs, retryDelayMs and deliveryRetries. A callback sent and not answered yet waits ' +
    'for the route (its onEvent may be slow) for up to deliveryTimeoutMs (default 10000 ms) per attempt.';
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { report });
}

/**
 * Options of {@link createDeliveryQueue}.
 *
 * @example
 * ```ts
 * const options: DeliveryQueueOptions = { delayMs: 100, retries: 3, retryDelayMs: 50 };
 * ```
 */
export interface DeliveryQueueOptions {
  /** Wait before the first attempt, in ms. Default 0. */
  delayMs?: number | undefined;
  /** Attempts after the first one before giving up. Default 5. */
  retries?: number | undefined;
  /** Backoff before retry n is `retryDelayMs * 2^(n-1)`, capped at `maxRetryDelayMs`. Default 500. */
  retryDelayMs?: number | undefined;
  /** Cap of the backoff, in ms. Default 30 000. */
  maxRetryDelayMs?: number | undefined;
  /** Extra copies of each callback sent after the first was delivered. Default 0. */
  duplicates?: number | undefined;
  /** Time allowed to one attempt, in ms. Default 10 000. */
  attemptTimeoutMs?: number | undefined;
  /** How a callback is sent. Default: `fetch` POST with a JSON body. */
  transport?: CallbackTransport | undefined;
  log?: SandboxLogger | undefined;
  /**
   * The credentials the sandbox has received (the API key of an `Authorization` header), taken out
   * of every answer and error an attempt records. Default: none.
   */
  credentials?: (() => readonly string[]) | undefined;
}

/**
 * The queue that delivers callbacks in the background.
 *
 * @example
 * ```ts
 * const queue: DeliveryQueue = createDeliveryQueue();
 * queue.enqueue('payout.succeeded', url, payload);
 * await queue.waitForIdle();
 * ```
 */
export interface DeliveryQueue {
  /**
   * Schedules the delivery of one callback (plus duplicates); returns at once. `reference` is the
   * request's reference, shown when the URL has no `hp_ref`.
   */
  enqueue(
    type: CallbackEventType,
    url: string,
    payload: CallbackPayload,
    reference?: string,
  ): CallbackDelivery;
  /** Records a callback that is never sent (state `dropped`), and logs why. */
  drop(
    type: CallbackEventType,
    url: string,
    payload: CallbackPayload,
    because: string,
    reference?: string,
  ): CallbackDelivery;
  /**
   * The deliveries kept, oldest first: every pending one, and finished ones up to 1000 in all. To
   * make room the oldest delivered or dropped one goes first; a failed or cancelled one only when
   * no other finished one is left.
   */
  readonly deliveries: readonly CallbackDelivery[];
  /**
   * Resolves, once no delivery is pending (immediately when none is), with the report of every
   * delivery since the queue was created (its counts include deliveries no longer kept); rejects
   * after `timeout` or when `signal` aborts, with what is still pending.
   */
  waitForIdle(options?: WaitForIdleOptions): Promise<DeliveryReport>;
  /** Whether `close()` was called. */
  readonly isClosed: boolean;
  /** Cancels pending deliveries, aborts attempts in flight and clears every timer. */
  close(): void;
}

const MAX_ANSWER_CHARS = 4096;

/**
 * The `error` code of a JSON refusal (`{ "error": "invalid_signature" }`), read as the client reads
 * a service's ({@link jsonErrorCode}); undefined for a body without one, an `error` that is free
 * text (a digit, a space, a slash) or one holding any of `secrets` (a bare hp_sig value or API key
 * is a code only by chance: no digit in it) — the excerpt of the whole answer, with those
 * redacted, says what it was.
 */
export function refusalReason(text: string, secrets: readonly string[] = []): string | undefined {
  if (text.length === 0 || text.length > MAX_ANSWER_CHARS) return undefined;
  const code = jsonErrorCode(text);
  return code !== undefined && !secrets.some((secret) => secret !== '' && code.includes(secret))
    ? code
    : undefined;
}

/** Where a redirect pointed, as safe to log as the callback URL itself (`?…` for a query). */
function redirectReason(location: string | null, url: string): string {
  let target = '(no location)';
  if (location !== null) {
    try {
      target = urlForLog(new URL(location, url).href);
    } catch {
      target = '(invalid location)';
    }
  }
  return `redirect to ${target} (not followed)`;
}

/**
 * The default transport: `POST` the JSON body with `fetch` to the URL exactly as the merchant
 * gave it (a signed URL stays signed), and read the refusal's `error` code from the answer (or,
 * without one, a quoted excerpt of what it said, such as Express's `"Cannot POST /hooks"`), the
 * URL's signature and each of `credentials()` never shown. A redirect is not followed: a 301 or
 * 302 would turn the POST into a GET without the callback, and any redirect would deliver it
 * somewhere the merchant did not name; it counts as not delivered.
 */
export const fetchTransport =
  (credentials: () => readonly string[] = () => []): CallbackTransport =>
  async ({ url, body, signal }) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'hosted-payments-sandbox' },
      body,
      signal,
      redirect: 'manual',
    });
    const text = await response.text().catch(() => '');
    if (response.ok) return response.status;
    if (response.status >= 300 && response.status < 400) {
      return { status: response.status, reason: redirectReason(response.headers.get('location'), url) };
    }
    const secrets = [signatureOf(url), ...credentials()];
    const reason =
      refusalReason(text, secrets) ?? quotedExcerpt(text, response.headers.get('content-type'), secrets);
    return reason ? { status: response.status, reason } : response.status;
  };

/** The value of the URL's `hp_sig`, or `''`. */
const signatureOf = (url: string): string => {
  try {
    return new URL(url).searchParams.get('hp_sig') ?? '';
  } catch {
    return '';
  }
};

/** What a refusal without an `error` code said, in double quotes; undefined for an empty body. */
function quotedExcerpt(
  text: string,
  contentType: string | null,
  secrets: readonly string[],
): string | undefined {
  const excerpt = answerExcerpt(text, contentType, secrets);
  return excerpt === '' ? undefined : `"${excerpt}"`;
}

const MAX_RECORDS = 1000;

/** The root of a failed attempt: the system code (`ECONNREFUSED`) or the innermost message. */
function describeError(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'timeout';
  let current: unknown = error;
  for (let depth = 0; depth < 5; depth++) {
    const code = (current as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    const cause = (current as { cause?: unknown } | null)?.cause;
    if (cause === undefined || cause === null) break;
    current = cause;
  }
  // A message may quote the signed URL (a transport's own error): its hp_sig is not shown.
  return escapeForLog(redactSignature(current instanceof Error ? current.message : String(current)));
}

/**
 * `fetch` refuses the ports browsers block (6000, 5060, 10080, …) before connecting, saying only
 * "bad port"; the service would post to them, so the merchant is told which port and what to do.
 */
export function blockedPortMessage(url: string): string {
  let port = '';
  try {
    port = ` ${new URL(url).port}`;
  } catch {
    // The URL was checked before it was posted; keep the message without the port.
  }
  return `fetch refuses port${port} (a port browsers block); give your route another port`;
}

/**
 * Creates the background delivery queue of the sandbox: each callback is POSTed after
 * `delayMs`, retried with exponential backoff until the merchant answers 2xx (at most
 * `retries` more times), and optionally sent again `duplicates` times once delivered, the way
 * real providers redeliver. Nothing here ever blocks the HTTP response that caused it.
 *
 * @example
 * ```ts
 * const queue = createDeliveryQueue({ delayMs: 100, retries: 3, retryDelayMs: 50 });
 * queue.enqueue('payout.succeeded', 'http://127.0.0.1:4000/hooks', payload);
 * await queue.waitForIdle();
 * queue.close();
 * ```
 */
export function createDeliveryQueue(options: DeliveryQueueOptions = {}): DeliveryQueue {
  return new CallbackDeliveryQueue(options);
}

interface MutableDelivery {
  id: number;
  type: CallbackEventType;
  readonly url: string;
  redactedUrl: string;
  reference?: string;
  payload: CallbackPayload;
  copy: number;
  attempts: DeliveryAttempt[];
  state: CallbackDelivery['state'];
}

const withReference = (reference: string | undefined): { reference?: string } =>
  reference === undefined ? {} : { reference };

/** What one attempt got: the merchant's answer, or why there was none. */
type AttemptResult = { status: number; reason?: string } | { error: string };

class CallbackDeliveryQueue implements DeliveryQueue {
  private readonly delayMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;
  private readonly duplicates: number;
  private readonly attemptTimeoutMs: number;
  private readonly transport: CallbackTransport;
  private readonly log: SandboxLogger | undefined;
  private readonly credentials: () => readonly string[];

  private readonly records: MutableDelivery[] = [];
  /** How many deliveries ended in each state, counted when they reach it: kept or not. */
  private readonly totals: Record<keyof DeliveryTotals, number> = {
    delivered: 0,
    failed: 0,
    cancelled: 0,
    dropped: 0,
  };
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  /** The deliveries whose attempt is sent and not answered yet, by id, each with its attempt's abort. */
  private readonly inFlight = new Map<number, AbortController>();
  /** Deliveries planned but not yet created (duplicates waiting for the original). */
  private scheduled = 0;
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  /** Whether `close()` was called: no delivery is scheduled any more. */
  get isClosed(): boolean {
    return this.closed;
  }
  private nextId = 1;

  constructor(options: DeliveryQueueOptions) {
    this.delayMs = options.delayMs ?? 0;
    this.retries = options.retries ?? 5;
    this.retryDelayMs = options.retryDelayMs ?? 500;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.duplicates = options.duplicates ?? 0;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? 10_000;
    this.credentials = options.credentials ?? (() => []);
    this.transport = options.transport ?? fetchTransport(this.credentials);
    this.log = options.log;
  }

  get deliveries(): readonly CallbackDelivery[] {
    return this.records;
  }

  enqueue(
    type: CallbackEventType,
    url: string,
    payload: CallbackPayload,
    reference?: string,
  ): CallbackDelivery {
    return this.start(type, url, payload, 0, this.delayMs, callbackReference(url, reference));
  }

  drop(
    type: CallbackEventType,
    url: string,
    payload: CallbackPayload,
    because: string,
    reference?: string,
  ): CallbackDelivery {
    const named = callbackReference(url, reference);
    const delivery = this.record(url, { type, payload, copy: 0, state: 'dropped' }, named);
    this.log?.({ kind: 'callback_dropped', type, url: urlForLog(url), ...withReference(named), because });
    return delivery;
  }

  async waitForIdle(options?: WaitForIdleOptions): Promise<DeliveryReport> {
    checkWaitForIdleOptions(options);
    const { timeout, signal } = options ?? {};
    return new Promise<DeliveryReport>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.idleWaiters = this.idleWaiters.filter((w) => w !== waiter);
      };
      const waiter = () => {
        settle();
        resolve(buildDeliveryReport(this.records, this.totals));
      };
      const giveUp = (why: string, cause?: unknown) => {
        settle();
        reject(
          notIdleError(
            why,
            buildDeliveryReport(this.records, this.totals, this.scheduled, this.inFlight),
            cause,
          ),
        );
      };
      const onAbort = () => giveUp('aborted', signal?.reason);
      this.idleWaiters.push(waiter);
      this.checkIdle();
      if (!this.idleWaiters.includes(waiter)) return;
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeout !== undefined) timer = setTimeout(() => giveUp(`after ${timeout} ms`), timeout);
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight.values())
      controller.abort(new DOMException('sandbox closed', 'AbortError'));
    this.inFlight.clear();
    this.scheduled = 0;
    for (const delivery of this.records) if (delivery.state === 'pending') this.finish(delivery, 'cancelled');
    this.checkIdle();
  }

  private record(
    target: string,
    fields: Omit<MutableDelivery, 'id' | 'attempts' | 'url' | 'redactedUrl' | 'reference'>,
    reference: string | undefined,
  ): MutableDelivery {
    const shown = { id: this.nextId++, ...fields, redactedUrl: redactSignature(target) };
    const delivery = Object.defineProperty(
      { ...shown, ...withReference(reference), attempts: [] as DeliveryAttempt[] },
      'url',
      { value: target, enumerable: false },
    ) as MutableDelivery;
    this.records.push(delivery);
    if (fields.state !== 'pending') this.totals[fields.state] += 1;
    // Keep the record bounded for long-running sandboxes: drop the oldest delivered or dropped
    // delivery, else the oldest finished one, so that the report's lines of failures stay longest.
    if (this.records.length > MAX_RECORDS) {
      let index = this.records.findIndex((d) => d.state === 'delivered' || d.state === 'dropped');
      if (index < 0) index = this.records.findIndex((d) => d.state !== 'pending');
      if (index >= 0) this.records.splice(index, 1);
    }
    return delivery;
  }

  /** Moves a pending delivery to its final state, counted in the totals once. */
  private finish(delivery: MutableDelivery, state: keyof DeliveryTotals): void {
    delivery.state = state;
    this.totals[state] += 1;
  }

  private start(
    type: CallbackEventType,
    url: string,
    payload: CallbackPayload,
    copy: number,
    wait: number,
    reference: string | undefined,
  ): MutableDelivery {
    const state = this.closed ? 'cancelled' : 'pending';
    const delivery = this.record(url, { type, payload, copy, state }, reference);
    this.later(wait, () => void this.attempt(delivery));
    return delivery;
  }

  private checkIdle(): void {
    const pending = this.scheduled + this.records.filter((d) => d.state === 'pending').length;
    if (pending > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private later(ms: number, fn: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  /**
   * {@link sendOnce}, with the delivery's signature and the credentials received taken out (a transport of the merchant's own, such as
   * the msw kit's `onCallback`, may quote them in its answer or error).
   */
  private async send(delivery: MutableDelivery): Promise<AttemptResult> {
    const result = await this.sendOnce(delivery);
    const secrets = [signatureOf(delivery.url), ...this.credentials()];
    if ('error' in result) return { error: redactSecrets(result.error, secrets) };
    return result.reason === undefined
      ? result
      : { status: result.status, reason: redactSecrets(result.reason, secrets) };
  }

  /** One POST of the callback, bounded by `attemptTimeoutMs`, as the transport answered it. */
  private async sendOnce(delivery: MutableDelivery): Promise<AttemptResult> {
    const controller = new AbortController();
    this.inFlight.set(delivery.id, controller);
    const timeout = setTimeout(
      () => controller.abort(new DOMException('timeout', 'TimeoutError')),
      this.attemptTimeoutMs,
    );
    try {
      const answer = await this.transport({
        url: delivery.url,
        type: delivery.type,
        payload: delivery.payload,
        body: JSON.stringify(delivery.payload),
        signal: controller.signal,
      });
      if (typeof answer === 'number') return { status: answer };
      return answer.reason ? { status: answer.status, reason: answer.reason } : { status: answer.status };
    } catch (cause) {
      const error = describeError(cause);
      return { error: error === 'bad port' ? blockedPortMessage(delivery.url) : error };
    } finally {
      clearTimeout(timeout);
      this.inFlight.delete(delivery.id);
    }
  }

  /** Sends once, records and logs the attempt, then retries, finishes, or schedules a duplicate. */
  private async attempt(delivery: MutableDelivery): Promise<void> {
    if (this.closed || delivery.state !== 'pending') return;
    const result = await this.send(delivery);
    if (this.closed || delivery.state !== 'pending') return;
    delivery.attempts.push({ at: new Date(), ...result });
    const n = delivery.attempts.length;
    const ok = 'status' in result && result.status >= 200 && result.status < 300;
    const outcome = ok ? 'delivered' : n > this.retries ? 'gave_up' : 'retrying';
    const { type, url, copy, reference } = delivery;
    const named = withReference(reference);
    this.log?.({
      kind: 'callback',
      type,
      url: urlForLog(url),
      ...named,
      attempt: n,
      copy,
      outcome,
      ...result,
    });
    if (outcome === 'retrying') {
      const backoff = Math.min(this.retryDelayMs * 2 ** (n - 1), this.maxRetryDelayMs);
      this.later(backoff, () => void this.attempt(delivery));
      return;
    }
    this.finish(delivery, ok ? 'delivered' : 'failed');
    if (ok && copy < this.duplicates) {
      this.scheduled += 1;
      this.later(this.delayMs, () => {
        this.scheduled -= 1;
        this.start(type, url, delivery.payload, copy + 1, 0, reference);
      });
    }
    this.checkIdle();
  }
}
