// What a merchant running several instances on Redis relies on, against a real redis-server: a
// claim this instance takes over after a lost reply lasts the new delivery's processing time, no
// longer and no shorter, so a delivery is processed once and never blocked for ever; a value
// another program left under a key is refused whatever it holds; a claim released after it lapsed
// leaves another instance's "done" in place; a TTL past Number.MAX_SAFE_INTEGER is refused; a
// transaction record another program wrote as JSON null is an error, never a record or none; and
// two stores sharing one subscriber wake only their own watchers.
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createRedisDedupeStore,
  createRedisTransactionStore,
  type RedisScriptClient,
} from '../../src/redis/index.js';
import { createTransactionTracker, type TransactionRecord } from '../../src/transactions/index.js';
import { useRedis } from '../helpers/redis.js';

const redis = useRedis();
let client: Redis;

beforeAll(() => {
  client = redis.client();
});

/** A client whose next script run runs on Redis and loses its reply (a dropped connection). */
const losingClient = (): RedisScriptClient & { loseNext: () => void } => {
  let lose = false;
  return {
    loseNext: () => void (lose = true),
    async eval(script, numkeys, ...args) {
      const reply = await client.eval(script, numkeys, ...args);
      if (lose) {
        lose = false;
        throw new Error('Connection is closed.');
      }
      return reply;
    },
  };
};

describe('a claim the Redis dedupe store takes over after a begin lost its reply', () => {
  it("lasts the new begin's ttlMs: another instance sees in_progress past the old claim's end, and the delivery gets through once it ends", async () => {
    const prefix = redis.prefix('dd-audit2');
    const losing = losingClient();
    const store = createRedisDedupeStore({ client: losing, prefix });
    const other = createRedisDedupeStore({ client, prefix });
    losing.loseNext();
    // The first attempt's claim, written with a short processing time; its reply was lost.
    await expect(store.begin('k', 300)).rejects.toThrow(/closed/);
    // The sender's retry on this instance takes it over, for its own processing time.
    expect(await store.begin('k', 3_000)).toBe('new');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Past the old claim's end, the event is still being processed here.
    expect(await other.begin('k', 60_000)).toBe('in_progress');
    // Once the new claim's processing time is over (the instance died), the delivery gets through.
    const until = Date.now() + 10_000;
    let answer = await other.begin('k', 60_000);
    while (answer === 'in_progress' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await other.begin('k', 60_000);
    }
    expect(answer).toBe('new');
  });
});

describe('a value under its key that the Redis dedupe store did not write', () => {
  it('is refused even when it reads like the TTL the begin asks for', async () => {
    const prefix = redis.prefix('dd-audit2');
    await client.set(`${prefix}k`, '60000');
    const store = createRedisDedupeStore({ client, prefix });
    await expect(store.begin('k', 60_000)).rejects.toThrow(/holds a value this store did not write/);
    expect(await client.get(`${prefix}k`)).toBe('60000');
  });
});

describe('a record key of the Redis transaction store holding JSON null (another program under the prefix)', () => {
  it('makes get reject rather than answer a record or none', async () => {
    const prefix = redis.prefix('tx-audit2');
    await client.hset(`${prefix}r:order-1`, 'record', 'null');
    const store = createRedisTransactionStore({ client, prefix });
    await expect(store.get('order-1')).rejects.toThrow(/Redis transaction store/);
  });
});

describe('one subscriber connection passed to two Redis transaction stores under different prefixes', () => {
  it("wakes a watcher of one store with its own store's settlements only, not the other's of the same reference", async () => {
    const subscriber = redis.client();
    const shopA = createRedisTransactionStore({ client, subscriber, prefix: redis.prefix('tx-audit2-a') });
    const shopB = createRedisTransactionStore({ client, subscriber, prefix: redis.prefix('tx-audit2-b') });
    const trackerA = createTransactionTracker({ store: shopA });
    const trackerB = createTransactionTracker({ store: shopB });
    const card = (reference: string) => ({ reference, kind: 'card', amount: 1500, currency: 'KES' }) as const;
    await trackerA.begin(card('ORDER-1'));
    await trackerB.begin(card('ORDER-1'));
    await trackerA.begin(card('ORDER-2'));
    const heardA: TransactionRecord[] = [];
    const stop = await shopA.watch!('ORDER-1', (record) => void heardA.push(record));
    let done!: () => void;
    const later = new Promise<void>((resolve) => (done = resolve));
    const stopLater = await shopA.watch!('ORDER-2', () => done());
    await shopB.watch!('ORDER-1', () => undefined);
    // Shop B's settlement of its ORDER-1, then shop A's of ORDER-2: the connection hears them in order.
    await trackerB.settle('ORDER-1', { outcome: 'succeeded' });
    await trackerA.settle('ORDER-2', { outcome: 'succeeded' });
    await later;
    expect(heardA).toEqual([]);
    stop();
    stopLater();
  });
});

describe("an instance's abandon after its claim lapsed and another instance processed the event", () => {
  it('leaves the done record, so a redelivery is not processed again', async () => {
    const prefix = redis.prefix('dd-audit2');
    const slow = createRedisDedupeStore({ client, prefix });
    const other = createRedisDedupeStore({ client, prefix });
    expect(await slow.begin('k', 50)).toBe('new');
    // The slow instance outlives its processing time; the sender's retry reaches another one.
    while ((await client.exists(`${prefix}k`)) === 1) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await other.begin('k', 60_000)).toBe('new');
    await other.complete('k', 60_000);
    // The slow instance's onEvent fails at last: its release must not erase "done".
    await slow.abandon('k');
    expect(await other.begin('k', 60_000)).toBe('done');
  });
});

describe('a TTL past Number.MAX_SAFE_INTEGER ms, though Redis would take it', () => {
  it('is a RangeError from begin and complete, before Redis is asked', async () => {
    const store = createRedisDedupeStore({ client, prefix: redis.prefix('dd-audit2') });
    await expect(store.begin('k', Number.MAX_SAFE_INTEGER * 1.5)).rejects.toThrow(RangeError);
    await expect(store.complete('k', Number.MAX_SAFE_INTEGER * 1.5)).rejects.toThrow(RangeError);
  });
});
