// A checkout callback names no payment: its dedupe key (and the tracker's payment id, taken from
// it) is a digest of its order, payment method, amount and session URL. The verdict reads the
// amount as a decimal (`'2500.00'` is `'2500'`) and the payment method by its kind (`'Card'`,
// `' CARD'` are `CARD`; any other word is mobile money): a redelivery of one payment in another of
// these spellings is that payment again, never a second one to refund or ship.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  callbackDedupeKey,
  createCallbackHandler,
  parseCallback,
  signCallbackUrl,
  type CallbackContext,
  type CallbackEvent,
  type DedupeStore,
} from '../../src/callbacks/index.js';
import { checkoutFailurePayload, checkoutSuccessPayload } from '../../src/sandbox/payloads.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionTracker,
} from '../../src/transactions/index.js';

const secret = 'whsec_checkout_dedupe_spelling_0123';
const route = 'https://shop.example/webhooks/payments?hp_try=5e551011';

async function setup(options: { tracker?: TransactionTracker; dedupe?: DedupeStore | false } = {}) {
  const seen: { event: CallbackEvent; context: CallbackContext }[] = [];
  const refusals: string[] = [];
  const handler = createCallbackHandler({
    secret,
    publicOrigin: 'https://shop.example',
    ...options,
    onEvent: (event, context) => void seen.push({ event, context }),
    onError: (_error, { reason }) => void refusals.push(reason),
  });
  const url = await signCallbackUrl(route, { secret, reference: '1001' });
  const signature = new URL(url).searchParams.get('hp_sig')!;
  const deliver = async (body: object) =>
    (await handler(new Request(url, { method: 'POST', body: JSON.stringify(body) }))).status;
  return { seen, refusals, deliver, signature };
}

const card = checkoutSuccessPayload({ method: 'card', orderId: '1001', amount: '2500' });
const mobile = checkoutSuccessPayload({ method: 'mobile_money', orderId: '1001', amount: '2500' });
const respelt = [
  ['amount "2500.00"', { ...card, amount: '2500.00' }],
  ['amount "2500.0"', { ...card, amount: '2500.0' }],
  ['payment_method "Card"', { ...card, payment_method: 'Card' }],
  ['payment_method " CARD"', { ...card, payment_method: ' CARD' }],
] as const;

/** The key as the release before derived it: the raw text of the payload's fields. */
const keyOfRawFields = (body: Record<string, unknown>, type: string, signature: string): string =>
  `${type}:${createHash('sha256')
    .update(
      [body.order_id, body.payment_method, body.amount, '1001', signature]
        .map((part) => encodeURIComponent(String(part)))
        .join(':'),
    )
    .digest('hex')}`;

describe('a checkout success redelivered in another spelling the verdict reads alike', () => {
  it.each(respelt)(
    '(%s) is dropped as a duplicate without a tracker: onEvent once',
    async (_label, again) => {
      const { seen, deliver } = await setup();
      expect(await deliver(card)).toBe(200);
      expect(await deliver(again)).toBe(200);
      expect(seen).toHaveLength(1);
    },
  );

  it.each(respelt)('(%s) is dropped as a duplicate with a tracker: settled once', async (_label, again) => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: '1001', kind: 'checkout', amount: '2500', currency: 'KES' });
    const { seen, deliver } = await setup({ tracker });
    expect(await deliver(card)).toBe(200);
    expect(await deliver(again)).toBe(200);
    expect(seen.map(({ context }) => context.settlement)).toEqual(['settled']);
  });

  it.each(respelt)(
    "(%s) reaching the tracker (no dedupe store) is a 'duplicate', never 'another_payment'",
    async (_label, again) => {
      const tracker = createTransactionTracker();
      await tracker.begin({ reference: '1001', kind: 'checkout', amount: '2500', currency: 'KES' });
      const { seen, deliver } = await setup({ tracker, dedupe: false });
      expect(await deliver(card)).toBe(200);
      expect(await deliver(again)).toBe(200);
      expect(seen.map(({ context }) => context.settlement)).toEqual(['settled', 'duplicate']);
    },
  );

  it('a mobile-money one is the same payment whatever the brand word or its spelling', async () => {
    const { seen, deliver } = await setup();
    for (const method of ['MOBILE-MONEY', 'mobile-money', ' MOBILE-MONEY ', 'M-PESA']) {
      expect(await deliver({ ...mobile, payment_method: method })).toBe(200);
    }
    expect(seen).toHaveLength(1);
  });
});

