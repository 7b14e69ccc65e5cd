// What a merchant's requests to the sandbox get back: JSON sent with any spelling of its media
// type is read, an empty body is named as such, an invalid request names its fields (in the answer
// and the log), a crash is a JSON 500, a path near an endpoint names the one meant; a card payment's
// callback keeps its currency and fails at failureRate 1, a payout above the balance gets a
// payout.failed named by its reference_id, GET / shows the balance left; the hosted checkout links
// under publicUrl, reads padded form fields, fails a page payment at failureRate 1, and
// completeCheckout() says plainly when the page is not a sandbox checkout or was paid meanwhile.
import { describe, expect, it, vi } from 'vitest';
import { buildPayoutRequest, PaymentsClient } from '../../src/index.js';
import { completeCheckout, sandboxTestValues, type SandboxLogEvent } from '../../src/sandbox/index.js';
import { amount, closedAfterEach, customer, payoutTo, startMerchantSite } from './helpers.js';

const opened = closedAfterEach();

const payoutPath = 'http://sandbox.test/api/payout/mobile-money-payout';
const post = (url: string, body: string, contentType = 'application/json') =>
  new Request(url, { method: 'POST', headers: { 'content-type': contentType }, body });

/** A sandbox app of its own (no server), its log events kept. */
function app() {
  const events: SandboxLogEvent[] = [];
  const sandbox = opened.app({
    callbackDelayMs: 0,
    log: (event) => void events.push(event),
    transport: async () => 200,
  });
  return { sandbox, events };
}

describe('the request body', () => {
  it('is read as JSON whatever the case of its media type', async () => {
    const { sandbox } = app();
    const body = JSON.stringify(buildPayoutRequest(payoutTo('http://127.0.0.1:9/hooks', 100)));
    const response = await sandbox.app.fetch(post(payoutPath, body, 'Application/JSON; charset=UTF-8'));
    expect(response.status).toBe(200);
  });

  it('of only whitespace is refused as empty', async () => {
    const { sandbox } = app();
    const response = await sandbox.app.fetch(post(payoutPath, ' \n '));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_json',
      message: 'The request body is empty: send the request as a JSON object.',
      issues: [],
    });
  });

  it('is refused naming the invalid fields, in the answer and in the log', async () => {
    const { sandbox, events } = app();
    const payout = buildPayoutRequest(payoutTo('http://127.0.0.1:9/hooks', 100)) as unknown as {
      transfer: Record<string, unknown>;
    };
    const body = { ...payout, transfer: { ...payout.transfer, amount: undefined } };
    const response = await sandbox.app.fetch(post(payoutPath, JSON.stringify(body)));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: 'invalid_request',
      message: 'Invalid payout: transfer.amount',
      issues: [{ field: 'transfer.amount' }],
    });
    expect(events).toContainEqual({
      kind: 'request',
      method: 'POST',
      path: '/api/payout/mobile-money-payout',
      status: 400,
      summary: 'invalid: transfer.amount',
    });
  });
});

async function openSession(sandboxUrl: string, siteUrl: string, order_id = 4242): Promise<string> {
  const client = new PaymentsClient({ baseUrl: sandboxUrl });
  const session = await client.createCheckoutSession({
    customer_details: customer,
    amount: { order_id, ...amount },
    redirect_urls: {
      success_url: `${siteUrl}/success`,
      failed_url: `${siteUrl}/failed`,
      callback_url: `${siteUrl}/hooks/checkout`,
    },
  });
  return session.checkout_link;
}

describe('the hosted checkout form', () => {
  it('reads fields typed with spaces around them', async () => {
    const site = await startMerchantSite();
    try {
      const sandbox = await opened.sandbox({ callbackDelayMs: 0, log: false });
      const link = await openSession(sandbox.url, site.url);
      const fields = {
        method: ' mobile_money ',
        phone_number: ` ${sandboxTestValues.phones.insufficientFunds} `,
        action: ' pay ',
      };
      const answer = await fetch(link, {
        method: 'POST',
        body: new URLSearchParams(fields),
        redirect: 'manual',
      });
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe(`${site.url}/failed`);
      const report = await sandbox.waitForIdle();
      expect(report.deliveries).toEqual([expect.objectContaining({ type: 'checkout.failed' })]);
    } finally {
      await site.close();
    }
  });
});

