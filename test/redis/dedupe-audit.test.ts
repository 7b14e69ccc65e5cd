// Ways a delivery could reach onEvent twice, or never, through the Redis dedupe store and a real
// redis-server (killed and restarted where the case needs it).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackDedupeKey, createCallbackHandler, parseCallback } from '../../src/callbacks/index.js';
import { createRedisDedupeStore } from '../../src/redis/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { startRedisServer, type RedisServer } from '../reliability/helpers/redis-server.js';

const route = 'https://shop.example/webhooks/payments';
const post = (body: unknown) =>
  new Request(route, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

let server: RedisServer;
const clients: Redis[] = [];
const connect = (): Redis => {
  const client = new Redis(server.port, '127.0.0.1', { maxRetriesPerRequest: 1 });
  client.on('error', () => {}); // reconnect noise while the server is down is expected
  clients.push(client);
  return client;
};
const reachable = async (client: Redis): Promise<void> => {
  for (let i = 0; i < 200; i++) {
    if ((await client.ping().catch(() => undefined)) === 'PONG') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('redis-server did not come back');
};
let counter = 0;
const freshPayout = () => ({
  ...callbackFixtures['payout.succeeded'],
  transaction_id: `PYT-AUDIT-${Date.now()}-${counter++}`,
});

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  await server?.stop();
});

describe('a claim the store could not release', () => {
  it('is taken over by the retry on the same instance when Redis went away while onEvent failed', async () => {
    const client = connect();
    const store = createRedisDedupeStore({ client });
    let attempts = 0;
    const handler = createCallbackHandler({
      verify: false,
      dedupe: store,
      onEvent: async () => {
        attempts += 1;
        if (attempts === 1) {
          await server.kill(); // the database and Redis go down together
          throw new Error('database down');
        }
      },
    });
    const payload = freshPayout();
    const first = await handler(post(payload));
    expect(first.status).toBe(500);
    await server.start();
    await reachable(client);
    // The claim survived (AOF) with processingTimeoutMs (5 min) to run; nobody is processing it.
    const retry = await handler(post(payload));
    expect(retry.status).toBe(200);
    expect(attempts).toBe(2);
  });
});

describe("a value under the store's key that the store did not write", () => {
  // Another application writing under the same prefix, or a hand-made store's '1' left behind:
  // the store cannot tell what it means, so it must not pass it off as a delivery in progress
  // (503 'already being processed', Retry-After: 5, for as long as the value stays).
  // A claim this store writes always expires (PX): a 'processing:' value that never does was
  // written by something else, and would hold the event 503 for ever.
  it.each(['1', 'DONE', 'processed', '', 'processing:written-by-another-app'])(
    'refuses %j (no TTL) with 500 handler_failed naming the key, without calling onEvent',
    async (value) => {
      const client = connect();
      const prefix = `foreign-${counter++}:`;
      const payload = freshPayout();
      await client.set(prefix + callbackDedupeKey(parseCallback(payload)), value);
      const refusals: string[] = [];
      let attempts = 0;
      const handler = createCallbackHandler({
        verify: false,
        dedupe: createRedisDedupeStore({ client, prefix }),
        onEvent: () => void (attempts += 1),
        onError: (error, { status, reason }) => void refusals.push(`${status} ${reason} ${error.message}`),
      });
      const answer = await handler(post(payload));
      expect(answer.status).toBe(500);
      expect(await answer.json()).toEqual({ error: 'handler_failed' });
      expect(attempts).toBe(0);
      expect(refusals).toHaveLength(1);
      expect(refusals[0]).toContain(`${prefix}payout.succeeded:`);
      expect(refusals[0]).toMatch(/holds a value this store did not write/);
    },
  );
});

describe('a TTL longer than Redis can keep', () => {
  // "Remember every event for ever": Redis refuses a PX past its clock's range (and
  // String(1e21) is '1e+21', not an integer), so complete() failed on every delivery while the
  // handler answered 200, and a replay after processingTimeoutMs ran onEvent again.
  it('is refused when the handler is created, naming dedupeTtlMs', () => {
    const store = createRedisDedupeStore({ client: connect() });
    // Past Number.MAX_SAFE_INTEGER, which is as long as the store keeps a key: no whole number the
    // handler can count in.
    for (const dedupeTtlMs of [Number.MAX_VALUE, 1e21, 1e19]) {
      expect(() =>
        createCallbackHandler({ verify: false, dedupe: store, dedupeTtlMs, onEvent: () => undefined }),
      ).toThrow(
        /^createCallbackHandler: dedupeTtlMs must be a whole number from 1 to 9007199254740991, got /,
      );
    }
  });

  it('is a RangeError from begin and complete called directly, before Redis is asked', async () => {
    const store = createRedisDedupeStore({ client: connect(), completeRetryMs: 0 });
    await expect(store.begin('ttl-too-long', 1e19)).rejects.toThrow(RangeError);
    await expect(store.complete('ttl-too-long', 1e19)).rejects.toThrow(RangeError);
  });

  it('still accepts Number.MAX_SAFE_INTEGER ms (285,000 years), which Redis keeps', async () => {
    const client = connect();
    const prefix = `longest-${counter++}:`;
    const store = createRedisDedupeStore({ client, prefix });
    expect(await store.begin('k', 60_000)).toBe('new');
    await store.complete('k', Number.MAX_SAFE_INTEGER);
    expect(await store.begin('k', 60_000)).toBe('done');
    expect(await client.pttl(`${prefix}k`)).toBeGreaterThan(1e15);
  });
});

describe('a reply to complete or abandon the store does not recognise', () => {
  // A client wrapper or proxy that answers for the server ('QUEUED' from a MULTI left open, 'OK'
  // from a mock): the claim may still be there, so the call fails rather than pass for done.
  const answering = (reply: unknown) =>
    createRedisDedupeStore({
      client: { eval: async (script: string) => (script.includes("'NX'") ? 'new' : reply) },
      completeRetryMs: 0,
    });

  it.each(['QUEUED', 'OK', null, 0])('%j to complete: complete rejects naming the reply', async (reply) => {
    const store = answering(reply);
    expect(await store.begin('k', 60_000)).toBe('new');
    await expect(store.complete('k', 60_000)).rejects.toThrow(
      `Redis dedupe store: unexpected reply to complete: ${String(reply)}`,
    );
  });

  it.each(['QUEUED', 'OK', null])('%j to abandon: abandon rejects naming the reply', async (reply) => {
    const store = answering(reply);
    expect(await store.begin('k', 60_000)).toBe('new');
    await expect(store.abandon('k')).rejects.toThrow(
      `Redis dedupe store: unexpected reply to abandon: ${String(reply)}`,
    );
  });

  it.each([1, 0])('%j to abandon (released, or nothing of its own left): resolves', async (reply) => {
    const store = answering(reply);
    expect(await store.begin('k', 60_000)).toBe('new');
    await expect(store.abandon('k')).resolves.toBeUndefined();
  });
});
