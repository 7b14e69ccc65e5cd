// What the in-memory transaction store must keep doing that no other test pinned (found by a
// mutation audit of src/transactions/store.ts): every payment kind's finished record ages out and
// makes room, a record of a kind it does not know is kept, the TTL is finishedTtlMs to the
// millisecond, and its byte accounting stays true across records it dropped, so it neither
// outgrows maxBytes nor refuses a settlement it has room for.
import { describe, expect, it } from 'vitest';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  TransactionStoreFullError,
  type TransactionKind,
  type TransactionRecord,
} from '../../src/transactions/index.js';

const card = (reference: string) => ({ reference, kind: 'card', amount: 1500, currency: 'KES' }) as const;

describe('the in-memory store ages out and drops every payment kind', () => {
  it("drops a finished checkout's record to make room, as a card payment's", async () => {
    const tracker = createTransactionTracker({ store: createMemoryTransactionStore({ maxEntries: 2 }) });
    for (const reference of ['CO-1', 'CO-2']) {
      await tracker.begin({ reference, kind: 'checkout', amount: 1500, currency: 'KES' });
      await tracker.settle(reference, { outcome: 'succeeded' });
    }
    await expect(
      tracker.begin({ reference: 'CO-3', kind: 'checkout', amount: 1500, currency: 'KES' }),
    ).resolves.toMatchObject({ state: 'pending' });
    expect(await tracker.get('CO-1')).toBeUndefined();
    expect((await tracker.get('CO-2'))?.state).toBe('succeeded');
  });

  it("ages a finished checkout's record out after finishedTtlMs", async () => {
    let t = 0;
    const store = createMemoryTransactionStore({ finishedTtlMs: 1_000, now: () => t });
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin({ reference: 'CO-1', kind: 'checkout', amount: 1500 });
    await tracker.expire('CO-1');
    t += 1_000;
    await tracker.begin(card('NEXT'));
    expect(await tracker.get('CO-1')).toBeUndefined();
    expect(store.stats().entries).toBe(1);
  });

  it('keeps a finished record of a kind it does not know after finishedTtlMs, as a payout’s', async () => {
    // A newer version's kind, written to a store shared with this one: it may name a transfer.
    let t = 0;
    const store = createMemoryTransactionStore({ finishedTtlMs: 1_000, now: () => t });
    const pending = {
      reference: 'NEW-KIND',
      kind: 'bank_transfer' as TransactionKind,
      amount: '1500',
      state: 'pending',
      createdAt: 0,
      updatedAt: 0,
    } satisfies TransactionRecord;
    await store.insert(pending);
    const done: TransactionRecord = { ...pending, state: 'succeeded', updatedAt: 1, settledAt: 1 };
    expect(await store.update(done, 'pending', pending)).toBe(true);
    t += 5_000;
    await store.insert({ ...pending, reference: 'NEXT', kind: 'card' });
    expect(await store.get('NEW-KIND')).toEqual(done);
  });
});

describe('finishedTtlMs of the in-memory store', () => {
  it('keeps a finished record for finishedTtlMs, and drops it from then on', async () => {
    let t = 10_000;
    const store = createMemoryTransactionStore({ finishedTtlMs: 1_000, now: () => t });
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin(card('PAID'));
    await tracker.settle('PAID', { outcome: 'succeeded' });
    t += 999;
    await tracker.begin(card('BEFORE'));
    expect((await tracker.get('PAID'))?.state).toBe('succeeded');
    t += 1;
    await tracker.begin(card('AT'));
    expect(await tracker.get('PAID')).toBeUndefined();
  });

  it("counts each finished record's finishedTtlMs from its own settlement", async () => {
    let t = 0;
    const store = createMemoryTransactionStore({ finishedTtlMs: 1_000, now: () => t });
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin(card('FIRST'));
    await tracker.begin(card('SECOND'));
    await tracker.settle('FIRST', { outcome: 'succeeded' });
    t = 600;
    await tracker.settle('SECOND', { outcome: 'failed' });
    t = 1_000;
    await tracker.begin(card('NEXT'));
    expect(await tracker.get('FIRST')).toBeUndefined();
    expect((await tracker.get('SECOND'))?.state).toBe('failed');
    t = 1_600;
    await tracker.begin(card('LAST'));
    expect(await tracker.get('SECOND')).toBeUndefined();
  });

  it('ages out every finished record after thousands were dropped for room, leaving none behind', async () => {
    // Past 1024 drops the store compacts its drop queue: no record may fall out of it.
    let t = 0;
    const store = createMemoryTransactionStore({ maxEntries: 16, finishedTtlMs: 1_000_000, now: () => t });
    const tracker = createTransactionTracker({ store, now: () => t });
    for (let i = 0; i < 3_000; i++) {
      await tracker.begin(card(`ORD-${i}`));
      await tracker.settle(`ORD-${i}`, { outcome: i % 2 === 0 ? 'succeeded' : 'failed' });
      t += 1;
    }
    expect(store.stats().entries).toBe(16);
    for (let i = 0; i < 3_000 - 16; i++) expect(await store.get(`ORD-${i}`)).toBeUndefined();
    t += 1_000_000;
    await tracker.begin(card('LAST'));
    expect(store.stats()).toMatchObject({ entries: 1, pending: 1 });
  });
});

