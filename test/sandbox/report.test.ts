// A merchant whose route refuses every callback sees why at once: each delivery attempt is one
// log line with the route's answer, and waitForIdle() resolves with a report naming what failed.
// Also the scripted checkout (completeCheckout) and the test phone whose callback is dropped.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { createCallbackHandler } from '../../src/callbacks/handler.js';
import { toNodeListener } from '../../src/callbacks/node.js';
import { signCallbackUrl } from '../../src/callbacks/signing.js';
import type { CallbackEvent } from '../../src/callbacks/events.js';
import { sandboxTestValues } from '../../src/sandbox/index.js';
import { customer, amount, closedAfterEach } from './helpers.js';

const SECRET = 'report-test-secret-0123456789';
const opened = closedAfterEach();

/** A real webhook route behind node:http, verifying signed URLs with `secret`. */
async function startRoute(secret: string) {
  const events: CallbackEvent[] = [];
  const handler = createCallbackHandler({ secret, onEvent: (event) => void events.push(event) });
  return { url: await opened.route(toNodeListener(handler)), events };
}

const mobileMoney = async (callbackUrl: string, reference: string, phone = '0712345678') => ({
  customer_details: { ...customer, phone_number: phone },
  amount,
  callback_details: {
    transaction_reference: reference,
    callback_url: await signCallbackUrl(callbackUrl, { secret: SECRET, reference }),
  },
});

describe('the delivery report and the default log', () => {
  it('prints each attempt with the reason the route refused it, and the report names the failure', async () => {
    const { url } = await startRoute('a-different-secret-0123456789');
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const sandbox = await opened.sandbox({ callbackDelayMs: 0, retryDelayMs: 5, deliveryRetries: 2 });
      const client = new PaymentsClient({ baseUrl: sandbox.url });
      await client.initiateMobileMoneyPayment(await mobileMoney(url, 'ORDER-1'));
      const report = await sandbox.waitForIdle();
      expect(report.ok).toBe(false);
      expect(report.failed).toBe(1);
      expect(report.failures).toEqual([
        expect.objectContaining({
          type: 'payment.mobile_money.succeeded',
          attempts: 3,
          state: 'failed',
          lastAnswer: '401 invalid_signature',
        }),
      ]);
      expect(report.summary).toMatch(/^1 callback: 1 failed\n/);
      expect(report.summary).toContain('failed after 3 attempts: 401 invalid_signature');
      // the signature never reaches the report
      expect(report.summary).toContain('/webhooks/payments?…');
      expect(report.summary).not.toContain('hp_sig');
    } finally {
      write.mockRestore();
    }
    const lines = written.join('').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} ← callback payment\.mobile_money\.succeeded for ORDER-1 to http:\/\/127\.0\.0\.1:\d+\/webhooks\/payments\?… attempt 1: 401 invalid_signature, will retry$/,
    );
    expect(lines[2]).toContain('attempt 3: 401 invalid_signature, gave up');
  });

  it('says ECONNREFUSED when nothing listens at the callback URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const sandbox = await opened.sandbox({
      callbackDelayMs: 0,
      retryDelayMs: 5,
      deliveryRetries: 1,
      log: false,
    });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    await client.initiateMobileMoneyPayment(
      await mobileMoney(`http://127.0.0.1:${port}/webhooks`, 'ORDER-2'),
    );
    const report = await sandbox.waitForIdle();
    expect(report.failures[0]).toMatchObject({ attempts: 2, lastAnswer: 'ECONNREFUSED' });
  });

  it('reports ok when every callback was delivered, and delivers to the signed URL unchanged, shown with hp_sig redacted', async () => {
    const { url, events } = await startRoute(SECRET);
    const sandbox = await opened.sandbox({ callbackDelayMs: 0, log: false });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    const input = await mobileMoney(url, 'ORDER-3');
    await client.initiateMobileMoneyPayment(input);
    const report = await sandbox.waitForIdle();
    expect(report).toMatchObject({ ok: true, delivered: 1, failed: 0, summary: '1 callback: 1 delivered' });
    expect(sandbox.deliveries[0]?.url).toBe(input.callback_details.callback_url);
    expect(sandbox.deliveries[0]?.redactedUrl).toMatch(/\?hp_ref=ORDER-3&hp_sig=\[redacted\]$/);
    expect(events.map((event) => event.type)).toEqual(['payment.mobile_money.succeeded']);
  });

  it('log: false prints nothing', async () => {
    const write = vi.spyOn(process.stdout, 'write');
    try {
      const sandbox = await opened.sandbox({ callbackDelayMs: 0, deliveryRetries: 0, log: false });
      const client = new PaymentsClient({ baseUrl: sandbox.url });
      await client.initiateMobileMoneyPayment(await mobileMoney('http://127.0.0.1:9/webhooks', 'ORDER-4'));
      await sandbox.waitForIdle();
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
    }
  });
});

