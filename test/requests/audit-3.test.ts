import { describe, expect, it } from 'vitest';
import {
  buildCardPaymentRequest,
  buildCheckoutSessionRequest,
  buildMobileMoneyPaymentRequest,
  buildPayoutRequest,
  cardPaymentResponseSchema,
  checkoutSessionResponseSchema,
  mobileMoneyPaymentResponseSchema,
  parseCallback,
  PaymentsClient,
  payoutResponseSchema,
  ValidationError,
  type CardPaymentInput,
  type CheckoutSessionInput,
  type MobileMoneyPaymentInput,
  type PayoutInput,
} from '../../src/index.js';

const customer = { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' };
const callback = { transaction_reference: 'order-1001', callback_url: 'https://shop.example/hooks/payments' };

const mobileMoney = (over: Partial<MobileMoneyPaymentInput> = {}): MobileMoneyPaymentInput => ({
  customer_details: customer,
  callback_details: callback,
  ...over,
});

const card = (over: Partial<CardPaymentInput> = {}): CardPaymentInput => ({
  customer_details: customer,
  card_details: { card_number: '4242 4242 4242 4242', expiry_month: 12, expiry_year: 2030, cvc: '123' },
  callback_details: callback,
  ...over,
});

const checkout = (over: Partial<CheckoutSessionInput> = {}): CheckoutSessionInput => ({
  customer_details: customer,
  amount: { order_id: 1003, delivery_fee: 100, discount_fee: 50, total: 2500, currency: 'KES' },
  redirect_urls: {
    success_url: 'https://shop.example/paid',
    failed_url: 'https://shop.example/failed',
    callback_url: 'https://shop.example/hooks',
  },
  ...over,
});

const payout = (description: string): PayoutInput => ({
  customer_details: { full_name: 'John Doe', phone_number: '0712345678', email: 'john@example.com' },
  destination: {
    type: 'mobile',
    country_code: 'KE',
    mobile_number: '0712345678',
    wallet_name: 'MOBILE-MONEY',
  },
  transfer: { amount: 1000, currency: 'KES', reference_id: '483920175561', description },
  webhook_endpoint: { webhook_url: 'https://shop.example/hooks/payouts' },
});

/** The issues of the ValidationError `build` throws, as `path: code`. */
const issuesOf = (build: () => unknown): string[] => {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map((issue) => `${issue.path.join('.')}: ${issue.code}`);
  }
  throw new Error('expected a ValidationError, the input was accepted');
};

// 'order-😀'.slice(0, 7): the emoji cut in half, as code that truncates a string to a length leaves it.
const cut = 'order-😀'.slice(0, 7);

