/**
 * The events `parseCallback` turns the eight callback payloads into: a discriminated union on
 * `type`.
 *
 * @module
 */
import type { IssuePath } from '../errors.js';
import type {
  CardPaymentFailureCallback,
  CardPaymentSuccessCallback,
  CheckoutFailureCallback,
  CheckoutSuccessCallback,
  MobileMoneyPaymentFailureCallback,
  MobileMoneyPaymentSuccessCallback,
  PayoutFailureCallback,
  PayoutSuccessCallback,
} from './schemas.js';

/**
 * Every event type: card, mobile-money, checkout and payout, each success before its failure.
 *
 * @example
 * ```ts
 * const received = Object.fromEntries(callbackEventTypes.map((type) => [type, 0]));
 * ```
 */
export const callbackEventTypes = [
  'payment.card.succeeded',
  'payment.card.failed',
  'payment.mobile_money.succeeded',
  'payment.mobile_money.failed',
  'checkout.succeeded',
  'checkout.failed',
  'payout.succeeded',
  'payout.failed',
] as const;

/**
 * The `type` of a {@link CallbackEvent}.
 *
 * @example
 * ```ts
 * const wanted: CallbackEventType[] = ['checkout.succeeded', 'checkout.failed'];
 * ```
 */
export type CallbackEventType = (typeof callbackEventTypes)[number];

/**
 * How the customer paid. `'card'` or `'mobile_money'`; the word the payload used (`CARD`,
 * `MOBILE-MONEY`, `M-PESA`, …) is in `paymentMethodLabel`. A checkout is `'card'` only when that
 * word is `CARD` (ASCII letter case and blanks around ignored); any other word, `NOT_CARD` or
 * `CARDANO` included, is a mobile-money brand word.
 *
 * @example
 * ```ts
 * if (event.type === 'checkout.succeeded' && event.paymentMethod === 'card') issueReceipt(event);
 * ```
 */
export type PaymentMethodKind = 'card' | 'mobile_money';

/**
 * Every {@link CallbackWarningCode}.
 *
 * - `paid_flag_contradicts_payment_status`: the redirect checkout card success the service
 *   documents, `paid: 'False'` with `Payment complete.` and a success text as its message; the
 *   event is `checkout.succeeded`.
 * - `value_converted`: a value came in another JSON type than documented (a number for a
 *   numeric string or the reverse, a boolean for `'True'`/`'False'`) and was converted.
 * - `timestamp_out_of_range`: `timestamp` is not Unix seconds from 1970 to 9999 (it is negative,
 *   or in milliseconds); `occurredAt` is absent.
 *
 * @example
 * ```ts
 * for (const code of callbackWarningCodes) metrics.register(`webhook_warning_${code}`);
 * ```
 */
export const callbackWarningCodes = [
  'paid_flag_contradicts_payment_status',
  'value_converted',
  'timestamp_out_of_range',
] as const;

/**
 * The `code` of a {@link CallbackWarning}.
 *
 * @example
 * ```ts
 * const code: CallbackWarningCode = 'value_converted';
 * ```
 */
export type CallbackWarningCode = (typeof callbackWarningCodes)[number];

/**
 * Something the parser tolerated or noticed in a payload it accepted.
 *
 * @example
 * ```ts
 * for (const warning of event.warnings) {
 *   if (warning.code === 'paid_flag_contradicts_payment_status') log.info(warning.message);
 * }
 * ```
 */
export interface CallbackWarning {
  /** Stable code to switch on. */
  readonly code: CallbackWarningCode;
  /** The key it is about, when it is about one, e.g. `['amount']`. */
  readonly path?: IssuePath | undefined;
  /** Human wording, e.g. `amount: number converted to string`. Never a payload value. */
  readonly message: string;
}

/**
 * The warning code of the one documented contradiction: the redirect checkout card success
 * with `paid: 'False'` and `Payment complete.`.
 *
 * @example
 * ```ts
 * const event = parseCallback(body);
 * if (event.warnings.some((w) => w.code === PAID_FLAG_CONTRADICTION)) log.info('paid flag contradicts the payment status');
 * ```
 */
export const PAID_FLAG_CONTRADICTION = 'paid_flag_contradicts_payment_status' satisfies CallbackWarningCode;

