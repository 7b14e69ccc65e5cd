// A second payment of one reference — the customer pressed Pay again while the first was pending,
// or paid two checkout sessions — settles nothing new, but it is not a redelivery: its callback
// reaches onEvent as 'another_payment' (refund it), where a redelivery of the same payment is a
// 'duplicate' (process it idempotently). Told apart by the callback's dedupe key (transaction id,
// or a checkout's session URL), which the settled record keeps.
import { describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  type CallbackContext,
  type CallbackEvent,
} from '../../src/callbacks/index.js';
import { callbackFixtures, createCallbackRequest } from '../../src/testing/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';

const secret = 'whsec_another_payment_0123456789';

describe('tracker.settle of a transaction already settled with the same outcome', () => {
  it("is 'duplicate' for the same payment and 'another_payment' for another, the record unchanged", async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-1', kind: 'card', amount: 1500, currency: 'KES' });
    const first = await tracker.settle('ORD-1', { outcome: 'succeeded', transactionId: 'T-1' });
    expect(first.result).toBe('settled');
    expect((await tracker.settle('ORD-1', { outcome: 'succeeded', transactionId: 'T-1' })).result).toBe(
      'duplicate',
    );
    const second = await tracker.settle('ORD-1', { outcome: 'succeeded', transactionId: 'T-2' });
    expect(second.result).toBe('another_payment');
    expect(second.record).toEqual(first.record);
    // Without an identifier to compare, it cannot tell: a duplicate, as before.
    expect((await tracker.settle('ORD-1', { outcome: 'succeeded' })).result).toBe('duplicate');
  });
});

describe('the handler with a tracker: two card payments of one reference', () => {
  it("the second reaches onEvent as 'another_payment', a redelivery of either as 'duplicate'", async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-2', kind: 'card', amount: 1500, currency: 'KES' });
    const seen: [CallbackEvent['type'], CallbackContext['settlement']][] = [];
    const handler = createCallbackHandler({
      secret,
      tracker,
      dedupe: false, // so that a redelivery reaches the tracker, as after an onEvent that threw
      onEvent: (event, context) => void seen.push([event.type, context.settlement]),
    });
    const card = callbackFixtures['payment.card.succeeded'];
    const paid = (id: string) =>
      createCallbackRequest('payment.card.succeeded', {
        secret,
        reference: 'ORD-2',
        overrides: { id, 'transaction id': `${card['transaction id']}-${id}` },
      });
    for (const request of [await paid('A'), await paid('B'), await paid('A'), await paid('B')]) {
      expect((await handler(request)).status).toBe(200);
    }
    expect(seen.map(([, settlement]) => settlement)).toEqual([
      'settled',
      'another_payment',
      'duplicate',
      'another_payment',
    ]);
  });
});
