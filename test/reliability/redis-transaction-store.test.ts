// The pending-transaction store on a real redis-server: atomic transitions between several
// clients (standing for several processes), waitFor woken over pub/sub, TTL on finished records,
// and a Redis restart that loses nothing.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTransactionStore, type RedisTransactionStore } from '../../src/redis/index.js';
import {
  createTransactionTracker,
  TransactionConflictError,
  TransactionTimeoutError,
  type TransactionTracker,
} from '../../src/transactions/index.js';
import { startRedisServer, type RedisServer } from './helpers/redis-server.js';

let server: RedisServer;
const clients: Redis[] = [];
const stores: RedisTransactionStore[] = [];
const connect = (): Redis => {
  const client = new Redis(server.port, '127.0.0.1', {
    commandTimeout: 1_000,
    maxRetriesPerRequest: 1,
    retryStrategy: () => 50,
  });
  client.on('error', () => {}); // reconnect noise while the server is down is expected
  clients.push(client);
  return client;
};
let prefixCounter = 0;
// One tracker per "process": its own connection (and subscriber), one shared Redis.
const instance = (prefix: string, pollIntervalMs = 60_000) => {
  const client = connect();
  const store = createRedisTransactionStore({ client, prefix });
  stores.push(store);
  return { client, store, tracker: createTransactionTracker({ store, pollIntervalMs }) };
};
const freshPrefix = () => `t${prefixCounter++}:`;

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close().catch(() => undefined)));
  await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
  await server?.stop();
});

