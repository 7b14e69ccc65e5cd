import { fail, pass, preview, type Check } from './result.js';

let known: ReadonlySet<string> | undefined;
const knownCurrencies = (): ReadonlySet<string> | undefined => {
  if (known === undefined && typeof Intl.supportedValuesOf === 'function') {
    known = new Set(Intl.supportedValuesOf('currency'));
  }
  return known;
};

/** currency: 3 letters, upper-cased; an ISO 4217 code where `Intl` knows the list */
export function checkCurrency(input: unknown): Check<string> {
  if (typeof input !== 'string' || !/^[A-Za-z]{3}$/.test(input)) {
    return fail('invalid_currency', `expected a 3-letter currency code such as KES, got ${preview(input)}`);
  }
  const code = input.toUpperCase();
  const list = knownCurrencies();
  if (list !== undefined && list.size > 0 && !list.has(code)) {
    return fail('invalid_currency', `expected an ISO 4217 currency code such as KES, got ${preview(input)}`);
  }
  return pass(code);
}
