// Scale-out without losing exactly-once: four webhook processes behind one URL sharing the Redis
// DedupeStore (hosted-payments/redis) against a real redis-server. Interleaved duplicate
// deliveries to every instance process each event once; a Redis kill + restart in the middle of
// a sandbox run loses nothing (deliveries fail with 5xx and the sandbox retries them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCallbackUrl } from '../../src/callbacks/signing.js';
import { PaymentsClient } from '../../src/client.js';
import { formatSandboxLogEvent } from '../../src/sandbox/log.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { buildCallbackPayload, callbackPayloadTypes } from '../../src/sandbox/payloads.js';
import { recordFigures, resetFigures } from './helpers/figures.js';
import { startHandlerCluster, type HandlerCluster } from './helpers/handler-cluster.js';
import { ledgerFigures } from './helpers/merchant.js';
import { startRedisServer, type RedisServer } from './helpers/redis-server.js';
import { Capture, findSecrets, testCvc } from './helpers/secrets.js';

const SECTION = 'scale-out';
const SECRET = 'whsec_reliability_scale_out';
const INSTANCES = 4;
const capture = new Capture();
let redis: RedisServer;

beforeAll(async () => {
  resetFigures(SECTION);
  redis = await startRedisServer();
}, 30_000);
afterAll(async () => {
  await redis?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Posts until a 2xx; records each answer's status, `200 duplicate` for one marked `x-callback-duplicate`. */
async function postUntilOk(
  url: string,
  body: string,
  statuses: (number | '200 duplicate')[],
): Promise<boolean> {
  for (let attempt = 0; attempt < 60; attempt++) {
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    }).catch(() => undefined);
    if (response) {
      const duplicate = response.status === 200 && response.headers.get('x-callback-duplicate') === 'true';
      statuses.push(duplicate ? '200 duplicate' : response.status);
      await response.arrayBuffer();
      if (response.ok) return true;
      if (response.status < 500) return false;
    }
    await sleep(response?.status === 503 ? 20 : 5);
  }
  return false;
}

describe('scale-out control: the in-memory store', () => {
  it(`lets duplicates through when ${INSTANCES} instances each keep their own memory`, async () => {
    const cluster = await startHandlerCluster({
      instances: INSTANCES,
      secret: SECRET,
      env: { ON_EVENT_DELAY_MS: '3' },
    });
    try {
      const deliveries: Promise<boolean>[] = [];
      for (let i = 0; i < 50; i++) {
        const reference = `memory-${i}`;
        const body = JSON.stringify(
          buildCallbackPayload('payment.mobile_money.succeeded', { amount: String(100 + i) }),
        );
        const signed = new URL(await signCallbackUrl(`${cluster.url}/hooks`, { secret: SECRET, reference }));
        for (const instance of cluster.instanceUrls) {
          deliveries.push(postUntilOk(`${instance}${signed.pathname}${signed.search}`, body, []));
        }
      }
      await Promise.all(deliveries);
      await cluster.flush();
      const figures = ledgerFigures(cluster.ledger, 50);
      recordFigures(SECTION, {
        'memoryStoreControl.events': 50,
        'memoryStoreControl.duplicatesProcessed': figures.duplicatesProcessed,
      });
      expect(figures.duplicatesProcessed).toBe(50 * (INSTANCES - 1));
    } finally {
      await cluster.stop();
    }
  }, 60_000);
});

