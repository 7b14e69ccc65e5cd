// The client's `transactions` option on the Redis store (a real redis-server): the call that
// recorded a transaction is told apart from one that found it recorded, without reading it first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { ApiError } from '../../src/errors.js';
import { createRedisTransactionStore, type RedisTransactionStore } from '../../src/redis/index.js';
import { createTransactionTracker, type TransactionTracker } from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { useRedis } from '../helpers/redis.js';

const secret = 'whsec_redis_ownership_test';
const redis = useRedis();
let store: RedisTransactionStore;

const stkPush = (reference: string) => ({
  customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
  amount: { delivery_fee: 100, discount_fee: 50, total: 900, currency: 'KES' },
  callback_details: { transaction_reference: reference, callback_url: 'https://shop.example/webhooks' },
});
const clientAnswering = (status: number, tracker: TransactionTracker) =>
  new PaymentsClient({
    baseUrl: fakeService(() =>
      status === 200
        ? Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 })
        : new Response('{"error":"refused"}', { status }),
    ),
    transactions: { tracker, secret },
  });

beforeAll(() => {
  store = createRedisTransactionStore({ client: redis.client(), prefix: 'own:' });
});
afterAll(async () => {
  await store?.close();
});

describe('PaymentsClient({ transactions }) on the Redis store', () => {
  it('a refusal of the call that recorded the transaction expires it', async () => {
    const tracker = createTransactionTracker({ store });
    await expect(
      clientAnswering(400, tracker).initiateMobileMoneyPayment(stkPush('R-400')),
    ).rejects.toBeInstanceOf(ApiError);
    expect(await tracker.get('R-400')).toMatchObject({ state: 'expired' });
  });

  it('a duplicate submission stamped in the same millisecond, refused, leaves the record pending', async () => {
    const frozen = createTransactionTracker({ store, now: () => 1_000 });
    await clientAnswering(200, frozen).initiateMobileMoneyPayment(stkPush('R-DUP'));
    await expect(
      clientAnswering(409, frozen).initiateMobileMoneyPayment(stkPush('R-DUP')),
    ).rejects.toBeInstanceOf(ApiError);
    // The second submission's attempt, a millisecond after the first's though the clock stood still.
    expect(await frozen.get('R-DUP')).toMatchObject({ state: 'pending', createdAt: 1_001 });
  });

  it("a transaction another process recorded is not the call's: its refusal leaves it pending", async () => {
    const other = createTransactionTracker({ store, now: () => 2_000 });
    await other.begin({ reference: 'R-OTHER', kind: 'mobile_money', amount: 900, currency: 'KES' });
    const tracker = createTransactionTracker({ store, now: () => 2_000 });
    await expect(
      clientAnswering(400, tracker).initiateMobileMoneyPayment(stkPush('R-OTHER')),
    ).rejects.toBeInstanceOf(ApiError);
    expect(await tracker.get('R-OTHER')).toMatchObject({ state: 'pending' });
  });
});
