import { describe, expectTypeOf, it } from 'vitest';
import type { callbackEventTypes } from '../../src/callbacks/index.js';
import {
  parseCallback,
  safeParseCallback,
  type CallbackEvent,
  type CallbackEventOf,
  type CallbackEventType,
  type CallbackParseReason,
  type CallbackWarning,
  type CallbackWarningCode,
  type CardPaymentSuccessCallback,
  type CallbackContext,
  createCallbackHandler,
  type CheckoutSucceededEvent,
} from '../../src/callbacks/index.js';

declare const event: CallbackEvent;

describe('CallbackEvent types', () => {
  it('allows an exhaustive switch with a never default', () => {
    const handle = (e: CallbackEvent): string => {
      switch (e.type) {
        case 'payment.card.succeeded':
        case 'payment.card.failed':
        case 'payment.mobile_money.succeeded':
        case 'payment.mobile_money.failed':
        case 'checkout.succeeded':
        case 'checkout.failed':
        case 'payout.succeeded':
        case 'payout.failed':
          return e.type;
        default: {
          const unhandled: never = e;
          return unhandled;
        }
      }
    };
    expectTypeOf(handle).returns.toEqualTypeOf<string>();
  });

  it('types data per variant, keys with spaces included', () => {
    if (event.type === 'payment.card.succeeded') {
      expectTypeOf(event.data['payment status']).toEqualTypeOf<string>();
      expectTypeOf(event.data['amount captured']).toEqualTypeOf<string>();
      expectTypeOf(event.data.status).toEqualTypeOf<number>();
      expectTypeOf(event.data.paid).toEqualTypeOf<'True' | 'False'>();
      expectTypeOf(event.paid).toEqualTypeOf<true>();
      expectTypeOf(event.paymentMethod).toEqualTypeOf<'card'>();
      // a valid Date, or absent when the timestamp is out of range
      expectTypeOf(event.occurredAt).toEqualTypeOf<Date | undefined>();
      expectTypeOf(event.data).toExtend<Readonly<CardPaymentSuccessCallback>>();
    }
    if (event.type === 'payment.mobile_money.succeeded') {
      expectTypeOf(event.data.amount).toEqualTypeOf<number>();
      expectTypeOf(event.data['transaction id']).toEqualTypeOf<string>();
      // @ts-expect-error the mobile-money success uses payment_status, without a space
      void event.data['payment status'].length;
    }
    if (event.type === 'payment.mobile_money.failed') {
      expectTypeOf(event.data['payment status']).toEqualTypeOf<string>();
      expectTypeOf(event.reference).toEqualTypeOf<string>();
    }
    if (event.type === 'checkout.succeeded' || event.type === 'checkout.failed') {
      expectTypeOf(event.paymentMethod).toEqualTypeOf<'card' | 'mobile_money'>();
      expectTypeOf(event.data.order_id).toEqualTypeOf<string>();
    }
    if (event.type === 'payout.succeeded') {
      expectTypeOf(event.data.payout_fee).toEqualTypeOf<string>();
      expectTypeOf(event.data.status).toEqualTypeOf<'Success'>();
    }
    if (event.type === 'payout.failed') {
      expectTypeOf(event.data.status).toEqualTypeOf<'Failed'>();
      // @ts-expect-error a payout failure has no payout_fee
      void event.data.payout_fee.length;
    }
  });

  it('has readonly public fields and common fields on the union', () => {
    expectTypeOf(event.amount).toEqualTypeOf<string>();
    expectTypeOf(event.warnings).toEqualTypeOf<readonly CallbackWarning[]>();
    expectTypeOf<CallbackWarning['code']>().toEqualTypeOf<CallbackWarningCode>();
    expectTypeOf<CallbackWarningCode>().toEqualTypeOf<
      'paid_flag_contradicts_payment_status' | 'value_converted' | 'timestamp_out_of_range'
    >();
    expectTypeOf(event.reference).toEqualTypeOf<string | undefined>();
    // @ts-expect-error fields are readonly
    event.amount = '1';
  });

  it('matches the tuple of names and the union', () => {
    expectTypeOf<(typeof callbackEventTypes)[number]>().toEqualTypeOf<CallbackEventType>();
    expectTypeOf<CallbackEventOf<'checkout.succeeded'>>().toEqualTypeOf<CheckoutSucceededEvent>();
  });

  it('returns results that cannot be misread', () => {
    expectTypeOf(parseCallback).returns.toEqualTypeOf<CallbackEvent>();
    const result = safeParseCallback('{}');
    if (result.success) {
      expectTypeOf(result.event).toEqualTypeOf<CallbackEvent>();
      expectTypeOf(result.error).toEqualTypeOf<undefined>();
    } else {
      expectTypeOf(result.event).toEqualTypeOf<undefined>();
    }
  });

  it('exports the parse reasons as a closed union', () => {
    expectTypeOf<CallbackParseReason>().toEqualTypeOf<
      | 'invalid_json'
      | 'not_an_object'
      | 'unknown_callback'
      | 'invalid_payload'
      | 'invalid_amount'
      | 'contradictory_outcome'
      | 'unrecognised_status'
      | 'missing_status'
      | 'reference_mismatch'
    >();
  });

  it('types context.reference as string when the handler verifies signatures', () => {
    createCallbackHandler({
      secret: 'whsec_0123456789abcdef',
      onEvent: (_event, context) => {
        expectTypeOf(context.reference).toEqualTypeOf<string>();
      },
      expected: (_event, context) => {
        expectTypeOf(context.reference).toEqualTypeOf<string>();
        return undefined;
      },
    });
    expectTypeOf<CallbackContext['reference']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<CallbackContext<string>['reference']>().toEqualTypeOf<string>();
  });
});
