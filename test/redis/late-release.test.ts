// A Redis `abandon` that timed out (commandTimeoutMs) may still run when Redis gets to it: the
// store keeps the claim as an orphan, and the next begin of the key on this instance takes it over.
// It took it over under the same value, so the late "delete if it is still mine" then deleted the
// claim of the delivery now processing, and a third delivery ran onEvent alongside it, on one
// handler (review). A takeover writes a fresh value: the late delete finds nothing of its own.
import type { Redis } from 'ioredis';
import { beforeAll, expect, it } from 'vitest';
import { createCallbackHandler } from '../../src/callbacks/index.js';
import { createRedisDedupeStore } from '../../src/redis/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';
import { useRedis } from '../helpers/redis.js';

const secret = 'whsec_redis_late_release_0123';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const redisServer = useRedis();
let redis: Redis;

beforeAll(() => {
  redis = redisServer.client();
});

it('a release that runs after its timeout never deletes the claim a later delivery took over', async () => {
  let late = 1;
  // The first release reaches Redis 250 ms late, after the store gave up on it at 100 ms.
  const client = {
    eval: async (script: string, keys: number, ...args: (string | number)[]) => {
      if (script.includes("'DEL'") && late-- > 0) await sleep(250);
      return redis.eval(script, keys, ...args);
    },
  };
  const store = createRedisDedupeStore({
    client,
    commandTimeoutMs: 100,
    completeRetryMs: 0,
    prefix: 'late:',
  });
  let calls = 0;
  let running = 0;
  let most = 0;
  const handler = createCallbackHandler({
    secret,
    dedupe: store,
    onEvent: async () => {
      calls += 1;
      if (calls === 1) throw new Error('database blip');
      running += 1;
      most = Math.max(most, running);
      await sleep(500);
      running -= 1;
    },
  });
  const deliver = async () =>
    handler(
      await createCallbackRequest('payment.mobile_money.succeeded', { secret, reference: 'ORDER-LATE' }),
    );

  expect((await deliver()).status).toBe(500); // onEvent threw; the release timed out, still queued
  const second = deliver(); // takes the orphaned claim over and runs onEvent for 500 ms
  await sleep(250); // the late release runs meanwhile
  const third = deliver();
  expect([(await second).status, (await third).status]).toEqual([200, 503]);
  expect(most).toBe(1);
});
