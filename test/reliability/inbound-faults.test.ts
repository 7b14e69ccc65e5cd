// Faults on the way in: the webhook handler under duplicated, reordered, concurrent and replayed
// deliveries and an onEvent that fails intermittently — directly, and fed by the sandbox's
// retrying delivery. Every distinct event must reach onEvent exactly once after it first
// succeeds (no call after that), and none may be lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCallbackUrl } from '../../src/callbacks/signing.js';
import { PaymentsClient } from '../../src/client.js';
import { formatSandboxLogEvent } from '../../src/sandbox/log.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { buildCallbackPayload, callbackPayloadTypes } from '../../src/sandbox/payloads.js';
import { recordFigures, resetFigures } from './helpers/figures.js';
import {
  hashUnit,
  ledgerFigures,
  merchantHandler,
  newLedger,
  prng,
  startMerchant,
} from './helpers/merchant.js';
import { Capture, findSecrets, testCvc } from './helpers/secrets.js';

const SECTION = 'inbound-faults';
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_601);
const SECRET = 'whsec_reliability_inbound';
const capture = new Capture();

interface Delivery {
  readonly key: number;
  readonly url: string;
  readonly body: string;
}

/** N events of every type, each with a unique reference, signed into its callback URL. */
async function makeEvents(n: number, origin = 'http://merchant.test'): Promise<Delivery[]> {
  const out: Delivery[] = [];
  for (let i = 0; i < n; i++) {
    const type = callbackPayloadTypes[i % callbackPayloadTypes.length]!;
    // A checkout's reference is its order_id, a whole number; a payout's a 12-digit reference_id.
    const reference = type.startsWith('payout.')
      ? String(100_000_000_000 + i)
      : type.startsWith('checkout.')
        ? String(1_000 + i)
        : `order-${i}`;
    const payload = buildCallbackPayload(type, { reference, amount: String(100 + i) });
    const url = await signCallbackUrl(`${origin}/hooks/payments`, { secret: SECRET, reference });
    out.push({ key: i, url, body: JSON.stringify(payload) });
  }
  return out;
}

const request = (d: Delivery) =>
  new Request(d.url, { method: 'POST', body: d.body, headers: { 'content-type': 'application/json' } });

/** Delivers like a provider: retries 5xx (and 503 in_progress) until a 2xx, or gives up. */
async function deliverUntilOk(handler: (r: Request) => Promise<Response>, d: Delivery, statuses: number[]) {
  for (let attempt = 0; attempt < 30; attempt++) {
    const response = await handler(request(d));
    statuses.push(response.status);
    await response.arrayBuffer();
    if (response.ok) return true;
    if (response.status < 500) return false;
    await new Promise((r) => setTimeout(r, response.status === 503 ? 5 : 1));
  }
  return false;
}

const tally = (statuses: number[]) =>
  statuses.reduce<Record<string, number>>((m, s) => ((m[`http${s}`] = (m[`http${s}`] ?? 0) + 1), m), {});

beforeAll(() => resetFigures(SECTION));
afterAll(() => {
  recordFigures(SECTION, {
    capturedTextsScanned: capture.size,
    secretsFound: findSecrets(capture.items).length,
  });
});

