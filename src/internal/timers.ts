/**
 * The longest delay `setTimeout` honours on every runtime, 2^31 − 1 ms (about 24.8 days); a
 * longer one fires at once.
 *
 * @module
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Whole milliseconds on the monotonic clock, as `Date.now()` counts them, for durations (claim
 * ages, TTLs, retention): a step of the wall clock (NTP, a resumed VM) neither cuts nor stretches
 * them (on Workers both clocks move only with I/O). Fake timers move it when they fake
 * `performance` and advance time; `setSystemTime` moves only `Date`.
 */
export const monotonicNow = (): number => Math.floor(performance.now());
