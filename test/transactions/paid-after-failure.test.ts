// A customer whose first attempt failed and whose second payment of the same order went through
// (two checkout tabs, the first declined; Pay pressed again while the first was pending, and the
// first then failed) has paid. The tracker's record must say so — `waitFor`, `get` and a
// reconciliation read it to answer "is this order paid?" — and `onEvent` must hear the payment as
// the order's settlement, not as a second charge to refund.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  toNodeListener,
  type CallbackContext,
  type CallbackEvent,
} from '../../src/callbacks/index.js';
import { PaymentsClient } from '../../src/client.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { createCallbackRequest } from '../../src/testing/index.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';

const secret = 'whsec_paid_after_failure_0123456789';

describe('tracker.settle: a failed transaction, then another payment of it that succeeded', () => {
  it("is 'settled': the record is succeeded, with that payment's ids", async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-1', kind: 'card', amount: 1500, currency: 'KES' });
    await tracker.settle('ORD-1', { outcome: 'failed', transactionId: 'T-1', paymentId: 'P-1' });
    const paid = await tracker.settle('ORD-1', {
      outcome: 'succeeded',
      transactionId: 'T-2',
      paymentId: 'P-2',
    });
    expect(paid.result).toBe('settled');
    expect(paid.record).toMatchObject({
      state: 'succeeded',
      outcome: { transactionId: 'T-2', paymentId: 'P-2' },
    });
    expect(await tracker.get('ORD-1')).toEqual(paid.record);
    await expect(tracker.waitFor('ORD-1', { timeout: 100 })).resolves.toMatchObject({ state: 'succeeded' });
  });

  it("after it: the first payment's failure again changes nothing, a third payment is 'another_payment', the second again 'duplicate'", async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-2', kind: 'card', amount: 1500, currency: 'KES' });
    await tracker.settle('ORD-2', { outcome: 'failed', transactionId: 'T-1' });
    const { record } = await tracker.settle('ORD-2', { outcome: 'succeeded', transactionId: 'T-2' });
    expect(await tracker.settle('ORD-2', { outcome: 'failed', transactionId: 'T-1' })).toEqual({
      result: 'another_payment',
      record,
    });
    expect(await tracker.settle('ORD-2', { outcome: 'succeeded', transactionId: 'T-3' })).toEqual({
      result: 'another_payment',
      record,
    });
    expect(await tracker.settle('ORD-2', { outcome: 'succeeded', transactionId: 'T-2' })).toEqual({
      result: 'duplicate',
      record,
    });
  });

  it('another failure after a failure is remembered, and the same payment contradicting itself is refused', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-3', kind: 'card', amount: 1500, currency: 'KES' });
    const failed = await tracker.settle('ORD-3', { outcome: 'failed', transactionId: 'T-1' });
    const other = await tracker.settle('ORD-3', { outcome: 'failed', transactionId: 'T-2' });
    expect(other.result).toBe('another_payment');
    expect(other.record).toMatchObject({
      state: 'failed',
      outcome: failed.record.outcome,
      failedPayments: [{ transactionId: 'T-2' }],
    });
    await expect(
      tracker.settle('ORD-3', { outcome: 'succeeded', transactionId: 'T-1' }),
    ).rejects.toMatchObject({
      name: 'TransactionConflictError',
      reason: 'conflicting_outcome',
    });
    expect((await tracker.get('ORD-3'))?.state).toBe('failed');
  });

  it("another payment's failure whose write meets a concurrent one is read again and remembered, the order's outcome kept", async () => {
    const memory = createMemoryTransactionStore();
    let refuse = 0;
    const store: TransactionStore = {
      ...memory,
      // The stored record changed between the read and the write (another instance wrote): false.
      update: async (record, from, previous) =>
        refuse-- > 0 ? false : memory.update(record, from, previous),
    };
    const tracker = createTransactionTracker({ store });
    for (const [reference, outcome] of [
      ['ORD-RACE-FAILED', 'failed'],
      ['ORD-RACE-PAID', 'succeeded'],
    ] as const) {
      await tracker.begin({ reference, kind: 'card', amount: 1500, currency: 'KES' });
      const settled = await tracker.settle(reference, { outcome, transactionId: 'T-1', paymentId: 'P-1' });
      refuse = 1;
      const other = await tracker.settle(reference, {
        outcome: 'failed',
        transactionId: 'T-2',
        paymentId: 'P-2',
      });
      expect(other.result).toBe('another_payment');
      expect(other.record).toMatchObject({
        state: outcome,
        outcome: settled.record.outcome,
        failedPayments: [{ transactionId: 'T-2', paymentId: 'P-2' }],
      });
      expect(await tracker.get(reference)).toEqual(other.record);
      // That payment's success is now the same payment contradicting itself.
      await expect(
        tracker.settle(reference, { outcome: 'succeeded', transactionId: 'T-2', paymentId: 'P-2' }),
      ).rejects.toMatchObject({ reason: 'conflicting_outcome' });
    }
  });
});

