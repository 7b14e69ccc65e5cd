/**
 * The one check of the whole-number options (milliseconds, entries, bytes) of the tracker, its
 * stores and the sandbox: a value the code could not honour — `Infinity`, `NaN`, `1.5e308`, a
 * fraction, a string — is refused where it is given, never read as another number later.
 *
 * @module
 */

/** What `value` is, for a message, without quoting a string (it may be a secret put in the wrong place). */
export const kindOf = (value: unknown): string =>
  value === null
    ? 'null'
    : value === ''
      ? 'an empty string'
      : typeof value === 'string'
        ? 'a string'
        : typeof value;

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
  const rule = `${where}: ${name} must be a whole number from ${min} to ${max}`;
  if (typeof value !== 'number') throw new TypeError(`${rule}, got ${kindOf(value)}`);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${rule}, got ${String(value)}`);
  }
  return value;
}
