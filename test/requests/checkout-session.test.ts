import { describe, expect, it } from 'vitest';
import {
  buildCheckoutSessionRequest,
  checkoutSessionRequestSchema,
  type CheckoutSessionInput,
} from '../../src/index.js';
import { checkoutSessionInput, issuesOf } from '../helpers/inputs.js';

const build = (input: unknown) => buildCheckoutSessionRequest(input as CheckoutSessionInput);

describe('buildCheckoutSessionRequest', () => {
  it('builds the exact wire body of endpoint 3', () => {
    const body = build(checkoutSessionInput);
    expect(body).toStrictEqual({
      customer_details: { full_name: 'Jane Doe', phone_number: '254712345678', email: 'jane@example.com' },
      amount: { order_id: 1003, delivery_fee: '100', discount_fee: '50', total: '2500', currency: 'KES' },
      redirect_urls: {
        success_url: 'https://shop.example/paid',
        failed_url: 'https://shop.example/failed',
        callback_url: 'https://shop.example/hooks/payments',
      },
    });
    expect(checkoutSessionRequestSchema.parse(body)).toStrictEqual(body);
  });

  it('accepts order_id as a digit string and sends an integer', () => {
    const body = build({
      ...checkoutSessionInput,
      amount: { ...checkoutSessionInput.amount, order_id: '1003' },
    });
    expect(body.amount.order_id).toBe(1003);
  });

  // The callback echoes the order_id sent: '007' would go out as 7 and come back as '7', never
  // matching the order the merchant stored.
  it.each(['007', '00', '01003'])('refuses order_id %j, a digit string with a leading zero', (order_id) => {
    const input = { ...checkoutSessionInput, amount: { ...checkoutSessionInput.amount, order_id } };
    expect(issuesOf(() => build(input))).toEqual(['amount.order_id: invalid_integer']);
    expect(() => build(input)).toThrow(/leading zero/);
  });

  it.each([-1, -1003, 1.5, 2 ** 53])(
    'refuses order_id %j, not a whole number from 0 to 2^53 - 1',
    (order_id) => {
      const input = { ...checkoutSessionInput, amount: { ...checkoutSessionInput.amount, order_id } };
      expect(issuesOf(() => build(input))).toEqual(['amount.order_id: invalid_integer']);
    },
  );

  it.each(['jane@example.com and more', 'jane@example.com\n', 'jane@example.com>'])(
    'refuses the e-mail %j, an address with more after it',
    (email) => {
      const input = {
        ...checkoutSessionInput,
        customer_details: { ...checkoutSessionInput.customer_details, email },
      };
      expect(issuesOf(() => build(input))).toEqual(['customer_details.email: invalid_format']);
    },
  );

  it('requires amount with order_id and total, and the e-mail (spec §4 rule 2)', () => {
    const { amount: _amount, ...rest } = checkoutSessionInput;
    expect(issuesOf(() => build(rest))).toEqual(['amount: invalid_type']);
    const { order_id: _order, total: _total, ...fees } = checkoutSessionInput.amount;
    const { email: _email, ...customer } = checkoutSessionInput.customer_details;
    expect(
      issuesOf(() => build({ ...checkoutSessionInput, customer_details: customer, amount: fees })),
    ).toEqual([
      'customer_details.email: invalid_type',
      'amount.order_id: invalid_type',
      'amount.total: invalid_type',
    ]);
  });

  it('rejects payment_method, explaining that the hosted page picks it', () => {
    const input = {
      ...checkoutSessionInput,
      customer_details: { ...checkoutSessionInput.customer_details, payment_method: 'CARD' },
    };
    expect(issuesOf(() => build(input))).toEqual(['customer_details.payment_method: unrecognized_keys']);
    expect(() => build(input)).toThrow(/hosted page/);
  });

  it.each(['success_url', 'failed_url', 'callback_url'])('rejects a relative or non-http %s', (key) => {
    for (const url of ['/paid', 'mailto:a@b.c']) {
      const input = {
        ...checkoutSessionInput,
        redirect_urls: { ...checkoutSessionInput.redirect_urls, [key]: url },
      };
      expect(issuesOf(() => build(input))).toEqual([`redirect_urls.${key}: invalid_url`]);
    }
  });

  it.each([
    ['success_url', 'http:shop.example/paid'],
    ['failed_url', 'https:\\\\shop.example\\failed'],
    ['callback_url', 'https://shop.\nexample/hooks'],
    ['success_url', 'https:///shop.example/paid'],
    ['callback_url', 'https://user:pass@shop.example/hooks'],
  ])('rejects %s %j, which would go on the wire other than it parses', (key, url) => {
    const input = {
      ...checkoutSessionInput,
      redirect_urls: { ...checkoutSessionInput.redirect_urls, [key]: url },
    };
    expect(issuesOf(() => build(input))).toEqual([`redirect_urls.${key}: invalid_url`]);
  });
});
