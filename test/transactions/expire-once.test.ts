// expireIfPending run by several instances at once: each stale transaction is expired once, by
// the instance whose call expired it — it tells "this call expired it" from "it was already
// expired" or settled, atomically (the store's update is a compare-and-set). The cron the docs
// print is run as pasted by cron-initiated-again.test.ts and the Redis cron tests.
import { describe, expect, it } from 'vitest';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  UnknownTransactionError,
  type TransactionTracker,
} from '../../src/transactions/index.js';

/** A cron that cancels on this call's expiry alone (the docs' cancels on the record's state). */
async function expireStale(tracker: TransactionTracker, cancelOrder: (reference: string) => Promise<void>) {
  for (const record of await tracker.stale()) {
    const { result } = await tracker.expireIfPending(record.reference);
    if (result === 'expired') await cancelOrder(record.reference);
  }
}

describe('expireIfPending', () => {
  it("says 'expired' to the call that expired it, 'already_expired' after, 'already_settled' for a settled one", async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-E1', kind: 'card', amount: 1 });
    const first = await tracker.expireIfPending('ORD-E1');
    expect(first).toEqual({ result: 'expired', record: expect.objectContaining({ state: 'expired' }) });
    await expect(tracker.expireIfPending('ORD-E1')).resolves.toEqual({
      result: 'already_expired',
      record: first.record,
    });
    const { record: late } = await tracker.settle('ORD-E1', { outcome: 'failed' });
    await expect(tracker.expireIfPending('ORD-E1')).resolves.toEqual({
      result: 'already_settled',
      record: late,
    });
    await tracker.begin({ reference: 'ORD-E2', kind: 'card', amount: 1 });
    const { record: settled } = await tracker.settle('ORD-E2', { outcome: 'succeeded' });
    await expect(tracker.expireIfPending('ORD-E2')).resolves.toEqual({
      result: 'already_settled',
      record: settled,
    });
    await expect(tracker.expireIfPending('NOPE')).rejects.toBeInstanceOf(UnknownTransactionError);
  });

  it("with the listed record's createdAt, expires only that attempt: one initiated again since is 'initiated_again'", async () => {
    let t = 1_000_000;
    const store = createMemoryTransactionStore();
    const tracker = createTransactionTracker({ store, now: () => t });
    const first = await tracker.begin({ reference: 'ORD-A1', kind: 'card', amount: 1 });
    // The same attempt: expired as without the option.
    await expect(tracker.expireIfPending('ORD-A1', { createdAt: first.createdAt })).resolves.toMatchObject({
      result: 'expired',
      record: { state: 'expired', createdAt: first.createdAt },
    });
    // Initiated again (as the client's transactions option records it): a new attempt.
    t += 1_000;
    const again = { ...first, state: 'pending' as const, createdAt: t, updatedAt: t, expiredAt: undefined };
    expect(await store.update(again, 'expired')).toBe(true);
    await expect(tracker.expireIfPending('ORD-A1', { createdAt: first.createdAt })).resolves.toEqual({
      result: 'initiated_again',
      record: again,
    });
    expect((await tracker.get('ORD-A1'))?.state).toBe('pending');
    // The other results do not depend on the attempt: settled or expired is what it is.
    await tracker.settle('ORD-A1', { outcome: 'failed' });
    await expect(tracker.expireIfPending('ORD-A1', { createdAt: first.createdAt })).resolves.toMatchObject({
      result: 'already_settled',
    });
  });

  it("with a createdAt that is not the pending attempt's, earlier or later, leaves it pending: 'initiated_again'", async () => {
    const tracker = createTransactionTracker({ now: () => 5_000_000 });
    const record = await tracker.begin({ reference: 'ORD-A3', kind: 'card', amount: 1 });
    for (const createdAt of [record.createdAt - 1, record.createdAt + 1]) {
      await expect(tracker.expireIfPending('ORD-A3', { createdAt })).resolves.toEqual({
        result: 'initiated_again',
        record,
      });
    }
    expect((await tracker.get('ORD-A3'))?.state).toBe('pending');
  });

  it('refuses a createdAt that is not a time, and an option it does not know, before reading the store', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-A2', kind: 'card', amount: 1 });
    for (const createdAt of [Number.NaN, Number.POSITIVE_INFINITY, '1000', null]) {
      await expect(tracker.expireIfPending('ORD-A2', { createdAt } as never)).rejects.toThrow(
        /expireIfPending: createdAt must be/,
      );
    }
    await expect(tracker.expireIfPending('ORD-A2', { createdat: 1 } as never)).rejects.toThrow(/createdat/);
    expect((await tracker.get('ORD-A2'))?.state).toBe('pending');
  });

  it('a cron on two instances sharing a store cancels each stale order once', async () => {
    let t = 1_000_000;
    const store = createMemoryTransactionStore();
    const a = createTransactionTracker({ store, now: () => t });
    const b = createTransactionTracker({ store, now: () => t });
    for (let i = 0; i < 20; i++) await a.begin({ reference: `STK-${i}`, kind: 'mobile_money', amount: 1 });
    t += 5 * 60_000 + 1;
    const cancels: string[] = [];
    const cancelOrder = async (reference: string) => {
      await new Promise((r) => setTimeout(r, 1));
      cancels.push(reference);
    };
    await Promise.all([
      expireStale(a, cancelOrder),
      expireStale(b, cancelOrder),
      expireStale(a, cancelOrder),
    ]);
    expect(cancels).toHaveLength(20);
    expect(new Set(cancels).size).toBe(20);
  });
});

describe('expireIfPending and an attempt started between its read and its write', () => {
  it("leaves the new attempt pending: the write is a compare-and-set on the record it read, not on 'pending' alone", async () => {
    let t = 1_000_000;
    const store = createMemoryTransactionStore();
    const tracker = createTransactionTracker({ store, now: () => t });
    const first = await tracker.begin({ reference: 'ORD-ABA', kind: 'mobile_money', amount: 900 });
    const again = { ...first, createdAt: first.createdAt + 60_000, updatedAt: first.createdAt + 60_000 };
    let started = false;
    // The customer presses Pay again (another instance records a new attempt) just after the
    // cron's expireIfPending read the first one.
    const racing: typeof store = {
      ...store,
      async get(reference) {
        const read = await store.get(reference);
        if (!started && read?.createdAt === first.createdAt) {
          started = true;
          expect(await store.update(again, 'pending', read)).toBe(true);
        }
        return read;
      },
    };
    t += 60_000;
    const cron = createTransactionTracker({ store: racing, now: () => t });
    await expect(cron.expireIfPending('ORD-ABA', { createdAt: first.createdAt })).resolves.toEqual({
      result: 'initiated_again',
      record: again,
    });
    expect(await store.get('ORD-ABA')).toEqual(again);
  });
});
