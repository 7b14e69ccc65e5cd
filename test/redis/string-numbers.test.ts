// ioredis's `stringNumbers: true` (documented, for big integers) hands every integer reply over as
// a string: a script's `return 1` arrives as "1". The stores read that reply as the number it is:
// a dedupe store's complete that took "1" for an unknown reply retried for completeRetryMs (about
// 5 s) on every callback, an abandon orphaned its claim, and the transaction store refused every
// insert. Real redis-server, real ioredis.
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRedisDedupeStore, createRedisTransactionStore } from '../../src/redis/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { useRedis } from '../helpers/redis.js';

const redisServer = useRedis();
let redis: Redis;
beforeAll(() => {
  redis = redisServer.client({ stringNumbers: true });
});

describe('a client with stringNumbers: true', () => {
  it('the dedupe store completes and abandons at the first reply', async () => {
    const store = createRedisDedupeStore({ client: redis, prefix: 'string-numbers:', completeRetryMs: 0 });
    expect(await store.begin('done-key', 60_000)).toBe('new');
    await expect(store.complete('done-key', 60_000)).resolves.toBeUndefined();
    expect(await store.begin('done-key', 60_000)).toBe('done');
    expect(await store.begin('failed-key', 60_000)).toBe('new');
    await expect(store.abandon('failed-key')).resolves.toBeUndefined();
    expect(await redis.exists('string-numbers:failed-key')).toBe('0');
  });

  it('the transaction store records, settles and expires', async () => {
    const store = createRedisTransactionStore({ client: redis, prefix: 'string-numbers-tx:' });
    const tracker = createTransactionTracker({ store });
    try {
      await tracker.begin({ reference: 'ORD-1', kind: 'card', amount: 1500, currency: 'KES' });
      await tracker.begin({ reference: 'ORD-2', kind: 'card', amount: 1500, currency: 'KES' });
      expect((await tracker.settle('ORD-1', { outcome: 'succeeded', transactionId: 'T-1' })).result).toBe(
        'settled',
      );
      expect((await tracker.expireIfPending('ORD-2')).result).toBe('expired');
    } finally {
      await store.close();
    }
  });
});
