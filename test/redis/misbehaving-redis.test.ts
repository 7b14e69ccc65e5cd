// What a merchant meets when the Redis behind hosted-payments/redis misbehaves: a real
// redis-server that hangs (SIGSTOP, then SIGCONT), goes away and comes back, with the ioredis
// options merchants actually run (the defaults, and maxRetriesPerRequest: null as BullMQ wants).
// The route must answer a retryable 5xx within a bounded time, never 2xx for a delivery onEvent
// did not see, and the redelivery after Redis is back must reach onEvent exactly once.
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCallbackHandler, type CallbackHandler } from '../../src/callbacks/index.js';
import { PaymentsClient } from '../../src/client.js';
import { createRedisDedupeStore, createRedisTransactionStore } from '../../src/redis/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import {
  createTransactionTracker,
  TransactionStoreError,
  TransactionTimeoutError,
} from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';
import { startRedisServer, type RedisServer } from '../reliability/helpers/redis-server.js';

// How long a test waits for an answer before calling it "no answer": far above any bound the
// stores set, so only a request held until Redis comes back (or for ever) reaches it.
const NO_ANSWER_MS = 12_000;
const HUNG = Symbol('no answer');
const within = <T>(promise: Promise<T>): Promise<T | typeof HUNG> =>
  Promise.race([promise, new Promise<typeof HUNG>((r) => setTimeout(() => r(HUNG), NO_ANSWER_MS))]);

let server: RedisServer;
let pid = 0;
let stopped = false;
const clients: Redis[] = [];
const closers: (() => Promise<unknown>)[] = [];

