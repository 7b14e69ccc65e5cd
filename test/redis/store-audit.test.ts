// What the Redis transaction store must keep doing that no other test pinned (found by a mutation
// audit of src/redis/transactions.ts), against a real redis-server: a pending index that drops
// settled records and entries whose record is gone, a record made pending again that never
// expires, the TTLs, no write it could not index, no unreadable reply read as a record or as none,
// and watches that hear their own reference once, resubscribe after a failure or a restart, and
// stop on stop() and close(). What every store must do (update without previous, listPending) is
// in test/transactions/store-contract.ts.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRedisTransactionStore,
  type RedisSubscriberClient,
  type RedisTransactionStore,
} from '../../src/redis/index.js';
import { createTransactionTracker, type TransactionRecord } from '../../src/transactions/index.js';
import { useRedis } from '../helpers/redis.js';
import { startRedisServer } from '../reliability/helpers/redis-server.js';

const redisServer = useRedis();
let client: Redis;
const stores: RedisTransactionStore[] = [];

beforeAll(() => {
  client = redisServer.client();
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close().catch(() => undefined)));
});

/** A store under a prefix of its own, and that prefix. */
const makeStore = (options: { finishedTtlMs?: number } = {}) => {
  const prefix = redisServer.prefix('audit');
  const store = createRedisTransactionStore({ client, prefix, ...options });
  stores.push(store);
  return { store, prefix };
};
const card = (reference: string) => ({ reference, kind: 'card', amount: 1500, currency: 'KES' }) as const;

describe("the Redis store's pending index", () => {
  it("takes a settled record of any kind out of its kind's index", async () => {
    const { store, prefix } = makeStore();
    const tracker = createTransactionTracker({ store });
    for (const kind of ['mobile_money', 'checkout', 'payout'] as const) {
      await tracker.begin({ reference: `PAID-${kind}`, kind, amount: 1500 });
      await tracker.settle(`PAID-${kind}`, { outcome: 'succeeded' });
      expect(await client.zcard(`${prefix}pending:${kind}`)).toBe(0);
    }
    expect(await client.exists(`${prefix}pending:card`)).toBe(0);
  });
});

describe('index entries of the Redis store whose record is gone', () => {
  it('are removed as listPending passes them, so they never crowd out stale records for ever', async () => {
    let t = 0;
    const { store, prefix } = makeStore();
    const tracker = createTransactionTracker({ store, now: () => t });
    for (let i = 0; i < 10; i++) {
      await tracker.begin(card(`GONE-${i}`));
      t += 1;
    }
    const live = await tracker.begin(card('LIVE'));
    // Deleted by hand (or evicted by a maxmemory policy other than noeviction).
    for (let i = 0; i < 10; i++) await client.del(`${prefix}r:GONE-${i}`);
    expect(await store.listPending({ kind: 'card', createdBefore: t + 1, limit: 20 })).toEqual([live]);
    expect(await client.zcard(`${prefix}pending:card`)).toBe(1);
    t += 24 * 60 * 60_000;
    expect(await tracker.stale({ kind: 'card', limit: 1 })).toEqual([live]);
  });
});

describe('a record made pending again in the Redis store (a new attempt after expiry)', () => {
  it('loses the TTL of the expired record and is listed at its new createdAt', async () => {
    const { store, prefix } = makeStore({ finishedTtlMs: 60_000 });
    const tracker = createTransactionTracker({ store, now: () => 1_000 });
    await tracker.begin(card('AGAIN'));
    const expired = await tracker.expire('AGAIN');
    expect(await client.pttl(`${prefix}r:AGAIN`)).toBeGreaterThan(0);
    const attempt: TransactionRecord = { ...expired, state: 'pending', createdAt: 5_000, updatedAt: 5_000 };
    delete (attempt as { expiredAt?: number }).expiredAt;
    expect(await store.update(attempt, 'expired', expired)).toBe(true);
    expect(await client.pttl(`${prefix}r:AGAIN`)).toBe(-1);
    expect(await store.listPending({ kind: 'card', createdBefore: 5_000, limit: 5 })).toEqual([]);
    expect(await store.listPending({ kind: 'card', createdBefore: 5_001, limit: 5 })).toEqual([attempt]);
  });
});

