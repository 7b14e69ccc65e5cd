// A transaction whose record leaves the store while waitFor waits (a Redis restarted without
// persistence, FLUSHALL): at its timeout the wait says the record is gone, not "still pending" —
// no callback can settle a record that is not there. A read that misses it once (a replica that
// lags, a record moved between reads) does not end the wait: it reads on, and a settlement found
// later resolves it.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTransactionStore, type RedisTransactionStore } from '../../src/redis/index.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  TransactionTimeoutError,
  UnknownTransactionError,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';
import { useRedis } from '../helpers/redis.js';

const redis = useRedis();
let client: Redis;
let store: RedisTransactionStore | undefined;

beforeAll(() => {
  client = redis.client({ commandTimeout: 2_000 });
});

afterAll(async () => {
  await store?.close().catch(() => undefined);
});

const card = { kind: 'card', amount: 1500, currency: 'KES' } as const;

describe('waitFor when the record leaves the store', () => {
  it('on Redis emptied by FLUSHALL: rejects at its timeout with UnknownTransactionError saying it is no longer stored', async () => {
    store = createRedisTransactionStore({ client, prefix: 'lost:' });
    const tracker = createTransactionTracker({ store, pollIntervalMs: 50 });
    await tracker.begin({ ...card, reference: 'ORD-LOST-1' });
    const started = Date.now();
    const waiting = caught(() => tracker.waitFor('ORD-LOST-1', { timeout: 1_000 }));
    await new Promise((resolve) => setTimeout(resolve, 150));
    await client.flushall();
    const error = await waiting;
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(error).toBeInstanceOf(UnknownTransactionError);
    expect(error).toMatchObject({ reference: 'ORD-LOST-1' });
    expect((error as Error).message).toContain('"ORD-LOST-1"');
    expect((error as Error).message).toMatch(/no longer in the store/);
  });

  it('on a store whose get stops finding it: the same', async () => {
    const memory = createMemoryTransactionStore();
    let lost = false;
    const forgetful: TransactionStore = {
      insert: (record) => memory.insert(record),
      get: (reference) => (lost ? Promise.resolve(undefined) : memory.get(reference)),
      update: (record, from) => memory.update(record, from),
      listPending: (query) => memory.listPending(query),
    };
    const tracker = createTransactionTracker({ store: forgetful, pollIntervalMs: 20 });
    await tracker.begin({ ...card, reference: 'ORD-LOST-2' });
    const waiting = caught(() => tracker.waitFor('ORD-LOST-2', { timeout: 500 }));
    await new Promise((resolve) => setTimeout(resolve, 60));
    lost = true;
    const error = await waiting;
    expect(error).toBeInstanceOf(UnknownTransactionError);
    expect((error as Error).message).toMatch(/no longer in the store/);
  });

  it('a read that misses the record once (a lagging replica) does not end the wait: the settlement resolves it', async () => {
    const memory = createMemoryTransactionStore();
    let misses = 0;
    const lagging: TransactionStore = {
      insert: (record) => memory.insert(record),
      get: (reference) => (misses-- > 0 ? Promise.resolve(undefined) : memory.get(reference)),
      update: (record, from) => memory.update(record, from),
      listPending: (query) => memory.listPending(query),
    };
    const receiver = createTransactionTracker({ store: memory }); // another instance settles it
    const waiter = createTransactionTracker({ store: lagging, pollIntervalMs: 20 });
    await receiver.begin({ ...card, reference: 'ORD-LAG' });
    const waiting = waiter.waitFor('ORD-LAG', { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    misses = 2;
    await new Promise((resolve) => setTimeout(resolve, 100));
    await receiver.settle('ORD-LAG', { outcome: 'succeeded' });
    await expect(waiting).resolves.toMatchObject({ reference: 'ORD-LAG', state: 'succeeded' });
  });

  it('a reference never recorded is still refused at once, with the message it had', async () => {
    const tracker = createTransactionTracker({ store: createMemoryTransactionStore() });
    const error = await caught(() => tracker.waitFor('ORD-NEVER', { timeout: 5_000 }));
    expect(error).toBeInstanceOf(UnknownTransactionError);
    expect((error as Error).message).not.toMatch(/no longer/);
  });
});

describe('UnknownTransactionError for a reference never recorded', () => {
  it("names both ways a transaction is recorded: tracker.begin and the client's transactions option", async () => {
    const tracker = createTransactionTracker({ store: createMemoryTransactionStore() });
    const error = await caught(() => tracker.settle('ORD-NONE', { outcome: 'succeeded' }));
    expect(error).toBeInstanceOf(UnknownTransactionError);
    expect((error as Error).message).toMatch(/tracker\.begin/);
    expect((error as Error).message).toMatch(/transactions option/);
  });
});

describe('waitFor: a miss, then a store that fails until the timeout', () => {
  it('is a TransactionTimeoutError saying the store could not be read, not "no longer in the store"', async () => {
    const memory = createMemoryTransactionStore();
    let phase: 'ok' | 'miss' | 'down' = 'ok';
    const store: TransactionStore = {
      insert: (record) => memory.insert(record),
      get: (reference) =>
        phase === 'ok'
          ? memory.get(reference)
          : phase === 'miss'
            ? ((phase = 'down'), Promise.resolve(undefined))
            : Promise.reject(new Error('store down')),
      update: (record, from) => memory.update(record, from),
      listPending: (query) => memory.listPending(query),
    };
    const tracker = createTransactionTracker({ store, pollIntervalMs: 20 });
    await tracker.begin({ ...card, reference: 'ORD-MISS-DOWN' });
    const waiting = caught(() => tracker.waitFor('ORD-MISS-DOWN', { timeout: 400 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    phase = 'miss';
    const error = await waiting;
    expect(error).toBeInstanceOf(TransactionTimeoutError);
    expect((error as Error).message).toMatch(/store could not be read/);
  });
});
