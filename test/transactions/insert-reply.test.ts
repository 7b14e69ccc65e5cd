// A custom store's insert answers the record it stored or the one it found. A store on an
// untyped client that passes a driver's reply on (a row count, 'OK'), or a SQL store on a
// case-insensitive collation that finds another order's row, answers something the tracker
// refuses. Through the client's `transactions` option that refusal is the store's failure, as
// update's non-boolean answer is: a TransactionStoreError, nothing sent — a merchant who catches
// TransactionStoreError for store failures must not miss it.
import { expect, it } from 'vitest';
import { ApiError, isPaymentsError } from '../../src/errors.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionRecord,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';
import { fakeService } from '../helpers/fake-service.js';
import { stkPush, trackedClient } from '../helpers/tracked-payment.js';

const answers: [string, unknown, RegExp][] = [
  ['a row count', 1, /insert\("ORD-20"\) answered number, not a transaction record/],
  ["a driver's 'OK'", 'OK', /insert\("ORD-20"\) answered a string, not a transaction record/],
  ['nothing', undefined, /insert\("ORD-20"\) answered undefined, not a transaction record/],
  [
    "another reference's record",
    { reference: 'ord-20', kind: 'mobile_money', amount: '900', currency: 'KES', state: 'pending' },
    /insert\("ORD-20"\) answered the record of "ord-20", another reference/,
  ],
];

/** A memory store whose insert answers `answer`, after storing the record when `writes` is set. */
function storeAnswering(answer: unknown, writes: boolean) {
  const memory = createMemoryTransactionStore();
  const store: TransactionStore = {
    ...memory,
    insert: async (record) => {
      if (writes) await memory.insert(record);
      return answer as TransactionRecord;
    },
  };
  return { store, memory };
}

/** A client tracking with a tracker on `store`; `sent` keeps each request that reached the service. */
function clientOn(store: TransactionStore, status = 200) {
  const sent: Request[] = [];
  const client = trackedClient(
    fakeService((request) => {
      sent.push(request);
      return status === 200
        ? Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 })
        : Response.json({ error: 'refused' }, { status });
    }),
    createTransactionTracker({ store }),
  );
  return { client, sent };
}

it.each(
  answers.flatMap(([what, answer, message]) =>
    [true, false].map((writes) => [what, writes, answer, message] as const),
  ),
)(
  'an insert that answers %s (stored: %s) is a TransactionStoreError naming insert, nothing sent',
  async (_what, writes, answer, message) => {
    const { store, memory } = storeAnswering(answer, writes);
    const { client, sent } = clientOn(store);
    const error = await caught(() => client.initiateMobileMoneyPayment(stkPush('ORD-20')));
    expect(error).toMatchObject({ name: 'TransactionStoreError', reference: 'ORD-20', sent: false });
    expect((error as Error).message).toMatch(/nothing was sent/);
    expect((error as Error).message).toMatch(message);
    expect(sent).toHaveLength(0);
    // What insert answered says nothing of who stored a record it wrote: it is left pending (stale()
    // lists it), never expired by a call that cannot tell it is its own.
    expect(await memory.get('ORD-20')).toEqual(
      writes ? expect.objectContaining({ state: 'pending' }) : undefined,
    );
  },
);

/**
 * A payment through `store` that the service refuses (400): the ApiError, the request sent once,
 * its cause the TransactionStoreError of expiring the record, saying `message`.
 */
async function expectRefusalCause(store: TransactionStore, reference: string, message: RegExp) {
  const { client, sent } = clientOn(store, 400);
  const error = await caught(() => client.initiateMobileMoneyPayment(stkPush(reference)));
  expect(error).toBeInstanceOf(ApiError);
  expect(sent).toHaveLength(1);
  expect((error as ApiError).cause).toMatchObject({ name: 'TransactionStoreError', reference, sent: true });
  expect(((error as ApiError).cause as Error).message).toMatch(message);
}

it("a refusal whose record's get answers garbage when the client expires it: the ApiError's cause is a TransactionStoreError, the request sent", async () => {
  const memory = createMemoryTransactionStore();
  const state = { broken: false };
  const store: TransactionStore = {
    ...memory,
    insert: async (record) => {
      const stored = await memory.insert(record);
      state.broken = true;
      return stored;
    },
    get: async (reference) =>
      state.broken ? ('QUEUED' as unknown as TransactionRecord) : memory.get(reference),
  };
  await expectRefusalCause(store, 'ORD-21', /get\("ORD-21"\) answered a string, not a transaction record/);
  expect(await memory.get('ORD-21')).toMatchObject({ state: 'pending' });
});

