import { describe, expect, it } from 'vitest';
import {
  buildMobileMoneyPaymentRequest,
  mobileMoneyPaymentRequestSchema,
  ValidationError,
  type MobileMoneyPaymentInput,
} from '../../src/index.js';
import { captureError, issuesOf, mobileMoneyPaymentInput } from '../helpers/inputs.js';

const build = (input: unknown, options = {}) =>
  buildMobileMoneyPaymentRequest(input as MobileMoneyPaymentInput, options);

describe('buildMobileMoneyPaymentRequest', () => {
  it('builds the exact wire body of endpoint 2, products as strings (spec §2.2)', () => {
    const body = build(mobileMoneyPaymentInput);
    expect(body).toStrictEqual({
      customer_details: {
        payment_method: 'MOBILE-MONEY',
        full_name: 'Jane Doe',
        phone_number: '254112345678',
        email: 'jane@example.com',
      },
      products: [{ product_name: 'Tea', quantity: '3', unit_price: '99.50' }],
      amount: { delivery_fee: '100', discount_fee: '50', total: '400', currency: 'KES' },
      callback_details: {
        transaction_reference: 'order-1002',
        callback_url: 'https://shop.example/hooks/payments',
      },
    });
    expect(mobileMoneyPaymentRequestSchema.parse(body)).toStrictEqual(body);
  });

  it("sends the input's payment_method over the paymentMethod option", () => {
    const input = {
      ...mobileMoneyPaymentInput,
      customer_details: { ...mobileMoneyPaymentInput.customer_details, payment_method: 'AIRTEL-MONEY' },
    };
    expect(build(input, { paymentMethod: 'M-PESA' }).customer_details.payment_method).toBe('AIRTEL-MONEY');
    expect(build(mobileMoneyPaymentInput, { paymentMethod: 'M-PESA' }).customer_details.payment_method).toBe(
      'M-PESA',
    );
  });

  it('converts numeric product fields to strings and keeps product_id an integer', () => {
    const body = build({
      ...mobileMoneyPaymentInput,
      products: [{ product_id: '12', product_name: 'Tea', quantity: '2', unit_price: 250 }],
    });
    expect(body.products).toStrictEqual([
      { product_id: 12, product_name: 'Tea', quantity: '2', unit_price: '250' },
    ]);
  });

  it('uses the brand word from the options', () => {
    expect(build(mobileMoneyPaymentInput, { paymentMethod: 'M-PESA' }).customer_details.payment_method).toBe(
      'M-PESA',
    );
  });

  it('rejects card_details (that is endpoint 1) and a bad phone', () => {
    expect(
      issuesOf(() =>
        build({
          ...mobileMoneyPaymentInput,
          customer_details: { ...mobileMoneyPaymentInput.customer_details, phone_number: '0912345678' },
          card_details: {},
        }),
      ),
    ).toEqual(['customer_details.phone_number: invalid_phone_number', 'card_details: unrecognized_keys']);
  });

  it.each([
    [{ quantity: 1.5 }, 'products.0.quantity: invalid_quantity'],
    [{ quantity: '0' }, 'products.0.quantity: invalid_quantity'],
    [{ unit_price: '1e3' }, 'products.0.unit_price: invalid_unit_price'],
    [{ unit_price: '007.5' }, 'products.0.unit_price: invalid_unit_price'],
    [{ unit_price: '00' }, 'products.0.unit_price: invalid_unit_price'],
    [{ product_name: '' }, 'products.0.product_name: empty'],
    [{ product_id: 1.5 }, 'products.0.product_id: invalid_integer'],
    [{ product_id: '012' }, 'products.0.product_id: invalid_integer'],
  ])('rejects product %j', (product, expected) => {
    const products = [{ ...mobileMoneyPaymentInput.products[0], ...product }];
    expect(issuesOf(() => build({ ...mobileMoneyPaymentInput, products }))).toEqual([expected]);
  });

  it('takes only a unit_price string without a leading zero on the wire, as the builder writes it', () => {
    const body = build(mobileMoneyPaymentInput);
    for (const [unit_price, ok] of [
      ['0.50', true],
      ['0', true],
      ['007.5', false],
      ['00', false],
    ] as const) {
      const products = [{ ...body.products![0]!, unit_price }];
      expect(mobileMoneyPaymentRequestSchema.safeParse({ ...body, products }).success).toBe(ok);
    }
  });

  it.each(['0', '01', '1.5', ''])('refuses a product quantity %j on the wire', (quantity) => {
    const body = build(mobileMoneyPaymentInput);
    const products = [{ ...body.products![0]!, quantity }];
    expect(mobileMoneyPaymentRequestSchema.safeParse({ ...body, products }).success).toBe(false);
  });

  it.each([
    [{ total: ' 10' }, 'amount.total: invalid_amount'],
    [{ total: '1e3' }, 'amount.total: invalid_amount'],
    [{ total: Number.NaN }, 'amount.total: invalid_amount'],
    [{ delivery_fee: -1 }, 'amount.delivery_fee: too_small'],
    [{ currency: 'KE' }, 'amount.currency: invalid_currency'],
    [{ order_id: 'abc' }, 'amount.order_id: invalid_integer'],
    [{ order_id: '0042' }, 'amount.order_id: invalid_integer'],
  ])('rejects amount %j', (amount, expected) => {
    expect(
      issuesOf(() =>
        build({ ...mobileMoneyPaymentInput, amount: { ...mobileMoneyPaymentInput.amount, ...amount } }),
      ),
    ).toEqual([expected]);
  });

  it.each([
    'http:shop.example/hooks',
    'https:\\\\shop.example\\hooks',
    'https://shop.\nexample/ho\toks',
    'https:///shop.example/hooks',
    'https://user:pass@shop.example/hooks',
  ])('rejects callback_url %j, which would go on the wire other than it parses', (callback_url) => {
    const input = {
      ...mobileMoneyPaymentInput,
      callback_details: { transaction_reference: 'o-1', callback_url },
    };
    expect(issuesOf(() => build(input))).toEqual(['callback_details.callback_url: invalid_url']);
    const body = build(mobileMoneyPaymentInput);
    const wire = { ...body, callback_details: { ...body.callback_details, callback_url } };
    expect(mobileMoneyPaymentRequestSchema.safeParse(wire).success).toBe(false);
  });
});

describe('options of buildMobileMoneyPaymentRequest', () => {
  it.each([
    ['null options', null, ''],
    ['options that are not an object', 'M-PESA', ''],
    ['an empty paymentMethod', { paymentMethod: '' }, 'paymentMethod'],
    ['a paymentMethod that is not a string', { paymentMethod: 5 }, 'paymentMethod'],
  ])('refuses %s with a ValidationError naming the option', (_name, options, option) => {
    const error = captureError(() =>
      buildMobileMoneyPaymentRequest(mobileMoneyPaymentInput, options as never),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path.join('.'))).toEqual([option]);
    expect((error as Error).message).toMatch(/^Invalid mobile-money payment options: /);
  });
});
