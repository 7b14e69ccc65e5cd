// What the reconciliation cron relies on from stale(): a transaction is listed once it has been
// pending for longer than its limit (not at exactly the limit), at most 1000 by default, and a
// store whose index answers only rows stale() drops ends the listing after a bounded number of
// queries — while rows dropped still let an old pending transaction behind them be listed.
import { describe, expect, it } from 'vitest';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionRecord,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { memoryStoreWith } from '../helpers/stores.js';

describe('stale() and the limit of each kind', () => {
  it('lists a transaction pending for longer than its limit, not one pending for exactly its limit', async () => {
    let t = 1_700_000_000_000;
    const tracker = createTransactionTracker({ now: () => t });
    await tracker.begin({ reference: 'STK-EDGE', kind: 'mobile_money', amount: 1 });
    t += 5 * 60_000;
    expect(await tracker.stale()).toEqual([]);
    expect(await tracker.stale({ olderThan: 5 * 60_000 })).toEqual([]);
    t += 1;
    expect((await tracker.stale()).map((r) => r.reference)).toEqual(['STK-EDGE']);
  });

  // A store whose query compares created_at <= instead of <: stale() checks each record itself.
  it('does not list a record created at exactly the limit, whatever the store answers', async () => {
    let t = 1_700_000_000_000;
    const memory = createMemoryTransactionStore();
    const store: TransactionStore = memoryStoreWith(memory, {
      listPending: (q) => memory.listPending({ ...q, createdBefore: q.createdBefore + 1 }),
    });
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin({ reference: 'CARD-EDGE', kind: 'card', amount: 1 });
    t += 30 * 60_000;
    expect(await tracker.stale({ kind: 'card' })).toEqual([]);
  });

  // A limit of 0 would list nothing, and the cron would never expire anything.
  it('refuses a limit of 0, naming it', async () => {
    await expect(createTransactionTracker().stale({ limit: 0 })).rejects.toThrow(
      new RangeError('stale: limit must be a whole number from 1 to 9007199254740991, got 0'),
    );
  });

  // A store whose query leaves out the kind column answers every kind's rows for each kind.
  it('lists only records of the kind asked, each once, whatever the store answers', async () => {
    let t = 1_700_000_000_000;
    const memory = createMemoryTransactionStore();
    const store: TransactionStore = memoryStoreWith(memory, {
      listPending: (q) => memory.listPending({ ...q, kind: 'card' }),
    });
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin({ reference: 'CARD-ANY', kind: 'card', amount: 1 });
    t += 2 * 60 * 60_000;
    expect(await tracker.stale({ kind: 'mobile_money' })).toEqual([]);
    expect((await tracker.stale()).map((r) => r.reference)).toEqual(['CARD-ANY']);
  });

  it('lists at most 1000 by default, the oldest first', async () => {
    let t = 1_700_000_000_000;
    const tracker = createTransactionTracker({ now: () => t });
    for (let i = 0; i < 1_001; i++) {
      await tracker.begin({ reference: `STK-${i}`, kind: 'mobile_money', amount: 1 });
      t += 1;
    }
    t += 5 * 60_000;
    const listed = await tracker.stale();
    expect(listed).toHaveLength(1_000);
    expect(listed[0]?.reference).toBe('STK-0');
    expect(listed[999]?.reference).toBe('STK-999');
  });
});

describe('stale() with a store whose index answers rows it drops', () => {
  /** A store whose listPending answers `lagging` settled rows before the pending ones. */
  function laggingStore(lagging: number, pendingToo: boolean) {
    const memory = createMemoryTransactionStore();
    const queries: number[] = [];
    const store: TransactionStore = memoryStoreWith(memory, {
      listPending: async (q) => {
        queries.push(q.limit);
        const rows: TransactionRecord[] = Array.from({ length: lagging }, (_, i) => ({
          reference: `PAID-${i}`,
          kind: q.kind,
          amount: '1',
          state: 'succeeded',
          createdAt: 0,
          updatedAt: 0,
        }));
        if (pendingToo) rows.push(...(await memory.listPending(q)));
        return rows.slice(0, q.limit);
      },
    });
    return { store, queries };
  }

  it('asks again, for twice as many each time, until it finds the old pending one behind three dropped rows', async () => {
    let t = 1_700_000_000_000;
    const { store, queries } = laggingStore(3, true);
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin({ reference: 'CARD-OLD', kind: 'card', amount: 1 });
    t += 60 * 60_000;
    expect((await tracker.stale({ kind: 'card', limit: 1 })).map((r) => r.reference)).toEqual(['CARD-OLD']);
    expect(queries).toEqual([1, 2, 4]);
  });

  it('stops asking at 8 times the limit when every row answered is dropped', async () => {
    const { store, queries } = laggingStore(10_000, false);
    const tracker = createTransactionTracker({ store });
    expect(await tracker.stale({ kind: 'card', limit: 2 })).toEqual([]);
    expect(queries).toEqual([2, 4, 8, 16]);
  });

  it('asks once when the first page holds as many as the limit', async () => {
    let t = 1_700_000_000_000;
    const { store, queries } = laggingStore(0, true);
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin({ reference: 'CARD-1', kind: 'card', amount: 1 });
    await tracker.begin({ reference: 'CARD-2', kind: 'card', amount: 1 });
    t += 60 * 60_000;
    expect(await tracker.stale({ kind: 'card', limit: 2 })).toHaveLength(2);
    expect(queries).toEqual([2]);
  });
});

describe("the memory store's listPending query", () => {
  it('refuses a limit of 0 and a createdBefore that is not a finite number', async () => {
    const store = createMemoryTransactionStore();
    await expect(store.listPending({ kind: 'card', createdBefore: 1, limit: 0 })).rejects.toThrow(RangeError);
    await expect(store.listPending({ kind: 'card', createdBefore: Number.NaN, limit: 1 })).rejects.toThrow(
      'listPending: createdBefore must be a finite number of ms since the epoch',
    );
    await expect(store.listPending({ kind: 'card', createdBefore: Infinity, limit: 1 })).rejects.toThrow(
      TypeError,
    );
  });
});
