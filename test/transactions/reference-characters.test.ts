// A reference is the key of the merchant's own store. A control character in it (NUL above all)
// is no one's order number, and Postgres `text` refuses NUL outright: begin succeeded on the
// memory store, so the mistake surfaced only in production, on the first payment, as a store
// error. begin refuses control characters, naming the field, and a tracked initiation sends
// nothing.
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { ValidationError } from '../../src/errors.js';
import { createMemoryTransactionStore, createTransactionTracker } from '../../src/transactions/index.js';

const secret = 'whsec_reference_characters_01';

/** A tracked mobile-money initiation under `reference`: what it threw, and how many requests went out. */
async function initiateUnder(reference: string): Promise<{ error: unknown; sent: () => number }> {
  let requests = 0;
  const client = new PaymentsClient({
    baseUrl: 'https://payments.example',
    transactions: { tracker: createTransactionTracker(), secret },
    fetch: async () => {
      requests += 1;
      return Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
    },
  });
  const error = await client
    .initiateMobileMoneyPayment({
      customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
      amount: { delivery_fee: 100, discount_fee: 50, total: 900, currency: 'KES' },
      callback_details: {
        transaction_reference: reference,
        callback_url: 'https://shop.example/webhooks/payments',
      },
    })
    .catch((caught: unknown) => caught);
  return { error, sent: () => requests };
}

describe('a reference with a control character', () => {
  it.each([
    ['NUL', 'ORD-\u0000'],
    ['a newline', 'ORD-1\n'],
    ['a tab', 'ORD\t1'],
    ['DEL', 'ORD-\u007f'],
    ['a C1 control', 'ORD-\u0085'],
  ])('%s is refused by begin, naming reference, and nothing is stored', async (_label, reference) => {
    const tracker = createTransactionTracker();
    const error = await tracker
      .begin({ reference, kind: 'card', amount: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['reference'], code: 'invalid_reference' }),
    ]);
    expect((error as ValidationError).message).toContain('control character');
    expect(await tracker.store.get(reference)).toBeUndefined();
  });

  it('is refused by a tracked initiation before anything is sent', async () => {
    const { error, sent } = await initiateUnder('ORD-\u0000');
    expect(error).toBeInstanceOf(ValidationError);
    expect(sent()).toBe(0);
  });

  it('an ordinary reference with spaces and non-ASCII letters is still recorded', async () => {
    const tracker = createTransactionTracker();
    await expect(
      tracker.begin({ reference: 'Commande n° 42', kind: 'card', amount: 1 }),
    ).resolves.toMatchObject({
      state: 'pending',
    });
  });

  // The rule is for what begin records: a record an earlier version stored under such a reference
  // (in Redis or SQL) is still read, expired and settled, or the documented cron, which expires
  // what stale() lists, failed on it at every run and its callback was an unknown reference.
  it('a record stored before the rule can still be read, expired and settled', async () => {
    const store = createMemoryTransactionStore();
    const reference = 'ORD-1\n';
    await store.insert({
      reference,
      kind: 'card',
      amount: '1',
      state: 'pending',
      createdAt: 0,
      updatedAt: 0,
    });
    const tracker = createTransactionTracker({ store, now: () => 10 * 24 * 3_600_000 });
    expect((await tracker.stale()).map((record) => record.reference)).toEqual([reference]);
    await expect(tracker.get(reference)).resolves.toMatchObject({ state: 'pending' });
    await expect(tracker.expireIfPending(reference)).resolves.toMatchObject({ result: 'expired' });
    await expect(tracker.settle(reference, { outcome: 'succeeded' })).resolves.toMatchObject({
      result: 'late',
    });
  });
});

describe('a reference over 256 characters', () => {
  // The input schema takes a long transaction_reference; begin would not record it. The tracked
  // initiation refuses it first, naming the field of the input, not begin's `reference`.
  it("is refused by a tracked initiation naming the input's field, and nothing is sent", async () => {
    const { error, sent } = await initiateUnder('R'.repeat(257));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({
        path: ['callback_details', 'transaction_reference'],
        code: 'required_for_tracking',
      }),
    ]);
    expect(sent()).toBe(0);
  });
});
