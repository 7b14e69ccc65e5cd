// How long a store waits for one reply from Redis. An ioredis client waits for ever by default when
// the server hangs (a stopped process, a partitioned network) and, with maxRetriesPerRequest: null,
// queues commands for as long as the server is away: the webhook route would hold the sender's
// request, and a tracked initiation the customer's, that long. The command itself is not withdrawn
// (ioredis cannot): it may still run once Redis answers, which every caller allows for.
import { raced } from '../internal/promise.js';
import { MAX_TIMER_MS } from '../internal/timers.js';
import { wholeNumberOption } from '../internal/whole-number.js';

export const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;

/** The `commandTimeoutMs` option of a store: a whole number of ms a timer can hold. */
export const commandTimeoutOption = (where: string, value: unknown): number =>
  wholeNumberOption(where, 'commandTimeoutMs', value, DEFAULT_COMMAND_TIMEOUT_MS, { max: MAX_TIMER_MS });

/**
 * `reply`, or a rejection naming `store` once `timeoutMs` passed without it. A failed reply is a
 * rejection naming `store` too, the client's error as its `cause`: it reaches `onError` with the
 * same reason as an `onEvent` that threw, and must say which it was.
 */
export function replyWithin<T>(reply: Promise<T>, timeoutMs: number, store: string): Promise<T> {
  const named = reply.catch((error: unknown) => {
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new Error(`${store}: ${what}`, { cause: error });
  });
  return raced(named, {
    ms: timeoutMs,
    timedOut: () =>
      new Error(
        `${store}: Redis did not answer within ${timeoutMs} ms (commandTimeoutMs); the command may still run when it does`,
      ),
  });
}
