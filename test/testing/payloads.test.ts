import { describe, expect, it } from 'vitest';
import { callbackEventTypes } from '../../src/callbacks/events.js';
import { parseCallback } from '../../src/callbacks/parse.js';
import { callbackPayloadOptions } from '../../src/sandbox/payloads.js';
import {
  callbackSchemas,
  type CardPaymentFailureCallback,
  type CardPaymentSuccessCallback,
  type CheckoutFailureCallback,
  type CheckoutSuccessCallback,
  type MobileMoneyPaymentFailureCallback,
  type MobileMoneyPaymentSuccessCallback,
  type PayoutFailureCallback,
  type PayoutSuccessCallback,
} from '../../src/callbacks/schemas.js';
import {
  buildCallbackPayload,
  callbackFixtures,
  checkoutFailurePayload,
  checkoutSuccessPayload,
  mobileMoneyPaymentFailurePayload,
  mobileMoneyPaymentSuccessPayload,
} from '../../src/testing/index.js';

describe('callback payload builders', () => {
  it('build payloads the callback schemas accept as their documented types', () => {
    // Compile-time: the builders' payloads are the callbacks' payload types.
    const f = callbackFixtures;
    f['payment.card.succeeded'] satisfies CardPaymentSuccessCallback;
    f['payment.card.failed'] satisfies CardPaymentFailureCallback;
    f['payment.mobile_money.succeeded'] satisfies MobileMoneyPaymentSuccessCallback;
    f['payment.mobile_money.failed'] satisfies MobileMoneyPaymentFailureCallback;
    f['checkout.succeeded'] satisfies CheckoutSuccessCallback;
    f['checkout.failed'] satisfies CheckoutFailureCallback;
    f['payout.succeeded'] satisfies PayoutSuccessCallback;
    f['payout.failed'] satisfies PayoutFailureCallback;
    expect(Object.keys(callbackSchemas)).toHaveLength(8);
  });

  it.each(callbackEventTypes)(
    'fixture %s parses as its own type with no warnings but the documented one',
    (type) => {
      const event = parseCallback(callbackFixtures[type]);
      expect(event.type).toBe(type);
      expect(event.warnings.map((warning) => warning.code)).toEqual(
        type === 'checkout.succeeded' ? ['paid_flag_contradicts_payment_status'] : [],
      );
    },
  );

  it.each(callbackEventTypes)('buildCallbackPayload(%s) parses as its own type', (type) => {
    expect(parseCallback(buildCallbackPayload(type)).type).toBe(type);
  });

  it('use the spec keys, types and texts (spec §2.9)', () => {
    expect(callbackFixtures['payment.card.succeeded']).toEqual({
      id: 'PAYCARD000001',
      status: 200,
      'payment method': 'CARD',
      message: 'CARD Payment Success',
      amount: '1500',
      currency: 'KES',
      'amount captured': '1500',
      'payment status': 'Payment complete.',
      'transaction id': 'TXNCARD000001',
      paid: 'True',
      timestamp: 1717200000,
    });
    expect(callbackFixtures['payment.mobile_money.failed']).toEqual({
      id: 'PAYMOMO000002',
      transaction_reference: 'ORDER-1002',
      response_status: 406,
      amount: 1500,
      paid: 'False',
      'payment status': 'Payment Incomplete.',
      message: 'Insufficient funds',
      timestamp: 1717200000,
    });
    expect(Object.isFrozen(callbackFixtures['payout.failed'])).toBe(true);
    expect(callbackFixtures['payout.failed']).not.toHaveProperty('payout_fee');
  });

  it('put the brand word into mobile-money and checkout texts', () => {
    expect(mobileMoneyPaymentSuccessPayload({ amount: '10' }, 'M-PESA')).toMatchObject({
      payment_method: 'M-PESA',
      message: 'M-PESA Payment Success',
      amount: 10,
      amount_captured: 10,
    });
    expect(
      checkoutSuccessPayload({ method: 'mobile_money', orderId: 5, amount: 10 }, 'M-PESA'),
    ).toMatchObject({
      payment_method: 'M-PESA',
      paid: 'True',
      message: 'M-PESA Payment Successful',
      order_id: '5',
      amount: '10',
    });
    expect(checkoutSuccessPayload({ method: 'card', orderId: 5, amount: 10 })).toMatchObject({
      paid: 'False',
      payment_status: 'Payment complete.',
      message: 'Card Payment Successful',
    });
    expect(checkoutFailurePayload({ method: 'mobile_money', orderId: 5, amount: 10 })).toMatchObject({
      payment_method: 'MOBILE-MONEY',
      message: 'Insufficient funds',
      payment_status: 'Payment Incomplete.',
    });
    expect(mobileMoneyPaymentFailurePayload({ amount: 1, transactionReference: 'R' }).response_status).toBe(
      406,
    );
  });
});

