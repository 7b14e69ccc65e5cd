// The Redis stores under settings a merchant's Redis or ioredis client may carry: a keyPrefix on
// the client (ioredis prefixes every key it is given, not the ones a script builds itself); an
// ioredis Cluster, whose scripts must keep all their keys in one hash slot.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRedisTransactionStore,
  type RedisTransactionStore,
  type RedisTransactionStoreOptions,
} from '../../src/redis/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { useRedis } from '../helpers/redis.js';
import { freePort } from '../reliability/helpers/ports.js';
import { redisServerBinary } from '../reliability/helpers/redis-server.js';

const redis = useRedis();
const stores: RedisTransactionStore[] = [];
const connect = (keyPrefix?: string): Redis => redis.client({ keyPrefix });

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close().catch(() => undefined)));
});

describe('the Redis transaction store on an ioredis client with a keyPrefix', () => {
  it('lists a stale pending transaction, and keeps it in the pending index', async () => {
    const client = connect('shop-a:');
    const store = createRedisTransactionStore({ client });
    stores.push(store);
    const hourAgo = createTransactionTracker({ store, now: () => Date.now() - 3_600_000 });
    await hourAgo.begin({ reference: 'ORD-KP-1', kind: 'card', amount: '1500', currency: 'KES' });
    const tracker = createTransactionTracker({ store });

    expect((await tracker.stale()).map((record) => record.reference)).toEqual(['ORD-KP-1']);
    // The cron that expires stale transactions runs again later: it must still find it.
    expect((await tracker.stale()).map((record) => record.reference)).toEqual(['ORD-KP-1']);
    expect(await tracker.expireIfPending('ORD-KP-1')).toMatchObject({ result: 'expired' });
  });

  it('wakes a waiter on another instance over pub/sub', async () => {
    const store = createRedisTransactionStore({ client: connect('shop-b:') });
    const other = createRedisTransactionStore({ client: connect('shop-b:') });
    stores.push(store, other);
    // No polling within the wait: only the notification can resolve it.
    const waiting = createTransactionTracker({ store, pollIntervalMs: 60_000 });
    const settling = createTransactionTracker({ store: other });
    await settling.begin({ reference: 'ORD-KP-2', kind: 'payout', amount: '100', currency: 'KES' });
    const wait = waiting.waitFor('ORD-KP-2', { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await settling.settle('ORD-KP-2', { outcome: 'succeeded' });
    expect(await wait).toMatchObject({ state: 'succeeded' });
  });
});

describe("two apps on one Redis, kept apart by their clients' keyPrefix", () => {
  // Their keys are apart, but a channel is not a key: both publish their settlements on the
  // store's channel. What one app's waitFor hears of another's reference of the same name must
  // never be its own transaction's outcome.
  it("a waiter is not told another app's settlement of the same reference: it waits on, and hears its own", async () => {
    const storeA = createRedisTransactionStore({ client: connect('shop-a:') });
    const storeB = createRedisTransactionStore({ client: connect('shop-b:') });
    stores.push(storeA, storeB);
    const shopA = createTransactionTracker({ store: storeA });
    const shopB = createTransactionTracker({ store: storeB, pollIntervalMs: 60_000 });
    await shopA.begin({ reference: 'ORD-KP-3', kind: 'card', amount: '1500', currency: 'KES' });
    const own = await shopB.begin({
      reference: 'ORD-KP-3',
      kind: 'mobile_money',
      amount: '99',
      currency: 'KES',
    });
    const wait = shopB.waitFor('ORD-KP-3', { timeout: 10_000 });
    let heard: unknown;
    void wait.then((record) => (heard = record));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await shopA.settle('ORD-KP-3', {
      outcome: 'succeeded',
      eventType: 'payment.card.succeeded',
      transactionId: 'T-A',
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toBeUndefined();
    expect(await shopB.get('ORD-KP-3')).toEqual(own);
    await shopB.settle('ORD-KP-3', {
      outcome: 'failed',
      eventType: 'payment.mobile_money.failed',
      transactionId: 'T-B',
    });
    expect(await wait).toMatchObject({
      reference: 'ORD-KP-3',
      kind: 'mobile_money',
      amount: '99',
      state: 'failed',
    });
  });

  it("a waiter is not told another app's expiry of the same reference", async () => {
    const storeA = createRedisTransactionStore({ client: connect('shop-a:') });
    const storeB = createRedisTransactionStore({ client: connect('shop-b:') });
    stores.push(storeA, storeB);
    const shopA = createTransactionTracker({ store: storeA });
    const shopB = createTransactionTracker({ store: storeB, pollIntervalMs: 60_000 });
    await shopB.begin({ reference: 'ORD-KP-4', kind: 'card', amount: '1500', currency: 'KES' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await shopA.begin({ reference: 'ORD-KP-4', kind: 'card', amount: '1500', currency: 'KES' });
    const wait = shopB.waitFor('ORD-KP-4', { timeout: 10_000 });
    let heard: unknown;
    void wait.then((record) => (heard = record));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await shopA.expireIfPending('ORD-KP-4');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toBeUndefined();
    const paid = await shopB.settle('ORD-KP-4', {
      outcome: 'succeeded',
      eventType: 'payment.card.succeeded',
      transactionId: 'T-B',
    });
    expect(paid.result).toBe('settled');
    expect(await wait).toEqual(paid.record);
  });
});

describe('the Redis transaction store on an ioredis Cluster', () => {
  // Every script of the store touches a record and its kind's index: without a hash tag in the
  // prefix they hash to different slots, and every call failed with CROSSSLOT — the first tracked
  // payment in production, not the deployment, found it out.
  it('is refused at creation when its prefix has no hash tag, naming prefix', async () => {
    const lazy = new Cluster([{ host: '127.0.0.1', port: redis.server.port }], { lazyConnect: true });
    // The option's type names Redis's duplicate(options), not Cluster's duplicate(nodes, options).
    const cluster = lazy as unknown as RedisTransactionStoreOptions['client'];
    try {
      expect(() => createRedisTransactionStore({ client: cluster })).toThrow(
        /^createRedisTransactionStore: on a Redis Cluster, prefix must hold a hash tag/,
      );
      for (const prefix of ['shop:{tx', '{}tx{a}:']) {
        expect(() => createRedisTransactionStore({ client: cluster, prefix })).toThrow(TypeError);
      }
      expect(() => createRedisTransactionStore({ client: cluster, prefix: '{hp-tx}:' })).not.toThrow();
    } finally {
      lazy.disconnect();
    }
  });
});

describe('the Redis transaction store on a one-node Redis Cluster whose own keyPrefix holds the hash tag', () => {
  // Redis hashes the whole key, the Cluster's keyPrefix included: a tag there puts a transaction's
  // keys in one slot whatever the store's prefix, and a keyPrefix such as '{}' (an empty tag, so
  // the whole key is hashed) undoes a tag in the store's prefix.
  let node: ChildProcess | undefined;
  let dir = '';
  let port = 0;
  const clusters: Cluster[] = [];
  const cluster = (keyPrefix: string, lazyConnect = false): RedisTransactionStoreOptions['client'] => {
    const client = new Cluster([{ host: '127.0.0.1', port }], { keyPrefix, lazyConnect });
    clusters.push(client);
    return client as unknown as RedisTransactionStoreOptions['client'];
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hp-redis-cluster-'));
    port = await freePort();
    const args = [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--dir',
      dir,
      '--cluster-enabled',
      'yes',
      '--cluster-announce-ip',
      '127.0.0.1',
    ];
    node = spawn(redisServerBinary, [...args, '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], {
      stdio: 'ignore',
    });
    const admin = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1, retryStrategy: () => 25 });
    admin.on('error', () => undefined);
    try {
      for (let i = 0; (await admin.ping().catch(() => undefined)) !== 'PONG'; i++) {
        if (i > 200) throw new Error('the cluster node did not start');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
      for (let i = 0; !String(await admin.call('CLUSTER', 'INFO')).includes('cluster_state:ok'); i++) {
        if (i > 200) throw new Error('the one-node cluster did not become ok');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      admin.disconnect();
    }
  }, 20_000);
  afterAll(async () => {
    await Promise.all(clusters.map((client) => client.quit().catch(() => client.disconnect())));
    node?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('is accepted with an untagged prefix, and records, lists and expires a transaction', async () => {
    const store = createRedisTransactionStore({ client: cluster('{shop}:'), prefix: 'tx:' });
    stores.push(store);
    const hourAgo = createTransactionTracker({ store, now: () => Date.now() - 3_600_000 });
    await hourAgo.begin({ reference: 'ORD-CL-1', kind: 'card', amount: '1500', currency: 'KES' });
    const tracker = createTransactionTracker({ store });
    expect((await tracker.stale()).map((record) => record.reference)).toEqual(['ORD-CL-1']);
    expect(await tracker.expireIfPending('ORD-CL-1')).toMatchObject({ result: 'expired' });
    expect(await tracker.get('ORD-CL-1')).toMatchObject({ state: 'expired' });
  });

  it("is refused at creation when the keyPrefix '{}' comes before a tagged prefix, naming keyPrefix", () => {
    expect(() => createRedisTransactionStore({ client: cluster('{}', true), prefix: '{hp-tx}:' })).toThrow(
      /^createRedisTransactionStore: on a Redis Cluster, .*keyPrefix/,
    );
  });
});
