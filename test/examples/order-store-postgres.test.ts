// The Postgres store of examples/order-store-postgres.ts, as a merchant copies it, on PGlite (the
// Postgres server compiled to WebAssembly: the same parser, planner, types and operators): what
// every store must do (test/transactions/store-contract.ts), and what Postgres makes easy to get
// wrong — ms timestamps in created_at, the record as text or jsonb, the `previous` clause, NOTIFY.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createTransactionsTable,
  PostgresTransactionStore,
  transactionsTable,
} from '../../examples/order-store-postgres.js';
import {
  createCallbackHandler,
  type CallbackContext,
  type CallbackEvent,
} from '../../src/callbacks/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';
import {
  createTransactionTracker,
  type TransactionRecord,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { describeStoreContract } from '../transactions/store-contract.js';

const secret = 'whsec_order_store_postgres_0123456789';
const jsonbTable = transactionsTable.replace('record     text', 'record     jsonb');

const text = new PGlite();
const jsonb = new PGlite();

beforeAll(async () => {
  expect(jsonbTable).not.toBe(transactionsTable);
  await createTransactionsTable(text);
  await jsonb.exec(jsonbTable);
});
beforeEach(async () => {
  await text.query('TRUNCATE transactions');
  await jsonb.query('TRUNCATE transactions');
});
afterAll(async () => {
  await text.close();
  await jsonb.close();
});

describeStoreContract('Postgres (record text)', () => new PostgresTransactionStore(text));
describeStoreContract('Postgres (record jsonb)', () => new PostgresTransactionStore(jsonb));

/** The example's store with another compare-and-set: what a merchant's variation would do. */
function withUpdate(
  db: PGlite,
  update: (record: TransactionRecord, from: string, previous: string | null) => Promise<number>,
): TransactionStore {
  const store = new PostgresTransactionStore(db);
  return {
    insert: (record) => store.insert(record),
    get: (reference) => store.get(reference),
    listPending: (query) => store.listPending(query),
    update: async (record, from, previous) =>
      (await update(record, from, previous === undefined ? null : JSON.stringify(previous))) === 1,
  };
}

const mobileMoney = { reference: 'ORD-1', kind: 'mobile_money', amount: 1500, currency: 'KES' } as const;

describe('the Postgres store through the tracker', () => {
  it('records, settles once, and lists as stale a transaction with a real ms timestamp in created_at (bigint)', async () => {
    // Today's time in ms, moved on by hand: stale({ olderThan: 0 }) lists what was created
    // before now, and a begin in the same millisecond would not be.
    let clock = Date.now();
    const tracker = createTransactionTracker({ store: new PostgresTransactionStore(text), now: () => clock });
    const begun = await tracker.begin(mobileMoney);
    clock += 1;
    await tracker.begin({ ...mobileMoney, reference: 'ORD-2' });
    clock += 1;
    const { rows } = await text.query<{ created_at: string }>(
      "SELECT created_at::text FROM transactions WHERE reference = 'ORD-1'",
    );
    expect(rows).toEqual([{ created_at: String(begun.createdAt) }]);
    expect((await tracker.stale({ olderThan: 0 })).map((record) => record.reference)).toEqual([
      'ORD-1',
      'ORD-2',
    ]);

    const paid = { outcome: 'succeeded', transactionId: 'T-1', amount: '1500', currency: 'KES' } as const;
    expect((await tracker.settle('ORD-1', paid)).result).toBe('settled');
    expect((await tracker.settle('ORD-1', paid)).result).toBe('duplicate');
    expect((await tracker.expireIfPending('ORD-2')).result).toBe('expired');
    expect((await tracker.expireIfPending('ORD-2')).result).toBe('already_expired');
    expect(await tracker.stale({ olderThan: 0 })).toEqual([]);
    expect((await tracker.get('ORD-1'))?.state).toBe('succeeded');
  });

  it('moves created_at with a transaction made pending again, so listPending lists it only once it is old', async () => {
    let clock = 1_700_000_000_000;
    const store = new PostgresTransactionStore(text);
    const tracker = createTransactionTracker({ store, now: () => clock });
    await tracker.begin(mobileMoney);
    clock += 60 * 60_000;
    const expired = (await tracker.expireIfPending('ORD-1')).record;
    // What the client's transactions option does when the customer initiates the order again.
    const again = { ...expired, state: 'pending', createdAt: clock, updatedAt: clock } as const;
    expect(await store.update(again, 'expired')).toBe(true);
    const query = { kind: 'mobile_money', createdBefore: clock - 5 * 60_000, limit: 10 } as const;
    expect(await store.listPending(query)).toEqual([]);
    clock += 10 * 60_000;
    expect((await tracker.stale()).map((record) => record.reference)).toEqual(['ORD-1']);
  });

  it('answers a second insert of a reference with the stored record, and the first with the record itself', async () => {
    const store = new PostgresTransactionStore(text);
    const record = {
      reference: 'ORD-1',
      kind: 'card',
      amount: '1',
      state: 'pending',
      createdAt: 1,
      updatedAt: 1,
    } as const;
    expect(await store.insert(record)).toBe(record);
    const again = { ...record, amount: '2' };
    const stored = await store.insert(again);
    expect(stored).not.toBe(again);
    expect(stored).toEqual(record);
  });

  it('refuses a write whose previous is no longer the stored record (another payment’s failure came meanwhile)', async () => {
    const store = new PostgresTransactionStore(text);
    const tracker = createTransactionTracker({ store });
    await tracker.begin(mobileMoney);
    await tracker.settle('ORD-1', { outcome: 'failed', transactionId: 'T-A' });
    const read = (await store.get('ORD-1'))!;
    await tracker.settle('ORD-1', { outcome: 'failed', transactionId: 'T-B' });
    const paid = { ...read, state: 'succeeded', outcome: { transactionId: 'T-B' } } as const;
    expect(await store.update(paid, 'failed', read)).toBe(false);
    expect(await store.update(paid, 'failed', (await store.get('ORD-1'))!)).toBe(true);
  });

  it('keeps the record as JSON.stringify wrote it, byte for byte, and a message carrying U+0000 (jsonb refuses it)', async () => {
    const failed = { outcome: 'failed', transactionId: 'T-A', message: 'Declined\u0000' } as const;
    const tracker = createTransactionTracker({ store: new PostgresTransactionStore(text) });
    await tracker.begin(mobileMoney);
    const { record } = await tracker.settle('ORD-1', failed);
    const { rows } = await text.query<{ record: string }>('SELECT record FROM transactions');
    expect(rows).toEqual([{ record: JSON.stringify(record) }]);

    const onJsonb = createTransactionTracker({ store: new PostgresTransactionStore(jsonb) });
    await onJsonb.begin(mobileMoney);
    await expect(onJsonb.settle('ORD-1', failed)).rejects.toThrow(/Unicode escape/);
  });

  it('wakes a waiter in another tracker through LISTEN/NOTIFY, long before its next poll, with the reference as payload', async () => {
    const payloads: string[] = [];
    const unlisten = await text.listen('transactions_updated', (payload) => void payloads.push(payload));
    const waiter = createTransactionTracker({
      store: new PostgresTransactionStore(text, {
        listen: (channel, onPayload) => text.listen(channel, onPayload),
      }),
      pollIntervalMs: 60_000,
    });
    const settler = createTransactionTracker({ store: new PostgresTransactionStore(text) });
    await settler.begin(mobileMoney);
    const started = Date.now();
    const waiting = waiter.waitFor('ORD-1', { timeout: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await settler.settle('ORD-1', { outcome: 'succeeded', transactionId: 'T-1' });
    expect((await waiting).state).toBe('succeeded');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(payloads).toEqual(['ORD-1']);
    await unlisten();
  });

  it('through the callback handler: a declined payment, then another payment of the order that paid, leaves the order paid', async () => {
    const tracker = createTransactionTracker({ store: new PostgresTransactionStore(text) });
    await tracker.begin({ reference: 'ORD-4', kind: 'card', amount: 1500, currency: 'KES' });
    const seen: [CallbackEvent['type'], CallbackContext['settlement']][] = [];
    const handler = createCallbackHandler({
      secret,
      tracker,
      dedupe: false, // as examples/order-store.ts: the tracker alone tells a redelivery
      onEvent: (event, context) => void seen.push([event.type, context.settlement]),
    });
    const declined = await createCallbackRequest('payment.card.failed', { secret, reference: 'ORD-4' });
    const paid = await createCallbackRequest('payment.card.succeeded', { secret, reference: 'ORD-4' });
    expect((await handler(declined)).status).toBe(200);
    expect((await handler(paid.clone())).status).toBe(200);
    expect((await handler(paid)).status).toBe(200);
    expect(seen).toEqual([
      ['payment.card.failed', 'settled'],
      ['payment.card.succeeded', 'settled'],
      ['payment.card.succeeded', 'duplicate'],
    ]);
    expect((await tracker.get('ORD-4'))?.state).toBe('succeeded');
  });
});

describe('what the docs warn against, shown on Postgres', () => {
  it('comparing a jsonb record as text never matches: no transaction can be settled', async () => {
    const store = withUpdate(jsonb, async (record, from, previous) => {
      const { affectedRows } = await jsonb.query(
        `UPDATE transactions SET state = $1, created_at = $2, record = $3
         WHERE reference = $4 AND state = $5 AND (CAST($6 AS text) IS NULL OR record::text = $7)`,
        [record.state, record.createdAt, JSON.stringify(record), record.reference, from, previous, previous],
      );
      return affectedRows ?? 0;
    });
    const tracker = createTransactionTracker({ store });
    await tracker.begin(mobileMoney);
    await expect(tracker.settle('ORD-1', { outcome: 'succeeded', transactionId: 'T-A' })).rejects.toThrow(
      /update\("ORD-1"\) answered false 32 times in a row/,
    );
    expect((await tracker.get('ORD-1'))?.state).toBe('pending');
  });

  it('a store that ignores previous accepts both outcomes of one payment settled at the same moment', async () => {
    const store = withUpdate(text, async (record, from) => {
      const { affectedRows } = await text.query(
        'UPDATE transactions SET state = $1, created_at = $2, record = $3 WHERE reference = $4 AND state = $5',
        [record.state, record.createdAt, JSON.stringify(record), record.reference, from],
      );
      return affectedRows ?? 0;
    });
    const tracker = createTransactionTracker({ store });
    await tracker.begin(mobileMoney);
    await tracker.settle('ORD-1', { outcome: 'failed', transactionId: 'T-A' });
    const answers = await Promise.all([
      tracker.settle('ORD-1', { outcome: 'failed', transactionId: 'T-B' }),
      tracker.settle('ORD-1', { outcome: 'succeeded', transactionId: 'T-B' }),
    ]);
    // With the clause exactly one is refused (the contract suite above); without it, both pass.
    expect(answers.map((answer) => answer.result)).toEqual(['another_payment', 'settled']);
  });
});
