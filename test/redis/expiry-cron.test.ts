// The cron docs/transactions.md tells merchants to run (`expireStale`), run as pasted against a
// real redis-server that pauses while the expiry is in flight: the store gives up on the reply
// after commandTimeoutMs, and Redis applies the expiry afterwards. The order must still be
// cancelled, by a later run, though stale() no longer lists the expired record.
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { createRedisTransactionStore, type RedisScriptClient } from '../../src/redis/index.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { createTransactionTracker, type TransactionStore } from '../../src/transactions/index.js';
import { documentedFunction, removeDocumentedFiles, type ExpireStale } from '../helpers/documented.js';
import { useRedis } from '../helpers/redis.js';

const redis = useRedis();
let client: Redis;
let pid = 0;
let stopped = false;

const hang = (): void => {
  process.kill(pid, 'SIGSTOP');
  stopped = true;
};
const resume = (): void => {
  if (stopped) process.kill(pid, 'SIGCONT');
  stopped = false;
};

const documentedCron = () => documentedFunction<ExpireStale>('expireStale');

beforeAll(async () => {
  client = redis.client();
  pid = Number(/process_id:(\d+)/.exec(await client.info('server'))?.[1]);
  expect(pid).toBeGreaterThan(0);
});
afterEach(() => resume());
afterAll(async () => {
  resume();
  await removeDocumentedFiles();
});

describe("the docs' expireStale cron on the Redis store, Redis pausing during the expiry", () => {
  it('cancels the order on a later run when the expiry timed out but was applied after all', async () => {
    const expireStale = await documentedCron();
    // The expiry's script pauses Redis for longer than commandTimeoutMs: the call rejects, and
    // Redis runs the script when it resumes.
    let pauses = 1;
    const pausing: RedisScriptClient = {
      eval: (script, numkeys, ...args) => {
        if (args.includes('expired') && pauses-- > 0) {
          hang();
          setTimeout(resume, 600);
        }
        return client.eval(script, numkeys, ...args);
      },
    };
    const store = createRedisTransactionStore({
      client: pausing,
      prefix: 'cron-late:',
      commandTimeoutMs: 300,
    });
    await createTransactionTracker({ store, now: () => Date.now() - 3_600_000 }).begin({
      reference: 'ORD-CRON-LATE',
      kind: 'mobile_money',
      amount: '1500',
      currency: 'KES',
    });
    const tracker = createTransactionTracker({ store });
    const cancelled: string[] = [];
    const cancelOrder = async (reference: string) => void cancelled.push(reference);

    await expect(expireStale(tracker, cancelOrder)).rejects.toThrow();
    expect(cancelled).toEqual([]);
    // Redis resumes and applies the expiry nobody heard about (a read may time out till then).
    const state = () =>
      tracker.get('ORD-CRON-LATE').then(
        (record) => record?.state,
        () => undefined,
      );
    for (let i = 0; i < 100 && (await state()) !== 'expired'; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await tracker.get('ORD-CRON-LATE')).toMatchObject({ state: 'expired' });
    expect(await tracker.stale()).toEqual([]);

    await expireStale(tracker, cancelOrder);
    expect(cancelled).toEqual(['ORD-CRON-LATE']);
    // A further run leaves the cancelled order alone.
    await expireStale(tracker, cancelOrder);
    expect(cancelled).toEqual(['ORD-CRON-LATE']);
  }, 20_000);

  it('cancels an order once it expires, and never one whose transaction its callback settled', async () => {
    const expireStale = await documentedCron();
    const store = createRedisTransactionStore({ client, prefix: 'cron-plain:' });
    const old = createTransactionTracker({ store, now: () => Date.now() - 3_600_000 });
    for (const reference of ['ORD-CRON-OPEN', 'ORD-CRON-PAID']) {
      await old.begin({ reference, kind: 'card', amount: '1500', currency: 'KES' });
    }
    const tracker = createTransactionTracker({ store });
    await tracker.settle('ORD-CRON-PAID', { outcome: 'succeeded' });
    const cancelled: string[] = [];
    const cancelOrder = async (reference: string) => void cancelled.push(reference);

    await expireStale(tracker, cancelOrder);
    await expireStale(tracker, cancelOrder);
    expect(cancelled).toEqual(['ORD-CRON-OPEN']);
  });
});

describe("the docs' expireStale cron, a transaction it must try again changing meanwhile", () => {
  const secret = 'whsec_expiry_cron_0123456789';
  // A store whose first expiry is applied and then rejects (Redis answered, the reply was lost).
  const losingFirstExpiry = (prefix: string): TransactionStore => {
    const store = createRedisTransactionStore({ client, prefix });
    let losses = 1;
    return {
      ...store,
      update: async (record, from, previous) => {
        const written = await store.update(record, from, previous);
        if (record.state === 'expired' && losses-- > 0) throw new Error('the reply was lost');
        return written;
      },
    };
  };
  const cron = async (prefix: string, reference: string) => {
    const expireStale = await documentedCron();
    const store = losingFirstExpiry(prefix);
    await createTransactionTracker({ store, now: () => Date.now() - 3_600_000 }).begin({
      reference,
      kind: 'mobile_money',
      amount: '1500',
      currency: 'KES',
    });
    const tracker = createTransactionTracker({ store });
    const cancelled: string[] = [];
    const run = () => expireStale(tracker, async (ref) => void cancelled.push(ref));
    await expect(run()).rejects.toThrow(AggregateError);
    expect(cancelled).toEqual([]);
    expect((await tracker.get(reference))?.state).toBe('expired');
    return { tracker, cancelled, run };
  };

  it('never cancels the order of a transaction the customer initiated again (pending again) before the next run', async () => {
    const { tracker, cancelled, run } = await cron('cron-reopened:', 'ORD-CRON-AGAIN');
    const sandbox = await startSandbox({ callbackDelayMs: 60_000, log: false });
    try {
      const client = new PaymentsClient({ baseUrl: sandbox.url, transactions: { tracker, secret } });
      await client.initiateMobileMoneyPayment({
        customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
        amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
        callback_details: {
          transaction_reference: 'ORD-CRON-AGAIN',
          callback_url: 'https://shop.example/webhooks/payments',
        },
      });
      expect((await tracker.get('ORD-CRON-AGAIN'))?.state).toBe('pending');

      await run();
      await run();
      expect(cancelled).toEqual([]);
      expect((await tracker.get('ORD-CRON-AGAIN'))?.state).toBe('pending');
    } finally {
      await sandbox.close();
    }
  }, 20_000);

  it('stops trying a transaction whose record is no longer stored, and cancels nothing for it', async () => {
    const { tracker, cancelled, run } = await cron('cron-dropped:', 'ORD-CRON-GONE');
    await client.del('cron-dropped:r:ORD-CRON-GONE');
    expect(await tracker.get('ORD-CRON-GONE')).toBeUndefined();
    await run();
    await run();
    expect(cancelled).toEqual([]);
  });

  it('cancels the order when the record is still expired, and leaves one its late callback settled', async () => {
    const { tracker, cancelled, run } = await cron('cron-retried:', 'ORD-CRON-RETRY');
    await run();
    expect(cancelled).toEqual(['ORD-CRON-RETRY']);
    await tracker.settle('ORD-CRON-RETRY', { outcome: 'succeeded' });
    await run();
    expect(cancelled).toEqual(['ORD-CRON-RETRY']);
  });
});
