// A card payment's `id` names the payment (API reference: "Payment identifier"); a new payment
// has a new one. A callback that repeats a recorded payment's `id` is that payment, whatever its
// `transaction id`: its failure then its success is the payment contradicting itself (409
// conflicting_outcome, as for a mobile-money payment, whose failure carries no transaction id),
// never a second payment that paid the order.
import { describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  type CallbackContext,
  type CallbackEvent,
} from '../../src/callbacks/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';

const secret = 'whsec_same_payment_id_0123456789';

async function setup(reference: string) {
  const tracker = createTransactionTracker();
  await tracker.begin({ reference, kind: 'card', amount: 1500, currency: 'KES' });
  const seen: [CallbackEvent['type'], CallbackContext['settlement']][] = [];
  const refusals: string[] = [];
  const handler = createCallbackHandler({
    secret,
    tracker,
    onEvent: (event, context) => void seen.push([event.type, context.settlement]),
    onError: (_error, { reason }) => void refusals.push(reason),
  });
  const post = async (type: 'payment.card.failed' | 'payment.card.succeeded', id: string, txn: string) =>
    (
      await handler(
        await createCallbackRequest(type, {
          secret,
          reference,
          overrides: { id, 'transaction id': txn },
        }),
      )
    ).status;
  return { tracker, seen, refusals, post };
}

describe('a card payment that failed, then succeeded under the same id with another transaction id', () => {
  it('is refused 409 conflicting_outcome: the order stays failed, onEvent heard the failure only', async () => {
    const { tracker, seen, refusals, post } = await setup('ORD-9');
    expect(await post('payment.card.failed', 'P1', 'T1')).toBe(200);
    expect(await post('payment.card.succeeded', 'P1', 'T2')).toBe(409);
    expect(refusals).toEqual(['conflicting_outcome']);
    expect(seen).toEqual([['payment.card.failed', 'settled']]);
    expect((await tracker.get('ORD-9'))?.state).toBe('failed');
  });

  it('is refused as well when that id failed as another payment of a failed order (failedPayments)', async () => {
    const { tracker, refusals, post } = await setup('ORD-10');
    expect(await post('payment.card.failed', 'P1', 'T1')).toBe(200);
    expect(await post('payment.card.failed', 'P2', 'T2')).toBe(200);
    expect(await post('payment.card.succeeded', 'P2', 'T3')).toBe(409);
    expect(refusals).toEqual(['conflicting_outcome']);
    expect((await tracker.get('ORD-10'))?.state).toBe('failed');
  });

  it('a payment with another id and another transaction id still pays the failed order', async () => {
    const { tracker, seen, refusals, post } = await setup('ORD-11');
    expect(await post('payment.card.failed', 'P1', 'T1')).toBe(200);
    expect(await post('payment.card.succeeded', 'P2', 'T2')).toBe(200);
    expect(refusals).toEqual([]);
    expect(seen).toEqual([
      ['payment.card.failed', 'settled'],
      ['payment.card.succeeded', 'settled'],
    ]);
    expect((await tracker.get('ORD-11'))?.state).toBe('succeeded');
  });
});

describe('tracker.settle: the same paymentId under another transactionId', () => {
  it('is the same payment: its other outcome a conflict, nothing written', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-12', kind: 'card', amount: 1500 });
    const failed = await tracker.settle('ORD-12', {
      outcome: 'failed',
      transactionId: 'T1',
      paymentId: 'P1',
    });
    await expect(
      tracker.settle('ORD-12', { outcome: 'succeeded', transactionId: 'T2', paymentId: 'P1' }),
    ).rejects.toMatchObject({ name: 'TransactionConflictError', reason: 'conflicting_outcome' });
    expect(await tracker.get('ORD-12')).toEqual(failed.record);
  });

  it("is the same payment: its outcome again a 'duplicate', not 'another_payment' (nothing to refund)", async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-13', kind: 'card', amount: 1500 });
    const paid = await tracker.settle('ORD-13', {
      outcome: 'succeeded',
      transactionId: 'T1',
      paymentId: 'P1',
    });
    expect(
      await tracker.settle('ORD-13', { outcome: 'succeeded', transactionId: 'T2', paymentId: 'P1' }),
    ).toEqual({ result: 'duplicate', record: paid.record });
  });
});
