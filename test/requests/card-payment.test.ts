import { describe, expect, it } from 'vitest';
import {
  buildCardPaymentRequest,
  cardPaymentRequestSchema,
  ValidationError,
  type CardPaymentInput,
} from '../../src/index.js';
import { stringifyWireBody } from '../../src/internal/json.js';
import { captureError, cardPaymentInput, issuesOf } from '../helpers/inputs.js';

const now = new Date(Date.UTC(2030, 0, 15));
const build = (input: unknown, options = {}) =>
  buildCardPaymentRequest(input as CardPaymentInput, { now, ...options });
const withCard = (card: Record<string, unknown>) => ({
  ...cardPaymentInput,
  card_details: { ...cardPaymentInput.card_details, ...card },
});
const withMethod = (payment_method: string) => ({
  ...cardPaymentInput,
  customer_details: { ...cardPaymentInput.customer_details, payment_method },
});

describe('buildCardPaymentRequest', () => {
  it('builds the exact wire body of endpoint 1 (spec §2.1–§2.5)', () => {
    const body = build(cardPaymentInput);
    expect(body).toStrictEqual({
      customer_details: {
        payment_method: 'CARD',
        full_name: 'Jane Doe',
        location: 'Nairobi',
        phone_number: '254712345678',
        email: 'jane@example.com',
      },
      products: [{ product_id: 7, product_name: 'Coffee', quantity: 2, unit_price: 250.5 }],
      amount: { delivery_fee: '100', discount_fee: '50', total: '501', currency: 'KES' },
      card_details: { card_number: '9999999999999995', expiry_month: 7, expiry_year: 2031, cvc: 737 },
      callback_details: {
        transaction_reference: 'order-1001',
        callback_url: 'https://shop.example/hooks/payments',
      },
    });
    expect(cardPaymentRequestSchema.parse(body)).toStrictEqual(body);
    expect(stringifyWireBody(body)).toContain(
      '"card_details":{"card_number":9999999999999995,"expiry_month":7,"expiry_year":2031,"cvc":737}',
    );
  });

  it('takes payment_method from the options, and accepts an input one that names the same card method', () => {
    expect(build(cardPaymentInput, { paymentMethod: 'VISA' }).customer_details.payment_method).toBe('VISA');
    expect(build(withMethod('VISA'), { paymentMethod: 'VISA' }).customer_details.payment_method).toBe('VISA');
    expect(build(withMethod('CARD')).customer_details.payment_method).toBe('CARD');
  });

  // The service reads a request as a card payment only when payment_method names the card method
  // (spec §4 rule 1): anything else, card_details included, would be taken for mobile money.
  it.each([
    ['MOBILE-MONEY', {}],
    ['M-PESA', {}],
    ['card', {}],
    ['CARD', { paymentMethod: 'VISA' }],
    ['X', { paymentMethod: 'VISA' }],
  ])('refuses payment_method %j when the card method is another word (%j)', (method, options) => {
    expect(issuesOf(() => build(withMethod(method), options))).toEqual([
      'customer_details.payment_method: not_card_method',
    ]);
  });

  it('says which card method is expected and how to change it, next to the other issues', () => {
    const input = {
      ...withMethod('MOBILE-MONEY'),
      card_details: { ...cardPaymentInput.card_details, cvc: '7' },
    };
    const error = captureError(() => build(input, { paymentMethod: 'VISA' })) as Error;
    expect(issuesOf(() => build(input, { paymentMethod: 'VISA' }))).toEqual([
      'card_details.cvc: invalid_cvc',
      'customer_details.payment_method: not_card_method',
    ]);
    expect(error.message).toContain("'VISA'");
    expect(error.message).toContain('paymentMethods.card');
  });

  it('omits optional parts that are absent', () => {
    const { products: _p, amount: _a, ...rest } = cardPaymentInput;
    const body = build({ ...rest, customer_details: { ...rest.customer_details, location: undefined } });
    expect(Object.keys(body)).toEqual(['customer_details', 'card_details', 'callback_details']);
    expect(Object.keys(body.customer_details)).not.toContain('location');
  });

  it("sends all four card fields as digit strings with cardFieldEncoding: 'string'", () => {
    const body = build(withCard({ cvc: '042', expiry_month: 3 }), { cardFieldEncoding: 'string' });
    expect(body.card_details).toStrictEqual({
      card_number: '9999999999999995',
      expiry_month: '03',
      expiry_year: '2031',
      cvc: '042',
    });
    expect(stringifyWireBody(body)).toContain('"card_number":"9999999999999995"');
  });

  it('rejects a cvc with a leading zero under the integer encoding, naming the option', () => {
    expect(issuesOf(() => build(withCard({ cvc: '042' })))).toEqual(['card_details.cvc: cvc_leading_zero']);
    expect(() => build(withCard({ cvc: '042' }))).toThrow(/cardFieldEncoding: 'string'/);
  });

  it('rejects a card number with a leading zero under the integer encoding, naming the option', () => {
    const zeros = withCard({ card_number: '0000 0000 0000 0000' });
    expect(issuesOf(() => build(zeros))).toEqual(['card_details.card_number: card_number_leading_zero']);
    expect(() => build(zeros)).toThrow(/cardFieldEncoding: 'string'/);
    expect(build(zeros, { cardFieldEncoding: 'string' }).card_details.card_number).toBe('0000000000000000');
  });

  it('checks the card fields it sends, even when a getter gives another value on a later read', () => {
    // First read 737 / July 2031, every later read 042 / December 2029.
    const card = { ...cardPaymentInput.card_details };
    for (const [key, first, later] of [
      ['cvc', '737', '042'],
      ['expiry_month', 7, 12],
      ['expiry_year', 2031, 2029],
    ] as const) {
      let reads = 0;
      Object.defineProperty(card, key, { enumerable: true, get: () => (reads++ === 0 ? first : later) });
    }
    expect(issuesOf(() => build({ ...cardPaymentInput, card_details: card })).sort()).toEqual([
      'card_details.cvc: cvc_leading_zero',
      'card_details.expiry_year: card_expired',
    ]);
  });

  it('rejects an expired card and accepts one expiring this month', () => {
    expect(issuesOf(() => build(withCard({ expiry_month: 12, expiry_year: 2029 })))).toEqual([
      'card_details.expiry_year: card_expired',
    ]);
    expect(() => build(withCard({ expiry_month: 1, expiry_year: 2030 }))).not.toThrow();
  });

  it.each([
    [{ card_number: '4242424242424241' }, 'card_details.card_number: invalid_card_number'],
    [{ card_number: '424242424242424' }, 'card_details.card_number: invalid_card_number'],
    [{ card_number: Number('9999999999999995') }, 'card_details.card_number: unsafe_card_number'],
    [{ expiry_month: 13 }, 'card_details.expiry_month: invalid_expiry_month'],
    [{ expiry_year: 31 }, 'card_details.expiry_year: invalid_expiry_year'],
    [{ cvc: '73' }, 'card_details.cvc: invalid_cvc'],
    [{ cvc: 7370 }, 'card_details.cvc: invalid_cvc'],
    [{ cvv: '737' }, 'card_details.cvv: unrecognized_keys'],
  ])('rejects card field %j with the path it reports', (card, expected) => {
    expect(issuesOf(() => build(withCard(card)))).toEqual([expected]);
  });

  it('lists every issue at once, each with its path', () => {
    const input = {
      customer_details: { full_name: ' ', phone_number: '0812345678', email: 'jane', payment_method: '' },
      products: [{ product_name: 'x', quantity: 0, unit_price: -1 }],
      amount: { delivery_fee: -1, discount_fee: 12.5, total: 0, currency: 'KSHS' },
      card_details: { card_number: '4242424242424241', expiry_month: 0, expiry_year: 2031, cvc: '7' },
      callback_details: { transaction_reference: '', callback_url: 'ftp://x' },
      extra: true,
    };
    expect(issuesOf(() => build(input)).sort()).toEqual(
      [
        'amount.currency: invalid_currency',
        'amount.delivery_fee: too_small',
        'amount.discount_fee: invalid_amount',
        'amount.total: too_small',
        'callback_details.callback_url: invalid_url',
        'callback_details.transaction_reference: empty',
        'card_details.card_number: invalid_card_number',
        'card_details.cvc: invalid_cvc',
        'card_details.expiry_month: invalid_expiry_month',
        'customer_details.email: invalid_format',
        'customer_details.full_name: empty',
        'customer_details.payment_method: empty',
        'customer_details.phone_number: invalid_phone_number',
        'extra: unrecognized_keys',
        'products.0.quantity: invalid_quantity',
        'products.0.unit_price: invalid_unit_price',
      ].sort(),
    );
  });

  it('reports missing required objects', () => {
    expect(issuesOf(() => build({}))).toEqual([
      'customer_details: invalid_type',
      'card_details: invalid_type',
      'callback_details: invalid_type',
    ]);
  });

  it('never puts the card number or cvc in the error', () => {
    const error = (() => {
      try {
        build(withCard({ card_number: '4242424242424241', cvc: '042' }));
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(JSON.stringify(error) + String(error)).not.toMatch(/4242424242424241|042/);
  });
});

describe('options of buildCardPaymentRequest', () => {
  const refusal = (options: unknown, input: unknown = cardPaymentInput) =>
    captureError(() =>
      buildCardPaymentRequest(input as CardPaymentInput, options as never),
    ) as ValidationError;

  it.each([
    ['null options', null, ''],
    ['options that are not an object', 'string', ''],
    ['an unknown cardFieldEncoding', { cardFieldEncoding: 'bogus' }, 'cardFieldEncoding'],
    ['a cardFieldEncoding in another case', { cardFieldEncoding: 'STRING' }, 'cardFieldEncoding'],
    ['an invalid Date as the clock', { now: new Date(Number.NaN) }, 'now'],
    ['a clock that is not a Date', { now: '2030-01-15' }, 'now'],
    ['a clock given as epoch milliseconds', { now: Date.UTC(2030, 0, 15) }, 'now'],
    ['an empty paymentMethod', { paymentMethod: '' }, 'paymentMethod'],
    ['a paymentMethod that is not a string', { paymentMethod: 5 }, 'paymentMethod'],
  ])('refuses %s with a ValidationError naming the option', (_name, options, option) => {
    const error = refusal(options);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((issue) => issue.path.join('.'))).toEqual([option]);
    expect(error.message).toMatch(/^Invalid card payment options: /);
    if (option !== '') expect(error.message).toContain(option);
  });

  it('refuses an unknown encoding rather than sending a cvc of 012 as the integer 12', () => {
    const error = refusal({ cardFieldEncoding: 'bogus', now }, withCard({ cvc: '012' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((issue) => issue.path.join('.'))).toEqual(['cardFieldEncoding']);
    expect(`${error.message} ${JSON.stringify(error)}`).not.toMatch(/012|9999/);
  });

  it('refuses an invalid clock rather than accepting a card that expired in 2001', () => {
    const error = refusal({ now: new Date(Number.NaN) }, withCard({ expiry_month: 12, expiry_year: 2001 }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((issue) => issue.path.join('.'))).toEqual(['now']);
  });

  it('builds with the option values it checked, even when a getter gives others on a later read', () => {
    // First read 'integer' and the test clock, every later read 'bogus' and an invalid Date.
    const options = {};
    for (const [key, first, later] of [
      ['cardFieldEncoding', 'integer', 'bogus'],
      ['now', now, new Date(Number.NaN)],
    ] as const) {
      let reads = 0;
      Object.defineProperty(options, key, { enumerable: true, get: () => (reads++ === 0 ? first : later) });
    }
    expect(
      issuesOf(() =>
        buildCardPaymentRequest(withCard({ cvc: '012', expiry_month: 12, expiry_year: 2029 }), options),
      ).sort(),
    ).toEqual(['card_details.cvc: cvc_leading_zero', 'card_details.expiry_year: card_expired']);
  });

  it('accepts every documented option value, and undefined for each', () => {
    for (const options of [
      {},
      undefined,
      { cardFieldEncoding: 'string', paymentMethod: 'VISA', now },
      { cardFieldEncoding: 'integer', paymentMethod: undefined, now: undefined },
    ]) {
      expect(() => buildCardPaymentRequest(cardPaymentInput, options as never)).not.toThrow();
    }
  });
});

describe('cardPaymentRequestSchema', () => {
  it('accepts a card number as a safe integer or a digit string, and card fields as strings', () => {
    const body = build(cardPaymentInput);
    expect(
      cardPaymentRequestSchema.safeParse({
        ...body,
        card_details: { ...body.card_details, card_number: 4242424242424242 },
      }).success,
    ).toBe(true);
    expect(
      cardPaymentRequestSchema.safeParse({
        ...body,
        card_details: {
          card_number: '4242424242424242',
          expiry_month: '07',
          expiry_year: '2031',
          cvc: '042',
        },
      }).success,
    ).toBe(true);
  });

  it('rejects an unsafe number, a bad Luhn and a missing payment_method', () => {
    const body = build(cardPaymentInput);
    for (const card_number of [Number('9999999999999995'), '4242424242424241', '4242 4242 4242 4242']) {
      expect(
        cardPaymentRequestSchema.safeParse({ ...body, card_details: { ...body.card_details, card_number } })
          .success,
      ).toBe(false);
    }
    const { payment_method: _m, ...customer } = body.customer_details;
    expect(cardPaymentRequestSchema.safeParse({ ...body, customer_details: customer }).success).toBe(false);
  });

  it('names the rule of an out-of-range product field, cvc or order_id', () => {
    const body = build(cardPaymentInput);
    const messages = (candidate: unknown) =>
      cardPaymentRequestSchema.safeParse(candidate).error?.issues.map((issue) => issue.message);
    expect(
      messages({ ...body, products: [{ product_name: 'Coffee', quantity: 0, unit_price: -1 }] }),
    ).toEqual(['expected a whole number of at least 1', 'expected a price of at least 0']);
    expect(messages({ ...body, card_details: { ...body.card_details, cvc: 1000 } })).toEqual([
      'expected 3 digits',
    ]);
    expect(messages({ ...body, amount: { ...body.amount, order_id: -1 } })).toEqual([
      'expected a whole number of at least 0',
    ]);
  });

  it('accepts each card field and amount at the ends of its range', () => {
    const body = build(cardPaymentInput);
    for (const card_details of [
      { ...body.card_details, expiry_month: 1, expiry_year: 1000, cvc: 100 },
      { ...body.card_details, expiry_month: 12, expiry_year: 9999, cvc: 999 },
      { ...body.card_details, expiry_month: '01', cvc: '000' },
    ]) {
      expect(cardPaymentRequestSchema.safeParse({ ...body, card_details }).success).toBe(true);
    }
    const amount = { order_id: 0, delivery_fee: '1', discount_fee: '1', total: '1', currency: 'KES' };
    expect(cardPaymentRequestSchema.safeParse({ ...body, amount }).success).toBe(true);
  });

  it.each([
    ['expiry_month 0', { card_details: { expiry_month: 0 } }],
    ['expiry_month 13', { card_details: { expiry_month: 13 } }],
    ["expiry_month '00'", { card_details: { expiry_month: '00' } }],
    ['expiry_year 999', { card_details: { expiry_year: 999 } }],
    ['expiry_year 10000', { card_details: { expiry_year: 10000 } }],
    ['cvc 99', { card_details: { cvc: 99 } }],
    ["cvc '1234'", { card_details: { cvc: '1234' } }],
    ["total '0'", { amount: { total: '0' } }],
    ["delivery_fee '05'", { amount: { delivery_fee: '05' } }],
    ["currency 'kes'", { amount: { currency: 'kes' } }],
    ["currency 'KESH'", { amount: { currency: 'KESH' } }],
  ])('refuses a wire body with %s', (_name, change: Record<string, Record<string, unknown>>) => {
    const body = build(cardPaymentInput) as unknown as Record<string, Record<string, unknown>>;
    const candidate = { ...body };
    for (const [key, fields] of Object.entries(change)) candidate[key] = { ...body[key], ...fields };
    expect(cardPaymentRequestSchema.safeParse(candidate).success).toBe(false);
  });

  it('names the rule of a card field given as a digit string of the wrong form', () => {
    const body = build(cardPaymentInput);
    const messages = (card: Record<string, unknown>) =>
      cardPaymentRequestSchema
        .safeParse({ ...body, card_details: { ...body.card_details, ...card } })
        .error?.issues.map((issue) => issue.message);
    expect(messages({ expiry_month: '13' })).toEqual(['expected a month from 1 to 12']);
    expect(messages({ expiry_month: '007' })).toEqual(['expected a month from 1 to 12']);
    expect(messages({ expiry_year: '31' })).toEqual(['expected a 4-digit year']);
    expect(messages({ cvc: '12' })).toEqual(['expected 3 digits']);
  });
});
