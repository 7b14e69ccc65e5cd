import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { parseCallback } from '../../src/callbacks/parse.js';
import type { CallbackEvent } from '../../src/callbacks/events.js';
import { createPaymentsHandlers, type PaymentsHandlers } from '../../src/testing/msw/index.js';
import { sandboxTestValues } from '../../src/sandbox/index.js';

const baseUrl = 'https://payments.example.test';
const server = setupServer();
let payments: PaymentsHandlers;
let events: { event: CallbackEvent; url: string }[];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  payments?.close();
  server.resetHandlers();
});
afterAll(() => server.close());

function use(options: Partial<Parameters<typeof createPaymentsHandlers>[0]> = {}) {
  events = [];
  payments = createPaymentsHandlers({
    baseUrl,
    onCallback: (payload, url) => {
      events.push({ event: parseCallback(payload), url });
    },
    ...options,
  });
  server.use(...payments.handlers);
  return new PaymentsClient({ baseUrl, mobileMoneyBrand: options.mobileMoneyBrand });
}

const customer = { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' };
const amount = { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' };
const year = new Date().getFullYear() + 2;
const callback_details = { transaction_reference: 'ORDER-7', callback_url: 'https://shop.example/hooks' };

describe('createPaymentsHandlers (msw)', () => {
  it('answers the four endpoints like the sandbox and delivers every callback to onCallback', async () => {
    const client = use();
    const cardInput = (card_number: string) => ({
      customer_details: customer,
      amount,
      card_details: { card_number, expiry_month: 1, expiry_year: year, cvc: 321 },
      callback_details,
    });
    await expect(client.initiateCardPayment(cardInput(sandboxTestValues.cards.success))).resolves.toEqual({
      message: 'Card Payment Initiated',
      status: 200,
    });
    await client.initiateCardPayment(cardInput(sandboxTestValues.cards.declined));
    await client.initiateMobileMoneyPayment({ customer_details: customer, amount, callback_details });
    await client.initiateMobileMoneyPayment({
      customer_details: { ...customer, phone_number: sandboxTestValues.phones.insufficientFunds },
      amount,
      callback_details,
    });
    const payoutInput = (value: number, reference_id: number) => ({
      customer_details: customer,
      destination: {
        type: 'mobile_wallet',
        country_code: 'KE',
        mobile_number: '0712345678',
        wallet_name: 'W',
      },
      transfer: { amount: value, currency: 'KES', reference_id, description: 'refund' },
      webhook_endpoint: { webhook_url: 'https://shop.example/payouts' },
    });
    await client.initiatePayout(payoutInput(500, 123456789012));
    await client.initiatePayout(payoutInput(10_000_000, 123456789013));
    await payments.waitForIdle();
    expect(events.map((e) => e.event.type)).toEqual([
      'payment.card.succeeded',
      'payment.card.failed',
      'payment.mobile_money.succeeded',
      'payment.mobile_money.failed',
      'payout.succeeded',
      'payout.failed',
    ]);
    expect(events[4]!.url).toBe('https://shop.example/payouts');
    expect(payments.walletBalance).toBe(sandboxTestValues.walletBalance - 500 - sandboxTestValues.payoutFee);
  });

  it('serves the checkout session and its page, and posts the redirect callback', async () => {
    const client = use({ mobileMoneyBrand: 'M-PESA' });
    const session = await client.createCheckoutSession({
      customer_details: customer,
      amount: { ...amount, order_id: 77 },
      redirect_urls: {
        success_url: 'https://shop.example/ok',
        failed_url: 'https://shop.example/ko',
        callback_url: 'https://shop.example/hooks',
      },
    });
    expect(session).toMatchObject({ status: true, order_id: '77' });
    expect(session.checkout_link.startsWith(`${baseUrl}/checkout/`)).toBe(true);
    const page = await fetch(session.checkout_link);
    expect(await page.text()).toContain('M-PESA');
    const response = await fetch(session.checkout_link, {
      method: 'POST',
      body: new URLSearchParams({ method: 'mobile_money', phone_number: '0712345678', action: 'pay' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('https://shop.example/ok');
    await payments.waitForIdle();
    expect(events[0]!.event).toMatchObject({ type: 'checkout.succeeded', reference: '77' });
    expect(events[0]!.event.message).toBe('M-PESA Payment Successful');
  });

  it('honours a path prefix in baseUrl', async () => {
    const prefixed = `${baseUrl}/v1`;
    events = [];
    payments = createPaymentsHandlers({
      baseUrl: prefixed,
      onCallback: (p) => void events.push({ event: parseCallback(p), url: '' }),
    });
    server.use(...payments.handlers);
    const client = new PaymentsClient({ baseUrl: prefixed });
    await client.initiateMobileMoneyPayment({ customer_details: customer, amount, callback_details });
    await payments.waitForIdle();
    expect(events).toHaveLength(1);
    const session = await client.createCheckoutSession({
      customer_details: customer,
      amount: { ...amount, order_id: 8 },
      redirect_urls: {
        success_url: 'https://s.example/ok',
        failed_url: 'https://s.example/ko',
        callback_url: 'https://s.example/h',
      },
    });
    expect(session.checkout_link.startsWith(`${prefixed}/checkout/`)).toBe(true);
    const html = await (await fetch(session.checkout_link)).text();
    expect(html).toContain(`action="${new URL(session.checkout_link).pathname}"`);
  });

  it('retries when onCallback throws', async () => {
    let calls = 0;
    payments = createPaymentsHandlers({
      baseUrl,
      retryDelayMs: 1,
      onCallback: () => {
        calls += 1;
        if (calls < 3) throw new Error('database down');
      },
    });
    server.use(...payments.handlers);
    await new PaymentsClient({ baseUrl }).initiateMobileMoneyPayment({
      customer_details: customer,
      amount,
      callback_details,
    });
    await payments.waitForIdle();
    expect(calls).toBe(3);
    expect(payments.deliveries[0]!.state).toBe('delivered');
  });

  it('POSTs callbacks to their URL without onCallback (interceptable by your own handler)', async () => {
    const received: unknown[] = [];
    payments = createPaymentsHandlers({ baseUrl });
    server.use(
      ...payments.handlers,
      http.post('https://shop.example/hooks', async ({ request }) => {
        received.push(await request.json());
        return HttpResponse.json({ ok: true });
      }),
    );
    await new PaymentsClient({ baseUrl }).initiateMobileMoneyPayment({
      customer_details: customer,
      amount,
      callback_details,
    });
    await payments.waitForIdle();
    expect(received).toHaveLength(1);
    expect(parseCallback(received[0]).type).toBe('payment.mobile_money.succeeded');
  });

  it('answers 400 naming the fields for a bad body', async () => {
    use();
    const response = await fetch(`${baseUrl}/api/payout/mobile-money-payout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { issues: { field: string }[] };
    expect(body.issues.map((i) => i.field)).toEqual(
      expect.arrayContaining(['destination', 'transfer', 'webhook_endpoint']),
    );
  });
});