/**
 * Fields every event has. `amount` is always a string; `currency`, `reference`, `transactionId`
 * and `occurredAt` are present when the payload carries them (each variant says which).
 *
 * @example
 * ```ts
 * function log(event: CallbackEventBase) { console.log(event.type, event.paid, event.amount); }
 * ```
 */
export interface CallbackEventBase<T extends CallbackEventType = CallbackEventType, D = unknown> {
  /** Which of the eight payloads this was. */
  readonly type: T;
  /** The SDK's verdict: did the money move? True for every `*.succeeded`, false for `*.failed`. */
  readonly paid: boolean;
  /** The payload's `amount`, as a string (a mobile-money number is converted). */
  readonly amount: string;
  /**
   * Currency code as sent: three ASCII letters, either case (`KES`, `kes`). Present when the
   * payload has one: card and payout payloads, and a mobile-money or checkout payload that carries
   * one under any spelling (`Currency`, `currency_code`), though the API reference documents none.
   */
  readonly currency?: string | undefined;
  /** The merchant's reference: `transaction_reference`, `order_id` or `reference_id`. */
  readonly reference?: string | undefined;
  /** The service's transaction identifier (`transaction id` / `transaction_id`). */
  readonly transactionId?: string | undefined;
  /** The payload's `message`. */
  readonly message: string;
  /**
   * When the service says it happened (`timestamp`, Unix seconds): a Date from 1970 to 9999, or
   * absent when the payload has no timestamp or one out of that range, such as milliseconds
   * (then `warnings` says so).
   */
  readonly occurredAt?: Date | undefined;
  /** What the parser tolerated or noticed, each with a stable `code`. */
  readonly warnings: readonly CallbackWarning[];
  /** The payload with the documented keys and value types; unknown extra keys kept. */
  readonly data: Readonly<D>;
}

/**
 * A card payment succeeded.
 *
 * @example
 * ```ts
 * if (event.type === 'payment.card.succeeded') await markPaid(reference, event.data['amount captured'], event.transactionId);
 * ```
 */
export interface CardPaymentSucceededEvent extends CallbackEventBase<
  'payment.card.succeeded',
  CardPaymentSuccessCallback
> {
  readonly paid: true;
  readonly paymentMethod: 'card';
  readonly paymentMethodLabel: string;
  readonly currency: string;
  readonly transactionId: string;
}

/**
 * A card payment failed.
 *
 * @example
 * ```ts
 * if (event.type === 'payment.card.failed') notify(event.message);
 * ```
 */
export interface CardPaymentFailedEvent extends CallbackEventBase<
  'payment.card.failed',
  CardPaymentFailureCallback
> {
  readonly paid: false;
  readonly paymentMethod: 'card';
  readonly paymentMethodLabel: string;
  readonly currency: string;
  readonly transactionId: string;
}

/**
 * A mobile-money (STK push) payment succeeded.
 *
 * @example
 * ```ts
 * if (event.type === 'payment.mobile_money.succeeded') await markPaid(reference, event.amount, event.transactionId);
 * ```
 */
export interface MobileMoneyPaymentSucceededEvent extends CallbackEventBase<
  'payment.mobile_money.succeeded',
  MobileMoneyPaymentSuccessCallback
> {
  readonly paid: true;
  readonly paymentMethod: 'mobile_money';
  readonly paymentMethodLabel: string;
  readonly transactionId: string;
}

/**
 * A mobile-money payment failed; `reference` is the merchant's `transaction_reference` and
 * `data.response_status` the failure code (406: insufficient funds).
 *
 * @example
 * ```ts
 * if (event.type === 'payment.mobile_money.failed') markFailed(event.reference, event.message);
 * ```
 */
export interface MobileMoneyPaymentFailedEvent extends CallbackEventBase<
  'payment.mobile_money.failed',
  MobileMoneyPaymentFailureCallback
> {
  readonly paid: false;
  readonly paymentMethod: 'mobile_money';
  /** The failure payload names no payment method; always `''`. */
  readonly paymentMethodLabel: string;
  readonly reference: string;
}

