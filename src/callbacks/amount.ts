/**
 * Amounts in callbacks and in `expected`: plain decimal numbers, compared as decimals.
 *
 * A plain decimal is digits, optionally followed by a dot and more digits: `1500`, `1500.50`,
 * `0.5`. Everything else is refused rather than guessed: empty, grouped (`1,500.00`), exponent
 * (`1.5e3`), hex (`0x5dc`), signed (`-5`, `+5`), padded (` 1500`, `01500`), non-finite, or a
 * number too large to be finite. A JSON number counts when it prints as a plain decimal
 * (`1500`, `1500.5`; not `1e21`, not negative, not `-0`) and is exact: a safe integer, or a fraction of at
 * most 15 significant digits. A longer one (`9007199254740993`, `100000000000000.01`) may not be
 * what the sender wrote, since `JSON.parse` rounds it to the nearest double. Where the callback's
 * own text is at hand, a JSON number is also read as written ({@link numberLiteralProblem}): an
 * exponent (`1e3`), or more digits than its double holds (`1499.99999999999999999`, read as 1500).
 *
 * @module
 */
import { asciiLower } from '../internal/values.js';

const PLAIN_DECIMAL = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * The value as plain decimal text (`'1500'`, `'1500.5'`), or `undefined` when it is not a plain
 * decimal number (see the module comment for what is refused).
 *
 * @example
 * ```ts
 * readDecimal('1500.50'); // '1500.50'
 * readDecimal(1500); // '1500'
 * readDecimal('1,500.00'); // undefined
 * ```
 */
export function readDecimal(value: unknown): string | undefined {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)) {
    text = String(value);
    if (!Number.isSafeInteger(value) && text.replace(/^[0.]+|\./g, '').length > 15) return undefined;
  } else return undefined;
  if (!PLAIN_DECIMAL.test(text) || !Number.isFinite(Number(text))) return undefined;
  return text;
}

/**
 * What is wrong with a JSON number literal `literal` that `JSON.parse` read as `value`, or
 * `undefined`: an exponent, or digits its double does not hold (the sender wrote another amount
 * than the one read). `'1500.0'` and `'1500.50'` are fine: the value is the amount written.
 */
export function numberLiteralProblem(literal: string, value: number): string | undefined {
  if (/[eE]/.test(literal)) return 'a number with an exponent';
  // Negative, or printed in exponent form (1e-7): readDecimal and the schemas refuse the value.
  if (!PLAIN_DECIMAL.test(literal) || !PLAIN_DECIMAL.test(String(value))) return undefined;
  return canonical(literal) === canonical(String(value))
    ? undefined
    : 'a number with more digits than JSON.parse reads exactly (it would be rounded)';
}

/**
 * A plain decimal without trailing fractional zeros: `'1500.00'` → `'1500'`, `'1500.50'` →
 * `'1500.5'`. Two amounts are equal exactly when their canonical texts are.
 */
function canonical(text: string): string {
  if (!text.includes('.')) return text;
  // (?<!0): a match starts only at the first zero of a run; a bare /0+$/ starts at every zero
  // of it, quadratic in the run's length.
  return text.replace(/(?<!0)0+$/, '').replace(/\.$/, '');
}

/**
 * True when two amounts are the same decimal number (`1500`, `'1500'` and `'1500.00'` agree);
 * false when they differ or either is not a plain decimal.
 *
 * @example
 * ```ts
 * sameAmount(1500, '1500.00'); // true
 * sameAmount('1.5e3', '1500'); // false: an exponent is not a plain decimal
 * ```
 */
export function sameAmount(expected: unknown, actual: unknown): boolean {
  const a = decimalKey(expected);
  return a !== undefined && a === decimalKey(actual);
}

/**
 * The amount as one text for every way of writing it (`1500`, `'1500'` and `'1500.00'` are
 * `'1500'`), or `undefined` when it is not a plain decimal.
 */
export function decimalKey(value: unknown): string | undefined {
  const text = readDecimal(value);
  return text === undefined ? undefined : canonical(text);
}

/**
 * True when two currency codes are equal ignoring ASCII case only (`'kes'` = `'KES'`; no
 * Unicode case folding, no trimming).
 *
 * @example
 * ```ts
 * sameCurrency('kes', 'KES'); // true
 * sameCurrency(' KES', 'KES'); // false
 * ```
 */
export function sameCurrency(expected: string, actual: string): boolean {
  return asciiLower(expected) === asciiLower(actual);
}