describe('the report of a callback that failed says what to try', () => {
  const failedReport = async (callbackUrl: string, reference: string, sign = true) => {
    const sandbox = await opened.sandbox({ callbackDelayMs: 0, deliveryRetries: 0, log: false });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    const input = await mobileMoney(callbackUrl, reference);
    if (!sign) input.callback_details.callback_url = callbackUrl;
    await client.initiateMobileMoneyPayment(input);
    const report = await sandbox.waitForIdle();
    expect(report.failed).toBe(1);
    return report.summary;
  };

  it('an unsigned URL refused 401: sign it', async () => {
    const { url } = await startRoute(SECRET);
    expect(await failedReport(url, 'ORDER-U', false)).toContain(
      '\nhint: a callback URL has no hp_sig, and a route with a secret refuses an unsigned callback (401 invalid_signature): sign it with signCallbackUrl before you initiate',
    );
  });

  it('a signed URL refused 401: the secret or the origin differs', async () => {
    const { url } = await startRoute('a-different-secret-0123456789');
    const { origin, pathname } = new URL(url);
    expect(await failedReport(url, 'ORDER-S')).toContain(
      `\nhint: the route at ${origin}${pathname} refused the URL's signature (401 invalid_signature): give it the secret the URL was signed with, and a publicOrigin of ${origin} (or none)`,
    );
  });

  it('a path nothing serves (404), once however many callbacks went there', async () => {
    const origin = new URL(
      await opened.route(
        (request, response) => void request.resume().on('end', () => response.writeHead(404).end()),
      ),
    ).origin;
    const sandbox = await opened.sandbox({ callbackDelayMs: 0, deliveryRetries: 0, log: false });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    await client.initiateMobileMoneyPayment(await mobileMoney(`${origin}/hooks`, 'ORDER-P1'));
    await client.initiateMobileMoneyPayment(await mobileMoney(`${origin}/hooks`, 'ORDER-P2'));
    const { failed, summary } = await sandbox.waitForIdle();
    expect(failed).toBe(2);
    expect(summary).toContain(
      '\nhint: the server answered 404 for POST /hooks: is your route mounted at this path (a trailing slash counts)?',
    );
    expect(summary.match(/hint:/g)).toHaveLength(1);
  });

  it('a route that failed on the callback (500 handler_failed): its onError says why', async () => {
    const handler = createCallbackHandler({
      secret: SECRET,
      onEvent: () => {
        throw new Error('orders table locked');
      },
      onError: () => undefined,
    });
    const url = await opened.route(toNodeListener(handler));
    const { origin, pathname } = new URL(url);
    expect(await failedReport(url, 'ORDER-F')).toContain(
      `\nhint: the route at ${origin}${pathname} failed on the callback (500 handler_failed): its onError has the cause (onEvent threw, or a body parser such as express.json() read the body before the route)`,
    );
  });

  it('nothing listening: start the server first', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(await failedReport(`http://127.0.0.1:${port}/hooks`, 'ORDER-C')).toContain(
      `\nhint: nothing listens at http://127.0.0.1:${port} (ECONNREFUSED): start your server, on that port, before the payment's callback is due`,
    );
  });
});

describe(`the test phone ${sandboxTestValues.phones.noCallback}`, () => {
  it('is accepted, and its callback is never sent: the report lists it as dropped', async () => {
    const { url, events } = await startRoute(SECRET);
    const seen: string[] = [];
    const sandbox = await opened.sandbox({
      callbackDelayMs: 0,
      log: (event) => seen.push(event.kind),
    });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    const response = await client.initiateMobileMoneyPayment(
      await mobileMoney(url, 'ORDER-LOST', sandboxTestValues.phones.noCallback),
    );
    expect(response.message).toBe('MOBILE-MONEY Payment Initiated');
    const report = await sandbox.waitForIdle();
    expect(report).toMatchObject({ ok: true, dropped: 1, delivered: 0 });
    expect(report.summary).toContain('dropped on purpose');
    expect(sandbox.deliveries[0]).toMatchObject({ state: 'dropped', attempts: [] });
    expect(seen).toContain('callback_dropped');
    expect(events).toEqual([]);
  });
});

describe('sandbox.completeCheckout', () => {
  const session = async (client: PaymentsClient, orderId: number, callbackUrl: string) =>
    client.createCheckoutSession({
      customer_details: customer,
      amount: { ...amount, order_id: orderId },
      redirect_urls: {
        success_url: 'https://shop.example/thanks',
        failed_url: 'https://shop.example/failed',
        callback_url: await signCallbackUrl(callbackUrl, { secret: SECRET, reference: String(orderId) }),
      },
    });

  it.each([
    ['card', 'success', 'checkout.succeeded', 'https://shop.example/thanks'],
    ['card', 'failure', 'checkout.failed', 'https://shop.example/failed'],
    ['mobile_money', 'success', 'checkout.succeeded', 'https://shop.example/thanks'],
    ['mobile_money', 'failure', 'checkout.failed', 'https://shop.example/failed'],
  ] as const)('pays by %s with outcome %s: %s, redirected to %s', async (method, outcome, type, target) => {
    const { url, events } = await startRoute(SECRET);
    const sandbox = await opened.sandbox({ callbackDelayMs: 0, log: false });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    const { checkout_link } = await session(client, 7001, url);
    const done = await sandbox.completeCheckout(checkout_link, { method, outcome });
    expect(done).toEqual({ paid: outcome === 'success', redirectedTo: target });
    expect((await sandbox.waitForIdle()).ok).toBe(true);
    expect(events).toEqual([expect.objectContaining({ type, reference: '7001' })]);
  });

  it('refuses a link that was already paid, and an unknown link', async () => {
    const { url } = await startRoute(SECRET);
    const sandbox = await opened.sandbox({ callbackDelayMs: 0, log: false });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    const { checkout_link } = await session(client, 7002, url);
    await sandbox.completeCheckout(checkout_link, { method: 'card' });
    await expect(sandbox.completeCheckout(checkout_link, { method: 'card' })).rejects.toThrow(
      /it was already paid \(a checkout is completed once/,
    );
    await expect(
      sandbox.completeCheckout(`${sandbox.url}/checkout/cs_unknown`, { method: 'card' }),
    ).rejects.toThrow(/does not know this link \(404\)/);
    await sandbox.waitForIdle();
  });
});