describe('a text field holding a lone surrogate (half of a character)', () => {
  it('is refused as transaction_reference: the failure callback that echoes it back would be refused by parseCallback', () => {
    // The SDK's own reader refuses the echoed reference, so the failure would never be recorded.
    expect(() =>
      parseCallback({
        id: 'pay_1',
        transaction_reference: cut,
        response_status: 406,
        amount: 1500,
        paid: 'False',
        'payment status': 'Payment Incomplete.',
        message: 'Insufficient funds',
        timestamp: 1_700_000_000,
      }),
    ).toThrow(/lone surrogate/);
    expect(
      issuesOf(() =>
        buildMobileMoneyPaymentRequest(
          mobileMoney({ callback_details: { ...callback, transaction_reference: cut } }),
        ),
      ),
    ).toEqual(['callback_details.transaction_reference: lone_surrogate']);
    expect(
      issuesOf(() =>
        buildCardPaymentRequest(card({ callback_details: { ...callback, transaction_reference: cut } })),
      ),
    ).toEqual(['callback_details.transaction_reference: lone_surrogate']);
  });

  it.each([
    ['full_name', { customer_details: { ...customer, full_name: 'Jane \ud83d' } }],
    ['location', { customer_details: { ...customer, location: '\udc00 Nairobi' } }],
    ['payment_method', { customer_details: { ...customer, payment_method: 'M-PESA\ud800' } }],
    ['product_name', { products: [{ product_name: 'Coffee \ud83d', quantity: 1, unit_price: 250 }] }],
  ] as const)('is refused as %s, naming the field', (field, over) => {
    const issues = issuesOf(() =>
      buildMobileMoneyPaymentRequest(mobileMoney(over as Partial<MobileMoneyPaymentInput>)),
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(new RegExp(`${field}: lone_surrogate$`));
  });

  it('is refused in a checkout full_name and a payout description, with a message that says what is wrong', () => {
    expect(
      issuesOf(() =>
        buildCheckoutSessionRequest(
          checkout({ customer_details: { ...customer, full_name: 'Jane \ud83d' } }),
        ),
      ),
    ).toEqual(['customer_details.full_name: lone_surrogate']);
    expect(() => buildPayoutRequest(payout('Refund \ud83d'))).toThrow(
      /transfer\.description: expected Unicode text, got a string with a lone surrogate/,
    );
  });

  it('leaves whole characters alone (an emoji, a name in another script)', () => {
    const body = buildMobileMoneyPaymentRequest(
      mobileMoney({
        customer_details: { ...customer, full_name: 'Jane 😀 Wanjiků', location: 'Nairobi 🏠' },
        callback_details: { ...callback, transaction_reference: 'order-😀' },
      }),
    );
    expect(body.customer_details.full_name).toBe('Jane 😀 Wanjiků');
    expect(body.customer_details.location).toBe('Nairobi 🏠');
    expect(body.callback_details.transaction_reference).toBe('order-😀');
  });
});

describe('a required text field of control characters only', () => {
  it.each(['\u0000', '\u0007\u001b', '\u007f', '\u0085\u0000'])(
    'is refused as empty, as one of white space or invisible format characters is (%j)',
    (full_name) => {
      expect(
        issuesOf(() =>
          buildMobileMoneyPaymentRequest(mobileMoney({ customer_details: { ...customer, full_name } })),
        ),
      ).toEqual(['customer_details.full_name: empty']);
    },
  );
});

describe('a reply of the wrong shape', () => {
  const schemas = [
    ['card', cardPaymentResponseSchema, 'Card Payment Initiated'],
    ['mobile-money', mobileMoneyPaymentResponseSchema, 'M-PESA Payment Initiated'],
    ['payout', payoutResponseSchema, 'Mobile Payout Initiated'],
  ] as const;

  it.each(
    schemas.flatMap(([name, schema, message]) =>
      [201, '200', 200.5, null].map((status) => [name, status, schema, message] as const),
    ),
  )(
    'names the rule of a %s reply whose status is %j, not a bare "Invalid input"',
    (_name, status, schema, message) => {
      const issues = schema.safeParse({ message, status }).error?.issues ?? [];
      expect(issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
        ['status', 'expected 200'],
      ]);
    },
  );

  it.each(schemas)('says a %s reply without a status lacks it', (_name, schema, message) => {
    const issues = schema.safeParse({ message }).error?.issues ?? [];
    expect(issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['status', 'required (expected 200)'],
    ]);
  });

  it.each([1003.5, null, true, {}])('names the rule of a checkout reply whose order_id is %j', (order_id) => {
    const reply = { checkout_link: 'https://pay.example/c/1', status: true, order_id };
    const issues = checkoutSessionResponseSchema.safeParse(reply).error?.issues ?? [];
    expect(issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['order_id', 'expected the order_id sent'],
    ]);
  });

  it('says a checkout reply without an order_id lacks it, and the client says so in its ApiError', async () => {
    const reply = { checkout_link: 'https://pay.example/c/1', status: true };
    const issues = checkoutSessionResponseSchema.safeParse(reply).error?.issues ?? [];
    expect(issues.map((issue) => issue.message)).toEqual(['required (expected the order_id sent)']);
    const client = new PaymentsClient({
      baseUrl: 'https://pay.example',
      fetch: () =>
        Promise.resolve(
          new Response(JSON.stringify(reply), { headers: { 'content-type': 'application/json' } }),
        ),
    });
    await expect(client.createCheckoutSession(checkout())).rejects.toMatchObject({
      name: 'ApiError',
      issues: [{ path: ['order_id'], message: 'required (expected the order_id sent)' }],
    });
  });
});

describe('order_id and product_id given as digit strings', () => {
  // A Postgres bigint column comes back as a string: '1234567890123456' is as safe as the number.
  it.each(['1234567890123456', '9007199254740991'])(
    'takes a 16-digit string within the safe integer range (%s), as it takes the number',
    (order_id) => {
      expect(
        buildCheckoutSessionRequest(checkout({ amount: { ...checkout().amount, order_id } })).amount.order_id,
      ).toBe(Number(order_id));
      const body = buildMobileMoneyPaymentRequest(
        mobileMoney({
          products: [{ product_id: order_id, product_name: 'Coffee', quantity: 1, unit_price: 250 }],
        }),
      );
      expect(body.products?.[0]?.product_id).toBe(Number(order_id));
    },
  );

  it.each(['9007199254740992', '9007199254740993', '12345678901234567'])(
    'refuses %s, beyond the safe integer range, rather than sending it rounded',
    (order_id) => {
      expect(() =>
        buildCheckoutSessionRequest(checkout({ amount: { ...checkout().amount, order_id } })),
      ).toThrow(/amount\.order_id: expected order_id as a whole number \(JSON integer\)/);
    },
  );
});
