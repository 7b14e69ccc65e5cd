// waitFor on the Redis transaction store while Redis is held by CLIENT PAUSE, the transaction in
// fact paid, its timeout shorter than the store's commandTimeoutMs: no read has answered when the
// timeout comes, so the wait must not say "still pending" (a return page would invite a second
// payment). It reads once more, given at most 1 s: Redis back by then resolves it with the paid
// record; Redis still held rejects saying the store could not be read, the store's error its cause.
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTransactionStore, type RedisTransactionStore } from '../../src/redis/index.js';
import { createTransactionTracker, TransactionTimeoutError } from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';
import { useRedis } from '../helpers/redis.js';

const redis = useRedis();
let admin: Redis;
let store: RedisTransactionStore;

beforeAll(() => {
  admin = redis.client();
  store = createRedisTransactionStore({ client: redis.client(), commandTimeoutMs: 1_500 });
});

// Commands of the next test wait for the pause to end.
afterEach(async () => {
  await admin.ping();
});

afterAll(async () => {
  await store.close().catch(() => undefined);
});

/** A tracker on the store with `reference` recorded and settled as succeeded. */
async function paid(reference: string) {
  const tracker = createTransactionTracker({ store });
  await tracker.begin({ reference, kind: 'card', amount: '1500', currency: 'KES' });
  await tracker.settle(reference, {
    outcome: 'succeeded',
    eventType: 'payment.card.succeeded',
    amount: '1500',
    transactionId: 'T1',
    paymentId: 'P1',
  });
  return tracker;
}

/** Holds every client's commands for `ms` from now. */
async function pause(ms: number): Promise<void> {
  await admin.call('CLIENT', 'PAUSE', String(ms), 'ALL');
}

describe('waitFor on the Redis store while Redis is held by CLIENT PAUSE', () => {
  it('resolves with the paid record when Redis answers within the last read’s second', async () => {
    const tracker = await paid('PAID-PAUSE-1');
    await pause(1_300);
    const started = Date.now();
    const record = await tracker.waitFor('PAID-PAUSE-1', { timeout: 1_000 });
    expect(record).toMatchObject({ reference: 'PAID-PAUSE-1', state: 'succeeded' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('rejects saying the store could not be read, with its error as cause, when Redis is still held', async () => {
    const tracker = await paid('PAID-PAUSE-2');
    await pause(3_000);
    const started = Date.now();
    const error = await caught(() => tracker.waitFor('PAID-PAUSE-2', { timeout: 1_000 }));
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1_900);
    expect(took).toBeLessThan(2_500);
    expect(error).toBeInstanceOf(TransactionTimeoutError);
    expect(error).toMatchObject({ reference: 'PAID-PAUSE-2', timeoutMs: 1_000 });
    const { message, cause } = error as Error;
    expect(message).not.toMatch(/still pending after/);
    expect(message).toMatch(/the transaction store could not be read/);
    expect(message).toMatch(/whether it is still pending is not known/);
    expect((cause as Error).message).toMatch(/did not answer within 1500 ms \(commandTimeoutMs\)/);
  });
});