describe('what the Redis store keeps of a finished record', () => {
  it("gives a payment's finished record a TTL of finishedTtlMs, a payout's none, a pending one none", async () => {
    const { store, prefix } = makeStore({ finishedTtlMs: 600_000 });
    const tracker = createTransactionTracker({ store });
    await tracker.begin(card('PAID'));
    await tracker.begin({ reference: 'PAYOUT', kind: 'payout', amount: 1500 });
    await tracker.begin(card('WAITING'));
    await tracker.settle('PAID', { outcome: 'succeeded' });
    await tracker.settle('PAYOUT', { outcome: 'succeeded' });
    const ttl = await client.pttl(`${prefix}r:PAID`);
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
    expect(await client.pttl(`${prefix}r:PAYOUT`)).toBe(-1);
    expect(await client.pttl(`${prefix}r:WAITING`)).toBe(-1);
  });

  it('keeps a finished payment record 7 days by default', async () => {
    const { store, prefix } = makeStore();
    const tracker = createTransactionTracker({ store });
    await tracker.begin(card('PAID'));
    await tracker.settle('PAID', { outcome: 'failed' });
    const week = 7 * 24 * 60 * 60_000;
    const ttl = await client.pttl(`${prefix}r:PAID`);
    expect(ttl).toBeGreaterThan(week - 60_000);
    expect(ttl).toBeLessThanOrEqual(week);
  });
});

describe('the settlement the Redis store publishes', () => {
  it('hands a watcher the record written, in another store sharing the prefix', async () => {
    const { store, prefix } = makeStore();
    const other = createRedisTransactionStore({ client, prefix });
    stores.push(other);
    const tracker = createTransactionTracker({ store });
    await tracker.begin(card('HEARD'));
    let heard!: (record: TransactionRecord) => void;
    const message = new Promise<TransactionRecord>((resolve) => (heard = resolve));
    const stop = await other.watch!('HEARD', heard);
    const { record } = await tracker.settle('HEARD', { outcome: 'succeeded' });
    await expect(message).resolves.toEqual(record);
    stop();
  });
});

describe('the Redis store writes nothing it could not index', () => {
  const record: TransactionRecord = {
    reference: 'ORD-1',
    kind: 'card',
    amount: '1500',
    state: 'pending',
    createdAt: 1_000,
    updatedAt: 1_000,
  };

  it('refuses a createdAt of -Infinity, on insert and on a new attempt, writing nothing', async () => {
    const { store, prefix } = makeStore();
    await expect(store.insert({ ...record, createdAt: Number.NEGATIVE_INFINITY })).rejects.toThrow(
      /createdAt/,
    );
    expect(await client.keys(`${prefix}*`)).toEqual([]);
    await store.insert(record);
    const restarted = { ...record, createdAt: Number.NEGATIVE_INFINITY, updatedAt: 2_000 };
    await expect(store.update(restarted, 'pending', record)).rejects.toThrow(/createdAt/);
    expect(await store.get('ORD-1')).toEqual(record);
  });

  it("refuses every write while its pending index key holds another program's value, naming the key", async () => {
    const { store, prefix } = makeStore();
    const index = `${prefix}pending:card`;
    await client.set(index, 'not an index');
    await expect(store.insert(record)).rejects.toThrow(`${index}: not a sorted set`);
    expect(await store.get('ORD-1')).toBeUndefined();
    await client.del(index);
    await store.insert(record);
    await client.set(index, 'not an index');
    const paid: TransactionRecord = { ...record, state: 'succeeded', updatedAt: 2_000, settledAt: 2_000 };
    await expect(store.update(paid, 'pending', record)).rejects.toThrow(`${index}: not a sorted set`);
    expect(await store.get('ORD-1')).toEqual(record);
    expect(await client.pttl(`${prefix}r:ORD-1`)).toBe(-1);
  });
});