it("a refusal whose expiry meets an update that never applies a write: the ApiError's cause is a TransactionStoreError naming update, the request sent", async () => {
  const memory = createMemoryTransactionStore();
  const store: TransactionStore = { ...memory, update: async () => false };
  await expectRefusalCause(store, 'ORD-22', /update\("ORD-\d+"\) answered false 32 times in a row/);
  expect(await memory.get('ORD-22')).toMatchObject({ state: 'pending' });
});

it("called directly, the tracker rejects an insert or a get that is not the record, and an update that never writes, with a plain Error (the store's failure)", async () => {
  const input = { reference: 'ORD-23', kind: 'mobile_money', amount: 1500, currency: 'KES' } as const;
  const memory = createMemoryTransactionStore();
  const garbage = createTransactionTracker({
    store: {
      ...memory,
      insert: async () => 'OK' as unknown as TransactionRecord,
      get: async () => 1 as unknown as TransactionRecord,
    },
  });
  const stuck = createTransactionTracker({ store: { ...memory, update: async () => false } });
  await stuck.begin(input);
  const errors = await Promise.all([
    caught(() => garbage.begin(input)),
    caught(() => garbage.get('ORD-23')),
    caught(() => stuck.settle('ORD-23', { outcome: 'succeeded', transactionId: 'T-1' })),
  ]);
  for (const error of errors) {
    expect(error).toBeInstanceOf(Error);
    expect(isPaymentsError(error)).toBe(false);
  }
  expect(errors.map((error) => (error as Error).message)).toEqual([
    expect.stringMatching(/insert\("ORD-23"\) answered a string, not a transaction record/),
    expect.stringMatching(/get\("ORD-23"\) answered number, not a transaction record/),
    expect.stringMatching(/update\("ORD-\d+"\) answered false 32 times in a row/),
  ]);
  expect(await memory.get('ORD-23')).toMatchObject({ state: 'pending' });
});

it.each([
  ['an amount that is not a string', { amount: 1500 }, /whose amount is not a string/],
  ['a currency that is not a string', { currency: 404 }, /whose currency is not a string/],
  [
    'a createdAt that is not a finite number',
    { createdAt: Number.NaN },
    /whose createdAt is not a finite number/,
  ],
  [
    'failedPayments that is not a list',
    { failedPayments: 'P-1' },
    /whose failedPayments is not a list of objects/,
  ],
  [
    'failedPayments holding null',
    { failedPayments: [null] },
    /whose failedPayments is not a list of objects/,
  ],
])(
  'a get that answers a record with %s (a row mapped by hand) is refused: settle writes nothing',
  async (_what, wrong, message) => {
    const memory = createMemoryTransactionStore();
    const tracker = createTransactionTracker({
      store: {
        ...memory,
        get: async (reference) => {
          const record = await memory.get(reference);
          return record && ({ ...record, ...wrong } as unknown as TransactionRecord);
        },
      },
    });
    await tracker.begin({ reference: 'ORD-24', kind: 'mobile_money', amount: 1500, currency: 'KES' });
    const error = await caught(() =>
      tracker.settle('ORD-24', { outcome: 'succeeded', transactionId: 'T-1' }),
    );
    expect(isPaymentsError(error)).toBe(false);
    expect((error as Error).message).toMatch(/get\("ORD-24"\) answered a record/);
    expect((error as Error).message).toMatch(message);
    expect(await memory.get('ORD-24')).toMatchObject({ state: 'pending' });
  },
);

it('an update that never writes is tried 32 times, as its error says, then refused', async () => {
  const memory = createMemoryTransactionStore();
  let updates = 0;
  const tracker = createTransactionTracker({
    store: { ...memory, update: async () => (updates++, false) },
  });
  await tracker.begin({ reference: 'ORD-25', kind: 'mobile_money', amount: 1500, currency: 'KES' });
  const error = await caught(() => tracker.settle('ORD-25', { outcome: 'succeeded', transactionId: 'T-1' }));
  expect((error as Error).message).toMatch(/update\("ORD-25"\) answered false 32 times in a row/);
  expect(updates).toBe(32);
});