describe(`scale-out: ${INSTANCES} handler processes sharing the Redis dedupe store`, () => {
  let cluster: HandlerCluster;
  beforeAll(async () => {
    cluster = await startHandlerCluster({
      instances: INSTANCES,
      secret: SECRET,
      redisPort: redis.port,
      capture,
      env: { ON_EVENT_DELAY_MS: '3', PROCESSING_TIMEOUT_MS: '10000' },
    });
  }, 60_000);
  afterAll(async () => {
    const { exitedByThemselves } = await cluster.stop();
    recordFigures(SECTION, { handlerProcessesExitedByThemselves: exitedByThemselves });
    expect(exitedByThemselves).toBe(true);
  });

  it('processes each of 400 events once when a copy goes to every instance at the same time', async () => {
    const statuses: (number | '200 duplicate')[] = [];
    const deliveries: Promise<boolean>[] = [];
    for (let i = 0; i < 400; i++) {
      const type = callbackPayloadTypes[i % callbackPayloadTypes.length]!;
      const reference = type.startsWith('payout.')
        ? String(300_000_000_000 + i)
        : type.startsWith('checkout.')
          ? String(3_000 + i)
          : `scale-${i}`;
      const body = JSON.stringify(buildCallbackPayload(type, { reference, amount: String(100 + i) }));
      const signed = new URL(await signCallbackUrl(`${cluster.url}/hooks`, { secret: SECRET, reference }));
      // the copies of one event interleave across all four instances, in a rotating order
      for (let copy = 0; copy < INSTANCES; copy++) {
        const instance = cluster.instanceUrls[(i + copy) % INSTANCES]!;
        deliveries.push(postUntilOk(`${instance}${signed.pathname}${signed.search}`, body, statuses));
      }
    }
    expect((await Promise.all(deliveries)).every(Boolean)).toBe(true);
    await cluster.flush();
    const figures = ledgerFigures(cluster.ledger, 400);
    expect(figures).toMatchObject({
      distinctEventsProcessed: 400,
      lost: 0,
      duplicatesProcessed: 0,
      onEventCallsAfterSuccess: 0,
    });
    // Each event's four copies went to four different instances: one copy processed it, the
    // three others were answered as duplicates (after a 503 while it was in progress, if they
    // arrived then). Which instance wins each race is up to the scheduler, so it is only recorded.
    expect(statuses.filter((s) => s === 200).length).toBe(400);
    expect(statuses.filter((s) => s === '200 duplicate').length).toBe(1_200);
    recordFigures(SECTION, {
      'interleaved.deliveries': 1_600,
      'interleaved.distinctEvents': 400,
      'interleaved.processed': figures.distinctEventsProcessed,
      'interleaved.lost': figures.lost,
      'interleaved.duplicatesProcessed': figures.duplicatesProcessed,
      'interleaved.perInstance': [...cluster.perInstance.values()].join('/'),
      'interleaved.inProgressAnswers': statuses.filter((s) => s === 503).length,
    });
  }, 120_000);

  it('loses nothing and processes nothing twice when Redis is killed and restarted mid-run', async () => {
    const before = new Set(cluster.ledger.processed.keys());
    const refusalsBefore = new Map(cluster.refusals);
    const sandboxLog: string[] = [];
    // Counted from the log, which sees every attempt: sandbox.deliveries keeps about a thousand.
    let failedAttempts = 0;
    const sandbox = await startSandbox({
      callbackDelayMs: 0,
      retryDelayMs: 100,
      deliveryRetries: 9, // retries for ~50 s: longer than the outage plus processingTimeoutMs
      duplicateDeliveries: 2,
      log: (event) => {
        sandboxLog.push(formatSandboxLogEvent(event));
        if (event.kind === 'callback' && event.outcome !== 'delivered') failedAttempts += 1;
      },
    });
    const client = new PaymentsClient({ baseUrl: sandbox.url, timeout: 15_000 });
    const year = new Date().getUTCFullYear() + 2;
    const customer = { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' };
    const TOTAL = 400;
    try {
      let next = 0;
      const initiateAll = Promise.all(
        Array.from({ length: 20 }, async () => {
          while (next < TOTAL) {
            const i = next++;
            const reference = `restart-${i}`;
            const callback_url = await signCallbackUrl(`${cluster.url}/hooks`, { secret: SECRET, reference });
            const amount = { delivery_fee: 100, discount_fee: 50, total: 100 + i, currency: 'KES' };
            if (i % 2 === 0) {
              await client.initiateCardPayment({
                customer_details: customer,
                amount,
                card_details: {
                  card_number: '4242424242424242',
                  expiry_month: 12,
                  expiry_year: year,
                  cvc: testCvc,
                },
                callback_details: { transaction_reference: reference, callback_url },
              });
            } else {
              await client.initiateMobileMoneyPayment({
                customer_details: customer,
                amount,
                callback_details: { transaction_reference: reference, callback_url },
              });
            }
            await sleep(5); // spread the run out so the outage lands in its middle
          }
        }),
      );
      // Kill Redis once a quarter of the run has been processed; bring it back 1.5 s later.
      const processedNow = () => [...cluster.ledger.processed.keys()].filter((k) => !before.has(k)).length;
      while (processedNow() < TOTAL / 4) await sleep(10);
      const processedAtKill = processedNow();
      await redis.kill();
      await sleep(1_500);
      await redis.start();
      await initiateAll;
      // The report counts every delivery; sandbox.deliveries keeps only about a thousand finished ones.
      const report = await sandbox.waitForIdle();
      await cluster.flush();

      const processed = new Map([...cluster.ledger.processed].filter(([k]) => !before.has(k)));
      const duplicates = [...processed.values()].reduce((n, c) => n + (c - 1), 0);
      const undelivered = report.failed + report.cancelled + report.dropped;
      const figures = {
        'restart.initiations': TOTAL,
        'restart.deliveries': report.delivered + undelivered,
        'restart.processedBeforeKill': processedAtKill,
        'restart.deliveryAttemptsFailedDuringOutage': failedAttempts,
        'restart.handlerRefusals': JSON.stringify(
          Object.fromEntries([...cluster.refusals].map(([k, n]) => [k, n - (refusalsBefore.get(k) ?? 0)])),
        ),
        'restart.processed': processed.size,
        'restart.lost': TOTAL - processed.size,
        'restart.duplicatesProcessed': duplicates,
        'restart.undeliveredCallbacks': undelivered,
      };
      recordFigures(SECTION, figures);
      expect(failedAttempts).toBeGreaterThan(0); // the outage did hit deliveries
      expect(processed.size).toBe(TOTAL);
      expect(duplicates).toBe(0);
      expect(cluster.ledger.callsAfterSuccess).toBe(0);
      expect(undelivered, report.summary).toBe(0);
      sandboxLog.forEach((line, i) => capture.add(`sandbox log ${i}`, line));
      expect(findSecrets(capture.items)).toEqual([]);
      recordFigures(SECTION, { capturedTextsScanned: capture.size, secretsFound: 0 });
    } finally {
      await sandbox.close();
    }
  }, 150_000);
});
