// createCallbackHandler({ tracker }): the callback settles the pending transaction exactly once.
import { describe, expect, it, vi } from 'vitest';
import {
  createCallbackHandler,
  signCallbackUrl,
  type CallbackContext,
  type CallbackEvent,
  type CallbackRejectionReason,
} from '../../src/callbacks/index.js';
import { buildCallbackPayload } from '../../src/sandbox/payloads.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  TransactionConflictError,
  UnknownTransactionError,
} from '../../src/transactions/index.js';

const secret = 'whsec_0123456789abcdef';
const route = 'https://shop.example/webhooks/payments';

const deliver = async (
  handler: (request: Request) => Promise<Response>,
  reference: string,
  body: object,
): Promise<Response> =>
  handler(
    new Request(await signCallbackUrl(route, { secret, reference }), {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }),
  );

function setup() {
  const tracker = createTransactionTracker();
  const onEvent = vi.fn(async (_event: CallbackEvent, _context: CallbackContext) => {});
  const errors: { error: unknown; status: number; reason: CallbackRejectionReason }[] = [];
  const handler = createCallbackHandler({
    secret,
    tracker,
    onEvent,
    onError: (error, { status, reason }) => {
      errors.push({ error, status, reason });
    },
  });
  return { tracker, handler, onEvent, errors };
}

describe('createCallbackHandler({ tracker })', () => {
  it('settles the pending transaction, wakes waitFor, and hands onEvent the record', async () => {
    const { tracker, handler, onEvent, errors } = setup();
    await tracker.begin({ reference: 'ORD-1', kind: 'mobile_money', amount: 1500, currency: 'KES' });
    const waiting = tracker.waitFor('ORD-1', { timeout: 5_000 });
    const response = await deliver(
      handler,
      'ORD-1',
      buildCallbackPayload('payment.mobile_money.succeeded', { amount: 1500 }),
    );
    expect(response.status).toBe(200);
    const record = await waiting;
    expect(record).toMatchObject({
      reference: 'ORD-1',
      state: 'succeeded',
      outcome: { eventType: 'payment.mobile_money.succeeded', amount: '1500' },
    });
    expect(onEvent).toHaveBeenCalledTimes(1);
    expect(onEvent.mock.calls[0]![1]).toMatchObject({
      reference: 'ORD-1',
      transaction: record,
      settlement: 'settled',
    });
    expect(errors).toEqual([]);
  });

  it('answers 409 unknown_reference to a callback for a reference never recorded, and reports it', async () => {
    const { handler, onEvent, errors } = setup();
    const response = await deliver(
      handler,
      '9999',
      buildCallbackPayload('checkout.succeeded', { reference: '9999' }),
    );
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: 'unknown_reference' });
    expect(onEvent).not.toHaveBeenCalled();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 409, reason: 'unknown_reference' });
    expect(errors[0]!.error).toBeInstanceOf(UnknownTransactionError);
  });

  it('refuses a contradictory second outcome with 409 conflicting_outcome, reports it, and never applies it', async () => {
    const { tracker, handler, onEvent, errors } = setup();
    await tracker.begin({ reference: '100000000001', kind: 'payout', amount: 1000, currency: 'KES' });
    const success = buildCallbackPayload('payout.succeeded', { reference: '100000000001', amount: 1000 });
    expect((await deliver(handler, '100000000001', success)).status).toBe(200);
    // The same payout (its transaction_id) reported as failed: another payout's failure would be
    // 'another_payment' (test/transactions/another-payment.test.ts).
    const failure = {
      ...buildCallbackPayload('payout.failed', { reference: '100000000001', amount: 1000 }),
      transaction_id: success.transaction_id,
    };
    const response = await deliver(handler, '100000000001', failure);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: 'conflicting_outcome' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 409, reason: 'conflicting_outcome' });
    expect(errors[0]!.error).toBeInstanceOf(TransactionConflictError);
    expect(onEvent).toHaveBeenCalledTimes(1);
    expect((await tracker.get('100000000001'))?.state).toBe('succeeded');
    // The same success again is a duplicate: 200, settled once.
    expect((await deliver(handler, '100000000001', success)).status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it('releases the claim of a refused conflicting outcome: its redelivery is refused 409 again, not held 503 in_progress', async () => {
    const { tracker, handler, onEvent, errors } = setup();
    await tracker.begin({ reference: '100000000002', kind: 'payout', amount: 1000, currency: 'KES' });
    const success = buildCallbackPayload('payout.succeeded', { reference: '100000000002', amount: 1000 });
    expect((await deliver(handler, '100000000002', success)).status).toBe(200);
    const failure = {
      ...buildCallbackPayload('payout.failed', { reference: '100000000002', amount: 1000 }),
      transaction_id: success.transaction_id,
    };
    for (const attempt of [1, 2]) {
      const response = await deliver(handler, '100000000002', failure);
      expect({ attempt, status: response.status, body: await response.json() }).toEqual({
        attempt,
        status: 409,
        body: { error: 'conflicting_outcome' },
      });
    }
    expect(errors.map(({ status, reason }) => `${status} ${reason}`)).toEqual([
      '409 conflicting_outcome',
      '409 conflicting_outcome',
    ]);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it('settles an expired transaction from a late genuine callback, and tells onEvent it came late', async () => {
    const { tracker, handler, onEvent, errors } = setup();
    await tracker.begin({ reference: 'STK-1', kind: 'mobile_money', amount: 800, currency: 'KES' });
    await tracker.expire('STK-1');
    const failure = buildCallbackPayload('payment.mobile_money.failed', { reference: 'STK-1', amount: 800 });
    expect((await deliver(handler, 'STK-1', failure)).status).toBe(200);
    expect(onEvent.mock.calls[0]![1]).toMatchObject({
      settlement: 'late',
      transaction: { state: 'failed', late: true },
    });
    expect(errors).toEqual([]);
  });

  it('answers 422 amount_mismatch when the callback amount is not the recorded one, and leaves it pending', async () => {
    const { tracker, handler, onEvent, errors } = setup();
    await tracker.begin({ reference: '2002', kind: 'checkout', amount: 2500, currency: 'KES' });
    const response = await deliver(
      handler,
      '2002',
      buildCallbackPayload('checkout.succeeded', { reference: '2002', amount: 25 }),
    );
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: 'amount_mismatch' });
    expect(errors).toMatchObject([{ status: 422, reason: 'amount_mismatch' }]);
    expect(onEvent).not.toHaveBeenCalled();
    expect((await tracker.get('2002'))?.state).toBe('pending');
  });

  it('answers 422 currency_mismatch when the callback currency is not the recorded one', async () => {
    const { tracker, handler, errors } = setup();
    await tracker.begin({ reference: '100000000002', kind: 'payout', amount: 10, currency: 'KES' });
    const payload = buildCallbackPayload('payout.succeeded', {
      reference: '100000000002',
      amount: 10,
      currency: 'UGX',
    });
    expect((await deliver(handler, '100000000002', payload)).status).toBe(422);
    expect(errors).toMatchObject([{ status: 422, reason: 'currency_mismatch' }]);
    expect((await tracker.get('100000000002'))?.state).toBe('pending');
  });

  it('refuses a callback of another kind than the recorded transaction', async () => {
    const { tracker, handler, errors } = setup();
    await tracker.begin({ reference: '3003', kind: 'card', amount: 1500, currency: 'KES' });
    const payload = buildCallbackPayload('checkout.succeeded', { reference: '3003', amount: 1500 });
    expect((await deliver(handler, '3003', payload)).status).toBe(409);
    expect(errors).toMatchObject([{ status: 409, reason: 'transaction_kind_mismatch' }]);
    expect((await tracker.get('3003'))?.state).toBe('pending');
  });

  it('calls onEvent again, marked duplicate, when the first onEvent threw: settled once, processed at least once', async () => {
    const tracker = createTransactionTracker();
    let calls = 0;
    const contexts: CallbackContext[] = [];
    const handler = createCallbackHandler({
      secret,
      tracker,
      onEvent: (_event, context) => {
        contexts.push(context);
        if (++calls === 1) throw new Error('database down');
      },
      onError: () => undefined,
    });
    await tracker.begin({ reference: 'ORD-4', kind: 'card', amount: 1500, currency: 'KES' });
    const payload = buildCallbackPayload('payment.card.succeeded', { amount: 1500 });
    expect((await deliver(handler, 'ORD-4', payload)).status).toBe(500);
    expect((await deliver(handler, 'ORD-4', payload)).status).toBe(200);
    expect(contexts.map((c) => c.settlement)).toEqual(['settled', 'duplicate']);
  });
});

