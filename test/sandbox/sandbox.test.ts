import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { ApiError } from '../../src/errors.js';
import {
  buildCardPaymentRequest,
  buildCheckoutSessionRequest,
  buildMobileMoneyPaymentRequest,
  buildPayoutRequest,
} from '../../src/index.js';
import { parseCallback } from '../../src/callbacks/parse.js';
import {
  startSandbox,
  sandboxTestValues,
  type Sandbox,
  type SandboxLogEvent,
} from '../../src/sandbox/index.js';
import { amount, customer, futureYear, payoutTo, startMerchantSite, type MerchantSite } from './helpers.js';

let site: MerchantSite;
let sandbox: Sandbox;
let logs: SandboxLogEvent[];
let client: PaymentsClient;

async function start(options: Parameters<typeof startSandbox>[0] = {}) {
  logs = [];
  sandbox = await startSandbox({
    callbackDelayMs: 5,
    retryDelayMs: 10,
    log: (event) => logs.push(event),
    ...options,
  });
  client = new PaymentsClient({ baseUrl: sandbox.url, mobileMoneyBrand: options.mobileMoneyBrand });
}

beforeEach(async () => {
  site = await startMerchantSite();
});

afterEach(async () => {
  await sandbox?.close();
  await site.close();
});

const card = (card_number: string) => ({
  customer_details: customer,
  amount,
  card_details: { card_number, expiry_month: 12, expiry_year: futureYear, cvc: '123' },
  callback_details: { transaction_reference: 'ORDER-1', callback_url: `${site.url}/hooks/card` },
});

const mobileMoney = (phone_number: string) => ({
  customer_details: { ...customer, phone_number },
  amount,
  callback_details: { transaction_reference: 'ORDER-2', callback_url: `${site.url}/hooks/momo` },
});

const payout = (amountValue: number, reference_id = 123456789012) =>
  payoutTo(`${site.url}/hooks/payout`, amountValue, reference_id);

const noCardDataInLogs = () => {
  const text = JSON.stringify(logs);
  expect(text).not.toContain('4242424242424242');
  expect(text).not.toContain('4000000000000002');
};

