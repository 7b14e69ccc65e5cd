// createRedisTransactionStore with a client whose replies are not Redis's (a wrapper that maps
// them, a proxy that answers for the server): a reply the store cannot read is an error, never
// taken as "not applied" nor as a record.
import { describe, expect, it } from 'vitest';
import { createRedisTransactionStore, type RedisScriptClient } from '../../src/redis/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';

/** A client that keeps one record and answers the update script with `updateReply`. */
const clientAnswering = (updateReply: unknown): RedisScriptClient & { updates: number } => {
  let stored: string | undefined;
  const client = {
    updates: 0,
    eval: async (script: string, _numkeys: number, ...args: (string | number)[]) => {
      if (script.includes("'ZADD', KEYS[2], ARGV[3]")) {
        if (stored !== undefined) return stored;
        stored = String(args[2]);
        return 1;
      }
      if (script.includes('PUBLISH')) {
        // Stands in for a caller that would loop for ever: fail the test loudly instead.
        if (++client.updates > 20) throw new Error('update retried more than 20 times');
        return updateReply;
      }
      return stored ?? null;
    },
  };
  return client;
};

describe('createRedisTransactionStore: a reply it does not recognise', () => {
  // ("1" and "0" are the integers as ioredis's stringNumbers hands them over: string-numbers.test.ts.)
  it.each([null, 'OK', '2', 2])(
    '%j to an update: settle rejects with it as an error, after one attempt',
    async (reply) => {
      const client = clientAnswering(reply);
      const tracker = createTransactionTracker({ store: createRedisTransactionStore({ client }) });
      await tracker.begin({ reference: 'ORD-1', kind: 'card', amount: 1500, currency: 'KES' });
      await expect(tracker.settle('ORD-1', { outcome: 'succeeded' })).rejects.toThrow(
        'Redis transaction store: unexpected reply',
      );
      expect(client.updates).toBe(1);
    },
  );

  it.each(['2', 2, null])('%j to an insert: begin rejects with it as an error', async (reply) => {
    const store = createRedisTransactionStore({ client: { eval: async () => reply } });
    await expect(
      createTransactionTracker({ store }).begin({
        reference: 'ORD-3',
        kind: 'card',
        amount: 1,
        currency: 'KES',
      }),
    ).rejects.toThrow('Redis transaction store: unexpected reply');
  });

  it.each([
    [0, false],
    [1, true],
  ])('%j: update resolves %j', async (reply, applied) => {
    const client = clientAnswering(reply);
    const store = createRedisTransactionStore({ client });
    const record = await store.insert({
      reference: 'ORD-2',
      kind: 'card',
      amount: '1500',
      state: 'pending',
      createdAt: 1,
      updatedAt: 1,
    });
    await expect(store.update({ ...record, state: 'expired', updatedAt: 2 }, 'pending')).resolves.toBe(
      applied,
    );
  });
});

describe('createRedisTransactionStore: listPending', () => {
  it.each([null, 'OK', 0])(
    '%j to the pending scan: stale() rejects, never reads it as "none pending"',
    async (reply) => {
      const store = createRedisTransactionStore({ client: { eval: async () => reply } });
      await expect(createTransactionTracker({ store }).stale()).rejects.toThrow(
        'Redis transaction store: unexpected reply',
      );
    },
  );
});
