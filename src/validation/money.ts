import { fail, pass, preview, type Check } from './result.js';

/**
 * An amount as number, bigint or string → the whole-number string the wire carries (the service
 * takes amounts as whole numbers, sent as strings). `min` is 1 for every amount of a request
 * (`total`, `delivery_fee`, `discount_fee`, payout `amount`: positive integers, spec §2.3 and §8)
 * and a success callback's `amount`; 0 for the other amounts of a callback (a fee, a balance).
 * Rejects `12.5`, `-1`, `NaN`, `'1e3'`, `' 10'`, `'010'`.
 */
export function checkWholeNumber(input: unknown, min: 0 | 1): Check<string> {
  const rule = min === 1 ? 'expected a whole number of at least 1' : 'expected a whole number of at least 0';
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || !Number.isInteger(input)) {
      return fail('invalid_amount', `${rule}, got ${preview(input)} (amounts are whole units, no decimals)`);
    }
    if (!Number.isSafeInteger(input)) {
      return fail(
        'invalid_amount',
        `${rule}; this number is above 2^53 and has lost digits, pass a string or bigint`,
      );
    }
    text = String(input);
  } else if (typeof input === 'bigint') {
    text = input.toString();
  } else if (typeof input === 'string') {
    if (!/^(?:0|[1-9]\d*)$/.test(input)) {
      return fail(
        'invalid_amount',
        `${rule} written with digits only (no sign, spaces, decimals, exponent or leading zeros), got ${preview(input)}`,
      );
    }
    text = input;
  } else {
    return fail('invalid_amount', `${rule} as a number, bigint or string, got ${typeof input}`);
  }
  if (text.startsWith('-') || (min === 1 && text === '0'))
    return fail('too_small', `${rule}, got ${preview(input)}`);
  return pass(text);
}
