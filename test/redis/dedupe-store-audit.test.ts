// What the Redis dedupe store must keep doing that no other test pinned (found by a mutation audit
// of src/redis/index.ts), against a real redis-server: a value it did not write is refused even
// when it expires, and every claim a failed begin may have left is taken over by the next begin.
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRedisDedupeStore, type RedisScriptClient } from '../../src/redis/index.js';
import { useRedis } from '../helpers/redis.js';

const redis = useRedis();
let client: Redis;

beforeAll(() => {
  client = redis.client();
});

/**
 * A client whose next script runs fail as queued: `'lost'` runs on Redis and loses its reply (a
 * connection dropped after the command ran), `'unsent'` fails before reaching Redis.
 */
const flakyClient = (): RedisScriptClient & { fail: (...how: ('lost' | 'unsent')[]) => void } => {
  const failures: ('lost' | 'unsent')[] = [];
  return {
    fail: (...how) => void failures.push(...how),
    async eval(script, numkeys, ...args) {
      const how = failures.shift();
      if (how === 'unsent') throw new Error('Connection is closed.');
      const reply = await client.eval(script, numkeys, ...args);
      if (how === 'lost') throw new Error('Connection is closed.');
      return reply;
    },
  };
};

describe('a value under its key that the Redis dedupe store did not write', () => {
  it.each(['1', 'done-by-another-app', 'processing'])(
    'refuses %j with a TTL too, rather than answer in_progress',
    async (value) => {
      const prefix = redis.prefix('dd-audit');
      await client.set(`${prefix}k`, value, 'PX', 60_000);
      const store = createRedisDedupeStore({ client, prefix });
      await expect(store.begin('k', 60_000)).rejects.toThrow(/holds a value this store did not write/);
    },
  );
});

describe('claims left by begins that lost their replies', () => {
  it('are all taken over by the next begin of the key on the instance: the newest too', async () => {
    const prefix = redis.prefix('dd-audit');
    const flaky = flakyClient();
    const store = createRedisDedupeStore({ client: flaky, prefix });
    flaky.fail('lost', 'lost');
    // Each ran: the first wrote its claim, the second took it over with its own.
    await expect(store.begin('k', 60_000)).rejects.toThrow(/Connection is closed/);
    await expect(store.begin('k', 60_000)).rejects.toThrow(/Connection is closed/);
    expect(await client.get(`${prefix}k`)).toMatch(/^processing:/);
    expect(await store.begin('k', 60_000)).toBe('new');
    // It is this begin's claim now: abandon releases it for the sender's retry.
    await store.abandon('k');
    expect(await client.exists(`${prefix}k`)).toBe(0);
  });

  it('are taken over however many begins lost their replies in a row', async () => {
    const prefix = redis.prefix('dd-audit');
    const flaky = flakyClient();
    const store = createRedisDedupeStore({ client: flaky, prefix });
    flaky.fail('lost', 'lost', 'lost', 'lost', 'lost', 'lost');
    for (let i = 0; i < 6; i++) await expect(store.begin('k', 60_000)).rejects.toThrow(/closed/);
    expect(await store.begin('k', 60_000)).toBe('new');
    await store.complete('k', 60_000);
    expect(await store.begin('k', 60_000)).toBe('done');
  });

  it('is taken over when a later begin never reached Redis: the older claim is still presented', async () => {
    const prefix = redis.prefix('dd-audit');
    const flaky = flakyClient();
    const store = createRedisDedupeStore({ client: flaky, prefix });
    flaky.fail('lost', 'unsent', 'unsent');
    for (let i = 0; i < 3; i++) await expect(store.begin('k', 60_000)).rejects.toThrow(/closed/);
    // The key still holds the first begin's claim.
    expect(await store.begin('k', 60_000)).toBe('new');
    await store.abandon('k');
    expect(await client.exists(`${prefix}k`)).toBe(0);
  });

  it('is taken over after an abandon whose reply was lost', async () => {
    const prefix = redis.prefix('dd-audit');
    const flaky = flakyClient();
    const store = createRedisDedupeStore({ client: flaky, prefix });
    expect(await store.begin('k', 60_000)).toBe('new');
    flaky.fail('unsent');
    await expect(store.abandon('k')).rejects.toThrow(/closed/);
    expect(await store.begin('k', 60_000)).toBe('new');
  });
});

describe('complete after the claim expired', () => {
  it('still records the event done, so a redelivery is not processed again', async () => {
    const prefix = redis.prefix('dd-audit');
    const store = createRedisDedupeStore({ client, prefix });
    expect(await store.begin('k', 20)).toBe('new');
    // onEvent outlived processingTimeoutMs: the claim is gone before complete.
    while ((await client.exists(`${prefix}k`)) === 1) await new Promise((resolve) => setTimeout(resolve, 5));
    await store.complete('k', 60_000);
    expect(await store.begin('k', 60_000)).toBe('done');
  });
});

