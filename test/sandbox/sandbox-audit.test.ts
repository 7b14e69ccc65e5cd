// Guards found missing by a mutation audit of the sandbox's request handling and callback delivery:
// the requests it must accept or refuse (and the field it names), the amounts and types its
// callbacks carry, and how deliveries are retried, duplicated and reported. Each test goes through
// the public API (startSandbox, plain fetch) with a real local webhook route.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandboxApp, sandboxTestValues, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { futureYear, startMerchantSite, type MerchantSite } from './helpers.js';

let site: MerchantSite;
let sandbox: Sandbox | undefined;

beforeEach(async () => {
  site = await startMerchantSite();
});

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  await site.close();
});

async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  sandbox = await startSandbox({ callbackDelayMs: 0, retryDelayMs: 5, log: false, ...options });
  return sandbox;
}

const paymentPath = '/api/payment/payment-initiate-callback/';
const payoutPath = '/api/payout/mobile-money-payout';

const post = (path: string, body: string | object, contentType = 'application/json') =>
  fetch(`${sandbox!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const customer = (payment_method: string) => ({
  payment_method,
  full_name: 'Jane Doe',
  phone_number: '254712345678',
  email: 'jane@example.com',
});

const cardPayment = (extra: object) => ({
  customer_details: customer('CARD'),
  card_details: {
    card_number: sandboxTestValues.cards.success,
    expiry_month: 12,
    expiry_year: futureYear,
    cvc: '123',
  },
  callback_details: { transaction_reference: 'ORDER-A1', callback_url: `${site.url}/hooks/card` },
  ...extra,
});

const amount = { delivery_fee: '100', discount_fee: '50', total: '1500', currency: 'KES' };

const payout = (transferAmount: string, reference_id: number) => ({
  customer_details: { full_name: 'John Doe', phone_number: '254712345678', email: 'john@example.com' },
  destination: {
    type: 'mobile_wallet',
    country_code: 'KE',
    mobile_number: '254712345678',
    wallet_name: 'MOBILE-MONEY',
  },
  transfer: { amount: transferAmount, currency: 'KES', reference_id, description: 'refund' },
  webhook_endpoint: { webhook_url: `${site.url}/hooks/payout` },
});

describe('the requests the sandbox reads', () => {
  it('reads a body sent with a +json media type as JSON', async () => {
    await start();
    const answer = await post(
      paymentPath,
      cardPayment({ amount }),
      'application/vnd.api+json; charset=utf-8',
    );
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ message: 'Card Payment Initiated', status: 200 });
  });

  it('says an empty content-type header is no content-type, not a malformed one', async () => {
    const app = createSandboxApp({ callbackDelayMs: 0, log: false });
    try {
      const answer = await app.app.fetch(
        new Request(`http://sandbox.test${paymentPath}`, {
          method: 'POST',
          headers: { 'content-type': '' },
          body: JSON.stringify(cardPayment({ amount })),
        }),
      );
      expect(answer.status).toBe(415);
      expect(((await answer.json()) as { message: string }).message).toContain(
        'no content-type header was sent',
      );
    } finally {
      app.close();
    }
  });

  it('keeps every digit of a card number above 2^53 after a string holding an escaped quote', async () => {
    await start();
    // A product named 12" pizza: one escaped quote, then a 16-digit card number no double holds.
    const body = JSON.stringify({
      products: [{ product_name: '12" pizza', quantity: 1, unit_price: 1500 }],
      ...cardPayment({ amount }),
    }).replace(`"${sandboxTestValues.cards.success}"`, '9999999999999995');
    expect(body).toContain('"card_number":9999999999999995');
    const answer = await post(paymentPath, body);
    expect(answer.status).toBe(200);
    const [callback] = await site.waitForCallbacks(1);
    expect(callback!.body).toMatchObject({ message: 'CARD Payment Success', amount: '1500' });
  });

  it('takes payment_method in any case as the card method when card_details is sent', async () => {
    await start();
    const answer = await post(paymentPath, {
      ...cardPayment({ amount }),
      customer_details: customer('card'),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ message: 'Card Payment Initiated', status: 200 });
    const [callback] = await site.waitForCallbacks(1);
    expect(callback!.body).toMatchObject({ 'payment method': 'CARD', message: 'CARD Payment Success' });
  });

  it('refuses a mobile-money payment whose products come to more than 2^53 - 1, naming products', async () => {
    await start();
    const answer = await post(paymentPath, {
      customer_details: customer('MOBILE-MONEY'),
      products: [{ product_name: 'Land', quantity: '2', unit_price: '4503599627370497' }],
      callback_details: { transaction_reference: 'ORDER-BIG', callback_url: `${site.url}/hooks/momo` },
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      error: 'invalid_request',
      issues: [{ field: 'products', code: 'too_big' }],
    });
    expect(sandbox!.deliveries).toEqual([]);
  });
});