describe('another payment of a failed transaction that failed, then reports success (the same payment contradicting itself)', () => {
  const begun = async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-7', kind: 'card', amount: 1500, currency: 'KES' });
    await tracker.settle('ORD-7', { outcome: 'failed', transactionId: 'T-A', paymentId: 'P-A' });
    return tracker;
  };

  it("is refused as conflicting_outcome, like the recorded payment's own, and the order stays unpaid", async () => {
    const tracker = await begun();
    await tracker.settle('ORD-7', { outcome: 'failed', transactionId: 'T-B', paymentId: 'P-B' });
    const before = await tracker.get('ORD-7');
    await expect(
      tracker.settle('ORD-7', { outcome: 'succeeded', transactionId: 'T-B', paymentId: 'P-B' }),
    ).rejects.toMatchObject({ name: 'TransactionConflictError', reason: 'conflicting_outcome' });
    expect(await tracker.get('ORD-7')).toEqual(before);
  });

  it('is told by its payment id when its failure carried no transaction id (a mobile-money failure)', async () => {
    const tracker = await begun();
    await tracker.settle('ORD-7', { outcome: 'failed', paymentId: 'P-B' });
    await expect(
      tracker.settle('ORD-7', { outcome: 'succeeded', transactionId: 'T-B', paymentId: 'P-B' }),
    ).rejects.toMatchObject({ reason: 'conflicting_outcome' });
  });

  it("a redelivery of that failure is 'another_payment' and writes nothing; a third payment that paid settles it", async () => {
    const tracker = await begun();
    const other = await tracker.settle('ORD-7', { outcome: 'failed', transactionId: 'T-B' });
    expect(await tracker.settle('ORD-7', { outcome: 'failed', transactionId: 'T-B' })).toEqual(other);
    const paid = await tracker.settle('ORD-7', { outcome: 'succeeded', transactionId: 'T-C' });
    expect(paid).toMatchObject({
      result: 'settled',
      record: { state: 'succeeded', outcome: { transactionId: 'T-C' } },
    });
  });

  it('remembers the last 16 such payments; past that, a success of a payment never heard of is refused too (it may be one forgotten)', async () => {
    const tracker = await begun();
    for (let i = 1; i <= 17; i++) {
      await tracker.settle('ORD-7', { outcome: 'failed', transactionId: `T-${i}` });
    }
    const record = await tracker.get('ORD-7');
    expect(record?.failedPayments).toHaveLength(16);
    expect(record?.failedPayments?.[0]).toEqual({ transactionId: 'T-2' });
    expect(record?.failedPaymentsDropped).toBe(true);
    for (const transactionId of ['T-1', 'T-17', 'T-NEW']) {
      await expect(tracker.settle('ORD-7', { outcome: 'succeeded', transactionId })).rejects.toMatchObject({
        reason: 'conflicting_outcome',
      });
    }
    expect((await tracker.get('ORD-7'))?.state).toBe('failed');
  });

  it('through the handler: the failure is 200 without onEvent, the success 409 conflicting_outcome without onEvent', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-8', kind: 'card', amount: 1500, currency: 'KES' });
    const seen: [CallbackEvent['type'], CallbackContext['settlement']][] = [];
    const refusals: string[] = [];
    const handler = createCallbackHandler({
      secret,
      tracker,
      onEvent: (event, context) => void seen.push([event.type, context.settlement]),
      onError: (_error, { reason }) => void refusals.push(reason),
    });
    const payment = (type: 'payment.card.failed' | 'payment.card.succeeded', id: string) =>
      createCallbackRequest(type, {
        secret,
        reference: 'ORD-8',
        overrides: { id: `PAY-${id}`, 'transaction id': `TXN-${id}` },
      });
    expect((await handler(await payment('payment.card.failed', 'A'))).status).toBe(200);
    expect((await handler(await payment('payment.card.failed', 'B'))).status).toBe(200);
    expect((await handler(await payment('payment.card.succeeded', 'B'))).status).toBe(409);
    expect(seen).toEqual([['payment.card.failed', 'settled']]);
    expect(refusals).toEqual(['conflicting_outcome']);
    expect((await tracker.get('ORD-8'))?.state).toBe('failed');
  });
});

