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

const separators = /[\s\-().]/g;

/**
 * Checks and normalises a Kenyan mobile number to `254XXXXXXXXX`. Accepts `0712345678`,
 * `+254 712 345 678`, `712345678` and `254712345678`.
 * spec §2.1: payments take a 9-digit part starting with 7 or 1; spec §2.7: payouts only 7.
 */
export function checkPhoneNumber(input: unknown, purpose: PhoneNumberPurpose = 'payment'): Check<string> {
  const expected =
    purpose === 'payout'
      ? 'expected 2547XXXXXXXX (payouts: 9-digit part starting with 7)'
      : 'expected 2547XXXXXXXX or 2541XXXXXXXX';
  if (typeof input !== 'string')
    return fail('invalid_phone_number', `${expected}, got ${typeof input} (pass a string)`);
  let text = input.replace(separators, '');
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
      `${expected}, got ${preview(input)} (digits only, spaces and dashes allowed)`,
    );
  let local: string | undefined;
  if (text.length === 12 && text.startsWith('254')) local = text.slice(3);
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
 * Normalises a phone number to the 12-digit `254…` form the service expects.
 *
 * @param input - `0712345678`, `+254 712 345 678`, `712345678` or `254712345678`.
 * @param options - `purpose: 'payment'` (default) allows 2547… and 2541…; `'payout'` only 2547….
 * @returns The number as `254XXXXXXXXX`.
 * @throws {@link ValidationError} when the number cannot be normalised.
 *
 * @example
 * ```ts
 * normalizePhoneNumber('+254 712 345 678'); // '254712345678'
 * normalizePhoneNumber('0112345678'); // '254112345678'
 * normalizePhoneNumber('0112345678', { purpose: 'payout' }); // throws ValidationError
 * ```
 */
export function normalizePhoneNumber(input: string, options?: { purpose?: PhoneNumberPurpose }): string {
  const result = checkPhoneNumber(input, options?.purpose ?? 'payment');
  if (result.ok) return result.value;
  throw new ValidationError([{ path: [], code: result.code, message: result.message }], {
    prefix: 'Invalid phone number',
  });
}