describe('completeCheckout()', () => {
  it('says what a link whose page answers 500 answered', async () => {
    const url = await opened.route((_req, res) => res.writeHead(500).end('oops'));
    await expect(completeCheckout(url, { method: 'card' })).rejects.toThrow(
      `Could not complete the checkout ${url}: its page answered 500.`,
    );
  });

  it('never submits the form of a page that is not a sandbox checkout page', async () => {
    const posted: string[] = [];
    const url = await opened.route((req, res) => {
      if (req.method === 'POST') posted.push(req.url ?? '');
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<form method="post" action="/pay"><button name="action" value="pay">Pay</button></form>');
    });
    await expect(completeCheckout(url, { method: 'card' })).rejects.toThrow(
      `Could not complete the checkout ${url}: it is not a sandbox checkout page (pass the checkout_link of a session).`,
    );
    expect(posted).toEqual([]);
  });

  it('says the checkout was already paid when the customer paid it meanwhile', async () => {
    const site = await startMerchantSite();
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch');
    try {
      const sandbox = await opened.sandbox({ callbackDelayMs: 0, log: false });
      const link = await openSession(sandbox.url, site.url);
      let paidMeanwhile = false;
      let otherTab = 0;
      spy.mockImplementation(async (input, init) => {
        if (init?.method === 'POST' && !paidMeanwhile) {
          paidMeanwhile = true;
          // The customer pays in another tab between the page loading and this form's submit.
          const other = await realFetch(input, {
            ...init,
            body: new URLSearchParams({
              method: 'card',
              card_number: sandboxTestValues.cards.success,
              expiry_month: '12',
              expiry_year: String(new Date().getUTCFullYear() + 2),
              cvc: '123',
              action: 'pay',
            }),
          });
          otherTab = other.status;
        }
        return realFetch(input, init);
      });
      await expect(completeCheckout(link, { method: 'card' })).rejects.toThrow(
        `Could not complete the checkout ${link}: it was already paid (a checkout is completed once; create another session).`,
      );
      expect(otherTab).toBe(303);
    } finally {
      spy.mockRestore();
      await site.close();
    }
  });
});

describe('the hosted checkout at failureRate 1', () => {
  it.each(['card', 'mobile_money'] as const)(
    'fails a %s payment made on the page: failed_url, checkout.failed',
    async (method) => {
      const site = await startMerchantSite();
      try {
        const sandbox = await opened.sandbox({ callbackDelayMs: 0, failureRate: 1, log: false });
        const link = await openSession(sandbox.url, site.url);
        const done = await sandbox.completeCheckout(link, { method });
        expect(done).toEqual({ paid: false, redirectedTo: `${site.url}/failed` });
        const report = await sandbox.waitForIdle();
        expect(report.deliveries).toEqual([
          expect.objectContaining({ type: 'checkout.failed', reference: '4242', state: 'delivered' }),
        ]);
      } finally {
        await site.close();
      }
    },
  );
});

const cardPayment = (currency: string) => ({
  customer_details: { ...customer, phone_number: '254712345678', payment_method: 'CARD' },
  card_details: {
    card_number: sandboxTestValues.cards.success,
    expiry_month: 12,
    expiry_year: new Date().getUTCFullYear() + 2,
    cvc: '123',
  },
  amount: { delivery_fee: '100', discount_fee: '50', total: '1500', currency },
  callback_details: { transaction_reference: 'ORDER-CARD-1', callback_url: 'http://127.0.0.1:9/hooks' },
});

describe('a card payment', () => {
  it('gets a callback in the currency of its amount', async () => {
    const sent: unknown[] = [];
    const sandbox = opened.app({
      callbackDelayMs: 0,
      log: false,
      transport: async ({ payload }) => {
        sent.push(payload);
        return 200;
      },
    });
    const response = await sandbox.app.fetch(
      post('http://sandbox.test/api/payment/payment-initiate-callback/', JSON.stringify(cardPayment('USD'))),
    );
    expect(response.status).toBe(200);
    await sandbox.waitForIdle();
    expect(sent).toEqual([expect.objectContaining({ currency: 'USD' })]);
  });

  it('fails at failureRate 1: a payment.card.failed callback', async () => {
    const sandbox = opened.app({
      callbackDelayMs: 0,
      failureRate: 1,
      log: false,
      transport: async () => 200,
    });
    const response = await sandbox.app.fetch(
      post('http://sandbox.test/api/payment/payment-initiate-callback/', JSON.stringify(cardPayment('KES'))),
    );
    expect(response.status).toBe(200);
    const report = await sandbox.waitForIdle();
    expect(report.deliveries).toEqual([
      expect.objectContaining({
        type: 'payment.card.failed',
        reference: 'ORDER-CARD-1',
        state: 'delivered',
      }),
    ]);
  });
});

