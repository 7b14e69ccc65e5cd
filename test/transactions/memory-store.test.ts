import { describe, expect, it } from 'vitest';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  TransactionStoreFullError,
  type SettleInput,
  type TransactionRecord,
  type TransactionStore,
} from '../../src/transactions/index.js';

describe('the in-memory store', () => {
  it('stays within its entry and byte bounds over 1,000,000 transactions, keeping every pending one', async () => {
    // The store on its own (the tracker adds validation, not storage): 1 M inserts and 1 M settlements.
    const store = createMemoryTransactionStore({ maxEntries: 50_000, maxBytes: 24 * 1024 * 1024 });
    let maxEntries = 0;
    let maxBytes = 0;
    const stillPending: string[] = [];
    for (let i = 0; i < 1_000_000; i++) {
      const record: TransactionRecord = {
        reference: `ORD-${i}`,
        kind: 'mobile_money',
        amount: '1500',
        currency: 'KES',
        state: 'pending',
        createdAt: i,
        updatedAt: i,
      };
      await store.insert(record);
      // One in a thousand is never settled: those must all still be there at the end.
      if (i % 1000 === 7) stillPending.push(record.reference);
      else {
        const state = i % 3 === 0 ? 'failed' : 'succeeded';
        await store.update(
          { ...record, state, settledAt: i, outcome: { transactionId: `TX${i}` } },
          'pending',
        );
      }
      if (i % 1000 === 0) {
        const { entries, bytes } = store.stats();
        maxEntries = Math.max(maxEntries, entries);
        maxBytes = Math.max(maxBytes, bytes);
      }
    }
    expect(maxEntries).toBeLessThanOrEqual(50_000);
    expect(maxBytes).toBeLessThanOrEqual(24 * 1024 * 1024);
    expect(store.stats().pending).toBe(stillPending.length);
    for (const reference of stillPending) expect((await store.get(reference))?.state).toBe('pending');
    // The most recent settled ones are kept, the oldest aged out.
    expect((await store.get('ORD-999998'))?.state).toBe('succeeded');
    expect(await store.get('ORD-1')).toBeUndefined();
  }, 120_000);

  it('bounds by bytes as well as entries', async () => {
    const store = createMemoryTransactionStore({ maxEntries: 1_000_000, maxBytes: 100_000 });
    const tracker = createTransactionTracker({ store });
    for (let i = 0; i < 10_000; i++) {
      await tracker.begin({ reference: `ORD-${i}`, kind: 'card', amount: 1 });
      await tracker.settle(`ORD-${i}`, { outcome: 'succeeded' });
    }
    expect(store.stats().bytes).toBeLessThanOrEqual(100_000);
    expect(store.stats().entries).toBeLessThan(10_000);
  });

  it('never drops a pending transaction: when only pending ones fill it, begin is refused with a typed error', async () => {
    const tracker = createTransactionTracker({ store: createMemoryTransactionStore({ maxEntries: 3 }) });
    for (const reference of ['A', 'B', 'C']) await tracker.begin({ reference, kind: 'card', amount: 1 });
    const error = await tracker.begin({ reference: 'D', kind: 'card', amount: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionStoreFullError);
    expect(error).toMatchObject({ limit: 'maxEntries', value: 3 });
    for (const reference of ['A', 'B', 'C']) expect((await tracker.get(reference))?.state).toBe('pending');
    await tracker.settle('A', { outcome: 'succeeded' });
    await expect(tracker.begin({ reference: 'D', kind: 'card', amount: 1 })).resolves.toMatchObject({
      state: 'pending',
    });
    expect(await tracker.get('A')).toBeUndefined();
  });

  describe('room for a settlement (a settled record is larger than the pending one)', () => {
    const paid: SettleInput = {
      outcome: 'succeeded',
      eventType: 'payment.card.succeeded',
      amount: '1500',
      currency: 'KES',
      message: 'CARD Payment Success',
      transactionId: 'TXN1',
    };
    const card = (reference: string) => ({ reference, kind: 'card', amount: 1500, currency: 'KES' }) as const;

    it('drops an older finished record, never the one just settled, also when it settles late', async () => {
      // Room for three pending records and one settled, not for two settled ones. One clock for
      // every write: the expired record and the older settled one share a drop time.
      const store = createMemoryTransactionStore({ maxBytes: 1_150, now: () => 1_000 });
      const tracker = createTransactionTracker({ store, now: () => 1_000 });
      for (const reference of ['A', 'B', 'OLD']) await tracker.begin(card(reference));
      await tracker.expire('A');
      await tracker.settle('OLD', paid);
      const late = await tracker.settle('A', paid);
      expect(late).toMatchObject({ result: 'late', record: { state: 'succeeded' } });
      expect(await tracker.get('A')).toEqual(late.record);
      await expect(tracker.waitFor('A')).resolves.toEqual(late.record);
      expect(await tracker.get('OLD')).toBeUndefined();
      expect((await tracker.get('B'))?.state).toBe('pending');
      expect(store.stats().bytes).toBeLessThanOrEqual(1_150);
    });

    it('refuses a settlement it has no room for with a typed error naming maxBytes, and forgets nothing', async () => {
      const store = createMemoryTransactionStore({ maxBytes: 750 });
      const tracker = createTransactionTracker({ store });
      const a = await tracker.begin(card('A'));
      await tracker.begin(card('B'));
      const error = await tracker.settle('A', paid).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransactionStoreFullError);
      expect(error).toMatchObject({ limit: 'maxBytes', value: 750 });
      expect((error as Error).message).toMatch(/maxBytes/);
      // Still pending, so the callback's retry settles it once there is room; never re-recorded.
      expect(await tracker.get('A')).toEqual(a);
      await expect(tracker.begin(card('A'))).resolves.toEqual(a); // the stored record, createdAt and all
      expect((await tracker.get('B'))?.state).toBe('pending');
      expect(store.stats()).toMatchObject({ entries: 2, pending: 2 });
      expect(store.stats().bytes).toBeLessThanOrEqual(750);
    });
  });

  it('ages settled and expired records out after finishedTtlMs, never pending ones', async () => {
    let t = 0;
    const store = createMemoryTransactionStore({ finishedTtlMs: 1_000, now: () => t });
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin({ reference: 'SETTLED', kind: 'card', amount: 1 });
    await tracker.begin({ reference: 'EXPIRED', kind: 'card', amount: 1 });
    await tracker.begin({ reference: 'PENDING', kind: 'card', amount: 1 });
    await tracker.settle('SETTLED', { outcome: 'succeeded' });
    await tracker.expire('EXPIRED');
    t += 1_001;
    await tracker.begin({ reference: 'NEXT', kind: 'card', amount: 1 });
    expect(await tracker.get('SETTLED')).toBeUndefined();
    expect(await tracker.get('EXPIRED')).toBeUndefined();
    expect((await tracker.get('PENDING'))?.state).toBe('pending');
  });

  // docs/transactions.md: once the store no longer keeps a payment's record, its reference is
  // unknown again, and an initiation under it is a new transaction (as on Redis, whose key expires).
  it.each(['get', 'update', 'insert'] as const)(
    'forgets a finished record at finishedTtlMs for %s, with no other write in between',
    async (first) => {
      let t = 0;
      const store = createMemoryTransactionStore({ finishedTtlMs: 1_000, now: () => t });
      const tracker = createTransactionTracker({ store, now: () => t });
      await tracker.begin({ reference: 'PAID', kind: 'card', amount: 1 });
      await tracker.settle('PAID', { outcome: 'succeeded' });
      await tracker.begin({ reference: 'GAVE-UP', kind: 'card', amount: 1 });
      const gaveUp = await tracker.expire('GAVE-UP');
      t += 1_000;
      if (first === 'get') expect(await tracker.get('PAID')).toBeUndefined();
      if (first === 'update') {
        const late = { ...gaveUp, state: 'succeeded', settledAt: t } as TransactionRecord;
        expect(await store.update(late, 'expired', gaveUp)).toBe(false);
      }
      if (first === 'insert') {
        await expect(tracker.begin({ reference: 'PAID', kind: 'card', amount: 1 })).resolves.toMatchObject({
          state: 'pending',
          createdAt: t,
        });
      }
      expect(await store.get('GAVE-UP')).toBeUndefined();
    },
  );
});