describe('the callbacks of a payment without amount', () => {
  it('carry the products total rounded to a whole number, in KES', async () => {
    await start();
    const answer = await post(
      paymentPath,
      cardPayment({ products: [{ product_name: 'Tea', quantity: 1, unit_price: 1499.6 }] }),
    );
    expect(answer.status).toBe(200);
    const [callback] = await site.waitForCallbacks(1);
    expect(callback!.body).toMatchObject({
      message: 'CARD Payment Success',
      amount: '1500',
      'amount captured': '1500',
      currency: 'KES',
    });
  });
});

describe('the delivery record', () => {
  it('records a payout above the wallet balance as a payout.failed delivery', async () => {
    await start({ walletBalance: 1000 });
    expect((await post(payoutPath, payout('5000', 123456789012))).status).toBe(200);
    const report = await sandbox!.waitForIdle({ timeout: 4000 });
    expect(report.ok).toBe(true);
    expect(sandbox!.deliveries.map((d) => [d.type, d.state])).toEqual([['payout.failed', 'delivered']]);
    expect(site.received.map((c) => c.body.status)).toEqual(['Failed']);
  });
});

describe('the hosted checkout form refuses what the real page refuses', () => {
  const openSession = async (orderId: number): Promise<string> => {
    const answer = await post('/checkout.sessions/hosted/redirect/session', {
      customer_details: { full_name: 'Jane Doe', phone_number: '254712345678', email: 'jane@example.com' },
      amount: { order_id: orderId, ...amount },
      redirect_urls: {
        success_url: `${site.url}/success`,
        failed_url: `${site.url}/failed`,
        callback_url: `${site.url}/hooks/checkout`,
      },
    });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { checkout_link: string }).checkout_link;
  };
  const submit = (link: string, fields: Record<string, string>) =>
    fetch(link, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  const card = (expiry_month: string, expiry_year: string) => ({
    method: 'card',
    card_number: sandboxTestValues.cards.success,
    expiry_month,
    expiry_year,
    cvc: '123',
    action: 'pay',
  });

  it.each([
    ['an expired card (01/2020)', card('01', '2020'), 'Expiry: the card has expired'],
    ['an expiry year that is not a year', card('12', 'abcd'), 'Expiry year: expected a 4-digit year'],
    [
      'a phone number that is not one',
      { method: 'mobile_money', phone_number: '12345', action: 'pay' },
      'Phone number:',
    ],
  ])(
    're-renders %s with 422 naming the field, sends no callback, and leaves the page open',
    async (_, fields, error) => {
      await start();
      const link = await openSession(2001);
      const answer = await submit(link, fields);
      expect(answer.status).toBe(422);
      expect(await answer.text()).toContain(error);
      expect(answer.headers.get('x-sandbox-checkout-state')).toBeNull();
      const page = await fetch(link);
      expect(page.headers.get('x-sandbox-checkout-state')).toBe('open');
      await page.arrayBuffer();
      expect(sandbox!.deliveries).toEqual([]);
    },
  );

  it('names the order of a checkout callback on its delivery (unsigned callback URL)', async () => {
    await start();
    const link = await openSession(2002);
    await expect(sandbox!.completeCheckout(link, { method: 'card' })).resolves.toMatchObject({ paid: true });
    await sandbox!.waitForIdle({ timeout: 4000 });
    expect(sandbox!.deliveries.map((d) => [d.type, d.reference, d.state])).toEqual([
      ['checkout.succeeded', '2002', 'delivered'],
    ]);
  });

  it('answers 404 to a form posted to a session it does not know', async () => {
    await start();
    const link = await openSession(2003);
    const unknown = link.replace(/\/checkout\/[^/]+$/, '/checkout/cs_unknown');
    const answer = await submit(unknown, card('12', String(futureYear)));
    expect(answer.status).toBe(404);
    await answer.arrayBuffer();
    expect(sandbox!.deliveries).toEqual([]);
  });
});