describe('buildCallbackPayload refuses what the service would never send', () => {
  const refusal = (run: () => unknown): Error => {
    try {
      run();
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected a throw');
  };

  it('refuses an option it does not know, naming it', () => {
    const error = refusal(() => buildCallbackPayload('payout.failed', { referenc: '999999999999' } as never));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^buildCallbackPayload: unknown option "referenc"/);
  });

  it('refuses an event type it does not know, listing the eight', () => {
    const error = refusal(() => buildCallbackPayload('nope' as never));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain('"nope"');
    for (const type of callbackEventTypes) expect(error.message).toContain(type);
  });

  it.each([
    ['payment.mobile_money.succeeded', 'abc'],
    ['payment.mobile_money.failed', '12.5'],
    ['payment.card.succeeded', 'abc'],
    ['payout.succeeded', -1],
    ['checkout.failed', 1.5],
  ] as const)('refuses a %s amount of %j that is not a whole number, naming amount', (type, amount) => {
    const error = refusal(() => buildCallbackPayload(type, { amount }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^buildCallbackPayload: amount: /);
  });

  it('refuses a mobile-money amount a JSON number cannot carry exactly', () => {
    const error = refusal(() =>
      buildCallbackPayload('payment.mobile_money.succeeded', { amount: '90071992547409930' }),
    );
    expect(error.message).toMatch(/^buildCallbackPayload: amount: /);
  });

  it.each([
    ['payout.succeeded', 'ORDER-7', 'reference_id'],
    ['checkout.succeeded', 'ORDER-7', 'order_id'],
    ['payment.mobile_money.failed', '', 'transaction_reference'],
  ] as const)('refuses a %s reference %j its payload cannot carry', (type, reference, field) => {
    const error = refusal(() => buildCallbackPayload(type, { reference }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^buildCallbackPayload: reference: /);
    expect(error.message).toContain(field);
  });

  it.each([
    ['currency', 'payout.failed', { currency: 'XYZ' }],
    ['currency', 'payout.failed', { currency: 'abcd' }],
    ['brand', 'payment.mobile_money.succeeded', { brand: '' }],
    ['brand', 'payment.mobile_money.succeeded', { brand: 'CARD' }],
    ['brand', 'payment.mobile_money.succeeded', { brand: ' card ' }],
  ] as const)('refuses a bad %s', (name, type, options) => {
    const error = refusal(() => buildCallbackPayload(type, options));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(new RegExp(`^buildCallbackPayload: ${name}: `));
  });

  it('builds what the callback schemas accept for good values, the currency upper-cased', () => {
    const reference = { payout: '123456789012', checkout: '42', payment: 'R-1' };
    for (const type of callbackEventTypes) {
      const carries = callbackPayloadOptions[type];
      const payload = buildCallbackPayload(type, {
        amount: 250,
        ...(carries.includes('reference') && { reference: reference[type.split('.')[0] as 'payout'] }),
        ...(carries.includes('currency') && { currency: 'usd' }),
        ...(carries.includes('brand') && { brand: 'M-PESA' }),
      });
      expect(callbackSchemas[type].safeParse(payload).success).toBe(true);
      if ('currency' in payload) expect(payload.currency).toBe('USD');
    }
  });

  it.each([
    ['payment.mobile_money.succeeded', { currency: 'KES' }, 'currency'],
    ['payment.mobile_money.failed', { currency: 'USD' }, 'currency'],
    ['checkout.failed', { currency: 'KES' }, 'currency'],
    ['payment.card.succeeded', { brand: 'M-PESA' }, 'brand'],
    ['payment.mobile_money.failed', { brand: 'M-PESA' }, 'brand'],
    ['checkout.succeeded', { brand: 'M-PESA' }, 'brand'],
    ['payout.failed', { brand: 'M-PESA' }, 'brand'],
  ] as const)('refuses for %s an option %j its payload has no place for', (type, options, name) => {
    const error = refusal(() => buildCallbackPayload(type, options));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(
      new RegExp(`^buildCallbackPayload: ${name}: a ${type.replace('.', '\\.')} payload`),
    );
  });

  it('takes a reference for every type, as the delivery it is signed into (the URL), and writes it where the payload has a field', () => {
    for (const type of callbackEventTypes) {
      const reference = type.startsWith('payout.')
        ? '123456789012'
        : type.startsWith('checkout.')
          ? '42'
          : 'R-1';
      const payload: Record<string, unknown> = buildCallbackPayload(type, { reference });
      const field =
        { 'payment.mobile_money.failed': 'transaction_reference' }[type as string] ??
        (type.startsWith('checkout.') ? 'order_id' : type.startsWith('payout.') ? 'reference_id' : undefined);
      if (field === undefined) expect(Object.values(payload)).not.toContain(reference);
      else expect(payload[field]).toBe(reference);
    }
  });

  it('names, per type, the options its payload carries', () => {
    expect(callbackPayloadOptions).toEqual({
      'payment.card.succeeded': ['amount', 'currency'],
      'payment.card.failed': ['amount', 'currency'],
      'payment.mobile_money.succeeded': ['amount', 'brand'],
      'payment.mobile_money.failed': ['amount', 'reference'],
      'checkout.succeeded': ['amount', 'reference'],
      'checkout.failed': ['amount', 'reference'],
      'payout.succeeded': ['amount', 'currency', 'reference'],
      'payout.failed': ['amount', 'currency', 'reference'],
    });
  });
});

describe('buildCallbackPayload never builds a success the handler refuses', () => {
  it.each(callbackEventTypes.filter((type) => type.endsWith('.succeeded')))(
    '%s of amount 0 is a TypeError naming amount (a success of zero is refused as contradictory_outcome)',
    (type) => {
      expect(() => buildCallbackPayload(type, { amount: 0 })).toThrow(/amount/);
    },
  );

  it.each(callbackEventTypes.filter((type) => type.endsWith('.failed')))(
    '%s of amount 0 is built, and parsed as a failure',
    (type) => {
      expect(parseCallback(buildCallbackPayload(type, { amount: 0 })).paid).toBe(false);
    },
  );
});

describe('createCallbackRequest: only a success amount must be at least 1', () => {
  it('a payout success with no fee and an empty wallet is built, and the handler takes it (review)', async () => {
    const { createCallbackRequest } = await import('../../src/testing/index.js');
    const { createCallbackHandler } = await import('../../src/callbacks/index.js');
    const secret = 'whsec_zero_fee_0123456789';
    const request = await createCallbackRequest('payout.succeeded', {
      secret,
      overrides: { payout_fee: '0', wallet_balance: '0' },
    });
    const handler = createCallbackHandler({
      secret,
      publicOrigin: 'https://shop.example',
      onEvent: () => undefined,
    });
    expect((await handler(request)).status).toBe(200);
  });
});

describe('the plain builders given the card method word as a mobile-money brand', () => {
  // A mobile-money payload under `payment_method: 'CARD'`, or a mobile-money checkout success
  // reading as a card one with `paid: 'True'`: callbacks the service never sends.
  it.each([
    ['mobileMoneyPaymentSuccessPayload', () => mobileMoneyPaymentSuccessPayload({ amount: 1500 }, 'CARD')],
    [
      'checkoutSuccessPayload',
      () => checkoutSuccessPayload({ method: 'mobile_money', orderId: 1, amount: '10' }, 'Card'),
    ],
    [
      'checkoutFailurePayload',
      () => checkoutFailurePayload({ method: 'mobile_money', orderId: 1, amount: '10' }, ' CARD'),
    ],
  ])('%s refuses it', (name, build) => {
    expect(build).toThrow(TypeError);
    expect(build).toThrow(new RegExp(`^${name}: brand: `));
  });

  it('a card checkout ignores the brand, as before', () => {
    expect(checkoutSuccessPayload({ method: 'card', orderId: 1, amount: '10' }, 'CARD').payment_method).toBe(
      'CARD',
    );
  });
});
