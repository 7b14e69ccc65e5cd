// A payout's reference_id names one transfer, and the client refuses to send one already
// recorded: on Redis that refusal lasts as long as the record's key. A finished payout's key never
// expires (as a pending record's); a finished payment's still expires after finishedTtlMs. Against
// a real redis-server, with finishedTtlMs shortened to let the payment's key expire.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { createRedisTransactionStore, type RedisTransactionStore } from '../../src/redis/index.js';
import {
  TransactionConflictError,
  createTransactionTracker,
  type TransactionRecord,
  type TransactionTracker,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { useRedis } from '../helpers/redis.js';

const redis = useRedis();
let client: Redis;
const stores: RedisTransactionStore[] = [];

beforeAll(() => {
  client = redis.client({ commandTimeout: 2_000 });
});

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close().catch(() => undefined)));
});

const TTL = 200;
const fresh = () => {
  const prefix = redis.prefix('kept');
  const store = createRedisTransactionStore({ client, prefix, finishedTtlMs: TTL });
  stores.push(store);
  return { prefix, store, tracker: createTransactionTracker({ store }) };
};
const pastTtl = () => new Promise((resolve) => setTimeout(resolve, TTL * 3));

const secret = 'whsec_payout_kept_redis_0123456789';
function service() {
  const sent: Request[] = [];
  const baseUrl = fakeService((request) => {
    sent.push(request);
    return Response.json({ message: 'Mobile Payout Initiated', status: 200 });
  });
  return { baseUrl, sent };
}
const payout = (baseUrl: string, tracker: TransactionTracker, reference_id: string) =>
  new PaymentsClient({
    baseUrl,
    apiKey: 'sk_test_payouts',
    transactions: { tracker, secret },
  }).initiatePayout({
    customer_details: { full_name: 'Alice Seller', phone_number: '0712345678', email: 'alice@example.com' },
    destination: {
      type: 'mobile',
      country_code: 'KE',
      mobile_number: '254712345678',
      wallet_name: 'MOBILE-MONEY',
    },
    transfer: { amount: 1000, currency: 'KES', reference_id, description: 'Seller balance' },
    webhook_endpoint: { webhook_url: 'https://market.example/webhooks/payouts' },
  });

/** A second initiatePayout under `reference_id`, on another instance: refused, nothing sent. */
async function sentAgain(
  store: RedisTransactionStore,
  reference_id: string,
  reason: 'already_settled' | 'payout_already_sent',
) {
  const { baseUrl, sent } = service();
  const error = await payout(baseUrl, createTransactionTracker({ store }), reference_id).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransactionConflictError);
  expect(error).toMatchObject({ reason, reference: reference_id });
  expect(sent).toHaveLength(0);
}

describe('the Redis store keeps a finished payout record (no TTL)', () => {
  it('a succeeded payout outlives finishedTtlMs and its reference_id is not sent again; a settled payment still expires', async () => {
    const { prefix, store, tracker } = fresh();
    const { baseUrl, sent } = service();
    await payout(baseUrl, tracker, '483920175581');
    expect(sent).toHaveLength(1);
    const settled = await tracker.settle('483920175581', {
      outcome: 'succeeded',
      eventType: 'payout.succeeded',
      amount: '1000',
      currency: 'KES',
      transactionId: 'PYT0000000081',
      paymentId: 'PYT0000000081',
    });
    await tracker.begin({ reference: 'ORD-PAID', kind: 'card', amount: 1500, currency: 'KES' });
    await tracker.settle('ORD-PAID', { outcome: 'succeeded' });
    expect(await client.pttl(`${prefix}r:483920175581`)).toBe(-1);
    const paymentTtl = await client.pttl(`${prefix}r:ORD-PAID`);
    expect(paymentTtl).toBeGreaterThan(0);
    expect(paymentTtl).toBeLessThanOrEqual(TTL);
    await pastTtl();
    expect(await tracker.get('ORD-PAID')).toBeUndefined();
    expect(await tracker.get('483920175581')).toEqual(settled.record);
    await sentAgain(store, '483920175581', 'already_settled');
  });

  it('a payout expired (the cron gave up on it), then settled late, never gets a TTL', async () => {
    const { prefix, store, tracker } = fresh();
    const { baseUrl } = service();
    await payout(baseUrl, tracker, '483920175582');
    await tracker.expire('483920175582');
    expect(await client.pttl(`${prefix}r:483920175582`)).toBe(-1);
    await pastTtl();
    await sentAgain(store, '483920175582', 'payout_already_sent');
    await tracker.settle('483920175582', {
      outcome: 'failed',
      eventType: 'payout.failed',
      transactionId: 'PYT-82',
    });
    expect(await client.pttl(`${prefix}r:483920175582`)).toBe(-1);
    await pastTtl();
    expect(await tracker.get('483920175582')).toMatchObject({ state: 'failed', late: true });
    await sentAgain(store, '483920175582', 'already_settled');
  });

  it('a payout record written with a TTL (by an earlier version) loses it on its next write', async () => {
    const { prefix, tracker } = fresh();
    await tracker.begin({ reference: '483920175583', kind: 'payout', amount: 1000, currency: 'KES' });
    await tracker.expire('483920175583');
    await client.pexpire(`${prefix}r:483920175583`, 60_000);
    await tracker.settle('483920175583', {
      outcome: 'succeeded',
      eventType: 'payout.succeeded',
      transactionId: 'PYT-83',
    });
    expect(await client.pttl(`${prefix}r:483920175583`)).toBe(-1);
  });

  it('refuses, before writing, a finished record of a kind it does not know', async () => {
    const { prefix, store } = fresh();
    const record: TransactionRecord = {
      reference: 'ORD-ODD',
      kind: 'card',
      amount: '1',
      state: 'pending',
      createdAt: 1_000,
      updatedAt: 1_000,
    };
    await store.insert(record);
    const odd = {
      ...record,
      kind: 'refund',
      state: 'succeeded',
      updatedAt: 2_000,
    } as unknown as TransactionRecord;
    await expect(store.update(odd, 'pending')).rejects.toThrow(/kind/);
    expect(await store.get('ORD-ODD')).toEqual(record);
    expect(await client.pttl(`${prefix}r:ORD-ODD`)).toBe(-1);
  });
});
