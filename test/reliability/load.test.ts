// Load: 2,000 payment initiations at concurrency 100 through the client against the sandbox, the
// merchant's webhook failing 30% of first deliveries (and the sandbox sending a duplicate of
// every callback): every callback ends up processed, none lost, none processed twice. Records
// p50/p99 latency and throughput. LOAD_INITIATIONS / LOAD_CONCURRENCY override the size.
//
// An initiation may time out on a loaded machine: Node 20's fetch (undici) holds a few requests of
// a burst of new connections until the burst is over (plain fetch against a bare node:http server
// at 100 in flight does the same), so on a slow CI box their wait exceeds the client's timeout
// though the sandbox received them. The SDK reports such a call as a TimeoutError with `sent`
// (keep the order pending until its callback), and that is what the test holds the SDK to: no
// other error, and every timed-out order still settled by its callback, exactly once.
import { describe, expect, it } from 'vitest';
import { signCallbackUrl } from '../../src/callbacks/signing.js';
import { PaymentsClient } from '../../src/client.js';
import { TimeoutError } from '../../src/errors.js';
import { formatSandboxLogEvent } from '../../src/sandbox/log.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { percentile, recordFigures, resetFigures, round } from './helpers/figures.js';
import { startHandlerCluster } from './helpers/handler-cluster.js';
import { ledgerFigures } from './helpers/merchant.js';
import { Capture, findSecrets, testCvc } from './helpers/secrets.js';

const SECTION = 'load';
const INITIATIONS = Number(process.env.LOAD_INITIATIONS ?? 2_000);
const CONCURRENCY = Number(process.env.LOAD_CONCURRENCY ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_601);
const SECRET = 'whsec_reliability_load_test';

