// The client's `transactions` option when the transaction store fails. Before the request is sent
// (recording the pending transaction): a typed error naming the store that says nothing was sent,
// and nothing reaches the service. After it was sent (a refusal whose record the store cannot
// expire): the service's ApiError, whose cause says the request was sent and the record stays
// pending. Whatever the store's error carries, the card number and cvc stay out of every dump.
import { inspect } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient, type ClientOptions } from '../../src/client.js';
import { ApiError, isPaymentsError, paymentsErrorNames, PaymentsError } from '../../src/errors.js';
import { createRedisTransactionStore } from '../../src/redis/index.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
  type TransactionTracker,
} from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';
import {
  bigCardNumber,
  cardPaymentInput,
  checkoutSessionInput,
  cvc,
  mobileMoneyPaymentInput,
  payoutInput,
} from '../helpers/inputs.js';
import { startRedisServer, type RedisServer } from '../reliability/helpers/redis-server.js';
import { fakeService } from '../helpers/fake-service.js';
import { withoutSourceNoise } from '../helpers/source-noise.js';

const secret = 'whsec_store_failure_test';

/** Each tracked initiation, with the reference it records. */
const initiations = [
  ['initiateCardPayment', (client) => client.initiateCardPayment(cardPaymentInput), 'order-1001'],
  [
    'initiateMobileMoneyPayment',
    (client) => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput),
    'order-1002',
  ],
  ['createCheckoutSession', (client) => client.createCheckoutSession(checkoutSessionInput), '1003'],
  ['initiatePayout', (client) => client.initiatePayout(payoutInput), '483920175561'],
] as const satisfies readonly (readonly [string, (client: PaymentsClient) => Promise<unknown>, string])[];

/** A client tracking with `tracker`, whose service answers `status`; `sent` keeps each request that reached it. */
function clientOn(tracker: TransactionTracker, status = 200, options: Partial<ClientOptions> = {}) {
  const sent: Request[] = [];
  const client = new PaymentsClient({
    baseUrl: fakeService(async (request) => {
      sent.push(request);
      return status === 200
        ? Response.json({ message: 'Card Payment Initiated', status: 200 })
        : new Response('{"error":"refused"}', { status, headers: { 'content-type': 'application/json' } });
    }),
    ...options,
    transactions: { tracker, secret },
  });
  return { client, sent };
}

type Failure = 'rejects' | 'throws synchronously' | 'never answers';

/** A memory store whose `method` fails the way `how` says; `calls` counts the calls of `method`. */
function failingStore(method: 'insert' | 'update', how: Failure, error: () => unknown) {
  const memory = createMemoryTransactionStore();
  const calls = { count: 0 };
  const fail = () => {
    calls.count += 1;
    if (how === 'throws synchronously') throw error();
    return how === 'rejects' ? Promise.reject(error()) : new Promise<never>(() => undefined);
  };
  const store: TransactionStore = { ...memory, [method]: fail };
  return { store, calls };
}

/** The checks every store failure before sending must pass; returns the error. */
async function expectNothingSent(run: () => Promise<unknown>, sent: Request[], reference: string) {
  const error = await caught(run);
  expect(error).toBeInstanceOf(PaymentsError);
  expect(isPaymentsError(error)).toBe(true);
  expect(error).toMatchObject({ name: 'TransactionStoreError', reference, sent: false });
  expect((error as Error).message).toMatch(/transaction store/i);
  expect((error as Error).message).toMatch(/nothing was sent/i);
  expect(sent).toHaveLength(0);
  return error as PaymentsError;
}

/** Every text a log line may be made of (test/client/exposure-audit.test.ts lists why each). */
const dumps = (error: unknown): string =>
  [
    String(error),
    JSON.stringify(error),
    (error as Error).stack,
    inspect(error, { showHidden: true, depth: Infinity }),
    String((error as Error).cause),
  ].join('\n');

/** What of the card a text shows, once what a machine writes by chance is out. */
function leaks(text: string): string[] {
  const plain = withoutSourceNoise(text);
  return [
    /9999\D{0,3}9999\D{0,3}9999\D{0,3}9995/.test(plain) && 'card number',
    new RegExp(`(?<!\\d)${cvc}(?!\\d)`).test(plain) && 'cvc',
  ].filter((found) => found !== false);
}

