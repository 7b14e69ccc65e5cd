// A payout's reference_id names one transfer (API reference §8: "unique 12-digit value per
// transfer"), and the reference never says the service refuses one used before. With the client's
// `transactions` option the SDK sends each payout reference at most once per store: a second
// call under a reference already recorded — by another instance of the payout job, by a retry
// after a crash, after a refusal or an expiry — sends nothing. And a 409 (the service saying the
// reference is in use) never expires a record: a transfer under it may be under way.
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { ApiError } from '../../src/errors.js';
import {
  TransactionConflictError,
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionTracker,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';

const secret = 'whsec_payout_once_0123456789abcdef';
const customer = { full_name: 'Alice Seller', phone_number: '0712345678', email: 'alice@example.com' };
const destination = {
  type: 'mobile',
  country_code: 'KE',
  mobile_number: '254712345678',
  wallet_name: 'MOBILE-MONEY',
};
const initiated = () => Response.json({ message: 'Mobile Payout Initiated', status: 200 });

function service(answer: () => Response) {
  const sent: Request[] = [];
  const baseUrl = fakeService((request) => {
    sent.push(request);
    return answer();
  });
  return { baseUrl, sent };
}

const payout = (baseUrl: string, tracker: TransactionTracker, reference_id: string) =>
  new PaymentsClient({
    baseUrl,
    apiKey: 'sk_test_payouts',
    transactions: { tracker, secret },
  }).initiatePayout({
    customer_details: customer,
    destination,
    transfer: { amount: 1000, currency: 'KES', reference_id, description: 'Seller balance' },
    webhook_endpoint: { webhook_url: 'https://market.example/webhooks/payouts' },
  });

describe('a tracked payout reference is sent once', () => {
  it('a second instance of the payout job sends nothing for a reference another recorded', async () => {
    const store = createMemoryTransactionStore();
    const { baseUrl, sent } = service(initiated);
    await payout(baseUrl, createTransactionTracker({ store }), '483920175561');
    const error = await payout(baseUrl, createTransactionTracker({ store }), '483920175561').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TransactionConflictError);
    expect(error).toMatchObject({ reason: 'payout_already_sent', reference: '483920175561' });
    expect((error as Error).message).toMatch(/nothing was sent/);
    expect(sent).toHaveLength(1);
    expect(await store.get('483920175561')).toMatchObject({ state: 'pending' });
  });

  it('two calls of one process at once send one request', async () => {
    const tracker = createTransactionTracker();
    const { baseUrl, sent } = service(initiated);
    const results = await Promise.allSettled([
      payout(baseUrl, tracker, '483920175562'),
      payout(baseUrl, tracker, '483920175562'),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(sent).toHaveLength(1);
  });

  it('after a refusal (expired), the same reference is not sent again: a new transfer needs a new one', async () => {
    const tracker = createTransactionTracker();
    const refusing = service(() => Response.json({ error: 'invalid destination' }, { status: 400 }));
    await expect(payout(refusing.baseUrl, tracker, '483920175563')).rejects.toBeInstanceOf(ApiError);
    expect(await tracker.get('483920175563')).toMatchObject({ state: 'expired' });
    const accepting = service(initiated);
    await expect(payout(accepting.baseUrl, tracker, '483920175563')).rejects.toMatchObject({
      reason: 'payout_already_sent',
    });
    expect(accepting.sent).toHaveLength(0);
  });
});

describe('a 409 answer', () => {
  it('leaves the payout pending: the service says a transfer under the reference exists', async () => {
    const tracker = createTransactionTracker();
    const { baseUrl } = service(() => Response.json({ error: 'duplicate_reference_id' }, { status: 409 }));
    await expect(payout(baseUrl, tracker, '483920175564')).rejects.toMatchObject({ status: 409 });
    expect(await tracker.get('483920175564')).toMatchObject({ state: 'pending' });
  });

  it('leaves a payment pending too', async () => {
    const tracker = createTransactionTracker();
    const { baseUrl } = service(() => Response.json({ error: 'duplicate' }, { status: 409 }));
    const client = new PaymentsClient({
      baseUrl,
      apiKey: 'sk_test_payouts',
      transactions: { tracker, secret },
    });
    await expect(
      client.initiateMobileMoneyPayment({
        customer_details: customer,
        amount: { delivery_fee: 100, discount_fee: 50, total: 900, currency: 'KES' },
        callback_details: {
          transaction_reference: 'ORD-409',
          callback_url: 'https://market.example/webhooks',
        },
      }),
    ).rejects.toMatchObject({ status: 409 });
    expect(await tracker.get('ORD-409')).toMatchObject({ state: 'pending' });
  });
});

/** A payout with the client's `retry` on, answered `status` first: what was sent, and the call's error. */
async function payoutAnswered(
  status: number,
  retry: ConstructorParameters<typeof PaymentsClient>[0]['retry'],
  reference_id: string,
  tracker?: TransactionTracker,
) {
  const sent: string[] = [];
  const baseUrl = fakeService(async (request) => {
    sent.push(
      String(((await request.json()) as { transfer: { reference_id: number } }).transfer.reference_id),
    );
    return sent.length === 1 ? Response.json({ error: 'busy' }, { status }) : initiated();
  });
  const client = new PaymentsClient({
    baseUrl,
    apiKey: 'sk_test_payouts',
    retry,
    ...(tracker === undefined ? {} : { transactions: { tracker, secret } }),
  });
  const error = await client
    .initiatePayout({
      customer_details: customer,
      destination,
      transfer: { amount: 1000, currency: 'KES', reference_id, description: 'Seller balance' },
      webhook_endpoint: { webhook_url: 'https://market.example/webhooks/payouts' },
    })
    .catch((e: unknown) => e);
  return { sent, error };
}

describe("the client's retry and a payout", () => {
  it('tracked: sent once, a 503 is the answer, the record stays pending (the service may have received it)', async () => {
    const tracker = createTransactionTracker();
    const { sent, error } = await payoutAnswered(
      503,
      { limit: 2, statusCodes: [503] },
      '483920175590',
      tracker,
    );
    expect(error).toMatchObject({ status: 503 });
    expect(sent).toEqual(['483920175590']);
    expect(await tracker.get('483920175590')).toMatchObject({ state: 'pending' });
  });

  it.each([
    ['a 503 it was told to retry', { limit: 2, statusCodes: [503] }, 503],
    ['a 500, with retry: 2', 2, 500],
  ] as [string, number | { limit: number; statusCodes: number[] }, number][])(
    'without the transactions option: sent once, %s is the answer (a retry under the reference could be a second transfer)',
    async (_, retry, status) => {
      const { sent, error } = await payoutAnswered(status, retry, '483920175591');
      expect(error).toMatchObject({ status });
      expect(sent).toEqual(['483920175591']);
    },
  );

  it('a mobile-money payment is still retried as asked (the retry option is the merchant’s choice there)', async () => {
    let calls = 0;
    const baseUrl = fakeService(() => {
      calls += 1;
      return calls === 1
        ? Response.json({ error: 'busy' }, { status: 503 })
        : Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
    });
    const client = new PaymentsClient({ baseUrl, retry: { limit: 2, statusCodes: [503], backoffLimit: 1 } });
    await client.initiateMobileMoneyPayment({
      customer_details: { ...customer, payment_method: 'MOBILE-MONEY' },
      amount: { delivery_fee: 100, discount_fee: 50, total: 100, currency: 'KES' },
      callback_details: { transaction_reference: 'ORD-RETRIED', callback_url: 'https://shop.example/hooks' },
    } as never);
    expect(calls).toBe(2);
  });
});

describe('a second call refused before sending', () => {
  it("does not stop the first call's refusal from expiring the record: nothing else is under way", async () => {
    const tracker = createTransactionTracker();
    const { baseUrl, sent } = service(() => Response.json({ error: 'invalid destination' }, { status: 400 }));
    const results = await Promise.allSettled([
      payout(baseUrl, tracker, '483920175571'),
      payout(baseUrl, tracker, '483920175571'),
    ]);
    expect(sent).toHaveLength(1);
    const reasons = results.map((result) =>
      result.status === 'rejected'
        ? ((result.reason as { reason?: string; status?: number }).reason ??
          (result.reason as { status: number }).status)
        : 'sent',
    );
    expect(reasons.sort()).toEqual([400, 'payout_already_sent'].sort());
    expect(await tracker.get('483920175571')).toMatchObject({ state: 'expired' });
  });
});
