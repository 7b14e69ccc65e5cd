// A redirect checkout's callback carries no transaction id: what tells one payment of an order from
// another is how it was paid (payment_method) and how much (amount). Two payments of one order
// under one signed reference (its order_id) — a second checkout session the customer also paid —
// are two events, the second 'another_payment', which the merchant can refund; a redelivery of the
// same callback (the same body) is still dropped.
import { describe, expect, it } from 'vitest';
import {
  callbackDedupeKey,
  createCallbackHandler,
  parseCallback,
  signCallbackUrl,
  type CallbackContext,
  type CallbackEvent,
} from '../../src/callbacks/index.js';
import { checkoutFailurePayload, checkoutSuccessPayload } from '../../src/sandbox/payloads.js';
import { createTransactionTracker } from '../../src/transactions/index.js';

const secret = 'whsec_checkout_dedupe_0123';
const route = 'https://shop.example/webhooks/payments';

async function setup(withTracker: boolean) {
  const tracker = withTracker ? createTransactionTracker() : undefined;
  if (tracker) await tracker.begin({ reference: '7', kind: 'checkout', amount: 2500 });
  const seen: { event: CallbackEvent; context: CallbackContext }[] = [];
  const handler = createCallbackHandler({
    secret,
    ...(tracker ? { tracker } : {}),
    onEvent: (event, context) => {
      seen.push({ event, context });
    },
  });
  const url = await signCallbackUrl(route, { secret, reference: '7' });
  const deliver = (body: object) =>
    handler(
      new Request(url, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      }),
    );
  return { deliver, seen };
}

const byCard = checkoutSuccessPayload({ method: 'card', orderId: 7, amount: '2500' });
const byMobile = checkoutSuccessPayload({ method: 'mobile_money', orderId: 7, amount: '2500' });

describe('two payments of one checkout order under one reference', () => {
  it.each([
    ['with a tracker', true],
    ['without a tracker', false],
  ])(
    'are two events %s (card, then mobile money), and a redelivery of either is dropped',
    async (_label, withTracker) => {
      const { deliver, seen } = await setup(withTracker);
      for (const body of [byCard, byMobile, byCard, byMobile]) expect((await deliver(body)).status).toBe(200);
      expect(seen.map(({ event }) => event.type)).toEqual(['checkout.succeeded', 'checkout.succeeded']);
      expect(seen.map(({ event }) => (event.data as { payment_method: string }).payment_method)).toEqual([
        'CARD',
        'MOBILE-MONEY',
      ]);
      if (withTracker)
        expect(seen.map(({ context }) => context.settlement)).toEqual(['settled', 'another_payment']);
    },
  );

  it('are two events when the amounts differ', async () => {
    const { deliver, seen } = await setup(false);
    const other = checkoutSuccessPayload({ method: 'card', orderId: 7, amount: '1000' });
    for (const body of [byCard, other, other]) expect((await deliver(body)).status).toBe(200);
    expect(seen).toHaveLength(2);
  });

  it('get keys that differ by method and amount, and are equal for the same payment', () => {
    const key = (body: object) => callbackDedupeKey(parseCallback(body), '7');
    expect(key(byCard)).not.toBe(key(byMobile));
    expect(key(byCard)).not.toBe(key(checkoutSuccessPayload({ method: 'card', orderId: 7, amount: '2501' })));
    expect(key(byCard)).toBe(key(JSON.parse(JSON.stringify(byCard)) as object));
    expect(key(checkoutFailurePayload({ method: 'card', orderId: 7, amount: '2500' }))).not.toBe(
      key(checkoutFailurePayload({ method: 'mobile_money', orderId: 7, amount: '2500' })),
    );
  });
});

describe('one checkout payment delivered again with its amount or method written otherwise', () => {
  it.each([
    ['the amount with trailing zeros', { amount: '2500.00' }],
    ['the amount as a JSON number', { amount: 2500 }],
    ['the method in lower case', { payment_method: 'card' }],
    ['the method with blanks around it', { payment_method: ' CARD ' }],
  ])('has the same key (%s)', (_label, change) => {
    const key = (body: object) => callbackDedupeKey(parseCallback(body), '7', 'sig');
    expect(key({ ...byCard, ...change })).toBe(key(byCard));
  });

  it('is a duplicate, not another payment the merchant would refund', async () => {
    const { deliver, seen } = await setup(true);
    for (const body of [
      byCard,
      { ...byCard, amount: '2500.00' },
      { ...byCard, payment_method: 'card' },
      { ...byMobile, payment_method: 'mobile-money' },
      byMobile,
    ])
      expect((await deliver(body)).status).toBe(200);
    expect(seen.map(({ context }) => context.settlement)).toEqual(['settled', 'another_payment']);
  });

  it("keeps a brand's key apart from another brand's", () => {
    const key = (body: object) => callbackDedupeKey(parseCallback(body), '7', 'sig');
    expect(key({ ...byMobile, payment_method: 'M-PESA' })).not.toBe(
      key({ ...byMobile, payment_method: 'AIRTEL' }),
    );
    expect(key({ ...byMobile, payment_method: 'M-PESA' })).toBe(
      key({ ...byMobile, payment_method: 'm-pesa' }),
    );
  });
});
