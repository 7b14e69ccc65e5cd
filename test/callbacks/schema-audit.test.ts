// What the callback payload schemas and the events built from them promise, each found by a
// hand-made mutation audit of `schemas.ts` and the event builder as a change no test noticed:
// - every documented key of a variant is required: a payload missing one (an `id`, a
//   `transaction id`, the payout `reference_id`, …) matches no documented callback and is
//   refused, never reported with the field absent;
// - a key is read only under its documented spelling (`'payment status'` in a mobile-money
//   failure, `payment_status` in a checkout) and with its documented type and format;
// - the event carries the payload's own values: the amount as written, the brand word as sent;
// - every warning code a parse emits is one `callbackWarningCodes` lists.
import { describe, expect, it } from 'vitest';
import { callbackWarningCodes, safeParseCallback } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const fixtures = callbackFixtures;

/** `payload` without `key`. */
const without = (payload: object, key: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(payload).filter(([name]) => name !== key));

/** `payload` with `changes` applied; a key set to `undefined` is dropped. */
const changed = (payload: object, changes: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries({ ...payload, ...changes }).filter(([, value]) => value !== undefined));

describe('a documented key missing is refused, never reported absent', () => {
  it.each([
    ['a card success without id', without(fixtures['payment.card.succeeded'], 'id')],
    ['a card failure without transaction id', without(fixtures['payment.card.failed'], 'transaction id')],
    [
      'a mobile-money success without transaction id',
      without(fixtures['payment.mobile_money.succeeded'], 'transaction id'),
    ],
    [
      'a mobile-money success without payment_method',
      without(fixtures['payment.mobile_money.succeeded'], 'payment_method'),
    ],
    [
      'a mobile-money failure without timestamp',
      without(fixtures['payment.mobile_money.failed'], 'timestamp'),
    ],
    [
      'a mobile-money failure naming a transaction id instead of its transaction_reference',
      changed(fixtures['payment.mobile_money.failed'], {
        transaction_reference: undefined,
        'transaction id': 'TXNMOMO000002',
      }),
    ],
    ['a checkout success without payment_method', without(fixtures['checkout.succeeded'], 'payment_method')],
    ['a checkout failure without payment_method', without(fixtures['checkout.failed'], 'payment_method')],
    ['a payout success without reference_id', without(fixtures['payout.succeeded'], 'reference_id')],
    ['a payout success without transaction_id', without(fixtures['payout.succeeded'], 'transaction_id')],
    ['a payout success without wallet_balance', without(fixtures['payout.succeeded'], 'wallet_balance')],
    ['a payout success without message', without(fixtures['payout.succeeded'], 'message')],
    ['a payout failure without transaction_id', without(fixtures['payout.failed'], 'transaction_id')],
    ['a payout failure without currency', without(fixtures['payout.failed'], 'currency')],
  ])('%s', (_name, payload) => {
    const result = safeParseCallback(payload);
    expect(result.success).toBe(false);
    expect(result.event).toBeUndefined();
  });
});

describe('a documented key is read only under its own spelling, type and format', () => {
  it.each([
    [
      "a mobile-money failure with payment_status instead of 'payment status'",
      changed(fixtures['payment.mobile_money.failed'], {
        'payment status': undefined,
        payment_status: fixtures['payment.mobile_money.failed']['payment status'],
      }),
    ],
    [
      "a checkout success with 'payment status' instead of payment_status",
      changed(fixtures['checkout.succeeded'], {
        payment_status: undefined,
        'payment status': fixtures['checkout.succeeded'].payment_status,
      }),
    ],
    [
      "a checkout failure with 'payment status' instead of payment_status",
      changed(fixtures['checkout.failed'], {
        payment_status: undefined,
        'payment status': fixtures['checkout.failed'].payment_status,
      }),
    ],
    [
      "a card failure whose 'payment method' is null",
      changed(fixtures['payment.card.failed'], { 'payment method': null }),
    ],
    [
      "a card failure whose 'payment method' is an object",
      changed(fixtures['payment.card.failed'], { 'payment method': {} }),
    ],
    [
      'a payout failure whose reference_id is blank',
      changed(fixtures['payout.failed'], { reference_id: ' ' }),
    ],
    [
      'a payout failure whose reference_id is empty',
      changed(fixtures['payout.failed'], { reference_id: '' }),
    ],
  ])('refuses %s', (_name, payload) => {
    const result = safeParseCallback(payload);
    expect(result.success).toBe(false);
    expect(result.event).toBeUndefined();
  });
});

describe('the event carries the payload’s own values', () => {
  it('keeps a checkout amount as written (2500.50 stays 2500.50, not 2500.5)', () => {
    for (const amount of ['2500.50', '2500.00', '0.10']) {
      const result = safeParseCallback(changed(fixtures['checkout.succeeded'], { amount }));
      expect(result.event?.amount).toBe(amount);
    }
  });

  it('reports a card amount as the payload wrote it, not its amount captured', () => {
    const result = safeParseCallback(
      changed(fixtures['payment.card.succeeded'], { 'amount captured': '1500.00' }),
    );
    expect(result.event).toMatchObject({ type: 'payment.card.succeeded', amount: '1500' });
  });

  it.each([
    ['checkout.succeeded', 'order_id'],
    ['checkout.failed', 'order_id'],
    ['payment.mobile_money.failed', 'transaction_reference'],
    ['payout.succeeded', 'reference_id'],
    ['payout.failed', 'reference_id'],
  ] as const)('reports the %s reference exactly as sent (%s, blanks kept)', (type, key) => {
    const result = safeParseCallback(changed(fixtures[type], { [key]: ' ORDER-7 ' }));
    expect(result.event).toMatchObject({ type, reference: ' ORDER-7 ' });
  });

  it('reports the brand word a mobile-money success was paid with (M-PESA), as sent', () => {
    const result = safeParseCallback(
      changed(fixtures['payment.mobile_money.succeeded'], { payment_method: 'M-PESA' }),
    );
    expect(result.event).toMatchObject({ paymentMethod: 'mobile_money', paymentMethodLabel: 'M-PESA' });
  });

  it('reports the card payment method word as sent', () => {
    const result = safeParseCallback(
      changed(fixtures['payment.card.succeeded'], { 'payment method': 'card' }),
    );
    expect(result.event).toMatchObject({ paymentMethod: 'card', paymentMethodLabel: 'card' });
  });
});

describe('warning codes', () => {
  it('every code a parse emits is one callbackWarningCodes lists', () => {
    const emitted = [
      safeParseCallback(changed(fixtures['payment.card.succeeded'], { timestamp: 1_717_200_000_000 })),
      safeParseCallback(changed(fixtures['payment.card.succeeded'], { paid: true })),
      safeParseCallback(changed(fixtures['checkout.succeeded'], { paid: 'False' })),
    ].flatMap((result) => result.event?.warnings.map((warning) => warning.code) ?? []);
    expect(new Set(emitted)).toEqual(
      new Set(['timestamp_out_of_range', 'value_converted', 'paid_flag_contradicts_payment_status']),
    );
    for (const code of emitted) expect(callbackWarningCodes).toContain(code);
  });
});
