// What the tracker promises whichever store it runs on. Each store's test file calls
// describeStoreContract: the in-memory and Redis stores (test/redis/transaction-stores.test.ts),
// the Postgres example store (test/examples/order-store-postgres.test.ts). makeStore answers an
// empty store each time it is called.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import {
  createTransactionTracker,
  TransactionConflictError,
  type TransactionRecord,
  type TransactionStore,
} from '../../src/transactions/index.js';

export function describeStoreContract(name: string, makeStore: () => TransactionStore): void {
  describe(`the tracker on the ${name} store`, () => {
    const card = { reference: 'ORD-1', kind: 'card', amount: 1500, currency: 'KES' } as const;

    describe("update's previous: a compare-and-set on the record as read", () => {
      it('writes when the stored record is the one given, as an equal copy too; not when it changed since', async () => {
        const store = makeStore();
        const tracker = createTransactionTracker({ store, now: () => 1_000 });
        await tracker.begin(card);
        const read = (await store.get(card.reference))!;
        const restarted = { ...read, createdAt: 2_000, updatedAt: 2_000 };
        expect(await store.update(restarted, 'pending', JSON.parse(JSON.stringify(read)))).toBe(true);
        const expired = { ...read, state: 'expired' as const, updatedAt: 3_000, expiredAt: 3_000 };
        // `read` is the record before the restart: the write is refused, the restart kept.
        expect(await store.update(expired, 'pending', read)).toBe(false);
        expect(await store.get(card.reference)).toEqual(restarted);
      });
    });

    // A callback's settle reads the record, then writes it. Between the two, another instance's
    // cron expires the attempt it read and the customer initiates the payment again: the client
    // records the reference pending again with a new createdAt (the write below is the one it
    // makes). The settlement is decided against the attempt stored when it writes.
    describe('settle while the attempt it read is expired and initiated again', () => {
      /** `store`, running `between` just before the first write of a settled record. */
      const interleaved = (store: TransactionStore, between: () => Promise<void>): TransactionStore => {
        let ran = false;
        return {
          insert: (record) => store.insert(record),
          get: (reference) => store.get(reference),
          listPending: (query) => store.listPending(query),
          async update(record, from, previous) {
            if (!ran && (record.state === 'succeeded' || record.state === 'failed')) {
              ran = true;
              await between();
            }
            return store.update(record, from, previous);
          },
        };
      };
      /** Expires the stored attempt (if pending) and records a new one at `at`, as the client does. */
      const expireAndInitiateAgain = async (store: TransactionStore, at: number) => {
        const cron = createTransactionTracker({ store, now: () => at - 1 });
        const { record: expired } = await cron.expireIfPending(card.reference);
        const { reference, kind, amount, currency } = expired;
        const attempt: TransactionRecord = {
          reference,
          kind,
          amount,
          currency,
          state: 'pending',
          createdAt: at,
          updatedAt: at,
        };
        expect(await store.update(attempt, 'expired', expired)).toBe(true);
        return attempt;
      };

      it('settles the new attempt, keeping its createdAt, when the one it read was pending', async () => {
        const store = makeStore();
        await createTransactionTracker({ store, now: () => 1_000 }).begin(card);
        let interleavedAt: number | undefined;
        const webhook = createTransactionTracker({
          store: interleaved(store, async () => {
            interleavedAt = (await expireAndInitiateAgain(store, 5_000)).createdAt;
          }),
          now: () => 6_000,
        });
        const settled = await webhook.settle(card.reference, { outcome: 'succeeded', transactionId: 'T-1' });
        expect(interleavedAt).toBe(5_000);
        // The first callback of either attempt settles the pending one, on time.
        expect(settled.result).toBe('settled');
        expect(settled.record).toMatchObject({ state: 'succeeded', createdAt: 5_000, settledAt: 6_000 });
        expect(settled.record.late).toBeUndefined();
        expect(await store.get(card.reference)).toEqual(settled.record);
      });

      it('settles the new attempt late, keeping its createdAt and expiredAt, when the one it read was expired', async () => {
        const store = makeStore();
        const shop = createTransactionTracker({ store, now: () => 1_000 });
        await shop.begin(card);
        await shop.expire(card.reference);
        const webhook = createTransactionTracker({
          store: interleaved(store, async () => {
            await expireAndInitiateAgain(store, 5_000);
            // The new attempt is given up on too.
            await createTransactionTracker({ store, now: () => 5_500 }).expire(card.reference);
          }),
          now: () => 6_000,
        });
        const settled = await webhook.settle(card.reference, { outcome: 'succeeded', transactionId: 'T-1' });
        expect(settled.result).toBe('late');
        expect(settled.record).toMatchObject({
          state: 'succeeded',
          late: true,
          createdAt: 5_000,
          expiredAt: 5_500,
          settledAt: 6_000,
        });
        expect(await store.get(card.reference)).toEqual(settled.record);
      });
    });

    describe('update called without previous: a compare-and-set on the state alone', () => {
      const pending: TransactionRecord = {
        reference: 'ORD-1',
        kind: 'card',
        amount: '1500',
        state: 'pending',
        createdAt: 1,
        updatedAt: 1,
      };

      it('applies only one of two settlements from the same state', async () => {
        const store = makeStore();
        await store.insert(pending);
        const paid: TransactionRecord = { ...pending, state: 'succeeded', updatedAt: 2, settledAt: 2 };
        const failed: TransactionRecord = { ...pending, state: 'failed', updatedAt: 2, settledAt: 2 };
        const answers = await Promise.all([store.update(paid, 'pending'), store.update(failed, 'pending')]);
        expect(answers.filter(Boolean)).toHaveLength(1);
        expect(await store.get('ORD-1')).toEqual(answers[0] ? paid : failed);
      });

      it('answers false for a reference it does not hold, and writes nothing', async () => {
        const store = makeStore();
        await expect(store.update({ ...pending, state: 'expired' }, 'pending')).resolves.toBe(false);
        expect(await store.get('ORD-1')).toBeUndefined();
      });
    });

    // The tracker's stale() asks for at most 8 times its limit: a store that lists settled records,
    // or another kind's, starves the reconciliation cron of the stale ones behind them.
    describe('listPending', () => {
      it('lists only pending records of the kind asked, so stale() finds the one behind many settled ones', async () => {
        let t = 0;
        const store = makeStore();
        const tracker = createTransactionTracker({ store, now: () => t });
        for (let i = 0; i < 10; i++) {
          await tracker.begin({ ...card, reference: `PAID-${i}` });
          await tracker.settle(`PAID-${i}`, { outcome: 'succeeded' });
          await tracker.begin({ reference: `MOMO-${i}`, kind: 'mobile_money', amount: 1500 });
          t += 1;
        }
        const stale = await tracker.begin({ ...card, reference: 'STALE' });
        t += 24 * 60 * 60_000;
        expect(await store.listPending({ kind: 'card', createdBefore: t, limit: 5 })).toEqual([stale]);
        expect(await tracker.stale({ kind: 'card', limit: 1 })).toEqual([stale]);
      });

      it('lists at most limit records, the oldest, created before createdBefore and not at it', async () => {
        let t = 1_000;
        const store = makeStore();
        const tracker = createTransactionTracker({ store, now: () => t });
        const records: TransactionRecord[] = [];
        for (const reference of ['C', 'A', 'B']) {
          records.push(await tracker.begin({ ...card, reference }));
          t += 1;
        }
        expect(await store.listPending({ kind: 'card', createdBefore: t, limit: 2 })).toEqual(
          records.slice(0, 2),
        );
        expect(await store.listPending({ kind: 'card', createdBefore: 1_002, limit: 5 })).toEqual(
          records.slice(0, 2),
        );
        expect(await store.listPending({ kind: 'card', createdBefore: 1_000, limit: 5 })).toEqual([]);
      });

      it('lists a record by its createdAt, not its updatedAt, and a new attempt at its new createdAt only', async () => {
        const store = makeStore();
        const record: TransactionRecord = {
          ...card,
          amount: '1500',
          state: 'pending',
          createdAt: 1_000,
          updatedAt: 9_000,
        };
        await store.insert(record);
        expect(await store.listPending({ kind: 'card', createdBefore: 1_001, limit: 5 })).toEqual([record]);
        const restarted: TransactionRecord = { ...record, createdAt: 5_000, updatedAt: 9_500 };
        expect(await store.update(restarted, 'pending', record)).toBe(true);
        expect(await store.listPending({ kind: 'card', createdBefore: 5_000, limit: 5 })).toEqual([]);
        expect(await store.listPending({ kind: 'card', createdBefore: 5_001, limit: 5 })).toEqual([
          restarted,
        ]);
      });

      it('lists a record made pending again after it expired, at its new createdAt', async () => {
        const store = makeStore();
        const tracker = createTransactionTracker({ store, now: () => 1_000 });
        await tracker.begin(card);
        const expired = await tracker.expire(card.reference);
        const attempt: TransactionRecord = {
          ...expired,
          state: 'pending',
          createdAt: 5_000,
          updatedAt: 5_000,
        };
        delete (attempt as { expiredAt?: number }).expiredAt;
        expect(await store.update(attempt, 'expired', expired)).toBe(true);
        expect(await store.listPending({ kind: 'card', createdBefore: 5_000, limit: 5 })).toEqual([]);
        expect(await store.listPending({ kind: 'card', createdBefore: 5_001, limit: 5 })).toEqual([attempt]);
      });
    });

    describe('stale({ limit })', () => {
      it('lists at most limit transactions, oldest first', async () => {
        let t = 1_000;
        const tracker = createTransactionTracker({ store: makeStore(), now: () => t++ });
        for (const reference of ['A', 'B', 'C']) await tracker.begin({ ...card, reference });
        expect((await tracker.stale({ olderThan: 0, limit: 2 })).map((r) => r.reference)).toEqual(['A', 'B']);
      });

      it.each([Number.NaN, Number.POSITIVE_INFINITY, 0, -1, 1.5].map((limit) => [String(limit), limit]))(
        'refuses a limit of %s with a RangeError naming limit, from the tracker and from the store',
        async (_label, limit) => {
          const store = makeStore();
          const tracker = createTransactionTracker({ store });
          await tracker.begin(card);
          const fromTracker = await tracker.stale({ olderThan: 0, limit }).catch((e: unknown) => e);
          expect(fromTracker).toBeInstanceOf(RangeError);
          expect((fromTracker as Error).message).toMatch(/^stale: limit must be /);
          const query = { kind: 'card', createdBefore: Date.now() + 1_000, limit } as const;
          const fromStore = await store.listPending(query).catch((e: unknown) => e);
          expect(fromStore).toBeInstanceOf(RangeError);
          expect((fromStore as Error).message).toMatch(/limit must be /);
        },
      );
    });

    // Redis keys are UTF-8: a lone surrogate becomes U+FFFD, so 'ORD-\uD800' was stored under the
    // key of 'ORD-\uFFFD' and each reference answered with the other's transaction.
    it('refuses a reference that is not well-formed Unicode, naming reference, and never answers another transaction', async () => {
      const tracker = createTransactionTracker({ store: makeStore() });
      const replacement = await tracker.begin({ ...card, reference: 'ORD-\uFFFD' });
      for (const reference of ['ORD-\uD800', 'ORD-\uDFFF']) {
        const begun = await tracker.begin({ ...card, reference }).catch((e: unknown) => e);
        expect(begun).toBeInstanceOf(ValidationError);
        expect((begun as ValidationError).issues.map((issue) => issue.path[0])).toEqual(['reference']);
        await expect(tracker.get(reference)).rejects.toBeInstanceOf(ValidationError);
      }
      expect(await tracker.get('ORD-\uFFFD')).toEqual(replacement);
    });

    describe('settle checks the callback against the recorded transaction', () => {
      it('refuses a payout callback for a card payment (kind_mismatch), and writes nothing', async () => {
        const tracker = createTransactionTracker({ store: makeStore() });
        const begun = await tracker.begin(card);
        const error = await tracker
          .settle('ORD-1', { outcome: 'succeeded', eventType: 'payout.succeeded', amount: '1500' })
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(TransactionConflictError);
        expect(error).toMatchObject({ reason: 'kind_mismatch', attempted: 'succeeded', record: begun });
        expect((error as Error).message).toMatch(/the event type settled with is of another kind/);
        expect(await tracker.get('ORD-1')).toEqual(begun);
      });

      it('refuses a success for another amount (amount_mismatch), and writes nothing', async () => {
        const tracker = createTransactionTracker({ store: makeStore() });
        const begun = await tracker.begin(card);
        const error = await tracker
          .settle('ORD-1', { outcome: 'succeeded', eventType: 'payment.card.succeeded', amount: '1' })
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(TransactionConflictError);
        expect(error).toMatchObject({ reason: 'amount_mismatch', attempted: 'succeeded', record: begun });
        expect((error as Error).message).toMatch(/amount/);
        expect(await tracker.get('ORD-1')).toEqual(begun);
      });

      it('refuses a success in another currency (currency_mismatch), and writes nothing', async () => {
        const tracker = createTransactionTracker({ store: makeStore() });
        const begun = await tracker.begin(card);
        const inDollars = {
          outcome: 'succeeded',
          eventType: 'payment.card.succeeded',
          amount: '1500',
          currency: 'USD',
        } as const;
        const error = await tracker.settle('ORD-1', inDollars).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(TransactionConflictError);
        expect(error).toMatchObject({ reason: 'currency_mismatch', record: begun });
        expect((error as Error).message).toMatch(/currency/);
        expect(await tracker.get('ORD-1')).toEqual(begun);
      });

      it('refuses a failure for another amount: it is not this transaction’s callback', async () => {
        const tracker = createTransactionTracker({ store: makeStore() });
        const begun = await tracker.begin(card);
        await expect(
          tracker.settle('ORD-1', { outcome: 'failed', eventType: 'payment.card.failed', amount: '15' }),
        ).rejects.toMatchObject({ name: 'TransactionConflictError', reason: 'amount_mismatch' });
        expect(await tracker.get('ORD-1')).toEqual(begun);
      });

      it('settles with the recorded amount and currency, compared as decimals and ignoring case', async () => {
        const tracker = createTransactionTracker({ store: makeStore() });
        await tracker.begin(card);
        const input = {
          outcome: 'succeeded',
          eventType: 'payment.card.succeeded',
          amount: '1500.00',
          currency: 'kes',
        } as const;
        await expect(tracker.settle('ORD-1', input)).resolves.toMatchObject({
          result: 'settled',
          record: { state: 'succeeded', outcome: { eventType: 'payment.card.succeeded', amount: '1500.00' } },
        });
      });

      it.each([
        [
          'an event type it does not know',
          { outcome: 'succeeded', eventType: 'payment.card.paid' },
          'eventType',
        ],
        [
          'an event type of the other outcome',
          { outcome: 'succeeded', eventType: 'payment.card.failed', amount: '1500' },
          'eventType',
        ],
        ['an amount that is not a string', { outcome: 'succeeded', amount: 1 }, 'amount'],
        ['a field it does not know (a misspelt amount)', { outcome: 'succeeded', amout: '1' }, 'amout'],
      ])(
        'refuses %s with a ValidationError naming the field, and writes nothing',
        async (_what, input, field) => {
          const tracker = createTransactionTracker({ store: makeStore() });
          const begun = await tracker.begin(card);
          const error = await tracker.settle('ORD-1', input as never).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(ValidationError);
          expect((error as ValidationError).issues.map((issue) => issue.path[0])).toEqual([field]);
          expect(await tracker.get('ORD-1')).toEqual(begun);
        },
      );

      it('checks a late settlement (of an expired transaction) the same way', async () => {
        const tracker = createTransactionTracker({ store: makeStore() });
        await tracker.begin(card);
        const expired = await tracker.expire('ORD-1');
        await expect(
          tracker.settle('ORD-1', { outcome: 'succeeded', eventType: 'checkout.succeeded', amount: '1500' }),
        ).rejects.toMatchObject({ reason: 'kind_mismatch' });
        expect(await tracker.get('ORD-1')).toEqual(expired);
      });
    });

    it('settles a failed transaction anew when another payment of it succeeded, and a waiter in another tracker reads it', async () => {
      const store = makeStore();
      const tracker = createTransactionTracker({ store });
      await tracker.begin(card);
      await tracker.settle('ORD-1', { outcome: 'failed', transactionId: 'T-1' });
      const paid = await tracker.settle('ORD-1', { outcome: 'succeeded', transactionId: 'T-2' });
      expect(paid).toMatchObject({
        result: 'settled',
        record: { state: 'succeeded', outcome: { transactionId: 'T-2' } },
      });
      expect(await createTransactionTracker({ store }).get('ORD-1')).toEqual(paid.record);
      expect(await tracker.settle('ORD-1', { outcome: 'failed', transactionId: 'T-1' })).toEqual({
        result: 'another_payment',
        record: paid.record,
      });
    });
  });

  describe(`the failed payments a failed record remembers, on the ${name} store`, () => {
    const card = { reference: 'ORD-F', kind: 'card', amount: 1500, currency: 'KES' } as const;
    const failedTracker = async () => {
      const store = makeStore();
      const tracker = createTransactionTracker({ store });
      await tracker.begin(card);
      await tracker.settle('ORD-F', { outcome: 'failed', transactionId: 'T-A' });
      return { store, tracker };
    };

    it('refuses a success of another payment whose failure it heard, read back by another tracker', async () => {
      const { store, tracker } = await failedTracker();
      await tracker.settle('ORD-F', { outcome: 'failed', transactionId: 'T-B', paymentId: 'P-B' });
      const other = createTransactionTracker({ store });
      expect((await other.get('ORD-F'))?.failedPayments).toEqual([
        { transactionId: 'T-B', paymentId: 'P-B' },
      ]);
      await expect(
        other.settle('ORD-F', { outcome: 'succeeded', transactionId: 'T-B' }),
      ).rejects.toMatchObject({
        reason: 'conflicting_outcome',
      });
      expect((await other.get('ORD-F'))?.state).toBe('failed');
    });

    it('remembers each of several failures settled at the same moment', async () => {
      const { tracker } = await failedTracker();
      const ids = ['T-1', 'T-2', 'T-3', 'T-4', 'T-5', 'T-6'];
      await Promise.all(
        ids.map((transactionId) => tracker.settle('ORD-F', { outcome: 'failed', transactionId })),
      );
      const remembered = (await tracker.get('ORD-F'))?.failedPayments?.map((ids) => ids.transactionId);
      expect(remembered?.slice().sort()).toEqual(ids);
    });

    it("of a payment's failure and its success settled at the same moment, exactly one is refused, and the record says the other", async () => {
      const { tracker } = await failedTracker();
      const answers = await Promise.allSettled([
        tracker.settle('ORD-F', { outcome: 'failed', transactionId: 'T-B' }),
        tracker.settle('ORD-F', { outcome: 'succeeded', transactionId: 'T-B' }),
      ]);
      const refused = answers.filter((answer) => answer.status === 'rejected');
      expect(refused).toHaveLength(1);
      expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ reason: 'conflicting_outcome' });
      const record = await tracker.get('ORD-F');
      if (answers[1].status === 'fulfilled') {
        expect(record).toMatchObject({ state: 'succeeded', outcome: { transactionId: 'T-B' } });
      } else {
        expect(record).toMatchObject({ state: 'failed', failedPayments: [{ transactionId: 'T-B' }] });
      }
    });

    it('settles a failed record anew exactly once when two other payments succeed at the same moment', async () => {
      const { tracker } = await failedTracker();
      const answers = await Promise.all(
        ['T-B', 'T-C'].map((transactionId) =>
          tracker.settle('ORD-F', { outcome: 'succeeded', transactionId }),
        ),
      );
      expect(answers.map((answer) => answer.result).sort()).toEqual(['another_payment', 'settled']);
    });
  });
}