const connect = (options: RedisOptions = {}): Redis => {
  const client = new Redis(server.port, '127.0.0.1', options);
  client.on('error', () => {}); // reconnect noise while the server is away is expected
  clients.push(client);
  return client;
};
const hang = (): void => {
  process.kill(pid, 'SIGSTOP');
  stopped = true;
};
const resume = (): void => {
  if (stopped) process.kill(pid, 'SIGCONT');
  stopped = false;
};
const reachable = async (client: Redis): Promise<void> => {
  for (let i = 0; i < 400; i++) {
    if ((await client.ping().catch(() => undefined)) === 'PONG') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('redis-server did not come back');
};

const route = 'https://shop.example/webhooks/payments';
const post = (body: unknown) =>
  new Request(route, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
let counter = 0;
const freshPayout = () => ({
  ...callbackFixtures['payout.succeeded'],
  transaction_id: `PYT-HANG-${Date.now()}-${counter++}`,
});

beforeAll(async () => {
  server = await startRedisServer();
  const probe = connect();
  pid = Number(/process_id:(\d+)/.exec(await probe.info('server'))?.[1]);
  expect(pid).toBeGreaterThan(0);
});
afterEach(() => resume());
afterAll(async () => {
  resume();
  await Promise.all(closers.map((close) => close().catch(() => undefined)));
  await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  await server?.stop();
});

describe('the webhook route on the Redis dedupe store, Redis hanging', () => {
  it.each<[string, RedisOptions]>([
    ["ioredis's defaults", {}],
    ['maxRetriesPerRequest: null (BullMQ)', { maxRetriesPerRequest: null }],
  ])(
    'with %s: answers 5xx instead of holding the request, and the redelivery is processed once',
    async (_, options) => {
      const client = connect(options);
      await reachable(client);
      let processed = 0;
      const handler = createCallbackHandler({
        verify: false,
        dedupe: createRedisDedupeStore({ client }),
        onEvent: () => void (processed += 1),
        onError: () => undefined,
      });
      const payload = freshPayout();
      hang();
      const answer = await within(handler(post(payload)));
      resume();
      expect(answer).not.toBe(HUNG);
      expect((answer as Response).status).toBeGreaterThanOrEqual(500);
      expect(processed).toBe(0);
      await reachable(client);
      const retry = await handler(post(payload));
      expect(retry.status).toBe(200);
      expect(processed).toBe(1);
    },
    40_000,
  );

  it('with maxRetriesPerRequest: null and Redis down: answers 5xx instead of queueing the request until Redis is back', async () => {
    const client = connect({ maxRetriesPerRequest: null });
    await reachable(client);
    let processed = 0;
    const handler = createCallbackHandler({
      verify: false,
      dedupe: createRedisDedupeStore({ client }),
      onEvent: () => void (processed += 1),
      onError: () => undefined,
    });
    const payload = freshPayout();
    await server.kill();
    try {
      const answer = await within(handler(post(payload)));
      expect(answer).not.toBe(HUNG);
      expect((answer as Response).status).toBeGreaterThanOrEqual(500);
      expect(processed).toBe(0);
    } finally {
      await server.start();
      pid = Number(/process_id:(\d+)/.exec(await connect().info('server'))?.[1]);
    }
    await reachable(client);
    const retry = await handler(post(payload));
    expect(retry.status).toBe(200);
    expect(processed).toBe(1);
  }, 40_000);
});

describe('two route processes sharing one Redis (dedupe and tracker) while it hangs and comes back', () => {
  it('answer 5xx while it hangs; the retries reach onEvent exactly once and settle the payment once', async () => {
    const secretless = { verify: false } as const;
    const reference = `ORD-SCALE-${counter++}`;
    const instance = () => {
      const client = connect();
      const store = createRedisTransactionStore({ client, prefix: 'hang-tx:' });
      closers.push(() => store.close());
      const tracker = createTransactionTracker({ store });
      const seen = { count: 0 };
      const handler: CallbackHandler = createCallbackHandler({
        ...secretless,
        tracker,
        dedupe: createRedisDedupeStore({ client, prefix: 'hang-dd:' }),
        onEvent: () => void (seen.count += 1),
        onError: () => undefined,
      });
      return { handler, seen };
    };
    const a = instance();
    const b = instance();
    const setup = createTransactionTracker({
      store: createRedisTransactionStore({ client: connect(), prefix: 'hang-tx:' }),
    });
    await setup.begin({ reference, kind: 'payout', amount: '100', currency: 'KES' });
    const payload = {
      ...callbackFixtures['payout.succeeded'],
      transaction_id: `PYT-SCALE-${counter++}`,
      reference_id: reference,
      amount: '100',
      currency: 'KES',
    };

    hang();
    const first = await within(a.handler(post(payload)));
    const second = await within(b.handler(post(payload)));
    resume();
    expect(first).not.toBe(HUNG);
    expect(second).not.toBe(HUNG);
    expect((first as Response).status).toBeGreaterThanOrEqual(500);
    expect((second as Response).status).toBeGreaterThanOrEqual(500);
    expect(a.seen.count + b.seen.count).toBe(0);

    // The sender retries, to whichever instance the load balancer picks, until it gets a 2xx.
    let delivered = false;
    for (let attempt = 0; attempt < 20 && !delivered; attempt++) {
      const answer = await (attempt % 2 === 0 ? a : b).handler(post(payload));
      delivered = answer.status === 200;
      if (!delivered) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(delivered).toBe(true);
    expect(a.seen.count + b.seen.count).toBe(1);
    expect(await setup.get(reference)).toMatchObject({ state: 'succeeded' });
  }, 60_000);
});

describe('the tracker on the Redis transaction store, Redis hanging', () => {
  it('a tracked initiation rejects with TransactionStoreError (sent: false) instead of hanging, and nothing is sent', async () => {
    const client = connect();
    await reachable(client);
    const tracker = createTransactionTracker({
      store: createRedisTransactionStore({ client, prefix: 'hang-init:' }),
    });
    let requests = 0;
    const payments = new PaymentsClient({
      baseUrl: 'https://payments.example.com',
      apiKey: 'sk_live_hang_test_key_123456',
      fetch: async () => {
        requests += 1;
        return Response.json({ message: 'Card Payment Initiated', status: 200 });
      },
      transactions: { tracker, secret: 'whsec_misbehaving_redis_test' },
    });
    hang();
    const outcome = await within(
      caught(() =>
        payments.initiateCardPayment({
          customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
          amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
          card_details: { card_number: '4242424242424242', expiry_month: 12, expiry_year: 2099, cvc: 123 },
          callback_details: { transaction_reference: `ORD-INIT-${counter++}`, callback_url: route },
        }),
      ),
    );
    resume();
    expect(outcome).not.toBe(HUNG);
    expect(outcome).toBeInstanceOf(TransactionStoreError);
    expect(outcome).toMatchObject({ sent: false });
    expect(requests).toBe(0);
    const text = `${(outcome as Error).message} ${String((outcome as Error).cause && JSON.stringify((outcome as Error).cause))}`;
    expect(text).not.toContain('4242424242424242');
    expect(text).not.toContain('sk_live_hang_test_key_123456');
  }, 40_000);

  it('waitFor rejects at its timeout saying the store could not be read, not that the transaction is still pending', async () => {
    const client = connect();
    await reachable(client);
    const tracker = createTransactionTracker({
      store: createRedisTransactionStore({ client, prefix: 'hang-wait:' }),
      pollIntervalMs: 200,
    });
    await tracker.begin({ reference: 'ORD-WAIT', kind: 'card', amount: '1500', currency: 'KES' });
    hang();
    const outcome = await within(caught(() => tracker.waitFor('ORD-WAIT', { timeout: 6_000 })));
    resume();
    expect(outcome).toBeInstanceOf(TransactionTimeoutError);
    expect((outcome as Error).message).toMatch(/could not be read/);
    expect((outcome as Error).message).not.toMatch(/still pending after/);
  }, 40_000);
});

describe('commandTimeoutMs', () => {
  it('is refused at creation unless a whole number of ms a timer holds, naming it', () => {
    const client = connect();
    for (const commandTimeoutMs of [0, -1, 1.5, Number.NaN, Infinity, 2 ** 31]) {
      expect(() => createRedisDedupeStore({ client, commandTimeoutMs })).toThrow(
        /^createRedisDedupeStore: commandTimeoutMs must be a whole number/,
      );
      expect(() => createRedisTransactionStore({ client, commandTimeoutMs })).toThrow(
        /^createRedisTransactionStore: commandTimeoutMs must be a whole number/,
      );
    }
  });
});
