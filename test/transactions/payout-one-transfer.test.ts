// A payout's reference_id is a "unique 12-digit value per transfer" (API reference), and the SDK
// never sends a recorded one again: every callback under it is of that one transfer. A transfer
// that failed does not succeed later, nor one that succeeded fail: the other outcome, under
// whatever transaction_id, is the transfer contradicting itself — refused as conflicting_outcome
// (409, onError), never the payout's settlement.
import { describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  type CallbackContext,
  type CallbackEvent,
} from '../../src/callbacks/index.js';
import { callbackFixtures, createCallbackRequest } from '../../src/testing/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';

const secret = 'whsec_payout_one_transfer_0123456789';
const reference = '123456789013';

async function setup() {
  const tracker = createTransactionTracker();
  await tracker.begin({ reference, kind: 'payout', amount: 1000, currency: 'KES' });
  const seen: [CallbackEvent['type'], CallbackContext['settlement']][] = [];
  const refusals: string[] = [];
  const handler = createCallbackHandler({
    secret,
    tracker,
    onEvent: (event, context) => void seen.push([event.type, context.settlement]),
    onError: (_error, { reason }) => void refusals.push(reason),
  });
  const post = async (type: 'payout.succeeded' | 'payout.failed', transactionId: string) => {
    const response = await handler(
      await createCallbackRequest(type, {
        secret,
        reference,
        overrides: {
          ...callbackFixtures[type],
          amount: '1000',
          reference_id: reference,
          transaction_id: transactionId,
        },
      }),
    );
    return { status: response.status, body: await response.text() };
  };
  return { tracker, seen, refusals, post };
}

describe('a payout reference reported failed, then succeeded under another transaction_id', () => {
  it('is refused 409 conflicting_outcome: the record stays failed, onEvent heard the failure only', async () => {
    const { tracker, seen, refusals, post } = await setup();
    expect((await post('payout.failed', 'PYT0000000002')).status).toBe(200);
    expect(await post('payout.succeeded', 'PYT0000000009')).toEqual({
      status: 409,
      body: JSON.stringify({ error: 'conflicting_outcome' }),
    });
    expect(refusals).toEqual(['conflicting_outcome']);
    expect(seen).toEqual([['payout.failed', 'settled']]);
    expect((await tracker.get(reference))?.state).toBe('failed');
  });

  it('is refused as well after another transaction_id of it failed too (remembered in failedPayments)', async () => {
    const { tracker, seen, refusals, post } = await setup();
    expect((await post('payout.failed', 'PYT0000000002')).status).toBe(200);
    expect((await post('payout.failed', 'PYT0000000003')).status).toBe(200);
    expect((await post('payout.succeeded', 'PYT0000000004')).status).toBe(409);
    expect(refusals).toEqual(['conflicting_outcome']);
    expect(seen).toEqual([['payout.failed', 'settled']]);
    expect((await tracker.get(reference))?.state).toBe('failed');
  });
});

describe('a payout reference reported succeeded, then failed under another transaction_id', () => {
  it('is refused 409 conflicting_outcome, not taken for another payout: the record stays succeeded', async () => {
    const { tracker, seen, refusals, post } = await setup();
    expect((await post('payout.succeeded', 'PYT0000000001')).status).toBe(200);
    expect((await post('payout.failed', 'PYT0000000009')).status).toBe(409);
    expect(refusals).toEqual(['conflicting_outcome']);
    expect(seen).toEqual([['payout.succeeded', 'settled']]);
    expect((await tracker.get(reference))?.state).toBe('succeeded');
  });
});

describe('tracker.settle of a payout', () => {
  it.each([
    ['failed', 'succeeded'],
    ['succeeded', 'failed'],
  ] as const)(
    'refuses %s then %s under another transactionId as conflicting_outcome, nothing written',
    async (first, then) => {
      const tracker = createTransactionTracker();
      await tracker.begin({ reference, kind: 'payout', amount: 1000, currency: 'KES' });
      const settled = await tracker.settle(reference, {
        outcome: first,
        eventType: `payout.${first}`,
        transactionId: 'T-1',
        paymentId: 'T-1',
      });
      await expect(
        tracker.settle(reference, {
          outcome: then,
          eventType: `payout.${then}`,
          transactionId: 'T-2',
          paymentId: 'T-2',
        }),
      ).rejects.toMatchObject({
        name: 'TransactionConflictError',
        reason: 'conflicting_outcome',
      });
      expect(await tracker.get(reference)).toEqual(settled.record);
    },
  );
});

describe('a payout reference reported succeeded, then succeeded again under another transaction_id', () => {
  it('is refused 409 conflicting_outcome, not reported to onEvent as another payment: one transfer under two ids, or money sent twice, is reconciled by hand', async () => {
    const { tracker, seen, refusals, post } = await setup();
    expect((await post('payout.succeeded', 'PYT0000000001')).status).toBe(200);
    expect(await post('payout.succeeded', 'PYT0000000009')).toEqual({
      status: 409,
      body: JSON.stringify({ error: 'conflicting_outcome' }),
    });
    expect(refusals).toEqual(['conflicting_outcome']);
    expect(seen).toEqual([['payout.succeeded', 'settled']]);
    const record = await tracker.get(reference);
    expect(record?.state).toBe('succeeded');
    expect(record?.outcome?.transactionId).toBe('PYT0000000001');
    // The same success again is still a duplicate: 200, onEvent not called again.
    expect((await post('payout.succeeded', 'PYT0000000001')).status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it('is refused by the tracker itself: settle throws conflicting_outcome and changes nothing', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference, kind: 'payout', amount: 1000, currency: 'KES' });
    await tracker.settle(reference, {
      outcome: 'succeeded',
      eventType: 'payout.succeeded',
      transactionId: 'PYT1',
    });
    await expect(
      tracker.settle(reference, {
        outcome: 'succeeded',
        eventType: 'payout.succeeded',
        transactionId: 'PYT2',
      }),
    ).rejects.toMatchObject({
      name: 'TransactionConflictError',
      reason: 'conflicting_outcome',
      message: expect.stringContaining(
        "a payout's reference_id names one transfer: reconcile it with the provider",
      ),
    });
    expect((await tracker.get(reference))?.outcome?.transactionId).toBe('PYT1');
  });
});
