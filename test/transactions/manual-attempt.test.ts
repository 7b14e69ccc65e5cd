// Without the client's `transactions` option a merchant records each attempt before sending it
// (docs/transactions.md). Pay pressed again after the first attempt was expired, or while it is
// still pending, is a new attempt: `tracker.beginAttempt` records it pending from now, as the
// tracked client does — its success settles on time (not `late`, which the README's onEvent
// refunds), `waitFor` waits for it, and `stale()` counts from it. `begin` stays what it is: the
// record, whatever its state.
import { describe, expect, it } from 'vitest';
import { createTransactionTracker } from '../../src/transactions/index.js';

const MINUTE = 60_000;
const payment = { reference: 'ORD-AGAIN', kind: 'mobile_money', amount: '1500', currency: 'KES' } as const;

const tracked = () => {
  let t = 1_700_000_000_000;
  const tracker = createTransactionTracker({ now: () => t });
  return { tracker, advance: (ms: number) => (t += ms), now: () => t };
};

describe('a new attempt recorded by hand', () => {
  it('makes an expired payment pending from now, and its success settles on time', async () => {
    const { tracker, advance, now } = tracked();
    const first = await tracker.beginAttempt(payment);
    expect(first).toMatchObject({ state: 'pending', createdAt: now() });
    advance(6 * MINUTE);
    await tracker.expireIfPending(payment.reference, { createdAt: first.createdAt });
    advance(MINUTE);

    const again = await tracker.beginAttempt(payment);
    expect(again).toMatchObject({ state: 'pending', createdAt: now() });
    const waiting = tracker.waitFor(payment.reference, { timeout: 5_000 });
    advance(20_000);
    const settled = await tracker.settle(payment.reference, { outcome: 'succeeded', transactionId: 'TX-2' });
    expect(settled.record).toMatchObject({ state: 'succeeded' });
    expect(settled.record.late).not.toBe(true);
    await expect(waiting).resolves.toMatchObject({ state: 'succeeded' });
  });

  it('counts a pending payment stale from its newest attempt', async () => {
    const { tracker, advance } = tracked();
    await tracker.beginAttempt(payment);
    advance(4 * MINUTE + 50_000);
    await tracker.beginAttempt(payment);
    advance(15_000);
    expect(await tracker.stale()).toEqual([]);
    advance(5 * MINUTE);
    expect((await tracker.stale()).map((record) => record.reference)).toEqual([payment.reference]);
  });

  it('leaves a settled payment and any payout as they are', async () => {
    const { tracker, advance } = tracked();
    await tracker.beginAttempt(payment);
    await tracker.settle(payment.reference, { outcome: 'failed', transactionId: 'TX-1' });
    advance(MINUTE);
    expect(await tracker.beginAttempt(payment)).toMatchObject({ state: 'failed' });

    const payout = { reference: '483920175561', kind: 'payout', amount: '1000', currency: 'KES' } as const;
    const sent = await tracker.beginAttempt(payout);
    advance(25 * 60 * MINUTE);
    await tracker.expireIfPending(payout.reference, { createdAt: sent.createdAt });
    // One reference_id is one transfer: never sent again, so never a new attempt.
    expect(await tracker.beginAttempt(payout)).toMatchObject({ state: 'expired', createdAt: sent.createdAt });
  });

  it('refuses what begin refuses', async () => {
    const { tracker } = tracked();
    await tracker.beginAttempt(payment);
    await expect(tracker.beginAttempt({ ...payment, amount: '1600' })).rejects.toMatchObject({
      name: 'TransactionConflictError',
      reason: 'reference_in_use',
    });
    await expect(tracker.beginAttempt({ ...payment, reference: '' })).rejects.toMatchObject({
      name: 'ValidationError',
    });
  });
});