describe('a reply the Redis store does not recognise', () => {
  // A client wrapper or proxy answering for the server: never read as a record, nor as no record.
  const answering = (reply: unknown) => createRedisTransactionStore({ client: { eval: async () => reply } });

  it.each([0, '', 2, ['{}'], 'OK'])('%j to get: get rejects', async (reply) => {
    await expect(answering(reply).get('ORD-1')).rejects.toThrow(/Redis transaction store/);
  });

  it.each([['{}'], 0, 'QUEUED'])('%j to insert: insert rejects', async (reply) => {
    const record: TransactionRecord = {
      reference: 'ORD-1',
      kind: 'card',
      amount: '1500',
      state: 'pending',
      createdAt: 1,
      updatedAt: 1,
    };
    await expect(answering(reply).insert(record)).rejects.toThrow(/Redis transaction store/);
  });
});

describe('watch on the Redis store', () => {
  it("calls the listener with its reference's records only", async () => {
    const { store } = makeStore();
    const tracker = createTransactionTracker({ store });
    await tracker.begin(card('OTHER'));
    await tracker.begin(card('MINE'));
    const heard: string[] = [];
    let mine!: () => void;
    const settled = new Promise<void>((resolve) => (mine = resolve));
    const stop = await store.watch!('MINE', (record) => {
      heard.push(record.reference);
      if (record.reference === 'MINE') mine();
    });
    await tracker.settle('OTHER', { outcome: 'succeeded' });
    await tracker.settle('MINE', { outcome: 'succeeded' });
    await settled;
    expect(heard).toEqual(['MINE']);
    stop();
  });
});

describe('a watch of the Redis store, stopped', () => {
  it('calls its listener no more, while another listener of the reference still hears', async () => {
    const { store } = makeStore();
    const tracker = createTransactionTracker({ store });
    await tracker.begin(card('ORD-1'));
    const stopped: TransactionRecord[] = [];
    const stop = await store.watch!('ORD-1', (record) => void stopped.push(record));
    let heard!: (record: TransactionRecord) => void;
    const message = new Promise<TransactionRecord>((resolve) => (heard = resolve));
    const stopOther = await store.watch!('ORD-1', heard);
    stop();
    const { record } = await tracker.settle('ORD-1', { outcome: 'succeeded' });
    await expect(message).resolves.toEqual(record);
    expect(stopped).toEqual([]);
    stopOther();
  });
});

describe('a subscription of the Redis store that failed', () => {
  it('is tried again by the next watch, which then hears each settlement once; the failed watch hears none', async () => {
    const { prefix } = makeStore();
    const real = client.duplicate();
    let refusals = 1;
    const subscriber: RedisSubscriberClient = {
      subscribe: async (channel) => {
        if (refusals-- > 0) throw new Error('Connection is closed.');
        return real.subscribe(channel);
      },
      on: (event: 'message' | 'error' | 'ready', listener: (...args: never[]) => void) =>
        real.on(event, listener as (...args: unknown[]) => void),
    };
    const store = createRedisTransactionStore({ client, prefix, subscriber });
    stores.push(store);
    const failedWatch: TransactionRecord[] = [];
    await expect(store.watch!('ORD-1', (record) => void failedWatch.push(record))).rejects.toThrow(/closed/);
    const heard: TransactionRecord[] = [];
    let wake!: () => void;
    const message = new Promise<void>((resolve) => (wake = resolve));
    const stop = await store.watch!('ORD-1', (record) => {
      heard.push(record);
      wake();
    });
    const tracker = createTransactionTracker({ store });
    await tracker.begin(card('ORD-1'));
    const { record } = await tracker.settle('ORD-1', { outcome: 'succeeded' });
    await message;
    // Once: one message handler, however many times it subscribed; never the failed watch's.
    expect(heard).toEqual([record]);
    expect(failedWatch).toEqual([]);
    stop();
    await real.quit();
  });
});

