// A payout's reference_id names one transfer (API reference §8: "unique 12-digit value per
// transfer"), and the client refuses to send one already recorded. That refusal lasts only as
// long as the record does, so the in-memory store keeps a payout's record whatever its state, as
// it keeps a pending one: never aged out after finishedTtlMs, never dropped to make room. A
// payment's finished record still ages out and is still dropped for room.
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import {
  TransactionConflictError,
  TransactionStoreFullError,
  createMemoryTransactionStore,
  createTransactionTracker,
  type SettleInput,
  type TransactionTracker,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';

const secret = 'whsec_payout_kept_0123456789abcdef';
const DAY = 24 * 60 * 60 * 1000;

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

const paidOut = (transactionId: string): SettleInput => ({
  outcome: 'succeeded',
  eventType: 'payout.succeeded',
  amount: '1000',
  currency: 'KES',
  transactionId,
  paymentId: transactionId,
});
const card = (reference: string) => ({ reference, kind: 'card', amount: 1500, currency: 'KES' }) as const;

/** A second initiatePayout under `reference_id`: its refusal, and that nothing more was sent. */
async function sentAgain(
  tracker: TransactionTracker,
  reference_id: string,
  reason: 'already_settled' | 'payout_already_sent',
) {
  const { baseUrl, sent } = service();
  const error = await payout(baseUrl, tracker, reference_id).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TransactionConflictError);
  expect(error).toMatchObject({ reason, reference: reference_id });
  expect(sent).toHaveLength(0);
}

describe('the in-memory store keeps a payout record after finishedTtlMs', () => {
  it('a succeeded payout is still recorded days later, and its reference_id is not sent again', async () => {
    let t = 1_000_000;
    const now = () => t;
    const store = createMemoryTransactionStore({ finishedTtlMs: DAY, now });
    const tracker = createTransactionTracker({ store, now });
    const { baseUrl, sent } = service();
    await payout(baseUrl, tracker, '483920175561');
    expect(sent).toHaveLength(1);
    const settled = await tracker.settle('483920175561', paidOut('PYT0000000001'));
    await tracker.begin(card('ORD-PAID'));
    await tracker.settle('ORD-PAID', { outcome: 'succeeded' });
    t += 30 * DAY;
    await tracker.begin(card('ORD-NEXT')); // a write: records past finishedTtlMs go
    // The payment's record aged out as before; the payout's is kept, unchanged.
    expect(await tracker.get('ORD-PAID')).toBeUndefined();
    expect(await tracker.get('483920175561')).toEqual(settled.record);
    await sentAgain(tracker, '483920175561', 'already_settled');
    expect(store.stats()).toMatchObject({ entries: 2, pending: 1 });
  });

  it('a payout the cron expired (it may have moved money) is still refused as payout_already_sent after finishedTtlMs', async () => {
    let t = 1_000_000;
    const now = () => t;
    const store = createMemoryTransactionStore({ now });
    const tracker = createTransactionTracker({ store, now });
    const { baseUrl } = service();
    await payout(baseUrl, tracker, '483920175562');
    t += DAY + 1; // staleAfterMs.payout
    for (const record of await tracker.stale()) {
      await tracker.expireIfPending(record.reference, { createdAt: record.createdAt });
    }
    expect((await tracker.get('483920175562'))?.state).toBe('expired');
    t += 2 * DAY; // past the default finishedTtlMs (24 h)
    await tracker.begin(card('ORD-X'));
    expect((await tracker.get('483920175562'))?.state).toBe('expired');
    await sentAgain(tracker, '483920175562', 'payout_already_sent');
  });
});