describe('a store that fails before the request is sent', () => {
  it('TransactionStoreError is one of the SDK error names isPaymentsError knows', () => {
    expect(paymentsErrorNames).toContain('TransactionStoreError');
  });

  const failures: readonly Failure[] = ['rejects', 'throws synchronously', 'never answers'];
  // A store that never answers is given up on at the call's deadline: its totalTimeout (1 s; the
  // deadline counts from the call's start, and on a loaded machine the first call's work before the
  // store, signing included, has taken over 100 ms). The others have no deadline to race.
  describe.each(failures)('store.insert %s', (how) => {
    it.each(initiations)(
      '%s: a TransactionStoreError saying nothing was sent; nothing sent, never retried',
      async (_name, initiate, reference) => {
        const { store, calls } = failingStore('insert', how, () => new Error('store connection lost'));
        const { client, sent } = clientOn(createTransactionTracker({ store }), 200, {
          retry: { limit: 3, backoffLimit: 1 },
          ...(how === 'never answers' ? { totalTimeout: 1_000 } : {}),
        });
        const error = await expectNothingSent(() => initiate(client), sent, reference);
        expect(calls.count).toBe(1);
        if (how === 'never answers') {
          expect((error.cause as Error).name).toBe('TimeoutError');
        } else {
          // The store's own error, for the logs.
          expect(error.message).toContain('store connection lost');
          expect(error.cause).toMatchObject({ message: 'store connection lost' });
        }
      },
      5_000,
    );
  });

  it("a store that never answers, and the caller's signal aborts: the same, nothing sent", async () => {
    const { store, calls } = failingStore('insert', 'never answers', () => undefined);
    const { client, sent } = clientOn(createTransactionTracker({ store }));
    const controller = new AbortController();
    const call = client.initiateMobileMoneyPayment(mobileMoneyPaymentInput, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.count).toBe(1);
    controller.abort();
    await expectNothingSent(() => call, sent, 'order-1002');
  }, 5_000);

  it('an expired reference initiated again, whose store fails to record it pending again: the same; it stays expired', async () => {
    const memory = createMemoryTransactionStore();
    const tracker = createTransactionTracker({
      store: { ...memory, update: () => Promise.reject(new Error('store connection lost')) },
    });
    const expired = createTransactionTracker({ store: memory });
    await expired.begin({ reference: 'order-1002', kind: 'mobile_money', amount: 400, currency: 'KES' });
    await expired.expire('order-1002');
    const { client, sent } = clientOn(tracker);
    await expectNothingSent(
      () => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput),
      sent,
      'order-1002',
    );
    expect(await tracker.get('order-1002')).toMatchObject({ state: 'expired' });
  });

  it("shows the store's message with the call's card number and cvc redacted, and none of its other properties", async () => {
    const quoting = Object.assign(
      new Error(`write failed for card ${bigCardNumber} cvc ${cvc}: connection lost`),
      { request: { card_number: bigCardNumber, cvc } },
    );
    const { store } = failingStore('insert', 'rejects', () => quoting);
    const { client, sent } = clientOn(createTransactionTracker({ store }));
    const error = await expectNothingSent(
      () => client.initiateCardPayment(cardPaymentInput),
      sent,
      'order-1001',
    );
    expect(error.message).toContain('connection lost');
    expect(leaks(dumps(error))).toEqual([]);
  });

  it.each([
    [
      'an Error whose message throws when read',
      () =>
        Object.defineProperty(new Error('x'), 'message', {
          get() {
            throw new Error(`getter for card ${bigCardNumber}`);
          },
        }),
    ],
    [
      'an Error whose message is not a string',
      () => Object.assign(new Error(), { message: { card_number: bigCardNumber } }),
    ],
    ['an Error whose name is a number', () => Object.assign(new Error('store down'), { name: 42 })],
    ['a plain object', () => ({ message: `store down for ${bigCardNumber}` })],
  ])(
    'a store that fails with %s: the same typed error, nothing of the card in it',
    async (_label, failure) => {
      const { store } = failingStore('insert', 'rejects', failure);
      const { client, sent } = clientOn(createTransactionTracker({ store }));
      const error = await expectNothingSent(
        () => client.initiateCardPayment(cardPaymentInput),
        sent,
        'order-1001',
      );
      expect(leaks(dumps(error))).toEqual([]);
    },
  );
});

describe('the Redis store with Redis down', () => {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('initiateMobileMoneyPayment: a TransactionStoreError saying nothing was sent, not ioredis’s own error', async () => {
    const redis = new Redis(server!.port, '127.0.0.1', { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined); // the reconnection attempts, once the server is gone
    const store = createRedisTransactionStore({ client: redis, prefix: 'store-failure:' });
    try {
      expect(await redis.ping()).toBe('PONG');
      await server!.stop();
      server = undefined;
      const { client, sent } = clientOn(createTransactionTracker({ store }));
      const error = await expectNothingSent(
        () => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput),
        sent,
        'order-1002',
      );
      // The store names itself; ioredis's error is its cause.
      expect((error.cause as Error).message).toMatch(/^Redis transaction store: MaxRetriesPerRequestError/);
      expect((error.cause as Error).cause).toMatchObject({ name: 'MaxRetriesPerRequestError' });
    } finally {
      await store.close();
      redis.disconnect();
    }
  });
});

describe('a store that fails after the request was sent', () => {
  it.each(initiations)(
    '%s refused (4xx), the record cannot be expired: the ApiError, its cause a TransactionStoreError saying the request was sent; it stays pending',
    async (_name, initiate, reference) => {
      const memory = createMemoryTransactionStore();
      const tracker = createTransactionTracker({
        store: { ...memory, update: () => Promise.reject(new Error('store connection lost')) },
      });
      const { client, sent } = clientOn(tracker, 400);
      const error = await caught(() => initiate(client));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 400 });
      expect(sent).toHaveLength(1);
      const cause = (error as ApiError).cause;
      expect(cause).toBeInstanceOf(PaymentsError);
      expect(cause).toMatchObject({ name: 'TransactionStoreError', reference, sent: true });
      expect((cause as Error).message).toMatch(/transaction store/i);
      expect((cause as Error).message).toMatch(/was sent/);
      expect((cause as Error).message).toMatch(/pending/);
      expect((cause as Error).cause).toMatchObject({ message: 'store connection lost' });
      expect(await tracker.get(reference)).toMatchObject({ state: 'pending' });
    },
  );
});
