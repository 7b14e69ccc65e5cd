// A transaction whose record leaves the store while waitFor waits (a Redis restarted without
// persistence, FLUSHALL): the wait ends at the next read with a typed error saying the record is
// gone, not "still pending" at its timeout — no callback can settle a record that is not there.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTransactionStore, type RedisTransactionStore } from '../../src/redis/index.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  UnknownTransactionError,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';
import { startRedisServer, type RedisServer } from '../reliability/helpers/redis-server.js';

let server: RedisServer;
let client: Redis;
let store: RedisTransactionStore | undefined;

beforeAll(async () => {
  server = await startRedisServer();
  client = new Redis(server.port, '127.0.0.1', { commandTimeout: 2_000, maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  await store?.close().catch(() => undefined);
  await client?.quit().catch(() => client.disconnect());
  await server?.stop();
});

const card = { kind: 'card', amount: 1500, currency: 'KES' } as const;

describe('waitFor when the record leaves the store', () => {
  it('on Redis emptied by FLUSHALL: rejects at the next poll with UnknownTransactionError saying it is no longer stored', async () => {
    store = createRedisTransactionStore({ client, prefix: 'lost:' });
    const tracker = createTransactionTracker({ store, pollIntervalMs: 50 });
    await tracker.begin({ ...card, reference: 'ORD-LOST-1' });
    const started = Date.now();
    const waiting = caught(() => tracker.waitFor('ORD-LOST-1', { timeout: 5_000 }));
    await new Promise((resolve) => setTimeout(resolve, 150));
    await client.flushall();
    const error = await waiting;
    expect(Date.now() - started).toBeLessThan(3_000);
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
    const waiting = caught(() => tracker.waitFor('ORD-LOST-2', { timeout: 5_000 }));
    await new Promise((resolve) => setTimeout(resolve, 60));
    lost = true;
    const error = await waiting;
    expect(error).toBeInstanceOf(UnknownTransactionError);
    expect((error as Error).message).toMatch(/no longer in the store/);
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