describe('the in-memory store never drops a payout record for room', () => {
  it('under maxEntries: a finished payment makes room, a finished payout never does; with pending and payout records alone, begin is refused', async () => {
    const store = createMemoryTransactionStore({ maxEntries: 3 });
    const tracker = createTransactionTracker({ store });
    const { baseUrl } = service();
    await payout(baseUrl, tracker, '483920175563');
    const settled = await tracker.settle('483920175563', paidOut('PYT0000000003'));
    await tracker.begin(card('ORD-A'));
    await tracker.settle('ORD-A', { outcome: 'succeeded' });
    await tracker.begin(card('ORD-B'));
    // Full: the settled payment is dropped for ORD-C, the payout kept.
    await tracker.begin(card('ORD-C'));
    expect(await tracker.get('ORD-A')).toBeUndefined();
    expect(await tracker.get('483920175563')).toEqual(settled.record);
    // Full of pending and payout records: nothing to drop, nothing recorded.
    const error = await tracker.begin(card('ORD-D')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionStoreFullError);
    expect(error).toMatchObject({ limit: 'maxEntries', value: 3 });
    expect(await tracker.get('ORD-D')).toBeUndefined();
    expect(await tracker.get('483920175563')).toEqual(settled.record);
    expect(store.stats()).toMatchObject({ entries: 3, pending: 2 });
    await sentAgain(tracker, '483920175563', 'already_settled');
  });

  it('a payout under a store full of pending and payout records is refused before sending: TransactionStoreFullError', async () => {
    const store = createMemoryTransactionStore({ maxEntries: 2 });
    const tracker = createTransactionTracker({ store });
    const { baseUrl, sent } = service();
    await payout(baseUrl, tracker, '483920175564');
    await tracker.settle('483920175564', paidOut('PYT0000000004'));
    await payout(baseUrl, tracker, '483920175565');
    expect(sent).toHaveLength(2);
    const error = await payout(baseUrl, tracker, '483920175566').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionStoreFullError);
    expect(error).toMatchObject({ limit: 'maxEntries', value: 2 });
    expect(sent).toHaveLength(2);
    expect(await tracker.get('483920175566')).toBeUndefined();
    await sentAgain(tracker, '483920175564', 'already_settled');
    await sentAgain(tracker, '483920175565', 'payout_already_sent');
  });

  describe('under maxBytes', () => {
    /** The bytes the memory store counts for what `fill` writes. */
    const measure = async (fill: (tracker: TransactionTracker) => Promise<unknown>) => {
      const store = createMemoryTransactionStore();
      await fill(createTransactionTracker({ store, now: () => 1_000 }));
      return store.stats().bytes;
    };
    const payoutOf = (reference: string) =>
      ({ reference, kind: 'payout', amount: 1000, currency: 'KES' }) as const;

    it('refuses a begin rather than drop a settled payout', async () => {
      const fill = async (tracker: TransactionTracker) => {
        await tracker.begin(payoutOf('483920175567'));
        await tracker.settle('483920175567', paidOut('PYT0000000007'));
        await tracker.begin(card('ORD-A'));
      };
      const maxBytes = (await measure(fill)) + 100; // less than one more pending record
      const store = createMemoryTransactionStore({ maxBytes, now: () => 1_000 });
      const tracker = createTransactionTracker({ store, now: () => 1_000 });
      await fill(tracker);
      const error = await tracker.begin(card('ORD-B')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransactionStoreFullError);
      expect(error).toMatchObject({ limit: 'maxBytes', value: maxBytes });
      expect((await tracker.get('483920175567'))?.state).toBe('succeeded');
      expect(store.stats()).toMatchObject({ entries: 2, pending: 1 });
      expect(store.stats().bytes).toBeLessThanOrEqual(maxBytes);
    });

    it('settles a payout with room from a finished payment, never from a settled payout that came first', async () => {
      const fill = async (tracker: TransactionTracker) => {
        await tracker.begin(payoutOf('483920175568'));
        await tracker.settle('483920175568', paidOut('PYT0000000008'));
        await tracker.begin(card('ORD-A'));
        await tracker.settle('ORD-A', { outcome: 'succeeded' });
        await tracker.begin(payoutOf('483920175569'));
      };
      // Room for all of it, not for the settlement's growth without dropping a record.
      const maxBytes = (await measure(fill)) + 10;
      const store = createMemoryTransactionStore({ maxBytes, now: () => 1_000 });
      const tracker = createTransactionTracker({ store, now: () => 1_000 });
      await fill(tracker);
      await tracker.settle('483920175569', paidOut('PYT0000000009'));
      expect(await tracker.get('ORD-A')).toBeUndefined();
      expect((await tracker.get('483920175568'))?.state).toBe('succeeded');
      expect((await tracker.get('483920175569'))?.state).toBe('succeeded');
      expect(store.stats()).toMatchObject({ entries: 2, pending: 0 });
      expect(store.stats().bytes).toBeLessThanOrEqual(maxBytes);
    });

    it('refuses the settlement of a payout, left pending, when only payout records could make room', async () => {
      const fill = async (tracker: TransactionTracker) => {
        await tracker.begin(payoutOf('483920175571'));
        await tracker.settle('483920175571', paidOut('PYT0000000011'));
        await tracker.begin(payoutOf('483920175572'));
      };
      const maxBytes = (await measure(fill)) + 10;
      const store = createMemoryTransactionStore({ maxBytes, now: () => 1_000 });
      const tracker = createTransactionTracker({ store, now: () => 1_000 });
      await fill(tracker);
      const pending = await tracker.get('483920175572');
      const error = await tracker.settle('483920175572', paidOut('PYT0000000012')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransactionStoreFullError);
      expect(error).toMatchObject({ limit: 'maxBytes', value: maxBytes });
      // Still pending: the callback's retry settles it once there is room.
      expect(await tracker.get('483920175572')).toEqual(pending);
      expect((await tracker.get('483920175571'))?.state).toBe('succeeded');
      expect(store.stats()).toMatchObject({ entries: 2, pending: 1 });
      expect(store.stats().bytes).toBeLessThanOrEqual(maxBytes);
    });
  });
});

describe('stats() of the in-memory store', () => {
  const payoutOf = (reference: string) =>
    ({ reference, kind: 'payout', amount: 1000, currency: 'KES' }) as const;

  it('counts the payout records it keeps, in any state, so a store full of them says so', async () => {
    let t = 1_000;
    const store = createMemoryTransactionStore({ maxEntries: 4, finishedTtlMs: 1_000, now: () => t });
    const tracker = createTransactionTracker({ store, now: () => t });
    expect(store.stats()).toEqual({ entries: 0, pending: 0, payouts: 0, bytes: 0 });
    await tracker.begin(payoutOf('483920175581'));
    await tracker.settle('483920175581', paidOut('PYT0000000021'));
    await tracker.begin(payoutOf('483920175582'));
    await tracker.expire('483920175582');
    await tracker.begin(payoutOf('483920175583'));
    await tracker.begin(card('ORD-A'));
    await tracker.settle('ORD-A', { outcome: 'succeeded' });
    expect(store.stats()).toMatchObject({ entries: 4, pending: 1, payouts: 3 });

    t += 2_000; // ORD-A's settled record ages out for ORD-B
    await tracker.begin(card('ORD-B'));
    await expect(tracker.begin(card('ORD-C'))).rejects.toBeInstanceOf(TransactionStoreFullError);
    // Full: two pending records (one a payout) and three payout records, none of which can go.
    expect(store.stats()).toMatchObject({ entries: 4, pending: 2, payouts: 3 });

    await tracker.settle('483920175583', {
      ...paidOut('PYT0000000023'),
      outcome: 'failed',
      eventType: 'payout.failed',
    });
    expect(store.stats()).toMatchObject({ entries: 4, pending: 1, payouts: 3 });
  });
});
