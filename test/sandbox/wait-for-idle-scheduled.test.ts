// A duplicate the sandbox has scheduled (duplicateDeliveries) but not yet recorded
// keeps waitForIdle() waiting (this.scheduled), yet a timed-out wait's report counts nothing
// pending: the rejection says "callbacks still pending" over a report that is ok with pending 0
// and names no pending callback.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { createDeliveryQueue } from '../../src/sandbox/delivery.js';

it('a timed-out wait whose only pending work is a scheduled duplicate reports it pending', async () => {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const queue = createDeliveryQueue({ delayMs: 400, duplicates: 1 });
  queue.enqueue('payout.succeeded', url, {} as never, 'REF-1');
  await new Promise((resolve) => setTimeout(resolve, 600)); // first copy delivered, duplicate scheduled
  const error = (await queue.waitForIdle({ timeout: 50 }).catch((e: unknown) => e)) as
    (Error & { report: { ok: boolean; pending: number } }) | undefined;
  queue.close();
  server.close();
  expect(error).toBeInstanceOf(Error);
  expect(error!.report.ok).toBe(false);
  expect(error!.report.pending).toBeGreaterThan(0);
});