describe('the subscriber the Redis store makes itself', () => {
  it('subscribes again after Redis restarts, and hears the next settlement', async () => {
    const own = await startRedisServer();
    const redis = new Redis(own.port, '127.0.0.1', { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    const prefix = 'restart:';
    const store = createRedisTransactionStore({ client: redis, prefix });
    try {
      const tracker = createTransactionTracker({ store });
      await tracker.begin(card('ORD-1'));
      let heard!: (record: TransactionRecord) => void;
      const message = new Promise<TransactionRecord>((resolve) => (heard = resolve));
      const stop = await store.watch!('ORD-1', heard);
      await own.kill();
      await own.start();
      // Wait for the store's subscriber to be back on its channel (bounded).
      let listening = 0;
      for (let i = 0; i < 400 && listening === 0; i++) {
        const numsub = (await redis.pubsub('NUMSUB', `${prefix}settled`).catch(() => [])) as unknown[];
        listening = Number(numsub[1] ?? 0);
        if (listening === 0) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(listening).toBe(1);
      const { record } = await tracker.settle('ORD-1', { outcome: 'succeeded' });
      await expect(message).resolves.toEqual(record);
      stop();
    } finally {
      await store.close();
      await redis.quit().catch(() => redis.disconnect());
      await own.stop();
    }
  });
});

describe('close() of the Redis store', () => {
  it('stops its watches: a subscriber passed in, still open, calls none of their listeners', async () => {
    const { prefix } = makeStore();
    const subscriber = client.duplicate();
    const store = createRedisTransactionStore({ client, prefix, subscriber });
    const tracker = createTransactionTracker({ store: createRedisTransactionStore({ client, prefix }) });
    await tracker.begin(card('ORD-1'));
    const heard: TransactionRecord[] = [];
    await store.watch!('ORD-1', (record) => void heard.push(record));
    await store.close();
    // The subscriber's own listener, added after the store's, tells when the message came.
    const delivered = new Promise<void>((resolve) => subscriber.once('message', () => resolve()));
    await tracker.settle('ORD-1', { outcome: 'succeeded' });
    await delivered;
    expect(heard).toEqual([]);
    await subscriber.quit();
  });
});

describe('close() of the Redis store with the subscriber it made itself', () => {
  const connections = async () =>
    String(await client.client('LIST'))
      .trim()
      .split('\n').length;

  it('closes that connection, and a later watch makes a new one that hears settlements', async () => {
    const { store } = makeStore();
    const tracker = createTransactionTracker({ store });
    await tracker.begin(card('ORD-1'));
    const before = await connections();
    const stop = await store.watch!('ORD-1', () => undefined);
    expect(await connections()).toBe(before + 1);
    stop();
    await store.close();
    expect(await connections()).toBe(before);
    let heard!: (record: TransactionRecord) => void;
    const message = new Promise<TransactionRecord>((resolve) => (heard = resolve));
    const again = await store.watch!('ORD-1', heard);
    const { record } = await tracker.settle('ORD-1', { outcome: 'succeeded' });
    await expect(message).resolves.toEqual(record);
    again();
  });
});

describe('the Redis store on a Redis Cluster', () => {
  const cluster = { isCluster: true, options: {}, eval: async () => null };

  it.each(['hp-tx}:', 'hp}{tx:', '}{:'])(
    'refuses prefix %j at creation: a } with no { before it is no hash tag',
    (prefix) => {
      expect(() => createRedisTransactionStore({ client: cluster, prefix })).toThrow(
        /^createRedisTransactionStore: on a Redis Cluster, prefix must hold a hash tag/,
      );
    },
  );
});
