// The API reference (§2.3, §8) takes `delivery_fee` and `discount_fee` as positive integers, like
// `total`. A fee of 0 is refused where it is given — by the builders (nothing is sent), by the
// wire schemas and by the sandbox (400 naming the field) — so that an order the service would
// refuse fails in the merchant's tests, not in production.
import { describe, expect, it, vi } from 'vitest';
import {
  buildCardPaymentRequest,
  buildCheckoutSessionRequest,
  buildMobileMoneyPaymentRequest,
  cardPaymentRequestSchema,
  checkoutSessionRequestSchema,
  mobileMoneyPaymentRequestSchema,
  PaymentsClient,
  ValidationError,
} from '../../src/index.js';
import { postPayment } from '../sandbox/helpers.js';
import {
  captureError,
  cardPaymentInput,
  checkoutSessionInput,
  issuesOf,
  mobileMoneyPaymentInput,
} from '../helpers/inputs.js';

const now = new Date(Date.UTC(2030, 0, 15));
const fees = ['delivery_fee', 'discount_fee'] as const;
const builders = [
  ['card payment', buildCardPaymentRequest, cardPaymentInput, { now }],
  ['mobile-money payment', buildMobileMoneyPaymentRequest, mobileMoneyPaymentInput, {}],
  ['checkout session', buildCheckoutSessionRequest, checkoutSessionInput, {}],
] as const;

const withAmount = <T extends { amount: object }>(input: T, amount: Record<string, unknown>): T => ({
  ...input,
  amount: { ...input.amount, ...amount },
});

describe('a fee of 0', () => {
  describe.each(builders)('%s builder', (_name, build, input, options) => {
    const run = (value: unknown, fee: string) =>
      (build as (input: unknown, options: object) => unknown)(withAmount(input, { [fee]: value }), options);

    it.each(fees.flatMap((fee) => [0, 0n, '0'].map((value) => [fee, value] as const)))(
      'refuses %s %s, naming it and the rule',
      (fee, value) => {
        expect(issuesOf(() => run(value, fee))).toEqual([`amount.${fee}: too_small`]);
        const error = captureError(() => run(value, fee)) as ValidationError;
        expect(error).toBeInstanceOf(ValidationError);
        expect(error.message).toContain(`amount.${fee}`);
        expect(error.message).toContain('at least 1');
      },
    );

    it.each(fees)('takes %s 1, the smallest the reference allows', (fee) => {
      expect((run(1, fee) as { amount: Record<string, unknown> }).amount[fee]).toBe('1');
    });
  });

  /** A wire schema as these tests use it: parse, and say which paths failed. */
  type WireSchema = {
    safeParse(body: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } };
  };
  const schemas: WireSchema[] = [
    cardPaymentRequestSchema,
    mobileMoneyPaymentRequestSchema,
    checkoutSessionRequestSchema,
  ];

  it.each([0, 1, 2])('is refused by the wire schema of builder %i, for each fee', (index) => {
    const [, build, input, options] = builders[index]!;
    const schema = schemas[index]!;
    const body = (build as (input: unknown, options: object) => { amount: Record<string, unknown> })(
      input,
      options,
    );
    for (const fee of fees) {
      const result = schema.safeParse({ ...body, amount: { ...body.amount, [fee]: '0' } });
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([`amount.${fee}`]);
      expect(schema.safeParse({ ...body, amount: { ...body.amount, [fee]: '1' } }).success).toBe(true);
    }
  });

  it('is not sent by the client: the call throws ValidationError and fetch is never called', async () => {
    const fetch = vi.fn(async () => new Response('{}'));
    const client = new PaymentsClient({ baseUrl: 'https://api.example', apiKey: 'sk_test_1', fetch });
    for (const fee of fees) {
      await expect(
        client.initiateMobileMoneyPayment(withAmount(mobileMoneyPaymentInput, { [fee]: 0 })),
      ).rejects.toBeInstanceOf(ValidationError);
      await expect(
        client.createCheckoutSession(withAmount(checkoutSessionInput, { [fee]: '0' })),
      ).rejects.toThrow(`amount.${fee}`);
    }
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each(fees)('in a body sent to the sandbox: 400 naming amount.%s, and no callback', async (fee) => {
    const body = buildMobileMoneyPaymentRequest(mobileMoneyPaymentInput);
    const answer = await postPayment({ ...body, amount: { ...body.amount, [fee]: '0' } });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({
      issues: [expect.objectContaining({ field: `amount.${fee}` })],
    });
    expect(answer.deliveries).toEqual([]);
    const positive = await postPayment({ ...body, amount: { ...body.amount, [fee]: '1' } });
    expect(positive.status).toBe(200);
  });
});
