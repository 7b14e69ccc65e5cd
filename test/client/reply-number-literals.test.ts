// JSON.parse rounds a number before anything sees it: a reply whose status is written
// 199.99999999999999999 reads as 200, and a checkout order_id of 1003.00000000000001 reads as the
// order sent. The client decides on both, so it reads them as the reply wrote them: a status or an
// order_id that JSON.parse would not read as written is an ApiError, not a resolved call.
import { describe, expect, it } from 'vitest';
import { ApiError, PaymentsClient } from '../../src/index.js';
import { checkoutSessionInput, mobileMoneyPaymentInput } from '../helpers/inputs.js';

/** A client whose service answers every call with `text` as a JSON body. */
const answering = (text: string) =>
  new PaymentsClient({
    baseUrl: 'https://payments.example.com',
    fetch: async () => new Response(text, { headers: { 'content-type': 'application/json' } }),
  });

describe('a reply number JSON.parse would not read as written', () => {
  it.each([
    ['199.99999999999999999', 'a number with more digits'],
    ['200.00000000000000001', 'a number with more digits'],
    ['2e2', 'an exponent'],
  ])('status %s is an ApiError naming status', async (status, problem) => {
    const client = answering(`{"message":"M-PESA Payment Initiated","status":${status}}`);
    const error = await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).issues).toEqual([
      expect.objectContaining({ path: ['status'], message: expect.stringContaining(problem) }),
    ]);
  });

  it('a checkout order_id of 1003.00000000000001 for order 1003 is an ApiError naming order_id', async () => {
    const client = answering(
      '{"checkout_link":"https://payments.example.com/checkout/abc","status":true,"order_id":1003.00000000000001}',
    );
    const error = await client.createCheckoutSession(checkoutSessionInput).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).issues).toEqual([expect.objectContaining({ path: ['order_id'] })]);
  });

  it('status 200.0 and an order_id of 1003 as written are read as they are', async () => {
    await expect(
      answering('{"message":"M-PESA Payment Initiated","status":200.0}').initiateMobileMoneyPayment(
        mobileMoneyPaymentInput,
      ),
    ).resolves.toMatchObject({ status: 200 });
    await expect(
      answering(
        '{"checkout_link":"https://payments.example.com/checkout/abc","status":true,"order_id":1003}',
      ).createCheckoutSession(checkoutSessionInput),
    ).resolves.toMatchObject({ order_id: '1003' });
  });
});
