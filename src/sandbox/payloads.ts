/**
 * What the service sends: builders of the eight callback payloads, with the API reference's
 * exact keys (several contain a space), value types and message texts. The mobile-money brand
 * word is a parameter (`'MOBILE-MONEY'` by default, e.g. `'M-PESA'`). The sandbox, the CLI's
 * `trigger` and the fixtures of `hosted-payments/testing` all build their payloads here.
 *
 * @module
 */

import { callbackEventTypes, type CallbackEventType, type PaymentMethodKind } from '../callbacks/events.js';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import type { Check } from '../validation/result.js';
import {
  checkBrand,
  checkCurrency,
  checkPayloadAmount,
  checkPayloadReference,
  isCallbackEventType,
  unknownEventTypeMessage,
} from './payload-values.js';
import type {
  CardPaymentFailureCallback,
  CardPaymentSuccessCallback,
  CheckoutFailureCallback,
  CheckoutSuccessCallback,
  MobileMoneyPaymentFailureCallback,
  MobileMoneyPaymentSuccessCallback,
  PayoutFailureCallback,
  PayoutSuccessCallback,
} from '../callbacks/schemas.js';

/**
 * The neutral brand word of the API reference; the default of every `brand` parameter.
 *
 * @example
 * ```ts
 * mobileMoneyPaymentSuccessPayload({ amount: 1 }).payment_method === DEFAULT_MOBILE_MONEY_BRAND; // true
 * ```
 */
export const DEFAULT_MOBILE_MONEY_BRAND = 'MOBILE-MONEY';

/**
 * Throws a TypeError naming the builder when `brand` is no mobile-money brand word
 * ({@link checkBrand}: empty, or the card method word, which makes a payload the service never
 * sends).
 */
function brandWord(builder: string, brand: unknown): void {
  const checked = checkBrand(brand);
  if (!checked.ok) throw new TypeError(`${builder}: brand: ${checked.message}`);
}

/**
 * The eight event types, in the order of the API reference (the callbacks module's `callbackEventTypes`).
 *
 * @example
 * ```ts
 * for (const type of callbackPayloadTypes) console.log(buildCallbackPayload(type));
 * ```
 */
export const callbackPayloadTypes = callbackEventTypes;

/**
 * One of the eight event types (the callbacks module's `CallbackEventType`).
 *
 * @example
 * ```ts
 * const type: CallbackPayloadType = 'checkout.failed';
 * ```
 */
export type CallbackPayloadType = CallbackEventType;

/**
 * Maps each event type to the payload the service posts for it (the callbacks module's types).
 *
 * @example
 * ```ts
 * import { buildCallbackPayload, type CallbackPayloadByType } from 'hosted-payments/testing';
 *
 * const payload: CallbackPayloadByType['payout.failed'] = buildCallbackPayload('payout.failed');
 * ```
 */
export interface CallbackPayloadByType {
  'payment.card.succeeded': CardPaymentSuccessCallback;
  'payment.card.failed': CardPaymentFailureCallback;
  'payment.mobile_money.succeeded': MobileMoneyPaymentSuccessCallback;
  'payment.mobile_money.failed': MobileMoneyPaymentFailureCallback;
  'checkout.succeeded': CheckoutSuccessCallback;
  'checkout.failed': CheckoutFailureCallback;
  'payout.succeeded': PayoutSuccessCallback;
  'payout.failed': PayoutFailureCallback;
}

const ALPHANUMERIC = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

/**
 * A random identifier in the style of the service's ids: a prefix and 10 upper-case letters
 * and digits, e.g. `TXN7K2M9QW4ZP`.
 *
 * @example
 * ```ts
 * makeSandboxId('PAY'); // 'PAY3F8K2Q9W4ZL'
 * ```
 */
export function makeSandboxId(prefix: string): string {
  const bytes = new Uint8Array(10);
  globalThis.crypto.getRandomValues(bytes);
  let out = prefix;
  for (const byte of bytes) out += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return out;
}

