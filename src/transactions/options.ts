/**
 * Timers and queries of the tracker and its stores: a delay longer than a timer holds, and the
 * `listPending` query checked where it is given.
 *
 * @module
 */

import { MAX_TIMER_MS } from '../internal/timers.js';
import { wholeNumberOption } from '../internal/whole-number.js';

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