// A merchant's code that changes a record it was handed (marks its own copy paid, say) changes its
// copy only: the store, and so the next callback, stale() and waitFor, still say what was written.
describe('the records the in-memory store hands out are the caller’s own', () => {
  const order = { reference: 'ORD-1', kind: 'mobile_money', amount: 1500, currency: 'KES' } as const;
  const markPaid = (record: TransactionRecord | undefined): void => {
    (record as { state: string }).state = 'succeeded';
  };

  it('a pending record from begin, get, stale or listPending, marked paid by the caller, is still pending', async () => {
    let t = 1_000;
    const store = createMemoryTransactionStore({ now: () => t });
    const tracker = createTransactionTracker({ store, now: () => t });
    markPaid(await tracker.begin(order));
    markPaid(await tracker.begin(order)); // found recorded
    markPaid(await tracker.get('ORD-1'));
    markPaid(await store.get('ORD-1'));
    t += 1;
    const listed = await tracker.stale({ olderThan: 0 });
    expect(listed).toHaveLength(1);
    listed.forEach(markPaid);
    (await store.listPending({ kind: 'mobile_money', createdBefore: t, limit: 10 })).forEach(markPaid);
    markPaid(await store.insert({ ...listed[0]!, state: 'pending' })); // found recorded

    expect(await store.get('ORD-1')).toMatchObject({ state: 'pending', createdAt: 1_000 });
    expect(await tracker.stale({ olderThan: 0 })).toHaveLength(1);
    await expect(
      tracker.settle('ORD-1', { outcome: 'succeeded', transactionId: 'T-1' }),
    ).resolves.toMatchObject({ result: 'settled' });
  });

  it('a failed record from settle, waitFor or get, changed by the caller, stays the failure it was', async () => {
    const store = createMemoryTransactionStore();
    const tracker = createTransactionTracker({ store });
    await tracker.begin(order);
    const waiting = tracker.waitFor('ORD-1', { timeout: 1_000 });
    const changed = (record: TransactionRecord | undefined): void => {
      markPaid(record);
      (record!.outcome as { transactionId: string }).transactionId = 'T-2';
    };
    changed((await tracker.settle('ORD-1', { outcome: 'failed', transactionId: 'T-1' })).record);
    changed(await waiting);
    changed(await tracker.waitFor('ORD-1', { timeout: 1_000 }));
    changed(await tracker.get('ORD-1'));

    expect(await store.get('ORD-1')).toMatchObject({ state: 'failed', outcome: { transactionId: 'T-1' } });
    // T-1's success is the same payment contradicting its failure, not another payment.
    await expect(
      tracker.settle('ORD-1', { outcome: 'succeeded', transactionId: 'T-1' }),
    ).rejects.toMatchObject({ reason: 'conflicting_outcome' });
  });

  it('two waitFor calls woken by one settle each get a record of their own, and settle its own', async () => {
    const tracker = createTransactionTracker({ store: createMemoryTransactionStore() });
    await tracker.begin(order);
    const first = tracker.waitFor('ORD-1', { timeout: 1_000 });
    const second = tracker.waitFor('ORD-1', { timeout: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 10)); // both have read the record pending
    const { record: settled } = await tracker.settle('ORD-1', { outcome: 'failed', transactionId: 'T-1' });
    markPaid(await first); // one caller's page marks its copy paid
    expect((await second).state).toBe('failed');
    expect(settled.state).toBe('failed');
  });

  it('a record a custom store reads back with a function on it still settles and wakes the wait', async () => {
    // An ORM's rows: read with a method on them, written as their fields.
    const memory = createMemoryTransactionStore();
    const fields = ({ toRow: _, ...record }: TransactionRecord & { toRow?: unknown }) => record;
    const store: TransactionStore = {
      ...memory,
      get: async (reference) => {
        const record = await memory.get(reference);
        return record === undefined ? undefined : { ...record, toRow: () => 'row' };
      },
      update: (next, state, previous) =>
        memory.update(fields(next), state, previous === undefined ? undefined : fields(previous)),
    };
    const tracker = createTransactionTracker({ store });
    await tracker.begin(order);
    const waiting = tracker.waitFor('ORD-1', { timeout: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(
      tracker.settle('ORD-1', { outcome: 'succeeded', transactionId: 'T-1' }),
    ).resolves.toMatchObject({ result: 'settled' });
    expect((await waiting).state).toBe('succeeded');
  });

  it('an expired record from expire, changed by the caller, is still expired: its callback is late', async () => {
    const store = createMemoryTransactionStore();
    const tracker = createTransactionTracker({ store });
    await tracker.begin(order);
    markPaid(await tracker.expire('ORD-1'));
    markPaid((await tracker.expireIfPending('ORD-1')).record);
    expect(await store.get('ORD-1')).toMatchObject({ state: 'expired' });
    await expect(
      tracker.settle('ORD-1', { outcome: 'succeeded', transactionId: 'T-1' }),
    ).resolves.toMatchObject({ result: 'late' });
  });
});
