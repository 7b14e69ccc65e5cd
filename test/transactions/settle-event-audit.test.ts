// settle() from the merchant's own webhook route, given the verified event's type: an event of
// another kind (a payout's success for a card payment's reference) never settles the record, and
// a type that is not a callback event type (an Object.prototype name included) is refused as
// unknown, not read as a row of the table.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { createTransactionTracker, TransactionConflictError } from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';

describe('settle and the event type of another kind', () => {
  it('refuses a payout success for a card payment, as kind_mismatch, and writes nothing', async () => {
    const tracker = createTransactionTracker();
    const recorded = await tracker.begin({ reference: 'ORD-KIND', kind: 'card', amount: 1500 });
    const error = await caught(() =>
      tracker.settle('ORD-KIND', { outcome: 'succeeded', eventType: 'payout.succeeded', amount: '1500' }),
    );
    expect(error).toBeInstanceOf(TransactionConflictError);
    expect(error).toMatchObject({ reason: 'kind_mismatch', reference: 'ORD-KIND', attempted: 'succeeded' });
    expect((error as Error).message).toBe(
      'reference "ORD-KIND": recorded as a card transaction, and the event type settled with is of another kind; nothing was settled',
    );
    expect(await tracker.get('ORD-KIND')).toEqual(recorded);
  });

  it('refuses it on a settled record too, leaving the recorded failure', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-KIND-2', kind: 'mobile_money', amount: 900 });
    const { record } = await tracker.settle('ORD-KIND-2', {
      outcome: 'failed',
      eventType: 'payment.mobile_money.failed',
    });
    await expect(
      tracker.settle('ORD-KIND-2', { outcome: 'succeeded', eventType: 'checkout.succeeded' }),
    ).rejects.toMatchObject({ reason: 'kind_mismatch' });
    expect(await tracker.get('ORD-KIND-2')).toEqual(record);
  });
});

describe('settle and an amount that is not the recorded one', () => {
  it('says which amount was recorded', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-AMT', kind: 'card', amount: 1500 });
    await expect(tracker.settle('ORD-AMT', { outcome: 'succeeded', amount: '15' })).rejects.toThrow(
      'reference "ORD-AMT": amount is not the recorded 1500 (compared as decimals); nothing was settled',
    );
  });
});

describe('settle and an event type that is not one', () => {
  it.each(['constructor', 'toString', '__proto__'])(
    'refuses %s as an unknown event type',
    async (eventType) => {
      const tracker = createTransactionTracker();
      await tracker.begin({ reference: 'ORD-PROTO', kind: 'card', amount: 1 });
      const error = await caught(() => tracker.settle('ORD-PROTO', { outcome: 'succeeded', eventType }));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toEqual([
        expect.objectContaining({ path: ['eventType'], code: 'unknown_event_type' }),
      ]);
      expect((await tracker.get('ORD-PROTO'))?.state).toBe('pending');
    },
  );
});
