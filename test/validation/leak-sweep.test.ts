// A ValidationError shows only the start of a long value: a card number typed into another field
// as a number or a bigint is no more quoted whole than one given as a string.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { buildCardPaymentRequest, buildPayoutRequest } from '../../src/index.js';
import { withoutSourceNoise } from '../helpers/source-noise.js';

const CARD = '4917385127649357';
const futureYear = new Date().getFullYear() + 2;

const cardPayment = (amount: Record<string, unknown>) => ({
  customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
  amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES', ...amount },
  card_details: { card_number: '4242 4242 4242 4242', expiry_month: 12, expiry_year: futureYear, cvc: '321' },
  callback_details: { transaction_reference: 'ORDER-77', callback_url: 'https://shop.example/hooks' },
});

const payout = (transfer: Record<string, unknown>, destination: Record<string, unknown> = {}) => ({
  customer_details: { full_name: 'John Doe', phone_number: '0712345678', email: 'john@example.com' },
  destination: {
    type: 'MOBILE',
    country_code: 'KE',
    mobile_number: '0712345678',
    wallet_name: 'M-PESA',
    ...destination,
  },
  transfer: { amount: 100, currency: 'KES', reference_id: 123456789012, description: 'refund', ...transfer },
  webhook_endpoint: { webhook_url: 'https://shop.example/hooks' },
});

/** Everything a ValidationError shows: its message, stack and issues. */
function shownBy(build: () => unknown): string {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const { message, stack, issues } = error as ValidationError;
    return withoutSourceNoise(`${message}\n${stack}\n${JSON.stringify(issues)}`);
  }
  throw new Error('accepted');
}

const asNumber = Number(CARD);
const asBigint = BigInt(CARD);

describe('a card number given as a number or a bigint where the SDK quotes the value', () => {
  it.each([
    ['a number', asNumber],
    ['a bigint', asBigint],
  ])('amount.currency as %s shows its first 4 digits', (_what, currency) => {
    const shown = shownBy(() => buildCardPaymentRequest(cardPayment({ currency }) as never));
    expect(shown).toContain('amount.currency: expected a 3-letter currency code such as KES, got 4917…');
    expect(shown).not.toContain(CARD);
  });

  it.each([
    ['a number', asNumber],
    ['a bigint', asBigint],
  ])("a payout's transfer.reference_id as %s shows its first 4 digits", (_what, reference_id) => {
    const shown = shownBy(() => buildPayoutRequest(payout({ reference_id }) as never));
    expect(shown).toContain('got 4917…');
    expect(shown).not.toContain(CARD);
  });

  it.each([
    ['a number', asNumber],
    ['a bigint', asBigint],
  ])("a payout's destination.country_code as %s shows its first 4 digits", (_what, country_code) => {
    const shown = shownBy(() => buildPayoutRequest(payout({}, { country_code }) as never));
    expect(shown).toContain('got 4917…');
    expect(shown).not.toContain(CARD);
  });

  it.each([
    ['a number', -asNumber],
    ['a bigint', -asBigint],
  ])('a negative amount as %s shows its first characters', (_what, total) => {
    const shown = shownBy(() => buildCardPaymentRequest(cardPayment({ total }) as never));
    expect(shown).toContain('amount.total: expected a whole number of at least 1, got -491…');
    expect(shown).not.toContain(CARD);
  });

  it('still shows a short number whole, and a number that is no number', () => {
    expect(shownBy(() => buildCardPaymentRequest(cardPayment({ currency: 1500 }) as never))).toContain(
      'got 1500',
    );
    expect(shownBy(() => buildCardPaymentRequest(cardPayment({ currency: Infinity }) as never))).toContain(
      'got Infinity',
    );
    expect(shownBy(() => buildCardPaymentRequest(cardPayment({ total: -1500 }) as never))).toContain(
      'got -1500',
    );
  });
});

// The call's own cvc in another field (a form's fields mapped one off) is not quoted: the builder
// knows it. Any other short number is, since a 3-digit value may well be a legitimate one.
type CardInput = ReturnType<typeof cardPayment>;

describe("a card payment's own cvc where another field is refused", () => {
  const withCvc = (cvc: string | number, change: (input: CardInput) => void) => {
    const input = cardPayment({});
    input.card_details.cvc = cvc as string;
    change(input);
    return shownBy(() => buildCardPaymentRequest(input as never));
  };
  const cvcShown = /(?<![0-9.])857(?![0-9])/;

  const cases: [string, string | number, (input: CardInput) => void][] = [
    ['amount.currency, as a number', '857', (input) => void Object.assign(input.amount, { currency: 857 })],
    ['amount.currency, as a string', 857, (input) => void Object.assign(input.amount, { currency: '857' })],
    [
      'customer_details.phone_number',
      '857',
      (input) => void Object.assign(input.customer_details, { phone_number: '857' }),
    ],
    [
      'customer_details.phone_number, with dashes',
      '857',
      (input) => void Object.assign(input.customer_details, { phone_number: '8-5-7' }),
    ],
    [
      'callback_details.callback_url',
      '857',
      (input) => void Object.assign(input.callback_details, { callback_url: '857' }),
    ],
  ];
  it.each(cases)('in %s: says it is the cvc, and shows no digit of it', (_field, cvc, change) => {
    const shown = withCvc(cvc, change);
    expect(shown).toContain('got the value of card_details.cvc (not shown)');
    expect(shown).not.toMatch(cvcShown);
  });

  it('still quotes a short number that is not the cvc', () => {
    const shown = withCvc('857', (input) => void Object.assign(input.amount, { currency: 856 }));
    expect(shown).toContain('amount.currency: expected a 3-letter currency code such as KES, got 856');
  });
});
