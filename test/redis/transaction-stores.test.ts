// What the tracker promises whichever store it runs on (test/transactions/store-contract.ts), on the
// in-memory store and on the Redis store against a real redis-server; and what only Redis needs.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisTransactionStore, type RedisTransactionStore } from '../../src/redis/index.js';
import { createMemoryTransactionStore, type TransactionStore } from '../../src/transactions/index.js';
import { useRedis } from '../helpers/redis.js';
import { describeStoreContract } from '../transactions/store-contract.js';

const redis = useRedis();
let client: Redis;
const redisStores: RedisTransactionStore[] = [];

beforeAll(() => {
  client = redis.client({ commandTimeout: 2_000 });
});

afterAll(async () => {
  await Promise.all(redisStores.map((store) => store.close().catch(() => undefined)));
});

const stores: [string, () => TransactionStore][] = [
  ['memory', () => createMemoryTransactionStore()],
  [
    'Redis',
    () => {
      const store = createRedisTransactionStore({ client, prefix: redis.prefix('stores') });
      redisStores.push(store);
      return store;
    },
  ],
];

for (const [name, makeStore] of stores) describeStoreContract(name, makeStore);

describe('the Redis store writes all of a transition or nothing', () => {
  const record = {
    reference: 'ORD-1',
    kind: 'card',
    amount: '1500',
    state: 'pending',
    createdAt: 1_000,
    updatedAt: 1_000,
  } as const;
  const fresh = () => {
    const prefix = redis.prefix('whole');
    const store = createRedisTransactionStore({ client, prefix });
    redisStores.push(store);
    return { store, prefix };
  };

  it('refuses to record a transaction whose createdAt it cannot index, before writing it', async () => {
    const { store, prefix } = fresh();
    await expect(store.insert({ ...record, createdAt: Number.NaN })).rejects.toThrow(/createdAt/);
    expect(await store.get('ORD-1')).toBeUndefined();
    expect(await client.keys(`${prefix}*`)).toEqual([]);
  });

  it('refuses to make a record pending again with a createdAt it cannot index, before writing it', async () => {
    const { store } = fresh();
    await store.insert(record);
    const expired = { ...record, state: 'expired', updatedAt: 2_000, expiredAt: 2_000 } as const;
    await expect(store.update(expired, 'pending')).resolves.toBe(true);
    await expect(
      store.update({ ...record, createdAt: Number.POSITIVE_INFINITY, updatedAt: 3_000 }, 'expired'),
    ).rejects.toThrow(/createdAt/);
    expect(await store.get('ORD-1')).toEqual(expired);
  });
});
