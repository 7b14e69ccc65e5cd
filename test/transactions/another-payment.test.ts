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

describe('a payment that succeeded after another payment of the reference failed (two tabs: the first declined, the second paid)', () => {
  it("is the reference's settlement, not another payment: see paid-after-failure.test.ts", async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-3', kind: 'card', amount: 1500, currency: 'KES' });
    await tracker.settle('ORD-3', { outcome: 'failed', transactionId: 'T-1' });
    expect((await tracker.settle('ORD-3', { outcome: 'succeeded', transactionId: 'T-2' })).result).toBe(
      'settled',
    );
  });
});

describe('the same payment is never another_payment', () => {
  it('a card payment redelivered with another id but the same transaction id is a duplicate (the transaction id decides)', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-5', kind: 'card', amount: 1500, currency: 'KES' });
    await tracker.settle('ORD-5', { outcome: 'succeeded', transactionId: 'T-1', paymentId: 'P-1' });
    const again = await tracker.settle('ORD-5', {
      outcome: 'succeeded',
      transactionId: 'T-1',
      paymentId: 'P-2',
    });
    expect(again.result).toBe('duplicate');
  });
});

describe('a failure of another payment of a settled reference', () => {
  it('moves no money: 200, onEvent not called (a route that marks an order failed on !event.paid keeps it paid)', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-6', kind: 'card', amount: 1500, currency: 'KES' });
    const orders = new Map<string, string>();
    const handler = createCallbackHandler({
      secret,
      tracker,
      onEvent: (event, { reference }) => void orders.set(reference, event.paid ? 'paid' : 'failed'),
    });
    const paid = await createCallbackRequest('payment.card.succeeded', { secret, reference: 'ORD-6' });
    const otherDeclined = await createCallbackRequest('payment.card.failed', { secret, reference: 'ORD-6' });
    expect((await handler(paid)).status).toBe(200);
    expect((await handler(otherDeclined)).status).toBe(200);
    expect(orders.get('ORD-6')).toBe('paid');
    expect((await tracker.get('ORD-6'))?.state).toBe('succeeded');
  });
});

describe('which field names a payment', () => {
  it('a checkout callback is named by its session, not by an undocumented id key a redelivery may carry', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: '9001', kind: 'checkout', amount: 2500 });
    const seen: CallbackContext['settlement'][] = [];
    const handler = createCallbackHandler({
      secret,
      tracker,
      dedupe: false,
      onEvent: (_event, context) => void seen.push(context.settlement),
    });
    const first = await createCallbackRequest('checkout.succeeded', { secret, reference: '9001' });
    const body = (await first.clone().json()) as Record<string, unknown>;
    const again = new Request(first.url, {
      method: 'POST',
      headers: first.headers,
      body: JSON.stringify({ ...body, id: 'DELIVERY-2' }),
    });
    expect((await handler(first)).status).toBe(200);
    expect((await handler(again)).status).toBe(200);
    expect(seen).toEqual(['settled', 'duplicate']);
  });
});

describe('a payment the tracker cannot tell from the recorded one (no id that both have)', () => {
  it('is the same payment: its success after a failure is refused as conflicting_outcome, the order unpaid', async () => {
    const tracker = createTransactionTracker();
    // A failure settled from the merchant's own route without ids, then a success naming one.
    await tracker.begin({ reference: 'ORD-NO-IDS', kind: 'mobile_money', amount: 1500, currency: 'KES' });
    const failed = await tracker.settle('ORD-NO-IDS', { outcome: 'failed' });
    await expect(
      tracker.settle('ORD-NO-IDS', { outcome: 'succeeded', transactionId: 'T-2' }),
    ).rejects.toMatchObject({ name: 'TransactionConflictError', reason: 'conflicting_outcome' });
    // A mobile-money failure names its payment but carries no transaction id; a success naming
    // only a transaction id shares no id with it.
    await tracker.begin({ reference: 'ORD-ONE-ID', kind: 'mobile_money', amount: 1500, currency: 'KES' });
    const declined = await tracker.settle('ORD-ONE-ID', { outcome: 'failed', paymentId: 'P-1' });
    await expect(
      tracker.settle('ORD-ONE-ID', { outcome: 'succeeded', transactionId: 'T-2' }),
    ).rejects.toMatchObject({ name: 'TransactionConflictError', reason: 'conflicting_outcome' });
    expect(await tracker.get('ORD-NO-IDS')).toEqual(failed.record);
    expect(await tracker.get('ORD-ONE-ID')).toEqual(declined.record);
  });
});
