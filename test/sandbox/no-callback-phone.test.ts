// The test phone 254700000000 is accepted and never gets a callback, whatever the sandbox's
// behaviour options: a merchant testing stale-payment tracking with `failureRate` (or duplicates,
// delays, another brand) must not receive a failure callback for it.
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { createCallbackHandler } from '../../src/callbacks/handler.js';
import { toNodeListener } from '../../src/callbacks/node.js';
import { signCallbackUrl } from '../../src/callbacks/signing.js';
import type { CallbackEvent } from '../../src/callbacks/events.js';
import {
  sandboxTestValues,
  type SandboxLogEvent,
  type StartSandboxOptions,
} from '../../src/sandbox/index.js';
import { customer, amount, closedAfterEach } from './helpers.js';

const SECRET = 'no-callback-test-secret-0123456789';
const { noCallback } = sandboxTestValues.phones;
const opened = closedAfterEach();

async function startRoute() {
  const events: CallbackEvent[] = [];
  const handler = createCallbackHandler({ secret: SECRET, onEvent: (event) => void events.push(event) });
  return { url: await opened.route(toNodeListener(handler)), events };
}

const mobileMoney = async (callbackUrl: string, reference: string, phone: string) => ({
  customer_details: { ...customer, phone_number: phone },
  amount,
  callback_details: {
    transaction_reference: reference,
    callback_url: await signCallbackUrl(callbackUrl, { secret: SECRET, reference }),
  },
});

describe(`the test phone ${noCallback} never gets a callback`, () => {
  it.each<[string, StartSandboxOptions]>([
    ['failureRate: 1', { failureRate: 1 }],
    ['failureRate: 0.2 drawing 0', { failureRate: 0.2, random: () => 0 }],
    ['failureRate and duplicates', { failureRate: 1, duplicateDeliveries: 3 }],
    ['failureRate, a delay and no retries', { failureRate: 1, callbackDelayMs: 5, deliveryRetries: 0 }],
    ['failureRate and another brand', { failureRate: 1, mobileMoneyBrand: 'M-PESA' }],
  ])('with %s: accepted, dropped, and the route gets nothing', async (_, options) => {
    const { url, events } = await startRoute();
    const log: SandboxLogEvent[] = [];
    const sandbox = await opened.sandbox({
      callbackDelayMs: 0,
      ...options,
      log: (event) => void log.push(event),
    });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    const response = await client.initiateMobileMoneyPayment(
      await mobileMoney(url, 'ORDER-LOST', noCallback),
    );
    expect(response.message).toMatch(/Payment Initiated$/);
    // Another phone in the same sandbox fails, so the failure rate is in effect.
    await client.initiateMobileMoneyPayment(await mobileMoney(url, 'ORDER-2', '0712345678'));
    const report = await sandbox.waitForIdle();
    expect(report.dropped).toBe(1);
    expect(sandbox.deliveries.filter((d) => d.state === 'dropped')).toEqual([
      expect.objectContaining({ type: 'payment.mobile_money.succeeded', attempts: [] }),
    ]);
    expect(events.map((event) => event.reference)).not.toContain('ORDER-LOST');
    expect(events.map((event) => [event.type, event.reference])).toContainEqual([
      'payment.mobile_money.failed',
      'ORDER-2',
    ]);
    const requests = log.flatMap((event) => (event.kind === 'request' ? [event.summary] : []));
    expect(requests[0]).toContain('ORDER-LOST → no callback (test value)');
  });

  it('on the checkout page with failureRate: 1: paid, redirected to success_url, no callback', async () => {
    const { url, events } = await startRoute();
    const sandbox = await opened.sandbox({
      callbackDelayMs: 0,
      failureRate: 1,
      duplicateDeliveries: 2,
      log: false,
    });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    const { checkout_link } = await client.createCheckoutSession({
      customer_details: customer,
      amount: { ...amount, order_id: 8001 },
      redirect_urls: {
        success_url: 'https://shop.example/thanks',
        failed_url: 'https://shop.example/failed',
        callback_url: await signCallbackUrl(url, { secret: SECRET, reference: '8001' }),
      },
    });
    const done = await sandbox.completeCheckout(checkout_link, {
      method: 'mobile_money',
      phoneNumber: noCallback,
    });
    expect(done).toEqual({ paid: true, redirectedTo: 'https://shop.example/thanks' });
    const report = await sandbox.waitForIdle();
    expect(report).toMatchObject({ ok: true, dropped: 1, delivered: 0, failed: 0 });
    expect(events).toEqual([]);
  });
});
