import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallbackHandler, signCallbackUrl } from '../../src/callbacks/index.js';
import { createRedisDedupeStore } from '../../src/redis/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { startRedisServer, type RedisServer } from './helpers/redis-server.js';

let server: RedisServer;
const clients: Redis[] = [];
const connect = (): Redis => {
  const client = new Redis(server.port, '127.0.0.1', {
    commandTimeout: 1_000,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
  });
  client.on('error', () => {}); // reconnect noise while the server is down is expected
  clients.push(client);
  return client;
};
let keyCounter = 0;
const freshKey = () => `k${Date.now()}-${keyCounter++}`;

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
  await server?.stop();
});

describe('createRedisDedupeStore against a real redis-server', () => {
  it('claims a key once, reports it in progress, then done after complete', async () => {
    const store = createRedisDedupeStore({ client: connect() });
    const key = freshKey();
    expect(await store.begin(key, 10_000)).toBe('new');
    expect(await store.begin(key, 10_000)).toBe('in_progress');
    await store.complete(key, 10_000);
    expect(await store.begin(key, 10_000)).toBe('done');
  });

  it('lets the retry through after abandon', async () => {
    const store = createRedisDedupeStore({ client: connect() });
    const key = freshKey();
    expect(await store.begin(key, 10_000)).toBe('new');
    await store.abandon(key);
    expect(await store.begin(key, 10_000)).toBe('new');
  });

  it('writes keys under its prefix with the TTL it was given', async () => {
    const client = connect();
    const store = createRedisDedupeStore({ client, prefix: 'shop-a:' });
    const key = freshKey();
    await store.begin(key, 5_000);
    expect(await client.get(`shop-a:${key}`)).toMatch(/^processing:[0-9a-f]{24}$/);
    const ttl = await client.pttl(`shop-a:${key}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
    await store.complete(key, 60_000);
    expect(await client.get(`shop-a:${key}`)).toBe('done');
    expect(await client.pttl(`shop-a:${key}`)).toBeGreaterThan(5_000);
    // another prefix is another namespace
    expect(await createRedisDedupeStore({ client, prefix: 'shop-b:' }).begin(key, 5_000)).toBe('new');
  });

  it("keeps the handler's keys short however long the payload's identifiers are", async () => {
    const client = connect();
    const prefix = `bounded-${freshKey()}:`;
    const secret = 'whsec_0123456789abcdef';
    const handler = createCallbackHandler({
      secret,
      dedupe: createRedisDedupeStore({ client, prefix }),
      onEvent: () => undefined,
    });
    const url = await signCallbackUrl('https://shop.example/hooks', { secret, reference: 'ORDER-1' });
    // A 60 KiB identifier inside the 64 KiB body cap.
    const body = JSON.stringify({ ...callbackFixtures['payment.card.succeeded'], id: 'x'.repeat(60_000) });
    expect((await handler(new Request(url, { method: 'POST', body }))).status).toBe(200);
    const keys = await client.keys(`${prefix}*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]!.length - prefix.length).toBeLessThan(100);
    expect(await client.get(keys[0]!)).toBe('done');
  });

  it('releases a claim whose holder died when its TTL runs out', async () => {
    const store = createRedisDedupeStore({ client: connect() });
    const key = freshKey();
    expect(await store.begin(key, 50)).toBe('new');
    await new Promise((r) => setTimeout(r, 120));
    expect(await store.begin(key, 10_000)).toBe('new');
  });

  it("does not delete another instance's claim when abandoning an expired one", async () => {
    const a = createRedisDedupeStore({ client: connect() });
    const b = createRedisDedupeStore({ client: connect() });
    const key = freshKey();
    expect(await a.begin(key, 50)).toBe('new');
    await new Promise((r) => setTimeout(r, 120));
    expect(await b.begin(key, 10_000)).toBe('new');
    await a.abandon(key); // a's claim is gone; b's must stay
    expect(await a.begin(key, 10_000)).toBe('in_progress');
    await b.complete(key, 10_000);
    expect(await a.begin(key, 10_000)).toBe('done');
  });

  it('gives exactly one "new" among 400 concurrent begins from four connections', async () => {
    const stores = [connect(), connect(), connect(), connect()].map((client) =>
      createRedisDedupeStore({ client }),
    );
    for (let round = 0; round < 20; round++) {
      const key = freshKey();
      const results = await Promise.all(
        Array.from({ length: 400 }, (_, i) => stores[i % 4]!.begin(key, 10_000)),
      );
      expect(results.filter((r) => r === 'new')).toHaveLength(1);
      expect(results.filter((r) => r === 'in_progress')).toHaveLength(399);
    }
  });

  it('rejects a TTL that is not a positive number', async () => {
    const store = createRedisDedupeStore({ client: connect() });
    await expect(store.begin('x', 0)).rejects.toThrow(RangeError);
    await expect(store.complete('x', Number.NaN)).rejects.toThrow(/ttlMs/);
  });

  it('rejects (so the handler answers 5xx) while Redis is down, and remembers done keys across a restart', async () => {
    const client = connect();
    const store = createRedisDedupeStore({ client });
    const key = freshKey();
    expect(await store.begin(key, 60_000)).toBe('new');
    await store.complete(key, 60_000);
    await server.kill();
    await expect(store.begin(freshKey(), 60_000)).rejects.toThrow();
    await server.start();
    // ioredis reconnects by itself; the done key survived thanks to the AOF
    let result: string | undefined;
    for (let i = 0; i < 100 && result === undefined; i++) {
      result = await store.begin(key, 60_000).catch(() => undefined);
      if (result === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    expect(result).toBe('done');
  });
});

describe('createRedisDedupeStore across a Redis outage', () => {
  it('keeps retrying complete until Redis is back, so a processed event is recorded as done', async () => {
    const store = createRedisDedupeStore({ client: connect(), completeRetryMs: 10_000 });
    const key = freshKey();
    expect(await store.begin(key, 60_000)).toBe('new');
    await server.kill();
    const completing = store.complete(key, 60_000);
    await new Promise((r) => setTimeout(r, 400));
    await server.start();
    await completing;
    expect(await createRedisDedupeStore({ client: connect() }).begin(key, 60_000)).toBe('done');
  });

  it('gives up on complete after completeRetryMs', async () => {
    const store = createRedisDedupeStore({ client: connect(), completeRetryMs: 200 });
    const key = freshKey();
    expect(await store.begin(key, 60_000)).toBe('new');
    await server.kill();
    try {
      await expect(store.complete(key, 60_000)).rejects.toThrow();
    } finally {
      await server.start();
    }
  });
});

describe('createRedisDedupeStore when a begin loses its reply', () => {
  it('takes over its own claim on the next begin instead of blocking redeliveries until it expires', async () => {
    const real = connect();
    let dropNextReply = false;
    // A client whose reply to one EVAL is lost after Redis applied it (a dropped connection).
    const flaky = {
      async eval(script: string, numkeys: number, ...args: (string | number)[]) {
        const reply = await real.eval(script, numkeys, ...args);
        if (dropNextReply) {
          dropNextReply = false;
          throw new Error('Connection is closed.');
        }
        return reply;
      },
    };
    const store = createRedisDedupeStore({ client: flaky });
    const other = createRedisDedupeStore({ client: connect() });
    const key = freshKey();
    dropNextReply = true;
    await expect(store.begin(key, 60_000)).rejects.toThrow('Connection is closed.');
    // the claim was written: another instance sees it in progress
    expect(await other.begin(key, 60_000)).toBe('in_progress');
    // this instance's retry of the same delivery gets it
    expect(await store.begin(key, 60_000)).toBe('new');
    expect(await store.begin(key, 60_000)).toBe('in_progress');
    await store.complete(key, 60_000);
    expect(await other.begin(key, 60_000)).toBe('done');
  });
});