describe('createCallbackHandler({ tracker }) with a reference begin would refuse', () => {
  it('answers 409 unknown_reference to a signed reference over 256 characters', async () => {
    const { handler, errors } = setup();
    const reference = 'R'.repeat(300);
    // No order_id the service issues is that long: the payload is put together by hand.
    const response = await deliver(handler, reference, {
      ...buildCallbackPayload('checkout.succeeded'),
      order_id: reference,
    });
    expect(response.status).toBe(409);
    expect(errors).toMatchObject([{ status: 409, reason: 'unknown_reference' }]);
  });
});

describe('createCallbackHandler({ tracker }) when the store cannot write the settlement', () => {
  it('answers 500 handler_failed with the store error, never acknowledges the paid callback, and settles its redelivery', async () => {
    const store = createMemoryTransactionStore();
    let down = true;
    const tracker = createTransactionTracker({
      store: {
        ...store,
        update: (record, from) =>
          down ? Promise.reject(new Error('store unreachable')) : store.update(record, from),
      },
    });
    const onEvent = vi.fn(async (_event: CallbackEvent, _context: CallbackContext) => {});
    const errors: { error: unknown; status: number; reason: CallbackRejectionReason }[] = [];
    const handler = createCallbackHandler({
      secret,
      tracker,
      onEvent,
      onError: (error, { status, reason }) => {
        errors.push({ error, status, reason });
      },
    });
    await tracker.begin({ reference: 'ORD-DOWN', kind: 'mobile_money', amount: 1500, currency: 'KES' });
    const paid = buildCallbackPayload('payment.mobile_money.succeeded', { amount: 1500 });

    const response = await deliver(handler, 'ORD-DOWN', paid);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'handler_failed' });
    expect(errors).toMatchObject([{ status: 500, reason: 'handler_failed' }]);
    expect((errors[0]!.error as Error).message).toBe('store unreachable');
    expect(onEvent).not.toHaveBeenCalled();
    expect((await tracker.get('ORD-DOWN'))?.state).toBe('pending');

    // The claim was released: the sender's redelivery settles it.
    down = false;
    expect((await deliver(handler, 'ORD-DOWN', paid)).status).toBe(200);
    expect(onEvent.mock.calls[0]![1]).toMatchObject({
      settlement: 'settled',
      transaction: { state: 'succeeded' },
    });
  });
});