describe('createRedisTransactionStore against a real redis-server', () => {
  it('records, settles once across instances, and refuses a contradicting outcome', async () => {
    const prefix = freshPrefix();
    const a = instance(prefix);
    const b = instance(prefix);
    const begun = await a.tracker.begin({
      reference: 'ORD-1',
      kind: 'mobile_money',
      amount: 1500,
      currency: 'KES',
    });
    expect(await b.tracker.get('ORD-1')).toEqual(begun);
    const outcomes = Array.from({ length: 40 }, (_, i): 'succeeded' | 'failed' =>
      i % 2 ? 'succeeded' : 'failed',
    );
    const results = await Promise.allSettled(
      outcomes.map((outcome, i) => (i % 2 ? a : b).tracker.settle('ORD-1', { outcome })),
    );
    expect(results.filter((r) => r.status === 'fulfilled' && r.value.result === 'settled')).toHaveLength(1);
    const stored = (await a.tracker.get('ORD-1'))!;
    for (const [i, r] of results.entries()) {
      if (outcomes[i] === stored.state) expect(r.status).toBe('fulfilled');
      else {
        expect(r.status).toBe('rejected');
        expect((r as PromiseRejectedResult).reason).toBeInstanceOf(TransactionConflictError);
      }
    }
  });

  it('wakes waitFor on another instance over pub/sub, without polling', async () => {
    const prefix = freshPrefix();
    const receiver = instance(prefix);
    const waiter = instance(prefix, 600_000);
    await receiver.tracker.begin({ reference: 'ORD-2', kind: 'payout', amount: 99 });
    const waits = Array.from({ length: 3 }, () => waiter.tracker.waitFor('ORD-2', { timeout: 10_000 }));
    await new Promise((r) => setTimeout(r, 100));
    const { record } = await receiver.tracker.settle('ORD-2', { outcome: 'succeeded', transactionId: 'TX2' });
    for (const waited of await Promise.all(waits)) expect(waited).toEqual(record);
  });

  it('lists stale pending transactions per kind and keeps expired ones settleable, as late', async () => {
    let t = 1_000_000;
    const prefix = freshPrefix();
    const store = createRedisTransactionStore({ client: connect(), prefix });
    stores.push(store);
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin({ reference: 'STK-1', kind: 'mobile_money', amount: 1 });
    await tracker.begin({ reference: 'PAY-1', kind: 'payout', amount: 1 });
    await tracker.begin({ reference: 'STK-2', kind: 'mobile_money', amount: 1 });
    await tracker.settle('STK-2', { outcome: 'failed' });
    t += 5 * 60_000 + 1;
    expect((await tracker.stale()).map((r) => r.reference)).toEqual(['STK-1']);
    await tracker.expire('STK-1');
    expect(await tracker.stale()).toEqual([]);
    await expect(tracker.settle('STK-1', { outcome: 'succeeded' })).resolves.toMatchObject({
      result: 'late',
      record: { state: 'succeeded', late: true },
    });
  });

  it('lists a record made pending again (an expired one re-initiated) among the stale ones', async () => {
    let t = 1_000_000;
    const store = createRedisTransactionStore({ client: connect(), prefix: freshPrefix() });
    stores.push(store);
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin({ reference: 'ORD-9', kind: 'card', amount: 1 });
    await tracker.expire('ORD-9');
    expect(await tracker.stale({ olderThan: 0 })).toEqual([]);
    const again = {
      reference: 'ORD-9',
      kind: 'card',
      amount: '1',
      state: 'pending',
      createdAt: t,
      updatedAt: t,
    } as const;
    await expect(store.update(again, 'expired')).resolves.toBe(true);
    t += 2;
    expect((await tracker.stale({ olderThan: 1 })).map((r) => r.reference)).toEqual(['ORD-9']);
  });

  it('keeps pending records without a TTL and gives finished ones the finishedTtlMs', async () => {
    const prefix = freshPrefix();
    const client = connect();
    const store = createRedisTransactionStore({ client, prefix, finishedTtlMs: 60_000 });
    stores.push(store);
    const tracker = createTransactionTracker({ store });
    await tracker.begin({ reference: 'ORD-3', kind: 'card', amount: 1 });
    expect(await client.pttl(`${prefix}r:ORD-3`)).toBe(-1);
    await tracker.settle('ORD-3', { outcome: 'succeeded' });
    const ttl = await client.pttl(`${prefix}r:ORD-3`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('loses nothing over a Redis restart: a waiter started before it resolves when the transaction settles after it', async () => {
    const prefix = freshPrefix();
    const receiver = instance(prefix);
    const waiter = instance(prefix, 100); // the pub/sub message may be lost while Redis is down
    await receiver.tracker.begin({ reference: 'ORD-4', kind: 'checkout', amount: 5 });
    await receiver.tracker.begin({ reference: 'ORD-5', kind: 'checkout', amount: 5 });
    await receiver.tracker.settle('ORD-5', { outcome: 'succeeded' });
    const waiting = waiter.tracker.waitFor('ORD-4', { timeout: 15_000 });
    await new Promise((r) => setTimeout(r, 100));
    await server.kill();
    await expect(receiver.tracker.settle('ORD-4', { outcome: 'failed' })).rejects.toThrow();
    await server.start();
    const settled = await (async () => {
      for (;;) {
        try {
          return await receiver.tracker.settle('ORD-4', { outcome: 'failed' });
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    })();
    expect(settled.result).toBe('settled');
    await expect(waiting).resolves.toMatchObject({ reference: 'ORD-4', state: 'failed' });
    // What was settled before the restart is still settled, once.
    await expect(receiver.tracker.settle('ORD-5', { outcome: 'succeeded' })).resolves.toMatchObject({
      result: 'duplicate',
    });
  });

  it('listens again after Redis restarts: a waiter that never polls is still woken over pub/sub', async () => {
    const prefix = freshPrefix();
    const receiver = instance(prefix);
    const waiter = instance(prefix, 600_000);
    await receiver.tracker.begin({ reference: 'ORD-6', kind: 'payout', amount: 7 });
    await receiver.tracker.begin({ reference: 'ORD-7', kind: 'payout', amount: 7 });
    // The waiter's store subscribes, then loses its connection twice in quick succession.
    const first = waiter.tracker.waitFor('ORD-6', { timeout: 15_000 });
    await new Promise((r) => setTimeout(r, 100));
    for (let i = 0; i < 2; i++) {
      await server.kill();
      await server.start();
      await new Promise((r) => setTimeout(r, 20));
    }
    const waiting = waiter.tracker.waitFor('ORD-7', { timeout: 15_000 });
    await new Promise((r) => setTimeout(r, 1_000)); // the waiter's subscriber reconnects
    for (const reference of ['ORD-6', 'ORD-7']) {
      for (;;) {
        try {
          await receiver.tracker.settle(reference, { outcome: 'succeeded' });
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    }
    await expect(first).resolves.toMatchObject({ reference: 'ORD-6', state: 'succeeded' });
    await expect(waiting).resolves.toMatchObject({ reference: 'ORD-7', state: 'succeeded' });
  });

  it('waitFor called while Redis is down keeps waiting, and resolves once Redis is back and the transaction settled', async () => {
    const prefix = freshPrefix();
    const receiver = instance(prefix);
    const waiter = instance(prefix, 100);
    await receiver.tracker.begin({ reference: 'ORD-10', kind: 'card', amount: 3 });
    await server.kill();
    const waits = Array.from({ length: 20 }, () => waiter.tracker.waitFor('ORD-10', { timeout: 15_000 }));
    const early = await Promise.race([
      Promise.allSettled(waits),
      new Promise((r) => setTimeout(() => r('still waiting'), 1_000)),
    ]);
    expect(early).toBe('still waiting');
    await server.start();
    for (;;) {
      try {
        await receiver.tracker.settle('ORD-10', { outcome: 'succeeded' });
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    for (const waited of await Promise.all(waits)) {
      expect(waited).toMatchObject({ reference: 'ORD-10', state: 'succeeded' });
    }
  });

  it("waitFor on a Redis that stays down rejects at its timeout with a typed error naming the reference, its cause a plain copy of ioredis's", async () => {
    const prefix = freshPrefix();
    const waiter = instance(prefix, 100);
    await waiter.tracker.begin({ reference: 'ORD-11', kind: 'card', amount: 3 });
    await server.kill();
    try {
      const started = Date.now();
      const error = await waiter.tracker.waitFor('ORD-11', { timeout: 1_500 }).catch((e: unknown) => e);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
      expect(error).toBeInstanceOf(TransactionTimeoutError);
      expect(error).toMatchObject({ reference: 'ORD-11', timeoutMs: 1_500 });
      expect((error as Error).message).toMatch(/store could not be read/);
      const cause = (error as Error).cause as Error;
      expect(cause).toBeInstanceOf(Error);
      expect(cause.constructor).toBe(Error); // a plain copy, not ioredis's object
      expect(cause.message).not.toBe('');
    } finally {
      await server.start();
    }
  });

  it('the documented reconciliation cron on two instances cancels each stale order once', async () => {
    let t = 1_000_000;
    const prefix = freshPrefix();
    const [a, b] = [connect(), connect()].map((client) => {
      const store = createRedisTransactionStore({ client, prefix });
      stores.push(store);
      return createTransactionTracker({ store, now: () => t });
    }) as [TransactionTracker, TransactionTracker];
    for (let i = 0; i < 20; i++) await a.begin({ reference: `STK-C${i}`, kind: 'mobile_money', amount: 1 });
    t += 5 * 60_000 + 1;
    const cancels: string[] = [];
    const expireStale = async (tracker: TransactionTracker) => {
      for (const record of await tracker.stale()) {
        const { result } = await tracker.expireIfPending(record.reference);
        if (result === 'expired') cancels.push(record.reference);
      }
    };
    await Promise.all([expireStale(a), expireStale(b)]);
    expect(cancels).toHaveLength(20);
    expect(new Set(cancels).size).toBe(20);
  });
});