describe('a checkout session created behind publicUrl', () => {
  it('links to its page under publicUrl, not the origin the request came to', async () => {
    const sandbox = opened.app({ publicUrl: 'https://sandbox.internal.example', log: false });
    const client = new PaymentsClient({
      baseUrl: 'http://127.0.0.1:1',
      fetch: (input, init) => Promise.resolve(sandbox.app.fetch(new Request(input, init))),
    });
    const session = await client.createCheckoutSession({
      customer_details: customer,
      amount: { order_id: 77, ...amount },
      redirect_urls: {
        success_url: 'https://shop.example/thanks',
        failed_url: 'https://shop.example/failed',
        callback_url: 'https://shop.example/hooks',
      },
    });
    expect(session.checkout_link).toMatch(/^https:\/\/sandbox\.internal\.example\/checkout\/cs_/);
  });
});

describe('a payout above the wallet balance', () => {
  it('gets a payout.failed callback named by its reference_id', async () => {
    const sandbox = opened.app({
      callbackDelayMs: 0,
      walletBalance: 50,
      log: false,
      transport: async () => 200,
    });
    const body = JSON.stringify(buildPayoutRequest(payoutTo('http://127.0.0.1:9/hooks', 100, 700000000555)));
    const response = await sandbox.app.fetch(post(payoutPath, body));
    expect(response.status).toBe(200);
    const report = await sandbox.waitForIdle();
    expect(report.deliveries).toEqual([
      expect.objectContaining({ type: 'payout.failed', reference: '700000000555', state: 'delivered' }),
    ]);
  });
});

describe('a request the sandbox fails to handle', () => {
  it('is answered 500 internal_error in JSON, nothing scheduled', async () => {
    const sandbox = opened.app({
      callbackDelayMs: 0,
      failureRate: 0.5,
      random: () => {
        throw new Error('random source broke');
      },
      log: false,
      transport: async () => 200,
    });
    const response = await sandbox.app.fetch(
      post('http://sandbox.test/api/payment/payment-initiate-callback/', JSON.stringify(cardPayment('KES'))),
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: 'internal_error',
      message: 'The sandbox failed to handle this request.',
    });
    expect(sandbox.deliveries).toEqual([]);
  });
});

describe('GET / of the sandbox', () => {
  it('shows the wallet balance left after a payout', async () => {
    const sandbox = opened.app({
      callbackDelayMs: 0,
      walletBalance: 5000,
      payoutFee: 25,
      log: false,
      transport: async () => 200,
    });
    const body = JSON.stringify(buildPayoutRequest(payoutTo('http://127.0.0.1:9/hooks', 1000)));
    expect((await sandbox.app.fetch(post(payoutPath, body))).status).toBe(200);
    const described = await sandbox.app.fetch(new Request('http://sandbox.test/'));
    expect(await described.json()).toMatchObject({ walletBalance: 3975 });
  });
});

describe('a path under a checkout page', () => {
  it('is not found (404), not a checkout page asked with the wrong method', async () => {
    const sandbox = opened.app({ log: false });
    const response = await sandbox.app.fetch(
      new Request('http://sandbox.test/checkout/cs_1/pay', { method: 'PUT' }),
    );
    expect(response.status).toBe(404);
    expect(response.headers.get('allow')).toBeNull();
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });
});

describe('a path with its trailing slashes doubled', () => {
  it('is answered 404 naming the endpoint meant, without a trailing slash', async () => {
    const sandbox = opened.app({ log: false });
    const response = await sandbox.app.fetch(post(`${payoutPath}//`, '{}'));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      message:
        'No sandbox endpoint at POST /api/payout/mobile-money-payout//: the payout endpoint is POST /api/payout/mobile-money-payout, without a trailing slash.',
    });
  });
});