/**
 * The current Unix time in whole seconds, the `timestamp` of the payment callbacks.
 *
 * @example
 * ```ts
 * unixTimestamp(new Date('2024-01-01T00:00:00Z')); // 1704067200
 * ```
 */
export function unixTimestamp(date: Date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}

/**
 * Fields common to the builders of the card and mobile-money payment payloads.
 *
 * @example
 * ```ts
 * import { type PaymentPayloadInput } from 'hosted-payments/testing';
 *
 * const input: PaymentPayloadInput = { amount: '1500', transactionId: 'TXN1', timestamp: 1717200000 };
 * ```
 */
export interface PaymentPayloadInput {
  /** Amount as a whole-number string or number, e.g. `'1500'`. */
  amount: string | number;
  /** Payment identifier; random when omitted. */
  id?: string | undefined;
  /** Transaction identifier; random when omitted. */
  transactionId?: string | undefined;
  /** Unix time in seconds; now when omitted. */
  timestamp?: number | undefined;
}

/**
 * Card payment success payload (as the API reference describes it).
 *
 * @example
 * ```ts
 * import { cardPaymentSuccessPayload } from 'hosted-payments/testing';
 *
 * const payload = cardPaymentSuccessPayload({ amount: '1500', currency: 'KES' });
 * payload['payment status']; // 'Payment complete.'
 * ```
 */
export function cardPaymentSuccessPayload(
  input: PaymentPayloadInput & { currency: string },
): CardPaymentSuccessCallback {
  const amount = String(input.amount);
  return {
    id: input.id ?? makeSandboxId('PAY'),
    status: 200,
    'payment method': 'CARD',
    message: 'CARD Payment Success',
    amount,
    currency: input.currency,
    'amount captured': amount,
    'payment status': 'Payment complete.',
    'transaction id': input.transactionId ?? makeSandboxId('TXN'),
    paid: 'True',
    timestamp: input.timestamp ?? unixTimestamp(),
  };
}

/**
 * Card payment failure payload (as the API reference describes it): no `amount captured`, `paid: 'False'`.
 *
 * @example
 * ```ts
 * import { cardPaymentFailurePayload } from 'hosted-payments/testing';
 *
 * cardPaymentFailurePayload({ amount: '1500', currency: 'KES' }).message; // 'CARD Payment Failed'
 * ```
 */
export function cardPaymentFailurePayload(
  input: PaymentPayloadInput & { currency: string },
): CardPaymentFailureCallback {
  return {
    id: input.id ?? makeSandboxId('PAY'),
    status: 200,
    'payment method': 'CARD',
    message: 'CARD Payment Failed',
    amount: String(input.amount),
    currency: input.currency,
    'payment status': 'Payment incomplete.',
    'transaction id': input.transactionId ?? makeSandboxId('TXN'),
    paid: 'False',
    timestamp: input.timestamp ?? unixTimestamp(),
  };
}

/**
 * Mobile-money payment success payload (as the API reference describes it); `amount` and `amount_captured` are numbers.
 *
 * @example
 * ```ts
 * import { mobileMoneyPaymentSuccessPayload } from 'hosted-payments/testing';
 *
 * mobileMoneyPaymentSuccessPayload({ amount: 1500 }, 'M-PESA').message; // 'M-PESA Payment Success'
 * ```
 */
export function mobileMoneyPaymentSuccessPayload(
  input: PaymentPayloadInput,
  brand: string = DEFAULT_MOBILE_MONEY_BRAND,
): MobileMoneyPaymentSuccessCallback {
  brandWord('mobileMoneyPaymentSuccessPayload', brand);
  const amount = Number(input.amount);
  return {
    id: input.id ?? makeSandboxId('PAY'),
    response_status: 200,
    payment_method: brand,
    message: `${brand} Payment Success`,
    amount,
    amount_captured: amount,
    payment_status: 'Payment complete.',
    'transaction id': input.transactionId ?? makeSandboxId('TXN'),
    paid: 'True',
    timestamp: input.timestamp ?? unixTimestamp(),
  };
}

