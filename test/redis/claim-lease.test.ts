// An instance that dies while processing an event (a deploy, the OOM killer) left its Redis claim
// for the handler's whole processingTimeoutMs (5 min): every redelivery meanwhile was 503
// in_progress on the other instances, and a sender that retries for less than that gave up — the
// payment's outcome lost, the order left to a cron that cancels it (review). The Redis store now
// writes a claim for leaseMs and renews it while the instance that made it lives, up to the
// handler's processingTimeoutMs: a dead instance's claim lapses within leaseMs.
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createCallbackHandler, type DedupeStore } from '../../src/callbacks/index.js';
import { createRedisDedupeStore } from '../../src/redis/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';
import { useRedis } from '../helpers/redis.js';

const secret = 'whsec_redis_claim_lease_0123';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const redisServer = useRedis();
let redis: Redis;

beforeAll(() => {
  redis = redisServer.client();
});

/** A client of `redis` that can die: after `kill()` no command of it reaches Redis again. */
function mortalClient() {
  let dead = false;
  return {
    client: {
      eval: (script: string, keys: number, ...args: (string | number)[]): Promise<unknown> =>
        dead ? new Promise(() => {}) : redis.eval(script, keys, ...args),
    },
    kill: () => {
      dead = true;
    },
  };
}

/** One instance of the route: its handler, and how many events its onEvent began. */
function instance(store: DedupeStore, onEvent: () => Promise<void>, processingTimeoutMs?: number) {
  const seen = { events: 0 };
  const handler = createCallbackHandler({
    secret,
    dedupe: store,
    ...(processingTimeoutMs === undefined ? {} : { processingTimeoutMs }),
    onEvent: async () => {
      seen.events += 1;
      await onEvent();
    },
  });
  return { handler, seen };
}

const delivery = (reference: string) =>
  createCallbackRequest('payment.mobile_money.succeeded', { secret, reference });

describe('a Redis claim is a lease its instance renews while it lives', () => {
  it('an instance that dies while processing frees the event within leaseMs: another instance processes the retry', async () => {
    const prefix = redisServer.prefix('lease-dead');
    const mortal = mortalClient();
    const a = instance(
      createRedisDedupeStore({ client: mortal.client, prefix, leaseMs: 600, commandTimeoutMs: 300 }),
      () => new Promise(() => {}), // dies mid-onEvent: never returns
    );
    const b = instance(
      createRedisDedupeStore({ client: redis, prefix, leaseMs: 600, commandTimeoutMs: 300 }),
      async () => {},
    );

    // Its claim taken and onEvent begun (a loaded machine took longer than 50 ms for it).
    void a.handler(await delivery('ORDER-LEASE-1'));
    await vi.waitFor(() => expect(a.seen.events).toBe(1), { timeout: 5_000, interval: 10 });
    mortal.kill();
    expect((await b.handler(await delivery('ORDER-LEASE-1'))).status).toBe(503); // still claimed
    await sleep(1_000);
    expect((await b.handler(await delivery('ORDER-LEASE-1'))).status).toBe(200);
    expect(b.seen.events).toBe(1);
  });

  it('a live instance keeps its claim past leaseMs while onEvent runs, so the event is processed once', async () => {
    const prefix = redisServer.prefix('lease-live');
    const a = instance(
      createRedisDedupeStore({ client: redis, prefix, leaseMs: 300, commandTimeoutMs: 100 }),
      () => sleep(1_200),
    );
    const b = instance(
      createRedisDedupeStore({ client: redis, prefix, leaseMs: 300, commandTimeoutMs: 100 }),
      async () => {},
    );

    const first = a.handler(await delivery('ORDER-LEASE-2'));
    for (const wait of [400, 400]) {
      await sleep(wait);
      expect((await b.handler(await delivery('ORDER-LEASE-2'))).status).toBe(503);
    }
    expect((await first).status).toBe(200);
    expect((await b.handler(await delivery('ORDER-LEASE-2'))).status).toBe(200); // done: not again
    expect([a.seen.events, b.seen.events]).toEqual([1, 0]);
  });

  it("renews it no longer than the handler's processingTimeoutMs: past it a redelivery is processed", async () => {
    const prefix = redisServer.prefix('lease-capped');
    const a = instance(
      createRedisDedupeStore({ client: redis, prefix, leaseMs: 300, commandTimeoutMs: 100 }),
      () => sleep(2_000),
      900,
    );
    const b = instance(
      createRedisDedupeStore({ client: redis, prefix, leaseMs: 300, commandTimeoutMs: 100 }),
      async () => {},
    );

    const first = a.handler(await delivery('ORDER-LEASE-3'));
    await sleep(600);
    expect((await b.handler(await delivery('ORDER-LEASE-3'))).status).toBe(503);
    await sleep(600);
    expect((await b.handler(await delivery('ORDER-LEASE-3'))).status).toBe(200);
    expect(b.seen.events).toBe(1);
    await first;
  });

  it('a claim whose begin lost its reply is not renewed: it lapses within leaseMs, not processingTimeoutMs', async () => {
    const prefix = redisServer.prefix('lease-orphan');
    let lose = 1;
    // The first begin reaches Redis, but its reply comes after the store gave up (100 ms).
    const slow = {
      eval: async (script: string, keys: number, ...args: (string | number)[]) => {
        const reply = await redis.eval(script, keys, ...args);
        if (script.includes("'NX'") && lose-- > 0) await sleep(250);
        return reply;
      },
    };
    const a = instance(
      createRedisDedupeStore({ client: slow, prefix, leaseMs: 300, commandTimeoutMs: 100 }),
      async () => {},
    );
    const b = instance(
      createRedisDedupeStore({ client: redis, prefix, leaseMs: 300, commandTimeoutMs: 100 }),
      async () => {},
    );

    expect((await a.handler(await delivery('ORDER-LEASE-4'))).status).toBe(500);
    expect((await b.handler(await delivery('ORDER-LEASE-4'))).status).toBe(503);
    await sleep(400);
    expect((await b.handler(await delivery('ORDER-LEASE-4'))).status).toBe(200);
    expect([a.seen.events, b.seen.events]).toEqual([0, 1]);
  });

  // A lease under twice the command deadline can lapse while a renewal is still waiting for its
  // reply; one of a few ms lapses between renewals on a healthy Redis, and every redelivery then
  // runs onEvent beside the first (a review's 1 ms lease: 21 runs of one event at once).
  it.each([
    [1, {}],
    [10, {}],
    [3_999, {}],
    [300, { commandTimeoutMs: 151 }],
  ])(
    'refuses leaseMs %j under twice commandTimeoutMs (%j; default 2000) at creation, naming both',
    (leaseMs, more) => {
      expect(() => createRedisDedupeStore({ client: redis, leaseMs, ...more })).toThrow(
        /createRedisDedupeStore: leaseMs must be at least twice commandTimeoutMs/,
      );
    },
  );

  it.each([
    [4_000, {}],
    [300, { commandTimeoutMs: 150 }],
    [undefined, { commandTimeoutMs: 30_000 }], // the default lease follows: 60 s
  ])('takes leaseMs %j with %j', (leaseMs, more) => {
    expect(() => createRedisDedupeStore({ client: redis, leaseMs, ...more })).not.toThrow();
  });

  it.each([
    [0, RangeError],
    [2.5, RangeError],
    [Number.NaN, RangeError],
    ['10000', TypeError],
  ])('refuses leaseMs %j at creation (%s)', (leaseMs, type) => {
    expect(() => createRedisDedupeStore({ client: redis, leaseMs: leaseMs as number })).toThrow(type);
  });
});
