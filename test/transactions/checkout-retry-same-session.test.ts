// A hosted checkout page may let the customer try again after a decline, in the same session: the
// session's callback URL then receives a failure, then a success, for the same order, method and
// amount. A checkout callback names no payment, so the two are told apart by their outcome: the
// success settles the order anew as paid (it was refused as the session contradicting itself, 409,
// and onEvent never ran: the customer charged, the order failed; red team). A failure after the
// success changes nothing.
import { describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  signCallbackUrl,
  type CallbackContext,
  type CallbackEvent,
} from '../../src/callbacks/index.js';
import { checkoutFailurePayload, checkoutSuccessPayload } from '../../src/sandbox/payloads.js';
import { createMemoryTransactionStore, createTransactionTracker } from '../../src/transactions/index.js';

const secret = 'whsec_checkout_retry_same_session';

async function session(reference: string) {
  const store = createMemoryTransactionStore();
  const tracker = createTransactionTracker({ store });
  await tracker.begin({ reference, kind: 'checkout', amount: 1500 });
  const seen: { event: CallbackEvent; context: CallbackContext }[] = [];
  const refusals: string[] = [];
  const handler = createCallbackHandler({
    secret,
    tracker,
    publicOrigin: 'https://shop.example',
    onEvent: (event, context) => void seen.push({ event, context }),
    onError: (_error, { reason }) => void refusals.push(reason),
  });
  // One session's URL, as the client's transactions option signs it (hp_try of its own).
  const url = await signCallbackUrl('https://shop.example/webhooks/payments?hp_try=5e551011', {
    secret,
    reference,
  });
  const post = async (body: object) =>
    (await handler(new Request(url, { method: 'POST', body: JSON.stringify(body) }))).status;
  return { store, tracker, seen, refusals, post };
}

describe.each(['card', 'mobile_money'] as const)('a %s checkout session paid after a decline', (method) => {
  const payment = { method, orderId: 'ORD-RETRY', amount: '1500' } as never;

  it('settles the order anew as paid: onEvent told, paid, once', async () => {
    const { tracker, seen, refusals, post } = await session('ORD-RETRY');
    expect(await post(checkoutFailurePayload(payment))).toBe(200);
    expect((await tracker.get('ORD-RETRY'))?.state).toBe('failed');

    expect(await post(checkoutSuccessPayload(payment))).toBe(200);
    expect(refusals).toEqual([]);
    expect((await tracker.get('ORD-RETRY'))?.state).toBe('succeeded');
    expect(seen.map(({ event, context }) => [event.type, event.paid, context.settlement])).toEqual([
      ['checkout.failed', false, 'settled'],
      ['checkout.succeeded', true, 'settled'],
    ]);

    // A redelivery of the success is dropped; the order stays paid.
    expect(await post(checkoutSuccessPayload(payment))).toBe(200);
    expect(seen).toHaveLength(2);
    expect((await tracker.get('ORD-RETRY'))?.state).toBe('succeeded');
  });

  it('a failure after the session paid changes nothing, and onEvent is not told', async () => {
    const { tracker, seen, post } = await session('ORD-PAID-FIRST');
    const paid = { method, orderId: 'ORD-PAID-FIRST', amount: '1500' } as never;
    expect(await post(checkoutSuccessPayload(paid))).toBe(200);
    // Another payment's failure (a decline is named with its outcome): 200, nothing changes.
    expect(await post(checkoutFailurePayload(paid))).toBe(200);
    expect((await tracker.get('ORD-PAID-FIRST'))?.state).toBe('succeeded');
    expect(seen.map(({ event }) => event.type)).toEqual(['checkout.succeeded']);
  });

  it('a decline recorded before declines were named with their outcome (a bare digest) is read as named now', async () => {
    const { store, tracker, seen, refusals, post } = await session('ORD-DECLINED-BEFORE');
    const payment = { method, orderId: 'ORD-DECLINED-BEFORE', amount: '1500' } as never;
    expect(await post(checkoutFailurePayload(payment))).toBe(200);
    const declined = (await tracker.get('ORD-DECLINED-BEFORE'))!;
    // What the previous release stored for the decline: the digest alone, as a success is named.
    const stored = {
      ...declined,
      outcome: {
        ...declined.outcome!,
        paymentId: declined.outcome!.paymentId!.replace(/^checkout\.failed:/, ''),
      },
    };
    expect(stored.outcome.paymentId).not.toContain(':');
    expect(await store.update(stored, 'failed', declined)).toBe(true);

    expect(await post(checkoutSuccessPayload(payment))).toBe(200);
    expect(refusals).toEqual([]);
    expect((await tracker.get('ORD-DECLINED-BEFORE'))?.state).toBe('succeeded');
    expect(seen.map(({ event }) => event.type)).toEqual(['checkout.failed', 'checkout.succeeded']);
  });

  it('a decline remembered in failedPayments before declines were named with their outcome is read as named now', async () => {
    const { store, tracker, seen, refusals, post } = await session('ORD-REMEMBERED-BEFORE');
    const payment = { method, orderId: 'ORD-REMEMBERED-BEFORE', amount: '1500' } as never;
    expect(await post(checkoutFailurePayload(payment))).toBe(200);
    const declined = (await tracker.get('ORD-REMEMBERED-BEFORE'))!;
    // What the previous release kept once another session's decline was recorded after this one:
    // this session's decline remembered by the digest alone, as its success is named.
    const stored = {
      ...declined,
      outcome: { ...declined.outcome!, paymentId: 'checkout.failed:another-session' },
      failedPayments: [{ paymentId: declined.outcome!.paymentId!.replace(/^checkout\.failed:/, '') }],
    };
    expect(stored.failedPayments[0]!.paymentId).not.toContain(':');
    expect(await store.update(stored, 'failed', declined)).toBe(true);

    // The session's success is its payment after its decline, not the decline contradicting itself.
    expect(await post(checkoutSuccessPayload(payment))).toBe(200);
    expect(refusals).toEqual([]);
    expect((await tracker.get('ORD-REMEMBERED-BEFORE'))?.state).toBe('succeeded');
    expect(seen.map(({ event }) => event.type)).toEqual(['checkout.failed', 'checkout.succeeded']);
  });
});

describe('tracker.settle: a checkout decline delivered again (the dedupe store no longer holds it)', () => {
  it("is a 'duplicate' of the recorded decline, and another session's decline is remembered once", async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-DECLINED-AGAIN', kind: 'checkout', amount: 1500 });
    const decline = {
      outcome: 'failed',
      eventType: 'checkout.failed',
      paymentId: 'checkout.failed:session-a',
    } as const;
    const first = await tracker.settle('ORD-DECLINED-AGAIN', decline);
    expect(await tracker.settle('ORD-DECLINED-AGAIN', decline)).toEqual({
      result: 'duplicate',
      record: first.record,
    });
    const other = { ...decline, paymentId: 'checkout.failed:session-b' };
    const remembered = await tracker.settle('ORD-DECLINED-AGAIN', other);
    expect(remembered.result).toBe('another_payment');
    expect(remembered.record.failedPayments).toEqual([{ paymentId: 'checkout.failed:session-b' }]);
    expect(await tracker.settle('ORD-DECLINED-AGAIN', other)).toEqual({
      result: 'another_payment',
      record: remembered.record,
    });
    expect(await tracker.get('ORD-DECLINED-AGAIN')).toEqual(remembered.record);
  });
});