/**
 * The reason text of the described mobile-money failure (insufficient funds).
 *
 * @example
 * ```ts
 * checkoutFailurePayload({ method: 'card', orderId: 1, amount: 1 }).message === INSUFFICIENT_FUNDS_MESSAGE; // true
 * ```
 */
export const INSUFFICIENT_FUNDS_MESSAGE = 'Insufficient funds';

/**
 * Mobile-money payment failure payload (as the API reference describes it). Defaults to the case the API reference describes:
 * `response_status` 406 with an insufficient-funds reason.
 *
 * @example
 * ```ts
 * import { mobileMoneyPaymentFailurePayload } from 'hosted-payments/testing';
 *
 * const payload = mobileMoneyPaymentFailurePayload({ amount: 1500, transactionReference: 'ORDER-1' });
 * payload.response_status; // 406
 * ```
 */
export function mobileMoneyPaymentFailurePayload(
  input: Omit<PaymentPayloadInput, 'transactionId'> & {
    transactionReference: string;
    responseStatus?: number | undefined;
    message?: string | undefined;
  },
): MobileMoneyPaymentFailureCallback {
  return {
    id: input.id ?? makeSandboxId('PAY'),
    transaction_reference: input.transactionReference,
    response_status: input.responseStatus ?? 406,
    amount: Number(input.amount),
    paid: 'False',
    'payment status': 'Payment Incomplete.',
    message: input.message ?? INSUFFICIENT_FUNDS_MESSAGE,
    timestamp: input.timestamp ?? unixTimestamp(),
  };
}

/**
 * Input of the redirect-checkout payload builders.
 *
 * @example
 * ```ts
 * import { type CheckoutPayloadInput } from 'hosted-payments/testing';
 *
 * const input: CheckoutPayloadInput = { method: 'card', orderId: 1001, amount: '2500' };
 * ```
 */
export interface CheckoutPayloadInput {
  method: PaymentMethodKind;
  /** The merchant's order id, echoed as a string. */
  orderId: string | number;
  amount: string | number;
}

/**
 * Redirect checkout success payload. For a card payment it carries the contradictory
 * `paid: 'False'` with `payment_status: 'Payment complete.'`, exactly as the API reference describes.
 *
 * @example
 * ```ts
 * import { checkoutSuccessPayload } from 'hosted-payments/testing';
 *
 * checkoutSuccessPayload({ method: 'card', orderId: 42, amount: '2500' }).paid; // 'False'
 * checkoutSuccessPayload({ method: 'mobile_money', orderId: 42, amount: '2500' }).message;
 * // 'MOBILE-MONEY Payment Successful'
 * ```
 */
export function checkoutSuccessPayload(
  input: CheckoutPayloadInput,
  brand: string = DEFAULT_MOBILE_MONEY_BRAND,
): CheckoutSuccessCallback {
  const card = input.method === 'card';
  if (!card) brandWord('checkoutSuccessPayload', brand);
  return {
    payment_method: card ? 'CARD' : brand,
    // The described card success carries paid False; emitted as described.
    paid: card ? 'False' : 'True',
    response_status: 200,
    order_id: String(input.orderId),
    message: card ? 'Card Payment Successful' : `${brand} Payment Successful`,
    amount: String(input.amount),
    payment_status: 'Payment complete.',
  };
}

/**
 * Redirect checkout failure payload (as the API reference describes it), `message` a reason such as `Insufficient funds`.
 *
 * @example
 * ```ts
 * import { checkoutFailurePayload } from 'hosted-payments/testing';
 *
 * checkoutFailurePayload({ method: 'card', orderId: 42, amount: '2500' }).payment_status;
 * // 'Payment Incomplete.'
 * ```
 */
export function checkoutFailurePayload(
  input: CheckoutPayloadInput & { message?: string },
  brand: string = DEFAULT_MOBILE_MONEY_BRAND,
): CheckoutFailureCallback {
  if (input.method !== 'card') brandWord('checkoutFailurePayload', brand);
  return {
    payment_method: input.method === 'card' ? 'CARD' : brand,
    paid: 'False',
    response_status: 200,
    order_id: String(input.orderId),
    message: input.message ?? INSUFFICIENT_FUNDS_MESSAGE,
    amount: String(input.amount),
    payment_status: 'Payment Incomplete.',
  };
}

