import { fail, pass, preview, type Check } from './result.js';

/** Product quantity: a whole number of at least 1, as a number or digit string */
export function checkQuantity(input: unknown): Check<number> {
  const value = typeof input === 'string' && /^[1-9]\d{0,14}$/.test(input) ? Number(input) : input;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return pass(value);
  return fail('invalid_quantity', `expected a whole number of at least 1, got ${preview(input)}`);
}

/**
 * A product's unit price after input parsing: as a number (the card wire) and as decimal text
 * (the mobile-money wire, the caller's own string kept). The output type of `unit_price` in the
 * input schemas; builders pick the one their wire needs.
 *
 * @example
 * ```ts
 * const parsed = cardPaymentInputSchema.parse(input);
 * const price: UnitPrice | undefined = parsed.products?.[0]?.unit_price; // { number: 1500.5, text: '1500.50' }
 * ```
 */
export interface UnitPrice {
  readonly number: number;
  readonly text: string;
}

/**
 * Product unit price: a finite number of at least 0, as a number or decimal string of at most 15
 * digits before the decimal point and 10 after it; a string goes on the mobile-money wire as
 * written, so one with a leading zero ('007.5') is refused.
 */
export function checkUnitPrice(input: unknown): Check<UnitPrice> {
  const text = typeof input === 'number' ? String(input) : input;
  if (typeof text === 'string' && /^(?:0|[1-9]\d{0,14})(?:\.\d{1,10})?$/.test(text))
    return pass({ number: Number(text), text });
  return fail(
    'invalid_unit_price',
    `expected a price of at least 0 written with digits and an optional decimal point, at most 15 digits before the decimal point and 10 after it, no leading zero (e.g. 1500 or "1500.50"), got ${preview(input)}`,
  );
}

/**
 * A card product's unit price: {@link checkUnitPrice}, and one a JSON number carries exactly — the
 * card wire sends a number, so '999999999999999.1234567891' would go as 999999999999999.1.
 */
export function checkCardUnitPrice(input: unknown): Check<UnitPrice> {
  const checked = checkUnitPrice(input);
  if (!checked.ok) return checked;
  const { number, text } = checked.value;
  if (String(number) === (text.includes('.') ? text.replace(/\.?0+$/, '') : text)) return checked;
  return fail(
    'invalid_unit_price',
    `expected a price a JSON number carries exactly, got ${preview(input)} (it would be sent as ${number})`,
  );
}