/**
 * A hosted redirect checkout succeeded; `reference` is the `order_id`.
 *
 * @example
 * ```ts
 * if (event.type === 'checkout.succeeded') fulfil(event.reference, event.paymentMethod);
 * ```
 */
export interface CheckoutSucceededEvent extends CallbackEventBase<
  'checkout.succeeded',
  CheckoutSuccessCallback
> {
  readonly paid: true;
  readonly paymentMethod: PaymentMethodKind;
  readonly paymentMethodLabel: string;
  readonly reference: string;
}

/**
 * A hosted redirect checkout failed; `message` carries the reason (e.g. `Insufficient funds`).
 *
 * @example
 * ```ts
 * if (event.type === 'checkout.failed') releaseStock(event.reference);
 * ```
 */
export interface CheckoutFailedEvent extends CallbackEventBase<'checkout.failed', CheckoutFailureCallback> {
  readonly paid: false;
  readonly paymentMethod: PaymentMethodKind;
  readonly paymentMethodLabel: string;
  readonly reference: string;
}

/**
 * A payout reached the recipient; `reference` is the `reference_id`.
 *
 * @example
 * ```ts
 * if (event.type === 'payout.succeeded') settle(event.reference, event.data.payout_fee);
 * ```
 */
export interface PayoutSucceededEvent extends CallbackEventBase<'payout.succeeded', PayoutSuccessCallback> {
  readonly paid: true;
  readonly currency: string;
  readonly reference: string;
  readonly transactionId: string;
}

/**
 * A payout failed.
 *
 * @example
 * ```ts
 * if (event.type === 'payout.failed') alertOps(event.reference, event.message);
 * ```
 */
export interface PayoutFailedEvent extends CallbackEventBase<'payout.failed', PayoutFailureCallback> {
  readonly paid: false;
  readonly currency: string;
  readonly reference: string;
  readonly transactionId: string;
}

/**
 * What `parseCallback` returns: one event per callback payload the service sends, discriminated by `type`.
 *
 * @example
 * ```ts
 * const handler = createCallbackHandler({
 *   secret,
 *   // reference: the order signed into the callback URL (card and mobile-money successes carry none)
 *   onEvent: async (event, { reference }) => {
 *     switch (event.type) {
 *       case 'payment.card.succeeded':
 *         await markPaid(reference, event.data['amount captured']); // the payload as sent, typed per variant
 *         break;
 *       case 'payment.mobile_money.succeeded':
 *       case 'checkout.succeeded':
 *         await markPaid(reference, event.amount);
 *         break;
 *       case 'payment.card.failed':
 *       case 'payment.mobile_money.failed':
 *       case 'checkout.failed':
 *         await markFailed(reference, event.message);
 *         break;
 *       // A payout's reference is a transfer, not an order: a payment callback posted to the
 *       // payout route (or the reverse) must not settle it (a tracker answers it 409).
 *       case 'payout.succeeded':
 *         await markPaidOut(reference, event.amount);
 *         break;
 *       case 'payout.failed':
 *         await markPayoutFailed(reference, event.message);
 *         break;
 *       default: {
 *         const never: never = event; // a compile error here if a type is ever added
 *         throw new Error(`unhandled ${String(never)}`);
 *       }
 *     }
 *   },
 * });
 * ```
 */
export type CallbackEvent =
  | CardPaymentSucceededEvent
  | CardPaymentFailedEvent
  | MobileMoneyPaymentSucceededEvent
  | MobileMoneyPaymentFailedEvent
  | CheckoutSucceededEvent
  | CheckoutFailedEvent
  | PayoutSucceededEvent
  | PayoutFailedEvent;

/**
 * The event of one type.
 *
 * @example
 * ```ts
 * function onCheckout(event: CallbackEventOf<'checkout.succeeded'>) { fulfil(event.reference); }
 * ```
 */
export type CallbackEventOf<T extends CallbackEventType> = Extract<CallbackEvent, { type: T }>;

// Compile-time check that the tuple and the union name the same types (STYLE.md habit 5).
type Assert<T extends true> = T;
type _TupleMatchesUnion = Assert<
  [CallbackEventType] extends [CallbackEvent['type']]
    ? [CallbackEvent['type']] extends [CallbackEventType]
      ? true
      : false
    : false
>;
