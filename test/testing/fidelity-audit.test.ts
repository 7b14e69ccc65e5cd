// The offline kit as a stand-in for the service: createCallbackRequest's overrides may change the
// varying values of a payload (amounts, ids, references, a failure's reason), never a text or code
// the API reference fixes for the type, so a merchant's test cannot pass on a payload the service
// never sends.
import { describe, expect, it } from 'vitest';
import { createCallbackHandler } from '../../src/callbacks/handler.js';
import type { CallbackEvent } from '../../src/callbacks/events.js';
import { createCallbackRequest } from '../../src/testing/index.js';
import { captureRejection } from '../helpers/inputs.js';

const secret = 'fidelity-audit-secret-0123456789';

const refusal = captureRejection;

describe('createCallbackRequest refuses fixed texts and codes the service never sends', () => {
  it.each([
    // Status words in another spelling than the API reference's (the parser reads them anyway).
    ['payment.card.succeeded', { 'payment status': 'payment complete' }, 'payment status'],
    ['payment.card.succeeded', { 'payment status': ' PAYMENT COMPLETE. ' }, 'payment status'],
    // The card failure says "Payment incomplete."; mobile money and checkout "Payment Incomplete.".
    ['payment.card.failed', { 'payment status': 'Payment Incomplete.' }, 'payment status'],
    ['payment.mobile_money.failed', { 'payment status': 'Payment incomplete.' }, 'payment status'],
    ['checkout.failed', { payment_status: 'Payment incomplete.' }, 'payment_status'],
    ['payment.mobile_money.succeeded', { payment_status: 'Payment Complete' }, 'payment_status'],
    // The described card redirect success carries paid 'False'; 'True' is never sent for it.
    ['checkout.succeeded', { paid: 'True' }, 'paid'],
    // Codes that are 200 in every described callback.
    ['payment.card.succeeded', { status: 500 }, 'status'],
    ['checkout.succeeded', { response_status: 500 }, 'response_status'],
    ['checkout.failed', { response_status: 402 }, 'response_status'],
    // Fixed message texts and the card method word.
    ['payment.card.succeeded', { message: 'CARD Payment Failed' }, 'message'],
    ['payment.card.failed', { 'payment method': 'MOBILE-MONEY' }, 'payment method'],
    ['payout.succeeded', { message: 'Payout Failed' }, 'message'],
    ['payout.failed', { message: 'Payout Successful' }, 'message'],
    // A currency code is sent upper-case.
    ['payment.card.succeeded', { currency: 'kes' }, 'currency'],
    ['payout.failed', { currency: 'usd' }, 'currency'],
  ] as const)('refuses a %s with overrides %j, naming %s', async (type, overrides, key) => {
    const error = await refusal(() => createCallbackRequest(type, { secret, overrides: overrides as never }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^createCallbackRequest: overrides/);
    expect(error.message).toContain(key);
    expect(error.message).toContain(type);
  });

  it('refuses a mobile-money success whose message does not follow its payment_method', async () => {
    const error = await refusal(() =>
      createCallbackRequest('payment.mobile_money.succeeded', {
        secret,
        overrides: { payment_method: 'M-PESA' },
      }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain('M-PESA Payment Success');
  });

  it.each([
    // The varying values stay free.
    [
      'payment.card.succeeded',
      { amount: '999', id: 'PAY1', 'transaction id': 'TXN1', timestamp: 1717200001 },
    ],
    ['payment.mobile_money.succeeded', { payment_method: 'M-PESA', message: 'M-PESA Payment Success' }],
    ['payment.mobile_money.failed', { response_status: 402, message: 'The customer cancelled the prompt' }],
    [
      'checkout.succeeded',
      { payment_method: 'MOBILE-MONEY', paid: 'True', message: 'MOBILE-MONEY Payment Successful' },
    ],
    ['checkout.succeeded', { payment_method: 'M-PESA', paid: 'True', message: 'M-PESA Payment Successful' }],
    ['checkout.failed', { payment_method: 'MOBILE-MONEY', message: 'Request cancelled by user' }],
    ['payout.succeeded', { currency: 'USD', payout_fee: '25', wallet_balance: '10' }],
  ] as const)('still builds a %s with overrides %j, as the service sends it', async (type, overrides) => {
    const events: CallbackEvent[] = [];
    const handler = createCallbackHandler({ secret, onEvent: (event) => void events.push(event) });
    const request = await createCallbackRequest(type, { secret, overrides: overrides as never });
    expect((await handler(request)).status).toBe(200);
    expect(events).toEqual([expect.objectContaining({ type })]);
  });
});
