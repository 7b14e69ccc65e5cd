// The delivery report counts every callback since the queue started, though the queue keeps only
// about a thousand finished deliveries: a callback given up on stays failed (and the report not
// ok) after a thousand later ones were delivered, and the summary says how many were not kept
// and how those ended.
import { describe, expect, it } from 'vitest';
import type { CallbackPayload } from '../../src/callbacks/schemas.js';
import {
  createDeliveryQueue,
  type CallbackTransport,
  type DeliveryQueue,
} from '../../src/sandbox/delivery.js';
import type { DeliveryReport } from '../../src/sandbox/report.js';

const payload = {} as CallbackPayload;
const HOOKS = 'http://127.0.0.1:9/hooks';
const REFUSING = 'http://127.0.0.1:9/refusing';

/** Answers 401 invalid_signature at REFUSING, 200 anywhere else. */
const transport: CallbackTransport = async ({ url }) =>
  url === REFUSING ? { status: 401, reason: 'invalid_signature' } : 200;

/** Enqueues `count` callbacks to HOOKS in batches of 100, waiting for each batch to be delivered. */
async function deliverInBatches(queue: DeliveryQueue, count: number) {
  for (let sent = 0; sent < count; sent += 100) {
    for (let i = sent; i < Math.min(sent + 100, count); i++) {
      queue.enqueue('payout.succeeded', HOOKS, payload, `ORDER-${i}`);
    }
    await queue.waitForIdle({ timeout: 5000 });
  }
}

/** The summary's first lines, as the message of a failed assertion (the rest is one line per callback). */
const headOf = (summary: string) => summary.split('\n').slice(0, 3).join('\n');

const countsOf = (report: DeliveryReport) => ({
  ok: report.ok,
  delivered: report.delivered,
  failed: report.failed,
  cancelled: report.cancelled,
  dropped: report.dropped,
  pending: report.pending,
  kept: report.deliveries.length,
});

describe('the delivery report of a queue that has sent more than 1000 callbacks', () => {
  it('still counts a callback given up on before 1200 later ones were delivered', async () => {
    const queue = createDeliveryQueue({ retries: 1, retryDelayMs: 1, transport });
    try {
      queue.enqueue('payout.succeeded', REFUSING, payload, 'ORDER-REFUSED');
      await queue.waitForIdle({ timeout: 5000 });
      await deliverInBatches(queue, 1200);
      const report = await queue.waitForIdle({ timeout: 5000 });
      expect(countsOf(report), headOf(report.summary)).toEqual({
        ok: false,
        delivered: 1200,
        failed: 1,
        cancelled: 0,
        dropped: 0,
        pending: 0,
        kept: 1000,
      });
      const lines = report.summary.split('\n');
      expect(lines[0]).toBe('1201 callbacks: 1200 delivered, 1 failed');
      // Failed and cancelled deliveries are kept before delivered ones: its line is still there.
      expect(lines[1]).toBe(
        '  … 201 callbacks not listed (1000 kept, failed and cancelled ones longest): 201 delivered',
      );
      expect(lines).toContain(
        '  ✗ payout.succeeded for ORDER-REFUSED to http://127.0.0.1:9/refusing failed after 2 attempts: 401 invalid_signature',
      );
      expect(report.failures).toEqual([
        expect.objectContaining({ reference: 'ORDER-REFUSED', state: 'failed', attempts: 2 }),
      ]);
    } finally {
      queue.close();
    }
  });

  it('says how many of the callbacks not kept failed, when failures alone fill the list', async () => {
    const queue = createDeliveryQueue({ retries: 0, transport });
    try {
      for (let sent = 0; sent < 1100; sent += 100) {
        for (let i = sent; i < sent + 100; i++) {
          queue.enqueue('payout.succeeded', REFUSING, payload, `ORDER-${i}`);
        }
        await queue.waitForIdle({ timeout: 5000 });
      }
      const report = await queue.waitForIdle({ timeout: 5000 });
      expect(countsOf(report), headOf(report.summary)).toEqual({
        ok: false,
        delivered: 0,
        failed: 1100,
        cancelled: 0,
        dropped: 0,
        pending: 0,
        kept: 1000,
      });
      const lines = report.summary.split('\n');
      expect(lines[0]).toBe('1100 callbacks: 1100 failed');
      expect(lines[1]).toBe(
        '  … 100 callbacks not listed (1000 kept, failed and cancelled ones longest): 100 failed',
      );
      expect(report.failures).toHaveLength(1000);
      expect(report.failures[0]?.reference).toBe('ORDER-100');
    } finally {
      queue.close();
    }
  });

  it('counts each cancelled and dropped callback once, kept or not', async () => {
    const queue = createDeliveryQueue({ delayMs: 60_000, transport });
    queue.enqueue('payout.succeeded', HOOKS, payload, 'ORDER-WAITING');
    for (let i = 0; i < 1100; i++) queue.drop('payout.succeeded', HOOKS, payload, 'test value', `DROP-${i}`);
    queue.close();
    queue.close();
    // Enqueued after close(): recorded cancelled, never sent.
    queue.enqueue('payout.succeeded', HOOKS, payload, 'ORDER-LATE');
    const report = await queue.waitForIdle({ timeout: 5000 });
    expect(countsOf(report), headOf(report.summary)).toEqual({
      ok: false,
      delivered: 0,
      failed: 0,
      cancelled: 2,
      dropped: 1100,
      pending: 0,
      kept: 1000,
    });
    const lines = report.summary.split('\n');
    expect(lines[0]).toBe('1102 callbacks: 2 cancelled, 1100 dropped');
    expect(lines[1]).toBe(
      '  … 102 callbacks not listed (1000 kept, failed and cancelled ones longest): 102 dropped',
    );
    expect(report.failures.map((entry) => entry.reference)).toEqual(['ORDER-WAITING', 'ORDER-LATE']);
  });

  it('says nothing of callbacks not kept while every one is kept', async () => {
    const queue = createDeliveryQueue({ transport });
    try {
      await deliverInBatches(queue, 3);
      const report = await queue.waitForIdle({ timeout: 5000 });
      expect(report.summary).toBe('3 callbacks: 3 delivered');
      expect(report.ok).toBe(true);
    } finally {
      queue.close();
    }
  });
});