describe('faults on the way in: the handler, delivered to directly', () => {
  const ledger = newLedger();
  const handler = merchantHandler({
    secret: SECRET,
    ledger,
    capture,
    onEventDelayMs: 2, // widens the window in which concurrent copies race
    // 30% of events fail on their first two onEvent calls, by a seeded hash of the key
    fail: (key, attempt) => hashUnit(key, SEED) < 0.3 && attempt <= 2,
  });
  let events: Delivery[] = [];
  beforeAll(async () => {
    events = await makeEvents(400);
  });

  it('processes each of 400 events exactly once when 4 copies of each arrive at the same time', async () => {
    const statuses: number[] = [];
    const results = await Promise.all(
      events.flatMap((d) => [0, 1, 2, 3].map(() => deliverUntilOk(handler, d, statuses))),
    );
    expect(results.every(Boolean)).toBe(true);
    const figures = ledgerFigures(ledger, events.length);
    expect(figures).toMatchObject({
      distinctEventsProcessed: 400,
      lost: 0,
      duplicatesProcessed: 0,
      onEventCallsAfterSuccess: 0,
    });
    // the copies really raced: some were told "in progress", some failed and were retried
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 500).length).toBeGreaterThan(0);
    recordFigures(SECTION, {
      'concurrent.deliveries': events.length * 4,
      ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [`concurrent.${k}`, v])),
      ...Object.fromEntries(Object.entries(tally(statuses)).map(([k, v]) => [`concurrent.${k}`, v])),
    });
  });

  it('answers 200 without calling onEvent when the processed events are replayed', async () => {
    const before = [...ledger.attempts.values()].reduce((a, b) => a + b, 0);
    const responses = await Promise.all(events.map((d) => handler(request(d))));
    expect(responses.map((r) => r.status)).toEqual(events.map(() => 200));
    expect(responses.every((r) => r.headers.get('x-callback-duplicate') === 'true')).toBe(true);
    expect([...ledger.attempts.values()].reduce((a, b) => a + b, 0)).toBe(before);
    recordFigures(SECTION, { 'replayed.deliveries': events.length, 'replayed.onEventCalls': 0 });
  });

  it('processes each event exactly once when copies arrive reordered, interleaved with failures', async () => {
    const ledger2 = newLedger();
    const handler2 = merchantHandler({
      secret: SECRET,
      ledger: ledger2,
      capture,
      fail: (key, attempt) => hashUnit(`${key}:${attempt}`, SEED + 1) < 0.3 && attempt <= 3,
    });
    const fresh = await makeEvents(400, 'http://merchant-2.test');
    const random = prng(SEED);
    let queue = fresh.flatMap((d) => [d, d, d]);
    const statuses: number[] = [];
    let rounds = 0;
    // Deliver in a shuffled order, 16 at a time; whatever was not acknowledged goes back in the
    // queue, reshuffled, as a provider's retries would interleave with new deliveries.
    while (queue.length > 0 && rounds++ < 50) {
      for (let i = queue.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [queue[i], queue[j]] = [queue[j]!, queue[i]!];
      }
      const retry: Delivery[] = [];
      for (let i = 0; i < queue.length; i += 16) {
        const batch = queue.slice(i, i + 16);
        const answers = await Promise.all(batch.map((d) => handler2(request(d))));
        answers.forEach((r, k) => {
          statuses.push(r.status);
          if (!r.ok) retry.push(batch[k]!);
        });
      }
      queue = retry;
    }
    expect(queue).toEqual([]);
    const figures = ledgerFigures(ledger2, fresh.length);
    expect(figures).toMatchObject({
      distinctEventsProcessed: 400,
      lost: 0,
      duplicatesProcessed: 0,
      onEventCallsAfterSuccess: 0,
    });
    expect(figures.injectedOnEventFailures).toBeGreaterThan(0);
    recordFigures(SECTION, {
      'reordered.deliveries': statuses.length,
      ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [`reordered.${k}`, v])),
    });
  });

  it('refuses forged, swapped and tampered callbacks without calling onEvent', async () => {
    const ledger3 = newLedger();
    const expectedAmounts = new Map<string, string>();
    const handler3 = merchantHandler({
      secret: SECRET,
      ledger: ledger3,
      capture,
      handler: {
        expected: (event, { reference }) => {
          const amount = expectedAmounts.get(reference ?? '');
          return amount === undefined ? undefined : { amount, currency: 'KES' };
        },
      },
    });
    const payout = buildCallbackPayload('payout.succeeded', { reference: '100000000001', amount: '500' });
    const other = buildCallbackPayload('payout.succeeded', { reference: '100000000002', amount: '500' });
    expectedAmounts.set('100000000001', '500');
    const signed = await signCallbackUrl('http://merchant.test/hooks', {
      secret: SECRET,
      reference: '100000000001',
    });
    const send = async (url: string, body: unknown) =>
      (await handler3(new Request(url, { method: 'POST', body: JSON.stringify(body) }))).status;

    const forgedNoSignature = await send('http://merchant.test/hooks', payout);
    const forgedWrongSecret = await send(
      await signCallbackUrl('http://merchant.test/hooks', {
        secret: 'a-guessed-secret-value',
        reference: '100000000001',
      }),
      payout,
    );
    const forgedOtherPath = await send(signed.replace('/hooks', '/hooks2'), payout);
    const swappedReference = await send(signed, other); // a valid payload for another payout, on this URL
    const tamperedAmount = await send(signed, { ...payout, amount: '5' });
    const tamperedCurrency = await send(signed, { ...payout, currency: 'USD' });
    expect({
      forgedNoSignature,
      forgedWrongSecret,
      forgedOtherPath,
      swappedReference,
      tamperedAmount,
      tamperedCurrency,
    }).toEqual({
      forgedNoSignature: 401,
      forgedWrongSecret: 401,
      forgedOtherPath: 401,
      swappedReference: 409,
      tamperedAmount: 422,
      tamperedCurrency: 422,
    });
    expect(ledger3.attempts.size).toBe(0);
    expect(await send(signed, payout)).toBe(200); // the genuine one still goes through
    expect(ledger3.processed.size).toBe(1);
  });
});

