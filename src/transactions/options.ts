/**
 * The number options of the tracker and its stores: whole numbers the code can honour, checked
 * where they are given. One it could not — `Infinity`, `NaN`, `1.5e308`, a fraction, a string —
 * would otherwise fail later (after a write, on Redis), or be read as another number.
 *
 * @module
 */

import { MAX_TIMER_MS } from '../internal/timers.js';

/**
 * Runs `run` once after `ms`, however long: a delay beyond {@link MAX_TIMER_MS} is armed in
 * pieces. Returns the function that cancels it.
 *
 * @example
 * ```ts
 * const cancel = after(30 * 24 * 60 * 60_000, () => giveUp());
 * ```
 */
export function after(ms: number, run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const arm = (left: number): void => {
    timer = setTimeout(
      () => (left > MAX_TIMER_MS ? arm(left - MAX_TIMER_MS) : run()),
      Math.min(left, MAX_TIMER_MS),
    );
  };
  arm(ms);
  return () => clearTimeout(timer);
}

/**
 * The `limit` of a `listPending` query: a whole number from 1, else a `RangeError` naming it; and
 * `createdBefore`, a finite number.
 *
 * @example
 * ```ts
 * checkPendingQuery('listPending', query);
 * ```
 */
export function checkPendingQuery(
  where: string,
  query: { readonly createdBefore: number; readonly limit: number },
): void {
  wholeNumberOption(where, 'limit', query.limit, 0);
  if (typeof query.createdBefore !== 'number' || !Number.isFinite(query.createdBefore)) {
    throw new TypeError(`${where}: createdBefore must be a finite number of ms since the epoch`);
  }
}

/**
 * `value` when it is a whole number from `min` (default 1) to `max` (default
 * `Number.MAX_SAFE_INTEGER`); `fallback` when it is `undefined`. Another number is a `RangeError`
 * naming `name`, as the webhook handler's number options are; anything else a `TypeError`.
 *
 * @example
 * ```ts
 * const finishedTtlMs = wholeNumberOption('createMemoryTransactionStore', 'finishedTtlMs', options.finishedTtlMs, 86_400_000);
 * ```
 */
export function wholeNumberOption(
  where: string,
  name: string,
  value: unknown,
  fallback: number,
  { min = 1, max = Number.MAX_SAFE_INTEGER }: { readonly min?: number; readonly max?: number } = {},
): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max) return value;
  const number = typeof value === 'number';
  const got = number ? String(value) : typeof value === 'string' ? 'a string' : typeof value;
  const message = `${where}: ${name} must be a whole number from ${min} to ${max}, got ${got}`;
  throw number ? new RangeError(message) : new TypeError(message);
}