describe('the sandbox over loopback with the real client', () => {
  it('binds to 127.0.0.1 on a free port by default', async () => {
    await start();
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.address).toBe(`127.0.0.1:${sandbox.port}`);
    expect(logs[0]).toEqual({ kind: 'listening', url: sandbox.url, address: sandbox.address });
  });

  it('answers a card payment and posts the card success callback with the exact keys', async () => {
    await start();
    await expect(client.initiateCardPayment(card(sandboxTestValues.cards.success))).resolves.toEqual({
      message: 'Card Payment Initiated',
      status: 200,
    });
    const [callback] = await site.waitForCallbacks(1);
    expect(callback?.path).toBe('/hooks/card');
    const body = callback!.body;
    expect(Object.keys(body)).toEqual([
      'id',
      'status',
      'payment method',
      'message',
      'amount',
      'currency',
      'amount captured',
      'payment status',
      'transaction id',
      'paid',
      'timestamp',
    ]);
    expect(body).toMatchObject({
      status: 200,
      'payment method': 'CARD',
      message: 'CARD Payment Success',
      amount: '1500',
      currency: 'KES',
      'amount captured': '1500',
      'payment status': 'Payment complete.',
      paid: 'True',
    });
    expect(Number.isInteger(body.timestamp)).toBe(true);
    expect(Math.abs((body.timestamp as number) - Date.now() / 1000)).toBeLessThan(60);
    expect(parseCallback(body).type).toBe('payment.card.succeeded');
    noCardDataInLogs();
    expect(logs.some((e) => e.kind === 'request' && e.summary?.includes('**** 4242'))).toBe(true);
  });

  it('declines card 4000000000000002 with CARD Payment Failed', async () => {
    await start();
    await client.initiateCardPayment(card(sandboxTestValues.cards.declined));
    const [callback] = await site.waitForCallbacks(1);
    expect(callback!.body).toMatchObject({
      message: 'CARD Payment Failed',
      'payment status': 'Payment incomplete.',
      paid: 'False',
    });
    expect(callback!.body).not.toHaveProperty('amount captured');
    expect(parseCallback(callback!.body).type).toBe('payment.card.failed');
    noCardDataInLogs();
  });

  it('succeeds a mobile-money payment with numeric amounts and the brand word', async () => {
    await start({ mobileMoneyBrand: 'M-PESA' });
    await expect(client.initiateMobileMoneyPayment(mobileMoney('0712345678'))).resolves.toEqual({
      message: 'M-PESA Payment Initiated',
      status: 200,
    });
    const [callback] = await site.waitForCallbacks(1);
    expect(callback!.body).toMatchObject({
      response_status: 200,
      payment_method: 'M-PESA',
      message: 'M-PESA Payment Success',
      amount: 1500,
      amount_captured: 1500,
      payment_status: 'Payment complete.',
      paid: 'True',
    });
    expect(parseCallback(callback!.body).type).toBe('payment.mobile_money.succeeded');
  });

  it('fails phone 254700000406 with response_status 406, insufficient funds', async () => {
    await start();
    await client.initiateMobileMoneyPayment(mobileMoney(sandboxTestValues.phones.insufficientFunds));
    const [callback] = await site.waitForCallbacks(1);
    expect(callback!.body).toMatchObject({
      transaction_reference: 'ORDER-2',
      response_status: 406,
      amount: 1500,
      paid: 'False',
      'payment status': 'Payment Incomplete.',
      message: 'Insufficient funds',
    });
    const event = parseCallback(callback!.body);
    expect(event.type).toBe('payment.mobile_money.failed');
    expect(event.reference).toBe('ORDER-2');
  });

  it('pays out from the wallet, charging the fee, and refuses a payout above the balance', async () => {
    await start({ walletBalance: 10_000, payoutFee: 30 });
    await expect(client.initiatePayout(payout(1000))).resolves.toEqual({
      message: 'Mobile Payout Initiated',
      status: 200,
    });
    await site.waitForCallbacks(1);
    expect(sandbox.walletBalance).toBe(8970);
    await client.initiatePayout(payout(8950, 123456789013));
    const [ok, failed] = await site.waitForCallbacks(2);
    expect(ok!.body).toEqual({
      amount: '1000',
      currency: 'KES',
      message: 'Payout Successful',
      payout_fee: '30',
      reference_id: '123456789012',
      status: 'Success',
      transaction_id: expect.any(String),
      wallet_balance: '8970',
    });
    expect(failed!.body).toEqual({
      amount: '8950',
      currency: 'KES',
      message: 'Payout Failed',
      reference_id: '123456789013',
      status: 'Failed',
      transaction_id: expect.any(String),
      wallet_balance: '8970',
    });
    expect(parseCallback(ok!.body).type).toBe('payout.succeeded');
    expect(parseCallback(failed!.body).type).toBe('payout.failed');
    expect(sandbox.walletBalance).toBe(8970);
  });

  it('refuses a payout reference_id it has already accepted: 409, nothing debited, no callback', async () => {
    await start();
    await expect(client.initiatePayout(payout(1000))).resolves.toMatchObject({ status: 200 });
    const again = await client.initiatePayout(payout(1000)).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(ApiError);
    expect((again as ApiError).status).toBe(409);
    expect(JSON.parse((again as ApiError).body)).toEqual({
      error: 'duplicate_reference_id',
      message: 'Payout refused: transfer.reference_id was already used by an earlier payout',
      issues: [
        {
          field: 'transfer.reference_id',
          path: ['transfer', 'reference_id'],
          code: 'duplicate_reference_id',
          message:
            'already used by an earlier payout of this sandbox; each transfer needs its own 12-digit reference_id (generateReferenceId() makes one)',
        },
      ],
    });
    // A reference whose payout failed (above the balance) is used as well.
    await client.initiatePayout(payout(10_000_000, 123456789013));
    const retried = await client.initiatePayout(payout(1000, 123456789013)).catch((error: unknown) => error);
    expect((retried as ApiError).status).toBe(409);
    // A payout refused as invalid does not use its reference.
    const invalid = await fetch(`${sandbox.url}/api/payout/mobile-money-payout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        customer_details: { full_name: 'John Doe', phone_number: '254712345678', email: 'john@example.com' },
        destination: { type: 'mobile_wallet', country_code: 'KE', mobile_number: '0', wallet_name: 'W' },
        transfer: { amount: '1000', currency: 'KES', reference_id: 123456789014, description: 'refund' },
        webhook_endpoint: { webhook_url: `${site.url}/hooks/payout` },
      }),
    });
    expect(invalid.status).toBe(400);
    await expect(client.initiatePayout(payout(1000, 123456789014))).resolves.toMatchObject({ status: 200 });
    await sandbox.waitForIdle();
    expect(site.received.map((callback) => [callback.body.reference_id, callback.body.status])).toEqual([
      ['123456789012', 'Success'],
      ['123456789013', 'Failed'],
      ['123456789014', 'Success'],
    ]);
    expect(sandbox.walletBalance).toBe(
      sandboxTestValues.walletBalance - 2 * (1000 + sandboxTestValues.payoutFee),
    );
  });

  it('accepts the payout recipient under client_details too', async () => {
    await start();
    const recipientKeyClient = new PaymentsClient({
      baseUrl: sandbox.url,
      payoutRecipientKey: 'client_details',
    });
    await expect(recipientKeyClient.initiatePayout(payout(100))).resolves.toMatchObject({ status: 200 });
    await site.waitForCallbacks(1);
  });

  it('creates a checkout session: boolean status, order_id echoed as a string, a working link', async () => {
    await start();
    const session = await client.createCheckoutSession({
      customer_details: customer,
      amount: { ...amount, order_id: 1001, total: 2500 },
      redirect_urls: {
        success_url: `${site.url}/success`,
        failed_url: `${site.url}/failed`,
        callback_url: `${site.url}/hooks/checkout`,
      },
    });
    expect(session.status).toBe(true);
    expect(session.order_id).toBe('1001');
    expect(session.checkout_link).toMatch(new RegExp(`^${sandbox.url}/checkout/`));
    const page = await fetch(session.checkout_link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('KES 2,500.00');
  });

  describe('the hosted checkout form, submitted over HTTP', () => {
    const createSession = async (orderId: number) =>
      client.createCheckoutSession({
        customer_details: customer,
        amount: { ...amount, order_id: orderId, total: 2500 },
        redirect_urls: {
          success_url: `${site.url}/success`,
          failed_url: `${site.url}/failed`,
          callback_url: `${site.url}/hooks/checkout`,
        },
      });
    const submit = (link: string, fields: Record<string, string>) =>
      fetch(link, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });

    it('paid by card: 303 to success_url and the contradictory card success callback', async () => {
      await start();
      const { checkout_link } = await createSession(1001);
      const response = await submit(checkout_link, {
        method: 'card',
        card_number: '4242 4242 4242 4242',
        expiry_month: '12',
        expiry_year: String(futureYear),
        cvc: '123',
        action: 'pay',
      });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(`${site.url}/success`);
      const [callback] = await site.waitForCallbacks(1);
      expect(callback!.body).toEqual({
        payment_method: 'CARD',
        paid: 'False',
        response_status: 200,
        order_id: '1001',
        message: 'Card Payment Successful',
        amount: '2500',
        payment_status: 'Payment complete.',
      });
      const event = parseCallback(callback!.body);
      expect(event.type).toBe('checkout.succeeded');
      expect(event.warnings.map((warning) => warning.code)).toEqual(['paid_flag_contradicts_payment_status']);
      noCardDataInLogs();
    });

    it('paid by mobile-money: MOBILE-MONEY Payment Successful', async () => {
      await start();
      const { checkout_link } = await createSession(1002);
      const response = await submit(checkout_link, {
        method: 'mobile_money',
        phone_number: '0712345678',
        action: 'pay',
      });
      expect(response.headers.get('location')).toBe(`${site.url}/success`);
      const [callback] = await site.waitForCallbacks(1);
      expect(callback!.body).toMatchObject({
        payment_method: 'MOBILE-MONEY',
        paid: 'True',
        message: 'MOBILE-MONEY Payment Successful',
        payment_status: 'Payment complete.',
      });
    });

    it('failed (declined card): 303 to failed_url and Insufficient funds / Payment Incomplete.', async () => {
      await start();
      const { checkout_link } = await createSession(1003);
      const response = await submit(checkout_link, {
        method: 'card',
        card_number: sandboxTestValues.cards.declined,
        expiry_month: '12',
        expiry_year: String(futureYear),
        cvc: '123',
        action: 'pay',
      });
      expect(response.headers.get('location')).toBe(`${site.url}/failed`);
      const [callback] = await site.waitForCallbacks(1);
      expect(callback!.body).toMatchObject({
        paid: 'False',
        order_id: '1003',
        message: 'Insufficient funds',
        payment_status: 'Payment Incomplete.',
      });
      expect(parseCallback(callback!.body).type).toBe('checkout.failed');
      // A completed session cannot be paid twice.
      const again = await submit(checkout_link, { method: 'mobile_money', phone_number: '0712345678' });
      expect(again.status).toBe(409);
    });

    it('completes one of two submits of one page: the other answers 409, and one callback is sent', async () => {
      await start();
      const { checkout_link } = await createSession(1005);
      const paying = new URLSearchParams({
        method: 'card',
        card_number: sandboxTestValues.cards.success,
        expiry_month: '12',
        expiry_year: String(futureYear),
        cvc: '123',
        action: 'pay',
      }).toString();
      // The first submit's body is still arriving when the second one (failure chosen) is answered.
      const slow = request(checkout_link, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(Buffer.byteLength(paying)),
        },
      });
      const slowAnswer = new Promise<IncomingMessage>((resolve, reject) => {
        slow.on('response', resolve).on('error', reject);
      });
      slow.write(paying.slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const failing = await submit(checkout_link, { method: 'card', action: 'fail' });
      slow.end(paying.slice(10));
      const paid = await slowAnswer;
      const html = await new Promise<string>((resolve) => {
        let text = '';
        paid.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        paid.on('end', () => resolve(text));
      });
      expect(failing.status).toBe(303);
      expect(failing.headers.get('location')).toBe(`${site.url}/failed`);
      expect(paid.statusCode).toBe(409);
      expect(html).toContain('This checkout is complete');
      expect(html).toContain('was not paid');
      await sandbox.waitForIdle();
      expect(sandbox.deliveries.map((delivery) => delivery.type)).toEqual(['checkout.failed']);
      // The same with both submits racing from the start.
      const { checkout_link: link } = await createSession(1006);
      const both = await Promise.all([
        submit(link, Object.fromEntries(new URLSearchParams(paying))),
        submit(link, { method: 'card', action: 'fail' }),
      ]);
      expect(both.map((response) => response.status).sort()).toEqual([303, 409]);
      await sandbox.waitForIdle();
      expect(sandbox.deliveries).toHaveLength(2);
    });

    it('re-renders the form with field errors (422) and never echoes the card number', async () => {
      await start();
      const { checkout_link } = await createSession(1004);
      const response = await submit(checkout_link, {
        method: 'card',
        card_number: '4242424242424241',
        expiry_month: '13',
        expiry_year: String(futureYear),
        cvc: '12',
        action: 'pay',
      });
      expect(response.status).toBe(422);
      const html = await response.text();
      expect(html).toContain('role="alert"');
      expect(html).toMatch(/Card number: .*Luhn/);
      expect(html).toContain('CVC:');
      expect(html).not.toContain('4242424242424241');
      expect(site.attempts).toHaveLength(0);
      // The page stays open for the customer to correct the form.
      const corrected = await submit(checkout_link, {
        method: 'mobile_money',
        phone_number: '0712345678',
        action: 'pay',
      });
      expect(corrected.status).toBe(303);
      expect(corrected.headers.get('location')).toBe(`${site.url}/success`);
    });

    it('puts back only the values their own field accepts: card digits or a cvc typed in the wrong field are not echoed', async () => {
      await start();
      const { checkout_link } = await createSession(1007);
      const cases: Record<string, string>[] = [
        // The card number typed into the phone field (paying by card: the phone is not checked).
        {
          method: 'card',
          card_number: '',
          expiry_month: '12',
          expiry_year: String(futureYear),
          cvc: '123',
          phone_number: '5555555555554444',
        },
        // …and into the expiry year, beside a month that is refused (the year is then not checked).
        {
          method: 'card',
          card_number: '5555555555554444',
          expiry_month: '321',
          expiry_year: '5555555555554444',
          cvc: '',
        },
        // …and paying by mobile money, into the phone field.
        { method: 'mobile_money', phone_number: '5555555555554444' },
      ];
      for (const form of cases) {
        const response = await submit(checkout_link, { ...form, action: 'pay' });
        expect(response.status).toBe(422);
        const html = await response.text();
        expect(html).not.toContain('5555555555554444');
        expect(html).not.toContain('value="321"');
        expect(response.headers.get('cache-control')).toBe('no-store');
      }
      // A value its field accepts is put back, for the customer to correct only the rest.
      const kept = await submit(checkout_link, {
        method: 'card',
        card_number: '4242424242424241',
        expiry_month: '12',
        expiry_year: String(futureYear),
        cvc: '123',
        phone_number: '0712345678',
        action: 'pay',
      });
      const html = await kept.text();
      expect(kept.status).toBe(422);
      expect(html).toContain('value="12"');
      expect(html).toContain(`value="${futureYear}"`);
      expect(html).toContain('value="0712345678"');
      expect(site.attempts).toHaveLength(0);
    });

    it('asks the browser to keep no copy of the checkout page (Cache-Control: no-store)', async () => {
      await start();
      const { checkout_link } = await createSession(1008);
      const page = await fetch(checkout_link);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('bad input', () => {
    it('answers 400 naming the fields, without echoing the card number or cvc', async () => {
      await start();
      const response = await fetch(`${sandbox.url}/api/payment/payment-initiate-callback/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"customer_details":{"payment_method":"CARD","full_name":"Jane","phone_number":"254812345678","email":"jane@example.com"},"card_details":{"card_number":4242424242424241,"expiry_month":13,"expiry_year":${futureYear},"cvc":9876},"callback_details":{"transaction_reference":"R1","callback_url":"ftp://x"}}`,
      });
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).not.toContain('4242424242424241');
      expect(text).not.toContain('9876');
      const body = JSON.parse(text) as { error: string; issues: { field: string }[] };
      expect(body.error).toBe('invalid_request');
      expect(body.issues.map((issue) => issue.field)).toEqual(
        expect.arrayContaining([
          'customer_details.phone_number',
          'card_details.card_number',
          'card_details.expiry_month',
          'card_details.cvc',
          'callback_details.callback_url',
        ]),
      );
      expect(JSON.stringify(logs)).not.toContain('4242424242424241');
    });

    it('refuses an expired card with 400 naming card_details.expiry_year, and sends no callback', async () => {
      await start();
      // The client refuses an expired card before sending; another client may not.
      const post = (expiry_month: number, expiry_year: number) =>
        fetch(`${sandbox.url}/api/payment/payment-initiate-callback/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            ...card(sandboxTestValues.cards.success),
            customer_details: { ...customer, phone_number: '254712345678', payment_method: 'CARD' },
            amount: { delivery_fee: '100', discount_fee: '50', total: '1500', currency: 'KES' },
            card_details: { card_number: 4242424242424242, expiry_month, expiry_year, cvc: 123 },
          }),
        });
      const expired = await post(12, 2020);
      expect(expired.status).toBe(400);
      expect(await expired.json()).toEqual({
        error: 'invalid_request',
        message: 'Invalid card payment: card_details.expiry_year',
        issues: [
          {
            field: 'card_details.expiry_year',
            path: ['card_details', 'expiry_year'],
            code: 'card_expired',
            message: 'the card has expired (expiry_month/expiry_year is before the current month)',
          },
        ],
      });
      // A card is valid through its expiry month (UTC).
      const now = new Date();
      const thisMonth = await post(now.getUTCMonth() + 1, now.getUTCFullYear());
      expect(thisMonth.status).toBe(200);
      await sandbox.waitForIdle();
      expect(site.received.map((callback) => callback.body.message)).toEqual(['CARD Payment Success']);
    });

    it('refuses a currency that is not an ISO 4217 code on every endpoint, naming the field', async () => {
      await start();
      // The client's builders refuse ABC before sending; another client may not.
      const checkout = {
        customer_details: customer,
        amount: { ...amount, order_id: 1001 },
        redirect_urls: {
          success_url: `${site.url}/success`,
          failed_url: `${site.url}/failed`,
          callback_url: `${site.url}/hooks/checkout`,
        },
      };
      const withAbc = (body: object, key: 'amount' | 'transfer') => {
        const wire = JSON.parse(JSON.stringify(body)) as Record<string, Record<string, unknown>>;
        return { ...wire, [key]: { ...wire[key], currency: 'ABC' } };
      };
      const requests = [
        [
          '/api/payment/payment-initiate-callback/',
          'card payment',
          'amount.currency',
          withAbc(buildCardPaymentRequest(card(sandboxTestValues.cards.success)), 'amount'),
        ],
        [
          '/api/payment/payment-initiate-callback/',
          'mobile-money payment',
          'amount.currency',
          withAbc(buildMobileMoneyPaymentRequest(mobileMoney('0712345678')), 'amount'),
        ],
        [
          '/checkout.sessions/hosted/redirect/session',
          'checkout session',
          'amount.currency',
          withAbc(buildCheckoutSessionRequest(checkout), 'amount'),
        ],
        [
          '/api/payout/mobile-money-payout',
          'payout',
          'transfer.currency',
          withAbc(buildPayoutRequest(payout(1000)), 'transfer'),
        ],
      ] as const;
      for (const [path, what, field, body] of requests) {
        const response = await fetch(`${sandbox.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({
          error: 'invalid_request',
          message: `Invalid ${what}: ${field}`,
          issues: [
            {
              field,
              path: field.split('.'),
              code: 'invalid_currency',
              message: 'expected an ISO 4217 currency code such as KES',
            },
          ],
        });
      }
      await sandbox.waitForIdle();
      expect(site.attempts).toEqual([]);
      expect(sandbox.walletBalance).toBe(sandboxTestValues.walletBalance);
    });

    it('lists a currency that is not an ISO 4217 code with the other fields at fault', async () => {
      await start();
      const body = buildMobileMoneyPaymentRequest(mobileMoney('0712345678'));
      const response = await fetch(`${sandbox.url}/api/payment/payment-initiate-callback/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ...body,
          customer_details: { ...body.customer_details, phone_number: '0712345678' },
          amount: { ...body.amount, currency: 'ABC' },
        }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        message: 'Invalid mobile-money payment: customer_details.phone_number, amount.currency',
        issues: [
          { field: 'customer_details.phone_number' },
          { field: 'amount.currency', code: 'invalid_currency' },
        ],
      });
    });

    it('says what failed for a missing or wrongly typed field: required, or the type expected and got', async () => {
      await start();
      const wire = (body: object) =>
        JSON.parse(JSON.stringify(body)) as Record<string, Record<string, unknown>>;
      const momo = wire(buildMobileMoneyPaymentRequest(mobileMoney('0712345678')));
      const cardBody = wire(buildCardPaymentRequest(card(sandboxTestValues.cards.success)));
      const payoutBody = wire(buildPayoutRequest(payout(1000)));
      const without = (object: Record<string, unknown> | undefined, key: string) =>
        Object.fromEntries(Object.entries(object ?? {}).filter(([name]) => name !== key));
      const cases = [
        [
          '/api/payment/payment-initiate-callback/',
          { ...momo, customer_details: without(momo.customer_details, 'phone_number') },
          'customer_details.phone_number',
          'required (expected string)',
        ],
        [
          '/api/payment/payment-initiate-callback/',
          { ...momo, amount: { ...momo.amount, total: 1500 } },
          'amount.total',
          'expected string, got number',
        ],
        [
          '/api/payment/payment-initiate-callback/',
          { ...cardBody, card_details: without(cardBody.card_details, 'card_number') },
          'card_details.card_number',
          'required (expected 16 digits that pass the Luhn check)',
        ],
        [
          '/api/payment/payment-initiate-callback/',
          { ...cardBody, card_details: without(cardBody.card_details, 'expiry_month') },
          'card_details.expiry_month',
          'required (expected a month from 1 to 12)',
        ],
        [
          '/api/payout/mobile-money-payout',
          { ...payoutBody, transfer: without(payoutBody.transfer, 'reference_id') },
          'transfer.reference_id',
          'required (expected 12 digits, the first not 0)',
        ],
        [
          '/api/payout/mobile-money-payout',
          { ...payoutBody, destination: { ...payoutBody.destination, country_code: 404 } },
          'destination.country_code',
          'expected string, got number',
        ],
      ] as const;
      for (const [path, body, field, message] of cases) {
        const response = await fetch(`${sandbox.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(400);
        const { issues } = (await response.json()) as { issues: { field: string; message: string }[] };
        expect(issues.map((issue) => [issue.field, issue.message])).toEqual([[field, message]]);
      }
      await sandbox.waitForIdle();
      expect(site.attempts).toEqual([]);
    });

    it('answers 400 for a body that is not JSON, and 404 JSON for an unknown path', async () => {
      await start();
      const bad = await fetch(`${sandbox.url}/api/payout/mobile-money-payout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{nope',
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ error: 'invalid_json' });
      const missing = await fetch(`${sandbox.url}/api/nothing`, { method: 'POST', body: '{}' });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: 'not_found' });
    });

    it('answers 413 to a body over 1 MiB', async () => {
      await start();
      const response = await fetch(`${sandbox.url}/api/payout/mobile-money-payout`, {
        method: 'POST',
        body: 'x'.repeat(1024 * 1024 + 1),
      });
      expect(response.status).toBe(413);
    });

    it('refuses card_details with a payment_method other than the card method, saying which method a card payment needs', async () => {
      await start();
      const response = await fetch(`${sandbox.url}/api/payment/payment-initiate-callback/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ...card(sandboxTestValues.cards.success),
          customer_details: { ...customer, phone_number: '254712345678', payment_method: 'MOBILE-MONEY' },
          amount: { delivery_fee: '100', discount_fee: '50', total: '1500', currency: 'KES' },
          card_details: {
            card_number: 4242424242424242,
            expiry_month: 12,
            expiry_year: futureYear,
            cvc: 123,
          },
        }),
      });
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).not.toContain('4242424242424242');
      expect(JSON.parse(text)).toEqual({
        error: 'invalid_request',
        message: 'Invalid mobile-money payment: card_details',
        issues: [
          {
            field: 'card_details',
            path: ['card_details'],
            code: 'unrecognized_keys',
            message:
              'unknown key "card_details": a request is a card payment only when customer_details.payment_method is CARD; with any other payment_method it is a mobile-money payment, which has no card_details',
          },
        ],
      });
      await sandbox.waitForIdle();
      expect(site.attempts).toEqual([]);
    });
  });

  describe('endpoints 1 and 2: a card payment only with card_details and the card method', () => {
    it.each(['CARD', 'card'])(
      'takes payment_method %s without card_details for a mobile-money payment',
      async (payment_method) => {
        await start();
        const input = mobileMoney('0712345678');
        await expect(
          client.initiateMobileMoneyPayment({
            ...input,
            customer_details: { ...input.customer_details, payment_method },
          }),
        ).resolves.toEqual({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
        const [callback] = await site.waitForCallbacks(1);
        expect(callback?.path).toBe('/hooks/momo');
        expect(parseCallback(callback!.body).type).toBe('payment.mobile_money.succeeded');
      },
    );
  });

  describe('delivery', () => {
    it('retries with backoff until the webhook answers 2xx', async () => {
      await start();
      site.failNext(2);
      await client.initiateMobileMoneyPayment(mobileMoney('0712345678'));
      await site.waitForCallbacks(1);
      await sandbox.waitForIdle();
      expect(site.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
      const delivery = sandbox.deliveries[0]!;
      expect(delivery.state).toBe('delivered');
      expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
      const gaps = [1, 2].map(
        (i) => delivery.attempts[i]!.at.getTime() - delivery.attempts[i - 1]!.at.getTime(),
      );
      expect(gaps[1]!).toBeGreaterThanOrEqual(gaps[0]! - 2); // backoff grows (10 ms, then 20 ms)
      expect(
        logs.filter((e) => e.kind === 'callback').map((e) => (e.kind === 'callback' ? e.outcome : '')),
      ).toEqual(['retrying', 'retrying', 'delivered']);
    });

    it('gives up after deliveryRetries more attempts', async () => {
      await start({ deliveryRetries: 2 });
      site.failNext(10);
      await client.initiateMobileMoneyPayment(mobileMoney('0712345678'));
      await sandbox.waitForIdle();
      expect(site.attempts).toHaveLength(3);
      expect(sandbox.deliveries[0]!.state).toBe('failed');
    });

    it('retries when the webhook is unreachable', async () => {
      await start({ deliveryRetries: 1 });
      await client.initiateMobileMoneyPayment({
        ...mobileMoney('0712345678'),
        callback_details: { transaction_reference: 'R', callback_url: 'http://127.0.0.1:9/hooks' },
      });
      await sandbox.waitForIdle();
      const delivery = sandbox.deliveries[0]!;
      expect(delivery.state).toBe('failed');
      expect(delivery.attempts).toHaveLength(2);
      expect(delivery.attempts[0]!.error).toBeTruthy();
    });

    it('counts a webhook that does not answer within deliveryTimeoutMs as failed, and retries it', async () => {
      await start({ deliveryRetries: 1, deliveryTimeoutMs: 100 });
      let calls = 0;
      const stalling = createServer((request, response) => {
        request.resume();
        if (calls++ === 0) return; // the first attempt never gets an answer
        response.end();
      });
      await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
      const { port } = stalling.address() as AddressInfo;
      try {
        await client.initiateMobileMoneyPayment({
          ...mobileMoney('0712345678'),
          callback_details: { transaction_reference: 'R', callback_url: `http://127.0.0.1:${port}/hooks` },
        });
        await sandbox.waitForIdle();
        const delivery = sandbox.deliveries[0]!;
        expect(delivery.state).toBe('delivered');
        expect(delivery.attempts.map((a) => a.status ?? a.error)).toEqual(['timeout', 200]);
      } finally {
        stalling.closeAllConnections();
        await new Promise((resolve) => stalling.close(resolve));
      }
    });

    it('delivers duplicates when asked, so handlers can prove idempotency', async () => {
      await start({ duplicateDeliveries: 2 });
      await client.initiatePayout(payout(100));
      await site.waitForCallbacks(3);
      await sandbox.waitForIdle();
      expect(site.received).toHaveLength(3);
      expect(site.received[1]!.body).toEqual(site.received[0]!.body);
      expect(sandbox.deliveries.map((d) => d.copy)).toEqual([0, 1, 2]);
      expect(sandbox.walletBalance).toBe(sandboxTestValues.walletBalance - 100 - sandboxTestValues.payoutFee);
    });

    it('never blocks the HTTP response on the delivery', async () => {
      await start({ callbackDelayMs: 10_000 });
      const started = Date.now();
      await client.initiateCardPayment(card(sandboxTestValues.cards.success));
      expect(Date.now() - started).toBeLessThan(2000);
      expect(sandbox.deliveries[0]!.state).toBe('pending');
      await sandbox.close();
      expect(sandbox.deliveries[0]!.state).toBe('cancelled');
      expect(site.attempts).toHaveLength(0);
    });

    it('fails payments at random with failureRate', async () => {
      await start({ failureRate: 1 });
      await client.initiateMobileMoneyPayment(mobileMoney('0712345678'));
      const [callback] = await site.waitForCallbacks(1);
      expect(callback!.body).toMatchObject({ response_status: 406, paid: 'False' });
    });
  });
});
