// stale() feeds the reconciliation cron, which expires what it lists and cancels the order. It
// lists what the store's listPending answers — in a SQL store, rows picked by an indexed
// created_at column next to the record. A store whose update leaves that column behind (the
// TransactionStore example in the declarations did, omitting created_at from its UPDATE) answers a
// transaction the customer initiated again a second ago as stale, and the cron cancelled the order
// while the customer paid. stale() lists only records that are themselves pending, of the kind
// asked, and older than the limit.
import { describe, expect, it } from 'vitest';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionRecord,
  type TransactionStore,
} from '../../src/transactions/index.js';

/** A memory store whose listPending answers from an index column it never updates. */
function storeWithStaleIndex(): TransactionStore {
  const inner = createMemoryTransactionStore();
  const index = new Map<string, { kind: string; createdAt: number }>();
  return {
    insert: async (record) => {
      const stored = await inner.insert(record);
      if (stored === record) index.set(record.reference, { kind: record.kind, createdAt: record.createdAt });
      return stored;
    },
    get: (reference) => inner.get(reference),
    update: (record, from, previous) => inner.update(record, from, previous),
    listPending: async ({ kind, createdBefore, limit }) => {
      const rows: TransactionRecord[] = [];
      for (const [reference, row] of index) {
        const record = await inner.get(reference);
        // The column says pending-and-old; the record is whatever it became.
        if (record !== undefined && row.kind === kind && row.createdAt < createdBefore) rows.push(record);
      }
      return rows.slice(0, limit);
    },
  };
}

describe('stale() with a store whose index lags the records', () => {
  it('does not list a transaction initiated again a moment ago, nor a settled one', async () => {
    let clock = 1_000_000;
    const tracker = createTransactionTracker({ store: storeWithStaleIndex(), now: () => clock });
    await tracker.begin({ reference: 'ORD-AGAIN', kind: 'mobile_money', amount: 1500 });
    await tracker.begin({ reference: 'ORD-PAID', kind: 'mobile_money', amount: 1500 });
    await tracker.begin({ reference: 'ORD-OLD', kind: 'mobile_money', amount: 1500 });
    clock += 60 * 60_000;
    await tracker.expireIfPending('ORD-AGAIN');
    // The customer initiates again: the record is pending with a new createdAt (what the client's
    // transactions option does), while the index keeps the first one.
    const again = (await tracker.get('ORD-AGAIN'))!;
    expect(
      await tracker.store.update(
        { ...again, state: 'pending', createdAt: clock, updatedAt: clock },
        'expired',
      ),
    ).toBe(true);
    await tracker.settle('ORD-PAID', { outcome: 'succeeded' });

    const listed = (await tracker.stale()).map((record) => record.reference);
    expect(listed).toEqual(['ORD-OLD']);
    expect(listed).not.toContain('ORD-AGAIN');
  });

  it('still lists the re-initiated transaction once it is old itself', async () => {
    let clock = 1_000_000;
    const tracker = createTransactionTracker({ store: storeWithStaleIndex(), now: () => clock });
    await tracker.begin({ reference: 'ORD-AGAIN', kind: 'card', amount: 1 });
    clock += 60 * 60_000;
    await tracker.expireIfPending('ORD-AGAIN');
    const again = (await tracker.get('ORD-AGAIN'))!;
    await tracker.store.update({ ...again, state: 'pending', createdAt: clock, updatedAt: clock }, 'expired');
    clock += 60 * 60_000;
    expect((await tracker.stale()).map((record) => record.reference)).toEqual(['ORD-AGAIN']);
  });

  // The rows stale() drops still count against the store's limit: with the lagging row listed
  // first, a page of one held nothing stale() kept, and an old transaction behind it was never
  // listed. stale() asks again for more until it has `limit` or the store has no more.
  it('still lists an old pending transaction when lagging rows fill the page', async () => {
    let clock = 1_000_000;
    const tracker = createTransactionTracker({ store: storeWithStaleIndex(), now: () => clock });
    await tracker.begin({ reference: 'ORD-AGAIN', kind: 'card', amount: 1 });
    clock += 1;
    await tracker.begin({ reference: 'ORD-OLD', kind: 'card', amount: 1 });
    clock += 60 * 60_000;
    await tracker.expireIfPending('ORD-AGAIN');
    const again = (await tracker.get('ORD-AGAIN'))!;
    await tracker.store.update({ ...again, state: 'pending', createdAt: clock, updatedAt: clock }, 'expired');
    expect((await tracker.stale({ kind: 'card', limit: 1 })).map((record) => record.reference)).toEqual([
      'ORD-OLD',
    ]);
  });
});
