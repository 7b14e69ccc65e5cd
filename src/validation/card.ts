import { fail, pass, type Check } from './result.js';

// Messages here name the rule and the likely mistake but never the card number or cvc itself.

const stripSeparators = (value: string): string => value.replace(/[\s-]/g, '');

/** True when a run of digits passes the Luhn check, as every card number does. */
export const luhn = (digits: string): boolean => {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
};

/**
 * True when `digits` is a 16-digit card number that passes the Luhn check.
 * Spaces (any white space) and dashes are ignored, wherever they are.
 *
 * @example
 * ```ts
 * isValidCardNumber('4242 4242 4242 4242'); // true
 * isValidCardNumber('4242424242424241'); // false (Luhn)
 * ```
 */
export function isValidCardNumber(digits: string): boolean {
  if (typeof digits !== 'string') return false;
  const text = stripSeparators(digits);
  return /^\d{16}$/.test(text) && luhn(text);
}

/** card_number: string (spaces/dashes allowed) or a safe JS number → 16 Luhn-valid digits. */
export function checkCardNumber(input: unknown): Check<string> {
  let text: string;
  if (typeof input === 'number') {
    // A JS number above 2^53 has already lost digits; no code can get them back.
    if (!Number.isSafeInteger(input) || input < 0) {
      return fail(
        'unsafe_card_number',
        'a card number given as a JS number above 2^53 has already lost digits; pass it as a string',
      );
    }
    text = String(input);
  } else if (typeof input === 'string') {
    if (!/^[\d\s-]*$/.test(input)) {
      return fail(
        'invalid_card_number',
        'expected 16 digits (spaces and dashes allowed), got other characters',
      );
    }
    text = stripSeparators(input);
  } else {
    return fail('invalid_card_number', `expected the card number as a string, got ${typeof input}`);
  }
  if (text.length !== 16) return fail('invalid_card_number', `expected 16 digits, got ${text.length} digits`);
  if (!luhn(text))
    return fail('invalid_card_number', 'the card number fails the Luhn check; likely a mistyped digit');
  return pass(text);
}

const toInteger = (input: unknown, pattern: RegExp): number | undefined => {
  if (typeof input === 'number') return Number.isInteger(input) ? input : undefined;
  if (typeof input === 'string' && pattern.test(input)) return Number(input);
  return undefined;
};

/** expiry_month: 1–12 as a number or `'7'`/`'07'`. */
export function checkExpiryMonth(input: unknown): Check<number> {
  const month = toInteger(input, /^\d{1,2}$/);
  if (month === undefined || month < 1 || month > 12) {
    return fail('invalid_expiry_month', 'expected a month from 1 to 12 (a number, or a string such as "07")');
  }
  return pass(month);
}

/** expiry_year: 4 digits. A 2-digit year is the usual mistake. */
export function checkExpiryYear(input: unknown): Check<number> {
  const year = toInteger(input, /^\d{1,4}$/);
  if (year === undefined || year < 1000 || year > 9999) {
    const hint = year !== undefined && year < 100 ? ' (got a 2-digit year; write it in full, e.g. 2029)' : '';
    return fail('invalid_expiry_year', `expected a 4-digit year such as 2029${hint}`);
  }
  return pass(year);
}

/** The card is valid through the last day of its expiry month (UTC). */
export function checkNotExpired(month: number, year: number, now: Date): Check<true> {
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (year * 12 + (month - 1) < current) {
    return fail(
      'card_expired',
      'the card has expired (expiry_month/expiry_year is before the current month)',
    );
  }
  return pass(true);
}

/** cvc: exactly 3 digits, as a string (`'042'`) or a number of 3 digits. */
export function checkCvc(input: unknown): Check<string> {
  if (typeof input === 'number') {
    if (Number.isInteger(input) && input >= 100 && input <= 999) return pass(String(input));
    return fail('invalid_cvc', 'expected 3 digits; a cvc starting with 0 must be passed as a string');
  }
  if (typeof input === 'string' && /^\d{3}$/.test(input)) return pass(input);
  return fail('invalid_cvc', 'expected exactly 3 digits');
}

/**
 * card_number or cvc under `cardFieldEncoding: 'integer'`: a JSON integer cannot start with 0, so
 * such a value can only be sent as a digit string. `digits` is the checked field.
 */
export function checkLeadingZero(
  field: 'card_number' | 'cvc',
  digits: string,
  encoding: 'integer' | 'string',
): Check<string> {
  if (encoding === 'integer' && digits.startsWith('0')) {
    return fail(
      `${field}_leading_zero`,
      `a ${field === 'cvc' ? 'cvc' : 'card number'} starting with 0 cannot be sent as a JSON integer (the service documents card fields as integers); the client option cardFieldEncoding: 'string' sends all four card fields as digit strings, a wire type the API reference does not describe: use it only once your provider confirms it takes them`,
    );
  }
  return pass(digits);
}