describe('the byte bound of the in-memory store across records it dropped', () => {
  // A pending card record here costs 338 bytes; settled with this transactionId, 538.
  const long = { outcome: 'succeeded', transactionId: 'T'.repeat(100) } as const;

  it('refuses a settlement with no room once aged-out records are gone, rather than outgrow maxBytes', async () => {
    let t = 0;
    const store = createMemoryTransactionStore({ maxBytes: 750, finishedTtlMs: 1_000, now: () => t });
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin(card('OLD'));
    await tracker.settle('OLD', { outcome: 'succeeded' });
    t += 1_000;
    // Room for OLD's record is made by its age, not by the settlement below.
    const a = await tracker.begin(card('A'));
    await tracker.begin(card('B'));
    expect(await tracker.get('OLD')).toBeUndefined();
    const error = await tracker.settle('A', long).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionStoreFullError);
    expect(await tracker.get('A')).toEqual(a);
    expect(store.stats().bytes).toBeLessThanOrEqual(750);
  });

  it('refuses a settlement with no room also after an aged-out record had been settled late', async () => {
    let t = 0;
    const store = createMemoryTransactionStore({ maxBytes: 750, finishedTtlMs: 1_000, now: () => t });
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin(card('OLD'));
    await tracker.expire('OLD');
    await tracker.settle('OLD', { outcome: 'succeeded' }); // late
    t += 1_000;
    const a = await tracker.begin(card('A'));
    await tracker.begin(card('B'));
    await expect(tracker.settle('A', long)).rejects.toBeInstanceOf(TransactionStoreFullError);
    expect(await tracker.get('A')).toEqual(a);
    expect(store.stats().bytes).toBeLessThanOrEqual(750);
  });

  it("refuses a late settlement it has no room for, never counting the record's own bytes as room", async () => {
    const store = createMemoryTransactionStore({ maxBytes: 750 });
    const tracker = createTransactionTracker({ store });
    await tracker.begin(card('A'));
    await tracker.begin(card('B'));
    const expired = await tracker.expire('A');
    await expect(tracker.settle('A', long)).rejects.toBeInstanceOf(TransactionStoreFullError);
    expect(await tracker.get('A')).toEqual(expired);
    expect(store.stats().bytes).toBeLessThanOrEqual(750);
  });

  it('writes a settlement that fills maxBytes exactly', async () => {
    const store = createMemoryTransactionStore({ maxBytes: 338 + 538 });
    const tracker = createTransactionTracker({ store });
    await tracker.begin(card('A'));
    await tracker.begin(card('B'));
    await expect(tracker.settle('A', long)).resolves.toMatchObject({ result: 'settled' });
    expect(store.stats()).toMatchObject({ entries: 2, bytes: 338 + 538 });
  });

  it('settles a reference begun again after its old record aged out, with room from another finished record', async () => {
    let t = 0;
    const store = createMemoryTransactionStore({ maxBytes: 1_100, finishedTtlMs: 1_000, now: () => t });
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin(card('R'));
    await tracker.settle('R', long);
    t += 1_000;
    await tracker.begin(card('X')); // R's record ages out here
    await tracker.begin(card('F'));
    await tracker.settle('F', { outcome: 'succeeded' });
    await tracker.begin(card('R'));
    expect(store.stats().bytes).toBe(3 * 338);
    // Settled, R no longer fits beside X and F: F's finished record makes the room.
    await expect(tracker.settle('R', { ...long, transactionId: 'U'.repeat(100) })).resolves.toMatchObject({
      result: 'settled',
      record: { state: 'succeeded' },
    });
    expect(await tracker.get('F')).toBeUndefined();
    expect((await tracker.get('X'))?.state).toBe('pending');
    expect(store.stats().bytes).toBeLessThanOrEqual(1_100);
  });
});

