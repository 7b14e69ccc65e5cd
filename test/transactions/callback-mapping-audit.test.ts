// How a verified callback event becomes a settlement (src/transactions/callbacks.ts), checked
// without the HTTP handler in front: the signed reference, not the payload's, names the
// transaction; a refusal carries the outcome it refused and the status the handler answers; and
// each payment is recorded under the id the API reference documents for its type (a payout's
// transaction_id, a checkout success's digest), which is what tells a redelivery from another
// payment later.
import { describe, expect, it } from 'vitest';
import type { CallbackEvent } from '../../src/callbacks/events.js';
import { findCallbackTransaction, settleCallbackTransaction } from '../../src/transactions/callbacks.js';
import { createTransactionTracker, TransactionConflictError } from '../../src/transactions/index.js';

const event = (fields: Record<string, unknown>): CallbackEvent =>
  ({ message: 'ok', warnings: [], data: {}, ...fields }) as unknown as CallbackEvent;

describe('findCallbackTransaction', () => {
  it("finds the transaction by the signed reference, not the payload's own", async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-SIGNED', kind: 'card', amount: 1 });
    await tracker.begin({ reference: 'ORD-PAYLOAD', kind: 'card', amount: 1 });
    const found = await findCallbackTransaction(
      tracker,
      event({ type: 'payment.card.succeeded', reference: 'ORD-PAYLOAD', amount: '1' }),
      'ORD-SIGNED',
    );
    expect(found).toMatchObject({ ok: true, record: { reference: 'ORD-SIGNED' } });
  });

  it('refuses an event of another kind, its error naming the outcome refused', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-CARD', kind: 'card', amount: 1 });
    const found = await findCallbackTransaction(
      tracker,
      event({ type: 'payout.failed', reference: 'ORD-CARD', amount: '1' }),
      'ORD-CARD',
    );
    expect(found).toMatchObject({ ok: false, status: 409, reason: 'transaction_kind_mismatch' });
    const { error } = found as unknown as { error: TransactionConflictError };
    expect(error).toBeInstanceOf(TransactionConflictError);
    expect(error).toMatchObject({ reason: 'kind_mismatch', attempted: 'failed', reference: 'ORD-CARD' });
  });
});

describe('settleCallbackTransaction refusals', () => {
  it.each([
    [
      'an amount that is not the recorded one',
      { type: 'payment.card.succeeded', amount: '1499', currency: 'KES', data: { id: 'P1' } },
      { status: 422, reason: 'amount_mismatch' },
    ],
    [
      'a currency that is not the recorded one',
      { type: 'payment.card.succeeded', amount: '1500', currency: 'USD', data: { id: 'P1' } },
      { status: 422, reason: 'currency_mismatch' },
    ],
    [
      'a currency the payload carries in its data only, that is not the recorded one',
      { type: 'payment.card.succeeded', amount: '1500', data: { id: 'P1', currency: 'USD' } },
      { status: 422, reason: 'currency_mismatch' },
    ],
    [
      'an event of another kind than the record the handler found',
      { type: 'payout.succeeded', amount: '1500', currency: 'KES', data: { transaction_id: 'T1' } },
      { status: 409, reason: 'transaction_kind_mismatch' },
    ],
  ])('answers %s as the handler does, and settles nothing', async (_what, fields, refusal) => {
    const tracker = createTransactionTracker();
    const record = await tracker.begin({ reference: 'ORD-R', kind: 'card', amount: 1500, currency: 'KES' });
    const answer = await settleCallbackTransaction(
      tracker,
      event({ reference: 'ORD-R', ...fields }),
      record,
      'dedupe-key',
    );
    expect(answer).toMatchObject({ ok: false, ...refusal });
    expect(await tracker.get('ORD-R')).toEqual(record);
  });
});

describe('the payment id each event is recorded under', () => {
  it("is a payout's transaction_id", async () => {
    const tracker = createTransactionTracker();
    const record = await tracker.begin({ reference: 'PAY-ID', kind: 'payout', amount: 500, currency: 'KES' });
    const answer = await settleCallbackTransaction(
      tracker,
      event({
        type: 'payout.succeeded',
        reference: 'PAY-ID',
        amount: '500',
        currency: 'KES',
        transactionId: 'TX-9',
        data: { transaction_id: 'TX-9', id: 'ROW-1' },
      }),
      record,
      'payout.succeeded:digest',
    );
    expect(answer).toMatchObject({
      ok: true,
      settlement: { record: { outcome: { paymentId: 'TX-9', transactionId: 'TX-9' } } },
    });
  });

  it.each([
    ['checkout.succeeded', 'succeeded', 'D1G35T'],
    ['checkout.failed', 'failed', 'checkout.failed:D1G35T'],
  ])("is, for %s, its dedupe key's digest (a decline with its outcome)", async (type, state, paymentId) => {
    const tracker = createTransactionTracker();
    const record = await tracker.begin({ reference: 'CO-ID', kind: 'checkout', amount: 700 });
    const answer = await settleCallbackTransaction(
      tracker,
      event({ type, reference: 'CO-ID', amount: '700' }),
      record,
      `${type}:D1G35T`,
    );
    expect(answer).toMatchObject({ ok: true, settlement: { record: { state, outcome: { paymentId } } } });
  });
});
