// The signed reference is checked against the reference a payload names, not only where its variant
// documents one. A card or mobile-money success documents none, yet the service may echo the
// merchant's `transaction_reference` on it as it does on the failure; a success naming order B
// posted to order A's signed URL was paid as A's (SECURITY.md promises a 409).
import { describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  signCallbackUrl,
  type CallbackEventType,
  type CallbackHandlerError,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const secret = 'whsec_reference_keys_0123456';

async function deliver(type: CallbackEventType, extra: Record<string, unknown>, signedFor: string) {
  const paid: string[] = [];
  const errors: { error: CallbackHandlerError; reason: string }[] = [];
  const handler = createCallbackHandler({
    secret,
    onEvent: (event, { reference }) => void paid.push(`${event.type}:${reference}`),
    onError: (error, { reason }) => void errors.push({ error, reason }),
  });
  const url = await signCallbackUrl('https://shop.example/webhooks/payments', {
    secret,
    reference: signedFor,
  });
  const body = { ...callbackFixtures[type], ...extra };
  const response = await handler(
    new Request(url, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }),
  );
  return { status: response.status, paid, errors };
}

const fixtureReference = (type: CallbackEventType): Record<string, unknown> => {
  const fixture = callbackFixtures[type] as Record<string, unknown>;
  for (const key of ['transaction_reference', 'order_id', 'reference_id']) {
    if (typeof fixture[key] === 'string') return { [key]: fixture[key] };
  }
  return {};
};

// Every reference key a payload carries — `transaction_reference`, `order_id`, `reference_id`, in
// any spelling the verdict reads a key in (letter case, blanks, `_` and `-` ignored) — must be the
// signed reference, but one: a card or mobile-money payment may carry the merchant's order as
// `amount.order_id` next to its own transaction_reference, and a service that echoes it must not
// turn a genuine success into a 409 that is never retried.
describe("a payload naming another reference than the signed one in its family's reference key", () => {
  it.each([
    ['payment.mobile_money.succeeded', 'transaction_reference'],
    ['payment.card.succeeded', 'transaction_reference'],
    ['payment.card.failed', 'transaction reference'],
    ['payment.card.succeeded', 'transactionReference'],
    ['payment.card.succeeded', 'Transaction-Reference'],
    ['checkout.succeeded', 'orderId'],
    ['checkout.failed', 'Order_ID'],
    ['payout.succeeded', 'reference id'],
    ['payout.failed', 'referenceId'],
    // Another family's key, spelt so the verdict does not read it as that family's payload.
    ['payout.succeeded', 'transaction reference'],
    ['payout.succeeded', 'transactionReference'],
    ['payout.failed', 'order id'],
    ['checkout.succeeded', 'transaction reference'],
    ['checkout.succeeded', 'reference_id'],
    ['payment.mobile_money.succeeded', 'reference_id'],
  ] as const)('%s with %s naming ORDER-B is 409 reference_mismatch, never applied', async (type, key) => {
    const signed = Object.values(fixtureReference(type))[0] ?? 'ORDER-A';
    const { status, paid, errors } = await deliver(type, { [key]: 'ORDER-B' }, String(signed));
    expect(paid).toEqual([]);
    expect(status).toBe(409);
    expect(errors[0]!.reason).toBe('reference_mismatch');
    expect(errors[0]!.error.message).toContain(key);
  });

  it.each([
    ['transaction_reference', 'mobile-money'],
    ['order_id', 'checkout'],
  ])('a payout carrying %s reads as a %s callback and is refused, never applied', async (key) => {
    const { status, paid } = await deliver('payout.succeeded', { [key]: 'ORDER-B' }, '123456789012');
    expect(paid).toEqual([]);
    expect(status).toBeGreaterThanOrEqual(400);
  });

  it('a number naming another reference is a mismatch too', async () => {
    const { status, paid } = await deliver(
      'payment.mobile_money.succeeded',
      { transaction_reference: 1002 },
      '1001',
    );
    expect(paid).toEqual([]);
    expect(status).toBe(409);
  });

  it.each([
    ['the signed reference itself', { transaction_reference: 'ORDER-A' }, 'ORDER-A'],
    ['the same reference as a number', { transaction_reference: 1001 }, '1001'],
    ['null', { transaction_reference: null }, 'ORDER-A'],
    ['an empty string', { transactionReference: '' }, 'ORDER-A'],
    [
      'the order it pays, echoed as order_id from amount.order_id',
      { order_id: 1001, transaction_reference: 'TX-1001-2' },
      'TX-1001-2',
    ],
  ] as const)(
    'a payment success whose extra reference key holds %s is processed',
    async (_label, extra, signed) => {
      const { status, paid } = await deliver('payment.mobile_money.succeeded', extra, signed);
      expect(status).toBe(200);
      expect(paid).toEqual([`payment.mobile_money.succeeded:${signed}`]);
    },
  );
});

describe('a reference key whose value is neither a string nor a number', () => {
  // Only a string or number can name the signed reference: an array or object whose text happens
  // to be the signed reference (String(['ORDER-9']) is 'ORDER-9') names no order, and is refused.
  it.each([
    ['an array', ['ORDER-9']],
    ['a nested array', [['ORDER-9']]],
  ])('answers 409 reference_mismatch to a transaction_reference that is %s', async (_name, value) => {
    const { status, paid, errors } = await deliver(
      'payment.mobile_money.succeeded',
      { transaction_reference: value },
      'ORDER-9',
    );
    expect({ status, paid }).toEqual({ status: 409, paid: [] });
    expect(errors.map(({ reason }) => reason)).toEqual(['reference_mismatch']);
  });
});