describe('the orphaned claims the Redis dedupe store remembers', () => {
  it('are those of the 10,000 keys whose begin or abandon failed last', async () => {
    const prefix = redis.prefix('dd-audit');
    const flaky = flakyClient();
    const store = createRedisDedupeStore({ client: flaky, prefix });
    const failBegin = async (key: string, how: 'lost' | 'unsent') => {
      flaky.fail(how);
      await expect(store.begin(key, 60_000)).rejects.toThrow(/closed/);
    };
    await failBegin('first', 'lost');
    await failBegin('again', 'lost');
    for (let i = 2; i < 10_000; i++) await failBegin(`other-${i}`, 'unsent');
    await failBegin('again', 'lost'); // failed most recently now
    await failBegin('other-10000', 'unsent');
    await failBegin('other-10001', 'unsent');
    // 'first' was forgotten: its claim blocks the key until it expires.
    expect(await store.begin('first', 60_000)).toBe('in_progress');
    expect(await store.begin('again', 60_000)).toBe('new');
  });
});

describe('a TTL that is not a whole number of ms', () => {
  it('is rounded up, for a claim and for done', async () => {
    const prefix = redis.prefix('dd-audit');
    // A lease longer than the claim's ttlMs: the claim is written for ttlMs itself.
    const store = createRedisDedupeStore({ client, prefix, leaseMs: 120_000 });
    expect(await store.begin('k', 60_000.5)).toBe('new');
    expect(await client.pttl(`${prefix}k`)).toBeGreaterThan(59_000);
    await store.complete('k', 1.5);
    expect(await client.pttl(`${prefix}k`)).toBeLessThanOrEqual(2);
  });
});

describe('a reply to begin the Redis dedupe store does not recognise', () => {
  // A client wrapper or proxy answering for the server: never read as 'done' (the event would be
  // skipped) nor as 'in_progress'.
  it.each(['QUEUED', 'OK', null, 1, 'DONE'])('%j: begin rejects naming the reply', async (reply) => {
    const store = createRedisDedupeStore({ client: { eval: async () => reply } });
    await expect(store.begin('k', 60_000)).rejects.toThrow(
      `Redis dedupe store: unexpected reply to begin: ${String(reply)}`,
    );
  });
});

describe('what the Redis dedupe store remembers of a key once it is done with it', () => {
  /** A client counting the scripts it runs. */
  const counting = () => {
    const counted = {
      calls: 0,
      eval: (script: string, numkeys: number, ...args: (string | number)[]) => {
        counted.calls += 1;
        return client.eval(script, numkeys, ...args);
      },
    };
    return counted;
  };

  it('nothing after complete: an abandon then asks Redis nothing', async () => {
    const counted = counting();
    const store = createRedisDedupeStore({ client: counted, prefix: redis.prefix('dd-audit') });
    expect(await store.begin('k', 60_000)).toBe('new');
    await store.complete('k', 60_000);
    const calls = counted.calls;
    await store.abandon('k');
    expect(counted.calls).toBe(calls);
  });

  it('nothing after abandon: a second abandon asks Redis nothing', async () => {
    const counted = counting();
    const store = createRedisDedupeStore({ client: counted, prefix: redis.prefix('dd-audit') });
    expect(await store.begin('k', 60_000)).toBe('new');
    await store.abandon('k');
    const calls = counted.calls;
    await store.abandon('k');
    expect(counted.calls).toBe(calls);
  });
});

describe('complete while Redis keeps failing', () => {
  /** A store whose every call fails as a closed connection, and how many calls it made. */
  const failing = (completeRetryMs: number) => {
    const counted = { calls: 0 };
    const store = createRedisDedupeStore({
      client: {
        eval: async () => {
          counted.calls += 1;
          throw new Error('Connection is closed.');
        },
      },
      completeRetryMs,
    });
    return { store, counted };
  };

  it('stops before a backoff that would end past completeRetryMs', async () => {
    const { store, counted } = failing(100);
    // Tries at 0 and after 50 ms; the next backoff (100 ms) would end past 100 ms.
    await expect(store.complete('k', 60_000)).rejects.toThrow(/closed/);
    expect(counted.calls).toBe(2);
  });

  it('backs off from 50 ms doubling, so a second of retries asks Redis at most 5 times', async () => {
    const { store, counted } = failing(1_000);
    // Tries at 0, 50, 150, 350 and 750 ms; the next backoff (800 ms) would end past 1000 ms.
    await expect(store.complete('k', 60_000)).rejects.toThrow(/closed/);
    expect(counted.calls).toBeGreaterThanOrEqual(2);
    expect(counted.calls).toBeLessThanOrEqual(5);
  });
});

describe('complete by default', () => {
  it('retries while Redis fails for a moment, so the event is recorded done', async () => {
    const prefix = redis.prefix('dd-audit');
    const flaky = flakyClient();
    const store = createRedisDedupeStore({ client: flaky, prefix });
    expect(await store.begin('k', 60_000)).toBe('new');
    flaky.fail('unsent', 'unsent');
    await store.complete('k', 60_000);
    expect(await store.begin('k', 60_000)).toBe('done');
  });
});
