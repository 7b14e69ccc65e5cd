import type { CallbackEventType } from '../callbacks/events.js';
import type { CallbackPayload } from '../callbacks/schemas.js';
import { urlForLog, type SandboxLogger } from './log.js';

/**
 * Sends one callback: resolves with the HTTP status the merchant answered, rejects when there
 * was no answer. The default POSTs JSON with `fetch`.
 *
 * @example
 * ```ts
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
}) => Promise<number>;

/**
 * One attempt at delivering a callback.
 *
 * @example
 * ```ts
 * const [first] = sandbox.deliveries[0]!.attempts;
 * console.log(first?.status ?? first?.error);
 * ```
 */
export interface DeliveryAttempt {
  readonly at: Date;
  /** The merchant's HTTP status, when it answered. */
  readonly status?: number;
  /** Why there was no answer (connection refused, timeout, …). */
  readonly error?: string;
}

/**
 * A callback the sandbox has sent or is sending, with every attempt so far.
 *
 * @example
 * ```ts
 * await sandbox.waitForIdle();
 * for (const d of sandbox.deliveries) console.log(d.type, d.state, d.attempts.length);
 * ```
 */
export interface CallbackDelivery {
  readonly id: number;
  readonly type: CallbackEventType;
  readonly url: string;
  readonly payload: CallbackPayload;
  /** 0 for the first delivery, 1… for deliberate duplicates (`duplicateDeliveries`). */
  readonly copy: number;
  readonly attempts: readonly DeliveryAttempt[];
  /** `pending` until a 2xx (`delivered`), the last retry (`failed`) or `close()` (`cancelled`). */
  readonly state: 'pending' | 'delivered' | 'failed' | 'cancelled';
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
  delayMs?: number;
  /** Attempts after the first one before giving up. Default 5. */
  retries?: number;
  /** Backoff before retry n is `retryDelayMs * 2^(n-1)`, capped at `maxRetryDelayMs`. Default 500. */
  retryDelayMs?: number;
  /** Cap of the backoff, in ms. Default 30 000. */
  maxRetryDelayMs?: number;
  /** Extra copies of each callback sent after the first was delivered. Default 0. */
  duplicates?: number;
  /** Time allowed to one attempt, in ms. Default 10 000. */
  attemptTimeoutMs?: number;
  /** How a callback is sent. Default: `fetch` POST with a JSON body. */
  transport?: CallbackTransport;
  log?: SandboxLogger;
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
  /** Schedules the delivery of one callback (plus duplicates); returns at once. */
  enqueue(type: CallbackEventType, url: string, payload: CallbackPayload): CallbackDelivery;
  /** Every delivery so far (the latest 1000), oldest first. */
  readonly deliveries: readonly CallbackDelivery[];
  /** Resolves once no delivery is pending (immediately when none is). */
  waitForIdle(): Promise<void>;
  /** Cancels pending deliveries, aborts attempts in flight and clears every timer. */
  close(): void;
}

/**
 * The default transport: `POST` the JSON body with `fetch`, read and discard the answer.
 *
 * @example
 * ```ts
 * const queue = createDeliveryQueue({ transport: fetchTransport });
 * ```
 */
export const fetchTransport: CallbackTransport = async ({ url, body, signal }) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'hosted-payments-sandbox' },
    body,
    signal,
  });
  await response.arrayBuffer().catch(() => undefined);
  return response.status;
};

const MAX_RECORDS = 1000;

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    if (cause && typeof cause.code === 'string') return cause.code;
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timeout';
    return error.message;
  }
  return String(error);
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
  const delayMs = options.delayMs ?? 0;
  const retries = options.retries ?? 5;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  const duplicates = options.duplicates ?? 0;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 10_000;
  const transport = options.transport ?? fetchTransport;
  const log = options.log;

  interface MutableDelivery {
    id: number;
    type: CallbackEventType;
    url: string;
    payload: CallbackPayload;
    copy: number;
    attempts: DeliveryAttempt[];
    state: CallbackDelivery['state'];
  }

  const deliveries: MutableDelivery[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const inFlight = new Set<AbortController>();
  let scheduled = 0; // deliveries planned but not yet created (duplicates waiting for the original)
  let idleWaiters: (() => void)[] = [];
  let closed = false;
  let nextId = 1;

  // Keep the record bounded for long-running sandboxes: drop the oldest finished deliveries.
  const prune = (): void => {
    if (deliveries.length <= MAX_RECORDS) return;
    const index = deliveries.findIndex((d) => d.state !== 'pending');
    if (index >= 0) deliveries.splice(index, 1);
  };

  const pendingCount = (): number => scheduled + deliveries.filter((d) => d.state === 'pending').length;
  const checkIdle = (): void => {
    if (pendingCount() > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const later = (ms: number, fn: () => void): void => {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const attempt = async (delivery: MutableDelivery): Promise<void> => {
    if (closed || delivery.state !== 'pending') return;
    const controller = new AbortController();
    inFlight.add(controller);
    const timeout = setTimeout(
      () => controller.abort(new DOMException('timeout', 'TimeoutError')),
      attemptTimeoutMs,
    );
    let status: number | undefined;
    let error: string | undefined;
    try {
      status = await transport({
        url: delivery.url,
        type: delivery.type,
        payload: delivery.payload,
        body: JSON.stringify(delivery.payload),
        signal: controller.signal,
      });
    } catch (cause) {
      error = describeError(cause);
    } finally {
      clearTimeout(timeout);
      inFlight.delete(controller);
    }
    if (closed || delivery.state !== 'pending') return;
    delivery.attempts.push(status !== undefined ? { at: new Date(), status } : { at: new Date(), error });
    const n = delivery.attempts.length;
    const ok = status !== undefined && status >= 200 && status < 300;
    const outcome = ok ? 'delivered' : n > retries ? 'gave_up' : 'retrying';
    log?.({
      kind: 'callback',
      type: delivery.type,
      url: urlForLog(delivery.url),
      attempt: n,
      copy: delivery.copy,
      outcome,
      ...(status !== undefined ? { status } : { error: error ?? 'no answer' }),
    });
    if (outcome === 'retrying') {
      later(Math.min(retryDelayMs * 2 ** (n - 1), maxRetryDelayMs), () => void attempt(delivery));
      return;
    }
    delivery.state = ok ? 'delivered' : 'failed';
    if (ok && delivery.copy < duplicates) {
      scheduled += 1;
      later(delayMs, () => {
        scheduled -= 1;
        start(delivery.type, delivery.url, delivery.payload, delivery.copy + 1, 0);
      });
    }
    checkIdle();
  };

  const start = (
    type: CallbackEventType,
    url: string,
    payload: CallbackPayload,
    copy: number,
    wait: number,
  ): MutableDelivery => {
    const delivery: MutableDelivery = {
      id: nextId++,
      type,
      url,
      payload,
      copy,
      attempts: [],
      state: 'pending',
    };
    deliveries.push(delivery);
    prune();
    if (closed) delivery.state = 'cancelled';
    else later(wait, () => void attempt(delivery));
    return delivery;
  };

  return {
    enqueue: (type, url, payload) => start(type, url, payload, 0, delayMs),
    get deliveries() {
      return deliveries;
    },
    waitForIdle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        checkIdle();
      }),
    close: () => {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const controller of inFlight) controller.abort(new DOMException('sandbox closed', 'AbortError'));
      inFlight.clear();
      scheduled = 0;
      for (const delivery of deliveries) if (delivery.state === 'pending') delivery.state = 'cancelled';
      checkIdle();
    },
  };
}