describe('callbackDedupeKey of a checkout', () => {
  const key = (body: object) => callbackDedupeKey(parseCallback(body), '1001', 'sig');

  it('is derived from the amount as a decimal and the payment method by its kind', () => {
    for (const [, again] of respelt) expect(key(again)).toBe(key(card));
    expect(key({ ...mobile, payment_method: 'M-PESA' })).toBe(key(mobile));
    const declined = checkoutFailurePayload({ method: 'card', orderId: '1001', amount: '2500' });
    expect(key({ ...declined, amount: '2500.00', payment_method: 'card' })).toBe(key(declined));
  });

  it('still tells card from mobile money, and one amount from another', () => {
    expect(key(card)).not.toBe(key(mobile));
    expect(key(card)).not.toBe(key({ ...card, amount: '2500.01' }));
    expect(key(card)).not.toBe(key({ ...card, amount: '250' }));
  });

  it('is the key the release before gave a payload spelt as the API reference documents it (CARD, MOBILE-MONEY, 2500)', () => {
    for (const body of [
      card,
      mobile,
      checkoutFailurePayload({ method: 'card', orderId: '1001', amount: '2500' }),
    ]) {
      const event = parseCallback(body);
      expect(callbackDedupeKey(event, '1001', 'sig')).toBe(keyOfRawFields(body, event.type, 'sig'));
    }
  });
});

describe('a checkout payment the release before processed under the key of its raw spelling', () => {
  it("is still that payment for a tracker record it settled: a redelivery is a 'duplicate', not 'another_payment'", async () => {
    const store = createMemoryTransactionStore();
    const tracker = createTransactionTracker({ store });
    await tracker.begin({ reference: '1001', kind: 'checkout', amount: '2500', currency: 'KES' });
    const { seen, refusals, deliver, signature } = await setup({ tracker, dedupe: false });
    const body = { ...mobile, payment_method: 'M-PESA' };
    const before = keyOfRawFields(body, 'checkout.succeeded', signature);
    await tracker.settle('1001', {
      outcome: 'succeeded',
      eventType: 'checkout.succeeded',
      amount: '2500',
      paymentId: before.slice(before.indexOf(':') + 1),
    });
    expect(await deliver(body)).toBe(200);
    expect(refusals).toEqual([]);
    expect(seen.map(({ context }) => context.settlement)).toEqual(['duplicate']);
  });

  it('a decline it recorded is still that decline: its session paid after it settles the order', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: '1001', kind: 'checkout', amount: '2500', currency: 'KES' });
    const { seen, refusals, deliver, signature } = await setup({ tracker, dedupe: false });
    const declined = {
      ...checkoutFailurePayload({ method: 'card', orderId: '1001', amount: '2500' }),
      payment_method: 'Card',
    };
    await tracker.settle('1001', {
      outcome: 'failed',
      eventType: 'checkout.failed',
      amount: '2500',
      paymentId: keyOfRawFields(declined, 'checkout.failed', signature),
    });
    expect(await deliver(declined)).toBe(200);
    expect(await deliver(card)).toBe(200);
    expect(refusals).toEqual([]);
    expect(seen.map(({ event, context }) => [event.type, context.settlement])).toEqual([
      ['checkout.failed', 'duplicate'],
      ['checkout.succeeded', 'settled'],
    ]);
  });
});
