// A customer who opens a checkout twice (two tabs) and pays both by card pays twice. A checkout
// callback carries no transaction id, so the two callbacks are the same body: what tells them apart
// is the URL each session's callback went to. The client signs each checkout's callback URL with a
// value of its own (hp_try), and the handler keys a checkout callback by the URL it was signed
// with: the second payment reaches onEvent ('another_payment', with its own dedupe key, to
// refund), and a redelivery of either is still dropped. Against the real sandbox and a real server.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  signCallbackUrl,
  toNodeListener,
  verifyCallbackUrl,
  type CallbackContext,
  type CallbackEvent,
} from '../../src/callbacks/index.js';
import { PaymentsClient } from '../../src/client.js';
import { checkoutSuccessPayload } from '../../src/sandbox/payloads.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { createTransactionTracker } from '../../src/transactions/index.js';

const secret = 'whsec_two_checkout_sessions';
const tracker = createTransactionTracker();
const seen: { event: CallbackEvent; context: CallbackContext }[] = [];
const refusals: string[] = [];
const handler = createCallbackHandler({
  secret,
  tracker,
  onEvent: (event, context) => void seen.push({ event, context }),
  onError: (_error, { reason }) => void refusals.push(reason),
});
const server = createServer(toNodeListener(handler));
let sandbox: Sandbox;
let webhookUrl: string;
let client: PaymentsClient;

const customer = { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' };
const checkout = (orderId: number) => ({
  customer_details: customer,
  amount: { order_id: orderId, delivery_fee: 100, discount_fee: 50, total: 2500, currency: 'KES' },
  redirect_urls: {
    success_url: 'https://shop.example/thanks',
    failed_url: 'https://shop.example/failed',
    callback_url: webhookUrl,
  },
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/payments`;
  sandbox = await startSandbox({ callbackDelayMs: 10, retryDelayMs: 50, log: false });
  client = new PaymentsClient({ baseUrl: sandbox.url, transactions: { tracker, secret } });
});
afterAll(async () => {
  await sandbox?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('two checkout sessions of one order, both paid by card for the same amount', () => {
  it('both payments reach onEvent, the second as another_payment with its own dedupe key', async () => {
    const first = await client.createCheckoutSession(checkout(8101));
    const second = await client.createCheckoutSession(checkout(8101));
    await sandbox.completeCheckout(first.checkout_link, { method: 'card' });
    await sandbox.completeCheckout(second.checkout_link, { method: 'card' });
    const report = await sandbox.waitForIdle();
    expect(report.ok).toBe(true);
    expect(refusals).toEqual([]);
    const ours = seen.filter(({ context }) => context.reference === '8101');
    expect(ours.map(({ context }) => context.settlement)).toEqual(['settled', 'another_payment']);
    expect(new Set(ours.map(({ context }) => context.dedupeKey)).size).toBe(2);
    expect((await tracker.get('8101'))?.state).toBe('succeeded');
  });

  it("each session's callback URL verifies for the order and differs from the other's", async () => {
    const urls: string[] = [];
    const recording = new PaymentsClient({
      baseUrl: 'https://payments.example.com',
      transactions: { tracker: createTransactionTracker(), secret },
      fetch: async (request) => {
        urls.push(
          ((await request.json()) as { redirect_urls: { callback_url: string } }).redirect_urls.callback_url,
        );
        return Response.json({
          status: true,
          message: 'Checkout created',
          checkout_link: 'https://pay.example/c/1',
          order_id: '8102',
        });
      },
    });
    await recording.createCheckoutSession(checkout(8102)).catch(() => undefined);
    await recording.createCheckoutSession(checkout(8102)).catch(() => undefined);
    expect(urls).toHaveLength(2);
    expect(urls[0]).not.toBe(urls[1]);
    for (const url of urls)
      await expect(verifyCallbackUrl(url, { secret })).resolves.toEqual({ reference: '8102' });
  });

  it('a redelivery of each payment is still dropped', async () => {
    const url = await signCallbackUrl(webhookUrl, { secret, reference: '8103' });
    await tracker.begin({ reference: '8103', kind: 'checkout', amount: 2500 });
    const body = JSON.stringify(checkoutSuccessPayload({ method: 'card', orderId: 8103, amount: '2500' }));
    const before = seen.length;
    for (let i = 0; i < 2; i++) {
      const response = await fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(200);
    }
    expect(seen.length - before).toBe(1);
  });
});