describe('faults on the way in: oversized bodies on the Node adapter', () => {
  it('answers 413 to a 1 MiB chunked body without reading it all, and keeps serving', async () => {
    const merchant = await startMerchant({ secret: SECRET, capture });
    try {
      const url = await signCallbackUrl(`${merchant.url}/hooks`, {
        secret: SECRET,
        reference: '100000000009',
      });
      const chunk = new TextEncoder().encode(`{"pad":"${'x'.repeat(1024 * 1024)}"}`);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(chunk); // no Content-Length: the cap is enforced while streaming
          controller.close();
        },
      });
      const big = await fetch(url, { method: 'POST', body: stream, duplex: 'half' } as RequestInit).catch(
        (e: unknown) => e,
      );
      // either the 413 arrives, or the server cut the upload short after answering it
      if (big instanceof Response) expect(big.status).toBe(413);
      const ok = await fetch(url, {
        method: 'POST',
        body: JSON.stringify(buildCallbackPayload('payout.succeeded', { reference: '100000000009' })),
      });
      expect(ok.status).toBe(200);
      expect(merchant.ledger.processed.size).toBe(1);
    } finally {
      await merchant.close();
    }
  });
});

describe("faults on the way in: fed by the sandbox's retrying delivery", () => {
  it('processes every distinct event exactly once with duplicates, retries and an intermittently failing onEvent', async () => {
    const merchant = await startMerchant({
      secret: SECRET,
      capture,
      fail: (key, attempt) => hashUnit(`${key}:${attempt}`, SEED + 2) < 0.3 && attempt <= 3,
    });
    const sandboxLog: string[] = [];
    const sandbox = await startSandbox({
      callbackDelayMs: 0,
      retryDelayMs: 20,
      deliveryRetries: 8,
      duplicateDeliveries: 2,
      log: (event) => sandboxLog.push(formatSandboxLogEvent(event)),
    });
    const hookLog: string[] = [];
    const client = new PaymentsClient({
      baseUrl: sandbox.url,
      timeout: 10_000,
      hooks: {
        beforeRequest: (e) => void hookLog.push(JSON.stringify(e)),
        afterResponse: (e) => void hookLog.push(JSON.stringify(e)),
      },
    });
    try {
      const year = new Date().getUTCFullYear() + 2;
      const customer = (phone = '0712345678') => ({
        full_name: 'Jane Doe',
        phone_number: phone,
        email: 'jane@example.com',
      });
      const hook = (reference: string) =>
        signCallbackUrl(`${merchant.url}/hooks`, { secret: SECRET, reference });
      const calls: (() => Promise<unknown>)[] = [];
      let n = 0;
      for (let i = 0; i < 60; i++) {
        const reference = `card-${n++}`;
        const card = i % 3 === 0 ? '4000000000000002' : '4242424242424242';
        calls.push(async () =>
          client.initiateCardPayment({
            customer_details: customer(),
            amount: { delivery_fee: 100, discount_fee: 50, total: 1000 + i, currency: 'KES' },
            card_details: { card_number: card, expiry_month: 12, expiry_year: year, cvc: testCvc },
            callback_details: { transaction_reference: reference, callback_url: await hook(reference) },
          }),
        );
      }
      for (let i = 0; i < 60; i++) {
        const reference = `mm-${n++}`;
        calls.push(async () =>
          client.initiateMobileMoneyPayment({
            customer_details: customer(i % 3 === 0 ? '254700000406' : '0712345678'),
            amount: { delivery_fee: 100, discount_fee: 50, total: 500 + i, currency: 'KES' },
            callback_details: { transaction_reference: reference, callback_url: await hook(reference) },
          }),
        );
      }
      for (let i = 0; i < 50; i++) {
        const referenceId = 200_000_000_000 + i;
        calls.push(async () =>
          client.initiatePayout({
            customer_details: customer(),
            destination: {
              type: 'mobile',
              country_code: 'KE',
              mobile_number: '0712345678',
              wallet_name: 'MOBILE-MONEY',
            },
            transfer: {
              amount: i % 10 === 0 ? 10_000_000 : 100, // above the wallet balance → payout.failed
              currency: 'KES',
              reference_id: referenceId,
              description: `payout ${i}`,
            },
            webhook_endpoint: { webhook_url: await hook(String(referenceId)) },
          }),
        );
      }
      for (let i = 0; i < 20; i++) {
        const orderId = 9_000 + i;
        calls.push(async () => {
          const session = await client.createCheckoutSession({
            customer_details: customer(),
            amount: { order_id: orderId, delivery_fee: 100, discount_fee: 50, total: 700, currency: 'KES' },
            redirect_urls: {
              success_url: 'https://shop.example/ok',
              failed_url: 'https://shop.example/failed',
              callback_url: await hook(String(orderId)),
            },
          });
          // the customer pays (or gives up) on the hosted page
          const form = new URLSearchParams({
            method: 'mobile_money',
            phone_number: '0712345678',
            action: i % 4 === 0 ? 'fail' : 'pay',
          });
          const page = await fetch(session.checkout_link, { method: 'POST', body: form, redirect: 'manual' });
          await page.arrayBuffer();
          expect(page.status).toBe(303);
        });
      }
      const initiated = calls.length;
      await Promise.all(calls.map((call) => call()));
      // The report counts every delivery; sandbox.deliveries keeps only about a thousand finished ones.
      const report = await sandbox.waitForIdle();

      const figures = ledgerFigures(merchant.ledger, initiated);
      const failedDeliveries = report.failed + report.cancelled + report.dropped;
      expect(failedDeliveries, report.summary).toBe(0);
      expect(figures).toMatchObject({
        distinctEventsProcessed: initiated,
        lost: 0,
        duplicatesProcessed: 0,
        onEventCallsAfterSuccess: 0,
      });
      expect(figures.injectedOnEventFailures).toBeGreaterThan(0);
      recordFigures(SECTION, {
        'sandbox.initiations': initiated,
        'sandbox.deliveries': report.delivered + failedDeliveries,
        'sandbox.deliveryAttempts': sandbox.deliveries.reduce((s, d) => s + d.attempts.length, 0),
        'sandbox.failedDeliveries': failedDeliveries,
        ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [`sandbox.${k}`, v])),
      });
      sandboxLog.forEach((line, i) => capture.add(`sandbox log ${i}`, line));
      hookLog.forEach((line, i) => capture.add(`client hook ${i}`, line));
      expect(findSecrets(capture.items)).toEqual([]);
    } finally {
      await sandbox.close();
      await merchant.close();
    }
  }, 60_000);

  it('leaks no card number or cvc into handler errors, sandbox log lines or client hook logs', () => {
    expect(capture.size).toBeGreaterThan(100);
    expect(findSecrets(capture.items)).toEqual([]);
  });
});
