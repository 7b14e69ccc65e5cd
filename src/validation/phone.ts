import { ValidationError } from '../errors.js';
import { fail, pass, preview, type Check } from './result.js';

/**
 * What a phone number is for: payments allow 2547… and 2541…, payouts only 2547…
 *
 * @example
 * ```ts
 * const purpose: PhoneNumberPurpose = 'payout';
 * normalizePhoneNumber('0712345678', { purpose }); // '254712345678'
 * ```
 */
export type PhoneNumberPurpose = 'payment' | 'payout';

/**
 * What people put between digits: white space of any script, dashes of any kind (and the minus
 * sign), brackets, dots and slashes (ASCII or fullwidth), and invisible format characters that
 * copy-paste brings along (right-to-left marks, zero-width spaces, soft hyphens).
 */
const separators = /[\s\p{Pd}\u2212()\uff08\uff09.\uff0e/\uff0f\p{Cf}]/gu;
const decimalDigit = /\p{Nd}/u;

/**
 * The value of a decimal digit of any script (fullwidth, Arabic-Indic, Devanagari, …). Unicode
 * lays every script's digits out as runs of ten consecutive code points from 0 to 9, so a digit's
 * value is its distance, modulo 10, from the start of its run.
 */
function digitValue(char: string): string {
  const code = char.codePointAt(0)!;
  let start = code;
  while (decimalDigit.test(String.fromCodePoint(start - 1))) start -= 1;
  return String((code - start) % 10);
}

/**
 * Checks and normalises a Kenyan mobile number to `254XXXXXXXXX`: the 9-digit part starts with 7
 * or 1 for payments and with 7 for payouts. Accepted forms: `0712345678`, `712345678`,
 * `254712345678`, `+254712345678` (or `00254712345678`) and, with the 0 kept after the country
 * code, `+254 (0) 712 345 678` / `2540712345678`; with spaces, dashes, dots, slashes or brackets between
 * the digits, and digits of any script (fullwidth `０７１２…`, Arabic-Indic `٠٧١٢…`, …).
 */
export function checkPhoneNumber(input: unknown, purpose: PhoneNumberPurpose = 'payment'): Check<string> {
  const expected =
    purpose === 'payout'
      ? 'expected 2547XXXXXXXX (payouts: 9-digit part starting with 7)'
      : 'expected 2547XXXXXXXX or 2541XXXXXXXX';
  if (typeof input !== 'string')
    return fail('invalid_phone_number', `${expected}, got ${typeof input} (pass a string)`);
  let text = input
    .replace(separators, '')
    .replace(/^\uff0b/, '+')
    .replace(/\p{Nd}/gu, (digit) => (digit >= '0' && digit <= '9' ? digit : digitValue(digit)));
  // 00 is how much of the world dials +: 00254… is +254….
  if (text.startsWith('00254')) text = `+${text.slice(2)}`;
  if (text.startsWith('+')) {
    if (!text.startsWith('+254'))
      return fail(
        'invalid_phone_number',
        `${expected}; only +254 numbers are accepted, got ${preview(input)}`,
      );
    text = text.slice(1);
  }
  if (!/^\d+$/.test(text))
    return fail(
      'invalid_phone_number',
      `${expected}, got ${preview(input)} (digits only, with spaces, dashes, dots, slashes or brackets between them)`,
    );
  let local: string | undefined;
  if (text.length === 12 && text.startsWith('254')) local = text.slice(3);
  else if (text.length === 13 && text.startsWith('2540')) local = text.slice(4);
  else if (text.length === 10 && text.startsWith('0')) local = text.slice(1);
  else if (text.length === 9) local = text;
  if (local === undefined)
    return fail('invalid_phone_number', `${expected}, got ${preview(input)} (${text.length} digits)`);
  const allowed = purpose === 'payout' ? /^7/ : /^[71]/;
  if (!allowed.test(local)) {
    const hint =
      purpose === 'payout' && local.startsWith('1') ? ' (2541… numbers are accepted for payments only)' : '';
    return fail('invalid_phone_number', `${expected}, got ${preview(input)}${hint}`);
  }
  return pass(`254${local}`);
}

/**
 * The `purpose` of `normalizePhoneNumber`'s options. A value it does not know is refused rather than
 * read as the default: a misspelt 'payout' would let a 2541… number through.
 */
function purposeOption(options: unknown): PhoneNumberPurpose {
  const issue = (path: string[], message: string) =>
    new ValidationError([{ path, code: 'invalid_option', message }], {
      prefix: 'Invalid phone number options',
    });
  if (options === undefined) return 'payment';
  if (typeof options !== 'object' || options === null) {
    throw issue([], "expected an options object such as { purpose: 'payout' } (or nothing)");
  }
  const { purpose } = options as { purpose?: unknown };
  if (purpose === undefined || purpose === 'payment' || purpose === 'payout') return purpose ?? 'payment';
  throw issue(['purpose'], "expected 'payment' or 'payout'");
}

/**
 * Normalises a phone number to the 12-digit `254…` form the service expects.
 *
 * @param input - `0712345678`, `712345678`, `254712345678`, `+254 712 345 678` (or `00254…`) or, with the 0
 *   kept after the country code, `+254 (0) 712 345 678`; spaces, dashes (any kind), dots,
 *   slashes and brackets between the digits are ignored, and digits of any script (fullwidth,
 *   Arabic-Indic, …) count as their value. Anything that is not a Kenyan mobile is refused.
 * @param options - `purpose: 'payment'` (default) allows 2547… and 2541…; `'payout'` only 2547….
 * @returns The number as `254XXXXXXXXX`.
 * @throws {@link ValidationError} when the number cannot be normalised, or `purpose` is neither
 *   `'payment'` nor `'payout'`.
 *
 * @example
 * ```ts
 * normalizePhoneNumber('+254 712 345 678'); // '254712345678'
 * normalizePhoneNumber('+254 (0) 712-345-678'); // '254712345678'
 * normalizePhoneNumber('٠٧١٢٣٤٥٦٧٨'); // '254712345678' (Arabic-Indic digits)
 * normalizePhoneNumber('0112345678'); // '254112345678'
 * normalizePhoneNumber('0112345678', { purpose: 'payout' }); // throws ValidationError
 * ```
 */
export function normalizePhoneNumber(
  input: string,
  options?: { purpose?: PhoneNumberPurpose | undefined },
): string {
  const result = checkPhoneNumber(input, purposeOption(options));
  if (result.ok) return result.value;
  throw new ValidationError([{ path: [], code: result.code, message: result.message }], {
    prefix: 'Invalid phone number',
  });
}