describe('load through the client against the sandbox', () => {
  it(`processes ${INITIATIONS} initiations at concurrency ${CONCURRENCY} exactly once with 30% of first deliveries failing`, async () => {
    resetFigures(SECTION);
    const capture = new Capture();
    // The merchant's webhook runs in its own process (as it would), with the handler's default
    // in-memory dedupe store; it answers 500 to 30% of first deliveries (seeded, by callback URL).
    const merchant = await startHandlerCluster({
      instances: 1,
      secret: SECRET,
      capture,
      env: { FAIL_FIRST_DELIVERY_PCT: '30', SEED: String(SEED) },
    });
    const sandboxLog: string[] = [];
    // Ten retries (backoff from 50 ms, doubling) keep a callback coming for about two minutes, as a
    // provider keeps retrying: a merchant process swamped by the burst on a loaded CI box answers
    // late, not never.
    const sandbox = await startSandbox({
      callbackDelayMs: 0,
      retryDelayMs: 50,
      deliveryRetries: 10,
      duplicateDeliveries: 1,
      log: (event) => void sandboxLog.push(formatSandboxLogEvent(event)),
    });
    const client = new PaymentsClient({ baseUrl: sandbox.url, timeout: 15_000 });
    const year = new Date().getUTCFullYear() + 2;
    const hookBase = `${merchant.url}/hooks/payments`;
    const latencies: number[] = [];
    const startedAt = new Map<string, number>();
    const errors: unknown[] = [];
    const timedOut: string[] = [];
    try {
      const initiate = async (i: number) => {
        const reference = `load-${i}`;
        const callback_url = await signCallbackUrl(hookBase, { secret: SECRET, reference });
        const customer = { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' };
        const amount = { delivery_fee: 100, discount_fee: 50, total: 100 + (i % 900), currency: 'KES' };
        const started = performance.now();
        startedAt.set(reference, Date.now()); // compared with the merchant process's Date.now()
        try {
          if (i % 2 === 0) {
            await client.initiateCardPayment({
              customer_details: customer,
              amount,
              card_details: {
                card_number: i % 10 === 0 ? '4000000000000002' : '4242424242424242',
                expiry_month: 12,
                expiry_year: year,
                cvc: testCvc,
              },
              callback_details: { transaction_reference: reference, callback_url },
            });
          } else {
            await client.initiateMobileMoneyPayment({
              customer_details: i % 10 === 1 ? { ...customer, phone_number: '254700000406' } : customer,
              amount,
              callback_details: { transaction_reference: reference, callback_url },
            });
          }
          latencies.push(performance.now() - started);
        } catch (error) {
          capture.add('client error', error);
          if (error instanceof TimeoutError && error.sent) timedOut.push(reference);
          else errors.push(error);
        }
      };

      const t0 = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < INITIATIONS) await initiate(next++);
        }),
      );
      const initiationWallMs = performance.now() - t0;
      // The report counts every callback; sandbox.deliveries keeps only about a thousand finished ones.
      const report = await sandbox.waitForIdle();
      await merchant.flush();
      const allProcessedMs = performance.now() - t0;

      const figures = ledgerFigures(merchant.ledger, INITIATIONS);
      const endToEnd = [...merchant.ledger.processedAtByReference].map(
        ([ref, at]) => at - startedAt.get(ref)!,
      );
      const firstDeliveriesFailed = merchant.injected;
      const result = {
        initiations: INITIATIONS,
        concurrency: CONCURRENCY,
        initiationErrors: errors.length,
        initiationTimeouts: timedOut.length,
        callbacksProcessed: figures.distinctEventsProcessed,
        lost: figures.lost,
        duplicatesProcessed: figures.duplicatesProcessed,
        onEventCallsAfterSuccess: figures.onEventCallsAfterSuccess,
        firstDeliveriesFailed,
        firstDeliveriesFailedPct: round((100 * firstDeliveriesFailed) / INITIATIONS),
        deliveries: report.delivered + report.failed + report.cancelled + report.dropped,
        deliveriesKept: sandbox.deliveries.length,
        // Over the deliveries kept, as deliveryAttemptOutcomes below, not every delivery.
        deliveryAttempts: sandbox.deliveries.reduce((s, d) => s + d.attempts.length, 0),
        undeliveredCallbacks: report.failed + report.cancelled + report.dropped,
        deliveriesGivenUp: report.failed,
        initiationP50Ms: round(percentile(latencies, 50)),
        initiationP99Ms: round(percentile(latencies, 99)),
        initiationsPerSecond: round((INITIATIONS / initiationWallMs) * 1000),
        callbackEndToEndP50Ms: round(percentile(endToEnd, 50)),
        callbackEndToEndP99Ms: round(percentile(endToEnd, 99)),
        allCallbacksProcessedAfterMs: round(allProcessedMs),
      };
      recordFigures(SECTION, result);
      const outcomes: Record<string, number> = {};
      for (const d of sandbox.deliveries) {
        for (const a of d.attempts) {
          const k = String(a.status ?? a.error);
          outcomes[k] = (outcomes[k] ?? 0) + 1;
        }
      }
      recordFigures(SECTION, { deliveryAttemptOutcomes: JSON.stringify(outcomes) });

      expect(errors.map(String)).toEqual([]);
      // A burst's held requests, not a slow SDK: a quarter of the orders timing out is not noise
      // (a run beside three busy loops on 2 cores read a tenth).
      expect(timedOut.length).toBeLessThanOrEqual(INITIATIONS / 4);
      expect(timedOut.filter((reference) => !merchant.ledger.processedAtByReference.has(reference))).toEqual(
        [],
      );
      // Which orders, by reference: every one's callback was delivered (the summary names any
      // given up on or cancelled, and the route's last answer), and processed.
      expect({ ok: report.ok, failed: report.failed, cancelled: report.cancelled }, report.summary).toEqual({
        ok: true,
        failed: 0,
        cancelled: 0,
      });
      expect(
        Array.from({ length: INITIATIONS }, (_, i) => `load-${i}`).filter(
          (reference) => !merchant.ledger.processedAtByReference.has(reference),
        ),
      ).toEqual([]);
      expect(result).toMatchObject({
        callbacksProcessed: INITIATIONS,
        lost: 0,
        duplicatesProcessed: 0,
        onEventCallsAfterSuccess: 0,
        undeliveredCallbacks: 0,
      });
      // No timing is asserted (speed is the bench's): the figures above are recorded, and a
      // pathological slowdown passes the test's own timeout (a run beside three busy loops on 2
      // cores took 138 s, ~34 initiations/s).
      // 30% of first deliveries fail (by a seeded hash of the event): allow the hash's spread
      expect(result.firstDeliveriesFailedPct).toBeGreaterThan(25);
      expect(result.firstDeliveriesFailedPct).toBeLessThan(35);

      sandboxLog.forEach((line, i) => capture.add(`sandbox log ${i}`, line));
      expect(findSecrets(capture.items)).toEqual([]);
      recordFigures(SECTION, { capturedTextsScanned: capture.size, secretsFound: 0 });
    } finally {
      await sandbox.close();
      const { exitedByThemselves } = await merchant.stop();
      expect(exitedByThemselves).toBe(true);
    }
  }, 300_000);
});