/**
 * Input of the payout payload builders.
 *
 * @example
 * ```ts
 * import { type PayoutPayloadInput } from 'hosted-payments/testing';
 *
 * const input: PayoutPayloadInput = { amount: 1000, currency: 'KES', referenceId: '123456789012', walletBalance: 99000 };
 * ```
 */
export interface PayoutPayloadInput {
  amount: string | number;
  currency: string;
  /** The merchant's payout reference; a string in the callback whatever it was in the request. */
  referenceId: string | number;
  /** Wallet balance after the payout (unchanged after a failure). */
  walletBalance: string | number;
  transactionId?: string | undefined;
}

/**
 * Payout success payload (as the API reference describes it).
 *
 * @example
 * ```ts
 * import { payoutSuccessPayload } from 'hosted-payments/testing';
 *
 * payoutSuccessPayload({ amount: 1000, currency: 'KES', referenceId: 123456789012, payoutFee: 50, walletBalance: 98950 });
 * // { amount: '1000', …, payout_fee: '50', reference_id: '123456789012', status: 'Success', wallet_balance: '98950' }
 * ```
 */
export function payoutSuccessPayload(
  input: PayoutPayloadInput & { payoutFee: string | number },
): PayoutSuccessCallback {
  return {
    amount: String(input.amount),
    currency: input.currency,
    message: 'Payout Successful',
    payout_fee: String(input.payoutFee),
    reference_id: String(input.referenceId),
    status: 'Success',
    transaction_id: input.transactionId ?? makeSandboxId('PYT'),
    wallet_balance: String(input.walletBalance),
  };
}

/**
 * Payout failure payload (as the API reference describes it): no `payout_fee`.
 *
 * @example
 * ```ts
 * import { payoutFailurePayload } from 'hosted-payments/testing';
 *
 * payoutFailurePayload({ amount: 999999, currency: 'KES', referenceId: '123456789012', walletBalance: 100000 }).status;
 * // 'Failed'
 * ```
 */
export function payoutFailurePayload(input: PayoutPayloadInput): PayoutFailureCallback {
  return {
    amount: String(input.amount),
    currency: input.currency,
    message: 'Payout Failed',
    reference_id: String(input.referenceId),
    status: 'Failed',
    transaction_id: input.transactionId ?? makeSandboxId('PYT'),
    wallet_balance: String(input.walletBalance),
  };
}

/**
 * Options of {@link buildCallbackPayload}.
 *
 * @example
 * ```ts
 * import { type BuildCallbackPayloadOptions } from 'hosted-payments/testing';
 *
 * const options: BuildCallbackPayloadOptions = { reference: 'ORDER-7', amount: 250, currency: 'USD' };
 * ```
 */
export interface BuildCallbackPayloadOptions {
  /** Mobile-money brand word, for a mobile-money success only; default `'MOBILE-MONEY'`. */
  brand?: string | undefined;
  /**
   * The merchant reference, written where the payload has a field for it: `transaction_reference`
   * (mobile-money failure), `order_id` (checkout), `reference_id` (payout). The card and
   * mobile-money success payloads carry none (the reference is in the signed URL).
   */
  reference?: string | undefined;
  /** Amount; default `'1500'`. */
  amount?: string | number | undefined;
  /** Currency, for card and payout payloads (the others carry none); default `'KES'`. */
  currency?: string | undefined;
}

/** The options {@link buildCallbackPayload} knows; any other key is refused. */
const BUILD_OPTIONS: OptionNames<BuildCallbackPayloadOptions> = {
  brand: true,
  reference: true,
  amount: true,
  currency: true,
};

/** Which {@link buildCallbackPayload} options each type's payload has a place for. */
export const callbackPayloadOptions: Readonly<
  Record<CallbackEventType, readonly (keyof BuildCallbackPayloadOptions)[]>
