// Every endpoint: exact wire body (read from the raw request text), path, method and headers.
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError, PaymentsClient } from '../../src/index.js';
import {
  cardPaymentInput,
  checkoutSessionInput,
  mobileMoneyPaymentInput,
  payoutInput,
} from '../helpers/inputs.js';
import { BASE_URL, documentedReplies, useMockService } from '../helpers/msw.js';

const service = useMockService();
const client = (options: Partial<ConstructorParameters<typeof PaymentsClient>[0]> = {}) =>
  new PaymentsClient({ baseUrl: BASE_URL, apiKey: 'sk_test_123', ...options });

describe('PaymentsClient endpoints', () => {
  it('posts a card payment to endpoint 1 with the exact wire body, card_number a bare exact integer', async () => {
    service.documented();
    await expect(client().initiateCardPayment(cardPaymentInput)).resolves.toEqual(documentedReplies.card);
    const [request] = await service.recorded();
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe(`${BASE_URL}/api/payment/payment-initiate-callback/`);
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: 'Bearer sk_test_123',
    });
    expect(request!.text).toBe(
      '{"customer_details":{"payment_method":"CARD","full_name":"Jane Doe","location":"Nairobi","phone_number":"254712345678","email":"jane@example.com"},' +
        '"products":[{"product_id":7,"product_name":"Coffee","quantity":2,"unit_price":250.5}],' +
        '"amount":{"delivery_fee":"100","discount_fee":"50","total":"501","currency":"KES"},' +
        '"card_details":{"card_number":9999999999999995,"expiry_month":7,"expiry_year":2031,"cvc":737},' +
        '"callback_details":{"transaction_reference":"order-1001","callback_url":"https://shop.example/hooks/payments"}}',
    );
    // JSON.parse would round it: the digits survive only because they were written exactly.
    expect(
      String(
        (JSON.parse(request!.text) as { card_details: { card_number: number } }).card_details.card_number,
      ),
    ).not.toBe('9999999999999995');
    expect((request!.json as { card_details: { card_number: string } }).card_details.card_number).toBe(
      '9999999999999995',
    );
  });

  it('posts a mobile-money payment to the same path with string product fields', async () => {
    service.documented();
    await expect(client().initiateMobileMoneyPayment(mobileMoneyPaymentInput)).resolves.toEqual(
      documentedReplies.mobileMoney,
    );
    const [request] = await service.recorded();
    expect(request!.url).toBe(`${BASE_URL}/api/payment/payment-initiate-callback/`);
    expect(request!.json).toStrictEqual({
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
  });

  it('posts a checkout session to endpoint 3 (no trailing slash) and returns the link', async () => {
    service.documented();
    await expect(client().createCheckoutSession(checkoutSessionInput)).resolves.toEqual(
      documentedReplies.checkout,
    );
    const [request] = await service.recorded();
    expect(request!.url).toBe(`${BASE_URL}/checkout.sessions/hosted/redirect/session`);
    expect(request!.text).toBe(
      '{"customer_details":{"full_name":"Jane Doe","phone_number":"254712345678","email":"jane@example.com"},' +
        '"amount":{"order_id":1003,"delivery_fee":"100","discount_fee":"50","total":"2500","currency":"KES"},' +
        '"redirect_urls":{"success_url":"https://shop.example/paid","failed_url":"https://shop.example/failed","callback_url":"https://shop.example/hooks/payments"}}',
    );
  });

  it.each([['9999'], [''], [1004]])(
    'refuses a checkout session whose order_id (%j) is not the one sent: the link is not for this order',
    async (orderId) => {
      service.on('checkout.sessions/hosted/redirect/session', () =>
        HttpResponse.json({ ...documentedReplies.checkout, order_id: orderId }),
      );
      const error = await client()
        .createCheckoutSession(checkoutSessionInput)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).issues).toEqual([
        expect.objectContaining({ path: ['order_id'], code: 'order_id_mismatch' }),
      ]);
    },
  );

  it('refuses a checkout session whose status is false: no session was created', async () => {
    service.on('checkout.sessions/hosted/redirect/session', () =>
      HttpResponse.json({ ...documentedReplies.checkout, status: false }),
    );
    const error = await client()
      .createCheckoutSession(checkoutSessionInput)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(200);
    expect((error as ApiError).issues).toEqual([
      expect.objectContaining({ path: ['status'], code: 'checkout_not_created' }),
    ]);
  });

  it('accepts the order_id echoed as a string or as the number sent', async () => {
    for (const orderId of ['1003', 1003]) {
      service.on('checkout.sessions/hosted/redirect/session', () =>
        HttpResponse.json({ ...documentedReplies.checkout, order_id: orderId }),
      );
      await expect(client().createCheckoutSession(checkoutSessionInput)).resolves.toMatchObject({
        order_id: '1003',
      });
    }
  });

  it('posts a payout to endpoint 4 with reference_id a JSON integer', async () => {
    service.documented();
    await expect(client().initiatePayout(payoutInput)).resolves.toEqual(documentedReplies.payout);
    const [request] = await service.recorded();
    expect(request!.url).toBe(`${BASE_URL}/api/payout/mobile-money-payout`);
    expect(request!.text).toBe(
      '{"customer_details":{"full_name":"John Doe","phone_number":"254712345678","email":"john@example.com"},' +
        '"destination":{"type":"mobile","country_code":"KE","mobile_number":"254712345678","wallet_name":"MOBILE-MONEY"},' +
        '"transfer":{"amount":"1000","currency":"KES","reference_id":483920175561,"description":"Refund for order 1001"},' +
        '"webhook_endpoint":{"webhook_url":"https://shop.example/hooks/payouts"}}',
    );
  });

  it.each([
    ['https://payments.test/api/v2/', 'https://payments.test/api/v2/api/payout/mobile-money-payout'],
    ['https://payments.test/api/v2', 'https://payments.test/api/v2/api/payout/mobile-money-payout'],
    ['https://payments.test/', 'https://payments.test/api/payout/mobile-money-payout'],
    ['https://payments.test', 'https://payments.test/api/payout/mobile-money-payout'],
  ])('joins baseUrl %s keeping its path prefix', async (baseUrl, expected) => {
    service.on(expected, () => HttpResponse.json(documentedReplies.payout));
    await client({ baseUrl }).initiatePayout(payoutInput);
    expect((await service.recorded()).map((request) => request.url)).toEqual([expected]);
  });

  it('merges client headers (object or async function) and per-call headers', async () => {
    service.documented();
    await client({ headers: { 'X-Merchant': 'm1', 'X-Trace': 'client' } }).initiatePayout(payoutInput, {
      headers: { 'x-trace': 'call' },
    });
    let calls = 0;
    await client({
      apiKey: undefined,
      headers: async () => {
        calls += 1;
        return { authorization: 'Token t', 'x-merchant': `m${calls}` };
      },
    }).initiatePayout(payoutInput);
    const requests = await service.recorded();
    expect(requests[0]!.headers).toMatchObject({
      'x-merchant': 'm1',
      'x-trace': 'call',
      authorization: 'Bearer sk_test_123',
    });
    expect(requests[1]!.headers).toMatchObject({ 'x-merchant': 'm1', authorization: 'Token t' });
    expect(calls).toBe(1);
  });

  it('takes headers as a Headers object or an array of pairs too', async () => {
    service.documented();
    await client({ headers: new Headers({ 'X-Merchant': 'm1' }) }).initiatePayout(payoutInput, {
      headers: [['X-Trace', 'call']],
    });
    const [request] = await service.recorded();
    expect(request!.headers).toMatchObject({ 'x-merchant': 'm1', 'x-trace': 'call' });
  });

  it('applies mobileMoneyBrand, paymentMethods, payoutRecipientKey and cardFieldEncoding', async () => {
    service.documented();
    // The service names its brand in the mobile-money reply: the one the client is configured with.
    service.on('api/payment/payment-initiate-callback/', async ({ request }) => {
      const body = (await request.clone().json()) as { card_details?: unknown };
      return HttpResponse.json(
        body.card_details ? documentedReplies.card : { message: 'M-PESA Payment Initiated', status: 200 },
      );
    });
    const configured = client({
      mobileMoneyBrand: 'M-PESA',
      paymentMethods: { card: 'VISA' },
      payoutRecipientKey: 'client_details',
      cardFieldEncoding: 'string',
    });
    await configured.initiateMobileMoneyPayment(mobileMoneyPaymentInput);
    await configured.initiateCardPayment({
      ...cardPaymentInput,
      card_details: { ...cardPaymentInput.card_details, cvc: '042' },
    });
    await configured.initiatePayout(payoutInput);
    const requests = await service.recorded();
    const [mobile, card, payout] = requests.map(
      (request) => request.json as Record<string, Record<string, unknown>>,
    );
    expect(mobile!.customer_details!.payment_method).toBe('M-PESA');
    expect(card!.customer_details!.payment_method).toBe('VISA');
    expect(requests[1]!.text).toContain(
      '"card_details":{"card_number":"9999999999999995","expiry_month":"07","expiry_year":"2031","cvc":"042"}',
    );
    expect(Object.keys(payout!)).toEqual(['client_details', 'destination', 'transfer', 'webhook_endpoint']);
  });

  it('uses a custom fetch, handing it a Request with the wire body, the headers and a signal', async () => {
    const seen: string[] = [];
    const sent: { body: unknown; headers: Record<string, string>; signal: unknown }[] = [];
    const custom = async (request: Request) => {
      seen.push(`${request.method} ${request.url}`);
      sent.push({
        body: await request.json(),
        headers: Object.fromEntries(request.headers),
        signal: request.signal,
      });
      return Response.json(documentedReplies.payout);
    };
    await expect(client({ fetch: custom }).initiatePayout(payoutInput)).resolves.toEqual(
      documentedReplies.payout,
    );
    expect(seen).toEqual([`POST ${BASE_URL}/api/payout/mobile-money-payout`]);
    expect(sent[0]!.body).toMatchObject({ transfer: { amount: expect.anything() } });
    expect(sent[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: 'Bearer sk_test_123',
    });
    expect(sent[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(await service.recorded()).toHaveLength(0);
  });

  it('rejects bad client options with every issue', () => {
    expect(
      () =>
        new PaymentsClient({
          baseUrl: 'payments.test',
          timeout: -1,
          payoutRecipientKey: 'recipient' as never,
          cardFieldEncoding: 'bigint' as never,
        }),
    ).toThrow(/baseUrl.*timeout.*payoutRecipientKey.*cardFieldEncoding/);
    expect(() => new PaymentsClient({ baseUrl: 'https://x.test/?a=1' })).toThrow(/query string/);
  });
});
