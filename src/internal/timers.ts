/**
 * The longest delay `setTimeout` honours on every runtime, 2^31 − 1 ms (about 24.8 days); a
 * longer one fires at once.
 *
 * @module
 */
export const MAX_TIMER_MS = 2_147_483_647;
