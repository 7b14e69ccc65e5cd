/**
 * The number options of the tracker and its stores: whole numbers the code can honour, checked
 * where they are given. One it could not — `Infinity`, `NaN`, `1.5e308`, a fraction, a string —
 * would otherwise fail later (after a write, on Redis), or be read as another number.
 *
 * @module
 */

/**
 * `value` when it is a whole number from `min` (default 1) to `max` (default
 * `Number.MAX_SAFE_INTEGER`); `fallback` when it is `undefined`; anything else is a `TypeError`
 * naming `name`.
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
  const got =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? 'a string' : typeof value;
  throw new TypeError(`${where}: ${name} must be a whole number from ${min} to ${max}, got ${got}`);
}