> = Object.freeze({
  'payment.card.succeeded': ['amount', 'currency'],
  'payment.card.failed': ['amount', 'currency'],
  'payment.mobile_money.succeeded': ['amount', 'brand'],
  'payment.mobile_money.failed': ['amount', 'reference'],
  'checkout.succeeded': ['amount', 'reference'],
  'checkout.failed': ['amount', 'reference'],
  'payout.succeeded': ['amount', 'currency', 'reference'],
  'payout.failed': ['amount', 'currency', 'reference'],
});

/** The checked value, or a `TypeError` naming the option. */
function valueOf<T>(name: string, check: Check<T>): T {
  if (!check.ok) throw new TypeError(`buildCallbackPayload: ${name}: ${check.message}`);
  return check.value;
}

/**
 * A fresh payload of the given event type with sample values — what the CLI's `trigger` posts.
 * Only what the service could send: an unknown type or option is a `TypeError` naming it, and so
 * are a `currency` or `brand` the type's payload has no place for (a `currency` for mobile money
 * or a checkout, a `brand` outside a mobile-money success), an `amount` that is not a whole number (a mobile-money one above 2^53 too), a `reference` the
 * payload cannot carry (a payout's is a 12-digit `reference_id`, a checkout's a whole-number
 * `order_id`), a `currency` that is not an ISO 4217 code (one in lower case is upper-cased, as the
 * request builders do) and an empty `brand`.
 *
 * @example
 * ```ts
 * import { buildCallbackPayload } from 'hosted-payments/testing';
 *
 * const payload = buildCallbackPayload('payout.failed', { reference: '123456789012' });
 * payload.reference_id; // '123456789012'
 * ```
 */
export function buildCallbackPayload<T extends CallbackEventType>(
  type: T,
  options: BuildCallbackPayloadOptions = {},
): CallbackPayloadByType[T] {
  if (!isCallbackEventType(type))
    throw new TypeError(`buildCallbackPayload: ${unknownEventTypeMessage(type)}`);
  refuseUnknownOptions('buildCallbackPayload', options, BUILD_OPTIONS);
  // A reference is the delivery's (signed into its URL) even where the payload has no field for it.
  for (const name of ['currency', 'brand'] as const) {
    if (options[name] !== undefined && !callbackPayloadOptions[type].includes(name)) {
      throw new TypeError(
        `buildCallbackPayload: ${name}: a ${type} payload has no place for it; leave it out`,
      );
    }
  }
  const brand = valueOf('brand', checkBrand(options.brand ?? DEFAULT_MOBILE_MONEY_BRAND));
  const amount = valueOf('amount', checkPayloadAmount(type, options.amount ?? '1500'));
  const currency = valueOf('currency', checkCurrency(options.currency ?? 'KES'));
  const reference =
    options.reference === undefined
      ? undefined
      : valueOf('reference', checkPayloadReference(type, options.reference));
  const build: { [K in CallbackEventType]: () => CallbackPayloadByType[K] } = {
    'payment.card.succeeded': () => cardPaymentSuccessPayload({ amount, currency }),
    'payment.card.failed': () => cardPaymentFailurePayload({ amount, currency }),
    'payment.mobile_money.succeeded': () => mobileMoneyPaymentSuccessPayload({ amount }, brand),
    'payment.mobile_money.failed': () =>
      mobileMoneyPaymentFailurePayload({ amount, transactionReference: reference ?? 'ORDER-1001' }),
    'checkout.succeeded': () =>
      checkoutSuccessPayload({ method: 'card', orderId: reference ?? '1001', amount }, brand),
    'checkout.failed': () =>
      checkoutFailurePayload({ method: 'card', orderId: reference ?? '1001', amount }, brand),
    'payout.succeeded': () =>
      payoutSuccessPayload({
        amount,
        currency,
        referenceId: reference ?? '123456789012',
        payoutFee: 50,
        walletBalance: 98450,
      }),
    'payout.failed': () =>
      payoutFailurePayload({
        amount,
        currency,
        referenceId: reference ?? '123456789012',
        walletBalance: 1000,
      }),
  };
  return build[type]();
}