describe('a delivery the merchant route does not take', () => {
  let route: Server | undefined;
  afterEach(async () => {
    route?.closeAllConnections();
    await new Promise((resolve) => route?.close(resolve));
    route = undefined;
  });

  const refusingRoute = async (status: number): Promise<string> => {
    route = createServer((_req, res) => res.writeHead(status).end());
    await new Promise<void>((resolve) => route!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(route.address() as AddressInfo).port}/hooks/card`;
  };

  it('is never reported delivered when the route answers 300, and is retried deliveryRetries times', async () => {
    const url = await refusingRoute(300);
    await start({ deliveryRetries: 2 });
    const answer = await post(paymentPath, {
      ...cardPayment({ amount }),
      callback_details: { transaction_reference: 'ORDER-300', callback_url: url },
    });
    expect(answer.status).toBe(200);
    const report = await sandbox!.waitForIdle({ timeout: 4000 });
    expect(report.ok).toBe(false);
    const [delivery] = sandbox!.deliveries;
    expect(delivery!.state).toBe('failed');
    expect(delivery!.attempts.map((a) => a.status)).toEqual([300, 300, 300]);
  });

  it('waits retryDelayMs before the first retry, not twice as long', async () => {
    const url = await refusingRoute(500);
    await start({ deliveryRetries: 1, retryDelayMs: 1000 });
    await post(paymentPath, {
      ...cardPayment({ amount }),
      callback_details: { transaction_reference: 'ORDER-WAIT', callback_url: url },
    });
    await sandbox!.waitForIdle({ timeout: 5000 });
    const [first, second] = sandbox!.deliveries[0]!.attempts;
    const gap = second!.at.getTime() - first!.at.getTime();
    expect(gap).toBeGreaterThanOrEqual(990);
    expect(gap).toBeLessThan(1900);
  });

  it('sends no duplicate of a callback it gave up on', async () => {
    const url = await refusingRoute(500);
    await start({ deliveryRetries: 0, duplicateDeliveries: 2 });
    await post(paymentPath, {
      ...cardPayment({ amount }),
      callback_details: { transaction_reference: 'ORDER-DUP', callback_url: url },
    });
    const report = await sandbox!.waitForIdle({ timeout: 4000 });
    expect(report.ok).toBe(false);
    expect(sandbox!.deliveries.map((d) => [d.copy, d.state, d.attempts.length])).toEqual([[0, 'failed', 1]]);
  });

  it('reports a callback in flight when the sandbox closes as cancelled, not as a failed attempt', async () => {
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    route = createServer(() => arrived()); // never answers
    await new Promise<void>((resolve) => route!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(route.address() as AddressInfo).port}/hooks/card`;
    const opened = await start({ deliveryRetries: 0 });
    await post(paymentPath, {
      ...cardPayment({ amount }),
      callback_details: { transaction_reference: 'ORDER-CLOSE', callback_url: url },
    });
    await inFlight;
    await opened.close();
    // The aborted attempt settles right after close(); nothing to wait on when it records nothing.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(opened.deliveries.map((d) => [d.state, d.attempts.length])).toEqual([['cancelled', 0]]);
  });

  it('posts each callback as JSON with content-type application/json', async () => {
    let seen!: (request: { method?: string; type?: string; body: string }) => void;
    const arrived = new Promise<{ method?: string; type?: string; body: string }>(
      (resolve) => (seen = resolve),
    );
    route = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        res.writeHead(200).end();
        seen({ method: req.method, type: req.headers['content-type'], body });
      });
    });
    await new Promise<void>((resolve) => route!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(route.address() as AddressInfo).port}/hooks/card`;
    await start();
    await post(paymentPath, {
      ...cardPayment({ amount }),
      callback_details: { transaction_reference: 'ORDER-JSON', callback_url: url },
    });
    const request = await arrived;
    expect(request.method).toBe('POST');
    expect(request.type).toBe('application/json');
    expect(JSON.parse(request.body)).toMatchObject({ message: 'CARD Payment Success' });
  });
});

describe('a sandbox with more than 1000 callbacks still pending', () => {
  it('keeps every pending delivery on record (only finished ones make room)', async () => {
    const app = createSandboxApp({
      callbackDelayMs: 0,
      log: false,
      // Holds every attempt until the sandbox closes.
      transport: ({ signal }) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    });
    try {
      for (let i = 0; i < 1001; i++) {
        const answer = await app.app.fetch(
          new Request(`http://sandbox.test${paymentPath}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              ...cardPayment({ amount }),
              callback_details: {
                transaction_reference: `ORDER-${i}`,
                callback_url: 'https://shop.example/hooks',
              },
            }),
          }),
        );
        expect(answer.status).toBe(200);
      }
      expect(app.deliveries).toHaveLength(1001);
      expect(app.deliveries[0]!.reference).toBe('ORDER-0');
      expect(app.deliveries.every((d) => d.state === 'pending')).toBe(true);
    } finally {
      app.close();
    }
  });
});

describe('a request still arriving when close() is called', () => {
  it('is answered 410 sandbox_closed, with nothing debited and no callback left cancelled', async () => {
    const app = createSandboxApp({ callbackDelayMs: 0, log: false });
    let sendRest!: (text: string) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        sendRest = (text) => {
          controller.enqueue(new TextEncoder().encode(text));
          controller.close();
        };
      },
    });
    const answered = app.app.fetch(
      new Request(`http://sandbox.test${payoutPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    // The route is reading the body when the sandbox closes.
    await new Promise((resolve) => setImmediate(resolve));
    app.close();
    sendRest(JSON.stringify(payout('10', 123456789012)));
    const answer = await answered;
    expect(answer.status).toBe(410);
    expect(await answer.json()).toMatchObject({ error: 'sandbox_closed' });
    expect(app.walletBalance).toBe(sandboxTestValues.walletBalance);
    expect(app.deliveries).toEqual([]);
  });
});
