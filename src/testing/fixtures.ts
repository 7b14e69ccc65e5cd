import {
  cardPaymentFailurePayload,
  cardPaymentSuccessPayload,
  checkoutFailurePayload,
  checkoutSuccessPayload,
  mobileMoneyPaymentFailurePayload,
  mobileMoneyPaymentSuccessPayload,
  payoutFailurePayload,
  payoutSuccessPayload,
  type CallbackPayloadByType,
} from '../sandbox/payloads.js';
import type { CallbackEventType } from '../callbacks/events.js';

const TIMESTAMP = 1_717_200_000; // 2024-06-01T00:00:00Z, fixed so fixtures are stable

/**
 * One deterministic callback payload per event type, exactly as the service would post it, with
 * the neutral brand word `MOBILE-MONEY`. Frozen; copy before changing a value
 * (`{ ...callbackFixtures['payout.failed'], amount: '5' }`). `checkout.succeeded` is the card
 * variant with the contradictory `paid: 'False'` the API reference describes. Their references:
 * `ORDER-1002` (`payment.mobile_money.failed`), `1001` / `1003` (`checkout.succeeded` /
 * `checkout.failed`), `123456789012` / `123456789013` (payouts); the card and mobile-money success
 * payloads carry none. To post one to a handler that verifies signed URLs, use
 * `createCallbackRequest`, which signs for the reference you choose.
 *
 * @example
 * ```ts
 * import { callbackFixtures } from 'hosted-payments/testing';
 * import { parseCallback } from 'hosted-payments';
 *
 * const event = parseCallback(callbackFixtures['payment.mobile_money.failed']);
 * event.type; // 'payment.mobile_money.failed'
 * ```
 */
export const callbackFixtures: { readonly [K in CallbackEventType]: Readonly<CallbackPayloadByType[K]> } =
  Object.freeze({
    'payment.card.succeeded': Object.freeze(
      cardPaymentSuccessPayload({
        id: 'PAYCARD000001',
        transactionId: 'TXNCARD000001',
        amount: '1500',
        currency: 'KES',
        timestamp: TIMESTAMP,
      }),
    ),
    'payment.card.failed': Object.freeze(
      cardPaymentFailurePayload({
        id: 'PAYCARD000002',
        transactionId: 'TXNCARD000002',
        amount: '1500',
        currency: 'KES',
        timestamp: TIMESTAMP,
      }),
    ),
    'payment.mobile_money.succeeded': Object.freeze(
      mobileMoneyPaymentSuccessPayload({
        id: 'PAYMOMO000001',
        transactionId: 'TXNMOMO000001',
        amount: 1500,
        timestamp: TIMESTAMP,
      }),
    ),
    'payment.mobile_money.failed': Object.freeze(
      mobileMoneyPaymentFailurePayload({
        id: 'PAYMOMO000002',
        transactionReference: 'ORDER-1002',
        amount: 1500,
        timestamp: TIMESTAMP,
      }),
    ),
    'checkout.succeeded': Object.freeze(
      checkoutSuccessPayload({ method: 'card', orderId: 1001, amount: '2500' }),
    ),
    'checkout.failed': Object.freeze(
      checkoutFailurePayload({ method: 'card', orderId: 1003, amount: '2500' }),
    ),
    'payout.succeeded': Object.freeze(
      payoutSuccessPayload({
        amount: '1000',
        currency: 'KES',
        payoutFee: '50',
        referenceId: '123456789012',
        transactionId: 'PYT0000000001',
        walletBalance: '98950',
      }),
    ),
    'payout.failed': Object.freeze(
      payoutFailurePayload({
        amount: '250000',
        currency: 'KES',
        referenceId: '123456789013',
        transactionId: 'PYT0000000002',
        walletBalance: '98950',
      }),
    ),
  });