describe('a payment that failed, once another payment of the order paid, then reports success (the same payment contradicting itself)', () => {
  it('is refused as conflicting_outcome whether it was the recorded failure or one remembered in failedPayments', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-9', kind: 'card', amount: 1500, currency: 'KES' });
    await tracker.settle('ORD-9', { outcome: 'failed', transactionId: 'T-A', paymentId: 'P-A' });
    await tracker.settle('ORD-9', { outcome: 'failed', transactionId: 'T-B', paymentId: 'P-B' });
    const { record } = await tracker.settle('ORD-9', {
      outcome: 'succeeded',
      transactionId: 'T-C',
      paymentId: 'P-C',
    });
    expect(record.failedPayments).toEqual([
      { transactionId: 'T-B', paymentId: 'P-B' },
      { transactionId: 'T-A', paymentId: 'P-A' },
    ]);
    for (const [transactionId, paymentId] of [
      ['T-A', 'P-A'],
      ['T-B', 'P-B'],
    ]) {
      await expect(
        tracker.settle('ORD-9', { outcome: 'succeeded', transactionId, paymentId }),
      ).rejects.toMatchObject({ name: 'TransactionConflictError', reason: 'conflicting_outcome' });
    }
    // Their failures again change nothing; a fourth payment that paid is the customer paying twice.
    expect(
      await tracker.settle('ORD-9', { outcome: 'failed', transactionId: 'T-A', paymentId: 'P-A' }),
    ).toEqual({
      result: 'another_payment',
      record,
    });
    expect(await tracker.settle('ORD-9', { outcome: 'succeeded', transactionId: 'T-D' })).toEqual({
      result: 'another_payment',
      record,
    });
    expect(await tracker.get('ORD-9')).toEqual(record);
  });

  it('past 16 remembered failures, a success of a payment never heard of is refused too (it may be one forgotten)', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-10', kind: 'card', amount: 1500, currency: 'KES' });
    for (let i = 1; i <= 17; i++) {
      await tracker.settle('ORD-10', { outcome: 'failed', transactionId: `T-${i}` });
    }
    const paid = await tracker.settle('ORD-10', { outcome: 'succeeded', transactionId: 'T-PAID' });
    expect(paid.record.failedPaymentsDropped).toBeUndefined();
    // Two more failures, heard after the payment: the oldest remembered ones make room.
    await tracker.settle('ORD-10', { outcome: 'failed', transactionId: 'T-18' });
    const { record } = await tracker.settle('ORD-10', { outcome: 'failed', transactionId: 'T-19' });
    expect(record.failedPaymentsDropped).toBe(true);
    expect(record.failedPayments).toHaveLength(16);
    expect(record.failedPayments?.slice(-3)).toEqual([
      { transactionId: 'T-1' },
      { transactionId: 'T-18' },
      { transactionId: 'T-19' },
    ]);
    for (const transactionId of ['T-1', 'T-2', 'T-19', 'T-NEW']) {
      await expect(tracker.settle('ORD-10', { outcome: 'succeeded', transactionId })).rejects.toMatchObject({
        reason: 'conflicting_outcome',
      });
    }
    expect(await tracker.get('ORD-10')).toEqual(record);
  });

  it('also when its failure came after the order was paid (callbacks out of order): remembered, and its success refused', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-12', kind: 'card', amount: 1500, currency: 'KES' });
    const { record: paid } = await tracker.settle('ORD-12', {
      outcome: 'succeeded',
      transactionId: 'T-C',
      paymentId: 'P-C',
    });
    const failure = await tracker.settle('ORD-12', {
      outcome: 'failed',
      transactionId: 'T-A',
      paymentId: 'P-A',
    });
    expect(failure).toMatchObject({
      result: 'another_payment',
      record: {
        state: 'succeeded',
        outcome: paid.outcome,
        failedPayments: [{ transactionId: 'T-A', paymentId: 'P-A' }],
      },
    });
    // Its redelivery writes nothing more.
    expect(
      await tracker.settle('ORD-12', { outcome: 'failed', transactionId: 'T-A', paymentId: 'P-A' }),
    ).toEqual(failure);
    await expect(
      tracker.settle('ORD-12', { outcome: 'succeeded', transactionId: 'T-A2', paymentId: 'P-A' }),
    ).rejects.toMatchObject({ reason: 'conflicting_outcome' });
    expect(await tracker.get('ORD-12')).toEqual(failure.record);
  });

  it('the failure a success replaces does not push out one of 16 remembered: a new payment that paid is the customer paying twice', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-13', kind: 'card', amount: 1500, currency: 'KES' });
    await tracker.settle('ORD-13', { outcome: 'failed', transactionId: 'T-A' });
    for (let i = 1; i <= 16; i++) {
      await tracker.settle('ORD-13', { outcome: 'failed', transactionId: `T-${i}` });
    }
    const { record } = await tracker.settle('ORD-13', { outcome: 'succeeded', transactionId: 'T-C' });
    expect(record.failedPayments).toHaveLength(17);
    expect(record.failedPaymentsDropped).toBeUndefined();
    expect(await tracker.settle('ORD-13', { outcome: 'succeeded', transactionId: 'T-D' })).toEqual({
      result: 'another_payment',
      record,
    });
    for (const transactionId of ['T-A', 'T-1', 'T-16']) {
      await expect(tracker.settle('ORD-13', { outcome: 'succeeded', transactionId })).rejects.toMatchObject({
        reason: 'conflicting_outcome',
      });
    }
  });

  it('through the handler: 409 conflicting_outcome, and onEvent never hears it as a payment to refund', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-11', kind: 'card', amount: 1500, currency: 'KES' });
    const seen: [CallbackEvent['type'], boolean, CallbackContext['settlement']][] = [];
    const refusals: string[] = [];
    const handler = createCallbackHandler({
      secret,
      tracker,
      onEvent: (event, context) => void seen.push([event.type, event.paid, context.settlement]),
      onError: (_error, { reason }) => void refusals.push(reason),
    });
    const payment = (type: 'payment.card.failed' | 'payment.card.succeeded', id: string) =>
      createCallbackRequest(type, {
        secret,
        reference: 'ORD-11',
        overrides: { id: `PAY-${id}`, 'transaction id': `TXN-${id}` },
      });
    expect((await handler(await payment('payment.card.failed', 'A'))).status).toBe(200);
    expect((await handler(await payment('payment.card.succeeded', 'B'))).status).toBe(200);
    expect((await handler(await payment('payment.card.succeeded', 'A'))).status).toBe(409);
    expect(refusals).toEqual(['conflicting_outcome']);
    expect(seen).toEqual([
      ['payment.card.failed', false, 'settled'],
      ['payment.card.succeeded', true, 'settled'],
    ]);
  });
});

