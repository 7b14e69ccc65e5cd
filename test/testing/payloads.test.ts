import { describe, expect, it } from 'vitest';
import { callbackEventTypes } from '../../src/callbacks/events.js';
import { parseCallback } from '../../src/callbacks/parse.js';
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
    expect(
      parseCallback(buildCallbackPayload(type, { brand: 'M-PESA', reference: '123456789012' })).type,
    ).toBe(type);
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