describe('stats() of the in-memory store', () => {
  it('counts a record made pending again (a new attempt after expiry) as pending, once', async () => {
    const store = createMemoryTransactionStore();
    const tracker = createTransactionTracker({ store, now: () => 1_000 });
    await tracker.begin(card('ORD-1'));
    const expired = await tracker.expire('ORD-1');
    expect(store.stats().pending).toBe(0);
    const attempt: TransactionRecord = { ...expired, state: 'pending', createdAt: 2_000, updatedAt: 2_000 };
    delete (attempt as { expiredAt?: number }).expiredAt;
    expect(await store.update(attempt, 'expired', expired)).toBe(true);
    expect(store.stats()).toMatchObject({ entries: 1, pending: 1 });
    await tracker.settle('ORD-1', { outcome: 'succeeded' });
    expect(store.stats()).toMatchObject({ entries: 1, pending: 0 });
  });
});

describe('a record made pending again in the in-memory store', () => {
  it('is never aged out nor dropped for room as the expired record it replaced would have been', async () => {
    let t = 0;
    const store = createMemoryTransactionStore({ maxEntries: 2, finishedTtlMs: 1_000, now: () => t });
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin(card('AGAIN'));
    const expired = await tracker.expire('AGAIN');
    t += 10;
    // The customer initiates the payment again: the client's transactions option writes this.
    const attempt: TransactionRecord = { ...expired, state: 'pending', createdAt: t, updatedAt: t };
    delete (attempt as { expiredAt?: number }).expiredAt;
    expect(await store.update(attempt, 'expired', expired)).toBe(true);
    t += 5_000;
    await tracker.begin(card('OTHER'));
    expect(await tracker.get('AGAIN')).toEqual(attempt);
    // Full of pending records: a third begin is refused rather than drop the new attempt.
    await expect(tracker.begin(card('THIRD'))).rejects.toBeInstanceOf(TransactionStoreFullError);
    expect(await tracker.get('AGAIN')).toEqual(attempt);
  });
});

describe('the documented defaults of the in-memory store', () => {
  const pendingRecord = (reference: string, amount = '1500'): TransactionRecord => ({
    reference,
    kind: 'card',
    amount,
    state: 'pending',
    createdAt: 1,
    updatedAt: 1,
  });

  it('keeps at most 100,000 records', async () => {
    const store = createMemoryTransactionStore();
    for (let i = 0; i < 100_000; i++) await store.insert(pendingRecord(`P${i}`));
    await expect(store.insert(pendingRecord('ONE-MORE'))).rejects.toMatchObject({
      limit: 'maxEntries',
      value: 100_000,
    });
  });

  it('keeps at most 64 MiB of records', async () => {
    const store = createMemoryTransactionStore();
    const mib = 'x'.repeat(512 * 1024); // about 1 MiB a record
    for (let i = 0; i < 63; i++) await store.insert(pendingRecord(`P${i}`, mib));
    await expect(store.insert(pendingRecord('ONE-MORE', mib))).rejects.toMatchObject({
      limit: 'maxBytes',
      value: 64 * 1024 * 1024,
    });
  });

  it('keeps a finished record 24 hours', async () => {
    let t = 0;
    const store = createMemoryTransactionStore({ now: () => t });
    const tracker = createTransactionTracker({ store, now: () => t });
    await tracker.begin(card('PAID'));
    await tracker.settle('PAID', { outcome: 'succeeded' });
    t = 24 * 60 * 60_000 - 1;
    await tracker.begin(card('BEFORE'));
    expect((await tracker.get('PAID'))?.state).toBe('succeeded');
    t += 1;
    await tracker.begin(card('AT'));
    expect(await tracker.get('PAID')).toBeUndefined();
  });
});

describe("the tracker's check of the store it is given", () => {
  const methods = {
    insert: async (record: TransactionRecord) => record,
    get: async () => undefined,
    update: async () => false,
    listPending: async () => [],
  };

  it.each(['insert', 'get', 'update', 'listPending'])(
    'refuses a store whose %s is there but not a function, at creation',
    (name) => {
      const store = { ...methods, [name]: true } as never;
      expect(() => createTransactionTracker({ store })).toThrow(
        /^createTransactionTracker: store must be a TransactionStore/,
      );
    },
  );

  it('refuses a store whose watch is there but not a function, at creation', () => {
    const store = { ...methods, watch: 'pubsub' } as never;
    expect(() => createTransactionTracker({ store })).toThrow(
      /^createTransactionTracker: store must be a TransactionStore/,
    );
  });
});
