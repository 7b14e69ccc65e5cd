// A callback URL signed (hp_ref) for one order but sent with another order's reference: the route
// takes a callback's order from hp_ref, and a success callback carries no reference of its own, so
// a payment of the one order would settle the other. Refused before anything is sent.
import { describe, expect, it, vi } from 'vitest';
import {
  buildCardPaymentRequest,
  buildCheckoutSessionRequest,
  buildMobileMoneyPaymentRequest,
  buildPayoutRequest,
  PaymentsClient,
  signCallbackUrl,
  ValidationError,
} from '../../src/index.js';
import {
  captureError,
  cardPaymentInput,
  checkoutSessionInput,
  mobileMoneyPaymentInput,
  payoutInput,
} from '../helpers/inputs.js';

const SECRET = 'signed-for-another-reference-secret';
const sign = (url: string, reference: string) => signCallbackUrl(url, { secret: SECRET, reference });

const refusal = (build: () => unknown): ValidationError => {
  const error = captureError(build);
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
};

describe('a callback URL signed for another reference than the request', () => {
  it('is refused for a card payment, naming the URL and the reference field', async () => {
    const url = await sign(cardPaymentInput.callback_details.callback_url, 'order-9999');
    const error = refusal(() =>
      buildCardPaymentRequest({
        ...cardPaymentInput,
        callback_details: { ...cardPaymentInput.callback_details, callback_url: url },
      }),
    );
    expect(error.issues).toEqual([
      {
        path: ['callback_details', 'callback_url'],
        code: 'signed_for_another_reference',
        message:
          "signed (hp_ref) for another reference than callback_details.transaction_reference: the route would settle that order with this payment; sign it with this request's reference",
      },
    ]);
    expect(error.message).not.toContain('order-9999');
    expect(error.message).not.toContain('hp_sig=');
  });

  it('is refused for a mobile-money payment', async () => {
    const url = await sign(mobileMoneyPaymentInput.callback_details.callback_url, 'order-1001');
    const error = refusal(() =>
      buildMobileMoneyPaymentRequest({
        ...mobileMoneyPaymentInput,
        callback_details: { ...mobileMoneyPaymentInput.callback_details, callback_url: url },
      }),
    );
    expect(error.issues.map((issue) => [issue.path.join('.'), issue.code])).toEqual([
      ['callback_details.callback_url', 'signed_for_another_reference'],
    ]);
  });

  it('is refused for a checkout session, whose reference is its order_id', async () => {
    const url = await sign(checkoutSessionInput.redirect_urls.callback_url, '1004');
    const error = refusal(() =>
      buildCheckoutSessionRequest({
        ...checkoutSessionInput,
        redirect_urls: { ...checkoutSessionInput.redirect_urls, callback_url: url },
      }),
    );
    expect(error.issues.map((issue) => [issue.path.join('.'), issue.code, issue.message])).toEqual([
      [
        'redirect_urls.callback_url',
        'signed_for_another_reference',
        "signed (hp_ref) for another reference than amount.order_id: the route would settle that order with this payment; sign it with this request's reference",
      ],
    ]);
  });

  it('is refused for a payout, whose reference is its reference_id', async () => {
    const url = await sign(payoutInput.webhook_endpoint.webhook_url, '483920175562');
    const error = refusal(() =>
      buildPayoutRequest({ ...payoutInput, webhook_endpoint: { webhook_url: url } }),
    );
    expect(error.issues.map((issue) => [issue.path.join('.'), issue.code])).toEqual([
      ['webhook_endpoint.webhook_url', 'signed_for_another_reference'],
    ]);
  });

  it('is refused when the URL carries hp_ref twice, even once for this reference', async () => {
    const signed = await sign(mobileMoneyPaymentInput.callback_details.callback_url, 'order-1002');
    const error = refusal(() =>
      buildMobileMoneyPaymentRequest({
        ...mobileMoneyPaymentInput,
        callback_details: {
          ...mobileMoneyPaymentInput.callback_details,
          callback_url: `${signed}&hp_ref=order-1`,
        },
      }),
    );
    expect(error.issues.map((issue) => issue.code)).toEqual(['signed_for_another_reference']);
  });

  it('sends nothing from the client', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const client = new PaymentsClient({ baseUrl: 'https://payments.example', fetch });
    const url = await sign(mobileMoneyPaymentInput.callback_details.callback_url, 'order-1001');
    await expect(
      client.initiateMobileMoneyPayment({
        ...mobileMoneyPaymentInput,
        callback_details: { ...mobileMoneyPaymentInput.callback_details, callback_url: url },
      }),
    ).rejects.toThrow(ValidationError);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('a callback URL signed for the request reference', () => {
  it('is sent as given, for every kind (a number reference signed as its digits)', async () => {
    const card = await sign(cardPaymentInput.callback_details.callback_url, 'order-1001');
    expect(
      buildCardPaymentRequest({
        ...cardPaymentInput,
        callback_details: { ...cardPaymentInput.callback_details, callback_url: card },
      }).callback_details.callback_url,
    ).toBe(card);
    const mobile = await sign(mobileMoneyPaymentInput.callback_details.callback_url, 'order-1002');
    expect(
      buildMobileMoneyPaymentRequest({
        ...mobileMoneyPaymentInput,
        callback_details: { ...mobileMoneyPaymentInput.callback_details, callback_url: mobile },
      }).callback_details.callback_url,
    ).toBe(mobile);
    const checkout = await sign(checkoutSessionInput.redirect_urls.callback_url, '1003');
    expect(
      buildCheckoutSessionRequest({
        ...checkoutSessionInput,
        redirect_urls: { ...checkoutSessionInput.redirect_urls, callback_url: checkout },
      }).redirect_urls.callback_url,
    ).toBe(checkout);
    const payout = await sign(payoutInput.webhook_endpoint.webhook_url, '483920175561');
    expect(
      buildPayoutRequest({ ...payoutInput, webhook_endpoint: { webhook_url: payout } }).webhook_endpoint
        .webhook_url,
    ).toBe(payout);
  });
});