describe('a transaction the merchant had expired (the order cancelled), failed late, then paid by another payment', () => {
  it("is 'late', not 'settled': a route that refunds or reinstates a late payment must not ship the cancelled order", async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-5', kind: 'card', amount: 1500, currency: 'KES' });
    await tracker.expire('ORD-5');
    const declined = await tracker.settle('ORD-5', { outcome: 'failed', transactionId: 'T-1' });
    expect(declined.result).toBe('late');
    const paid = await tracker.settle('ORD-5', { outcome: 'succeeded', transactionId: 'T-2' });
    expect(paid.result).toBe('late');
    expect(paid.record).toMatchObject({ state: 'succeeded', late: true, outcome: { transactionId: 'T-2' } });
    expect(await tracker.settle('ORD-5', { outcome: 'succeeded', transactionId: 'T-2' })).toEqual({
      result: 'duplicate',
      record: paid.record,
    });
  });

  it("reaches onEvent as 'late', with transaction.late", async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-6', kind: 'card', amount: 1500, currency: 'KES' });
    await tracker.expire('ORD-6');
    const seen: [CallbackContext['settlement'], boolean | undefined][] = [];
    const handler = createCallbackHandler({
      secret,
      tracker,
      onEvent: (_event, context) => void seen.push([context.settlement, context.transaction?.late]),
    });
    const declined = await createCallbackRequest('payment.card.failed', { secret, reference: 'ORD-6' });
    const paid = await createCallbackRequest('payment.card.succeeded', { secret, reference: 'ORD-6' });
    expect((await handler(declined)).status).toBe(200);
    expect((await handler(paid)).status).toBe(200);
    expect(seen).toEqual([
      ['late', true],
      ['late', true],
    ]);
  });
});

describe('the handler with a tracker: a declined card, then another card payment of the order that paid', () => {
  it("onEvent hears the payment as the order's settlement, and the tracker says succeeded", async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-4', kind: 'card', amount: 1500, currency: 'KES' });
    const seen: [CallbackEvent['type'], CallbackContext['settlement'], boolean][] = [];
    const handler = createCallbackHandler({
      secret,
      tracker,
      onEvent: (event, context) => void seen.push([event.type, context.settlement, event.paid]),
    });
    const declined = await createCallbackRequest('payment.card.failed', { secret, reference: 'ORD-4' });
    const paid = await createCallbackRequest('payment.card.succeeded', { secret, reference: 'ORD-4' });
    expect((await handler(declined)).status).toBe(200);
    expect((await handler(paid)).status).toBe(200);
    expect(seen).toEqual([
      ['payment.card.failed', 'settled', false],
      ['payment.card.succeeded', 'settled', true],
    ]);
    expect((await tracker.get('ORD-4'))?.state).toBe('succeeded');
  });
});

describe('two checkout tabs of one order against the real sandbox: the first declined, the second paid', () => {
  const tracker = createTransactionTracker();
  const seen: { event: CallbackEvent; context: CallbackContext }[] = [];
  const refusals: string[] = [];
  const server = createServer(
    toNodeListener(
      createCallbackHandler({
        secret,
        tracker,
        onEvent: (event, context) => void seen.push({ event, context }),
        onError: (_error, { reason }) => void refusals.push(reason),
      }),
    ),
  );
  let sandbox: Sandbox;
  let client: PaymentsClient;
  let webhookUrl: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/payments`;
    sandbox = await startSandbox({ callbackDelayMs: 10, retryDelayMs: 50, log: false });
    client = new PaymentsClient({ baseUrl: sandbox.url, transactions: { tracker, secret } });
  });
  afterAll(async () => {
    await sandbox?.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('the order is paid: waitFor and get say succeeded, onEvent heard the failure and then the payment as settlements', async () => {
    const session = () =>
      client.createCheckoutSession({
        customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
        amount: { order_id: 3003, delivery_fee: 100, discount_fee: 50, total: 2500, currency: 'KES' },
        redirect_urls: {
          success_url: 'https://shop.example/thanks',
          failed_url: 'https://shop.example/failed',
          callback_url: webhookUrl,
        },
      });
    const first = await session();
    const second = await session();
    await sandbox.completeCheckout(first.checkout_link, { method: 'card', outcome: 'failure' });
    expect((await tracker.waitFor('3003', { timeout: 5_000 })).state).toBe('failed');
    await sandbox.completeCheckout(second.checkout_link, { method: 'card' });
    expect((await sandbox.waitForIdle()).ok).toBe(true);
    expect(refusals).toEqual([]);
    expect(seen.map(({ event, context }) => [event.type, event.paid, context.settlement])).toEqual([
      ['checkout.failed', false, 'settled'],
      ['checkout.succeeded', true, 'settled'],
    ]);
    expect((await tracker.waitFor('3003', { timeout: 1_000 })).state).toBe('succeeded');
  });
});
