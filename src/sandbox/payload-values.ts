/**
 * What a callback payload can carry: the rules `buildCallbackPayload`, `createCallbackRequest`,
 * the CLI's `trigger` and the sandbox's `mobileMoneyBrand` share, so none of them builds a payload
 * the service would never send. Each returns a `Check` whose message starts with `expected`; the
 * caller puts the name the merchant used in front (`amount`, `--amount`, `overrides.order_id`).
 *
 * @module
 */

import { callbackEventTypes, type CallbackEventType } from '../callbacks/events.js';
import { isCardMethod } from '../callbacks/verdict.js';
import { checkCurrency } from '../validation/currency.js';
import { checkWholeNumber } from '../validation/money.js';
import { isMethodWordValue } from '../validation/method.js';
import { checkReferenceId } from '../validation/reference-id.js';
import { fail, pass, preview, type Check } from '../validation/result.js';

export { checkCurrency };

/** The types whose payload carries `amount` as a JSON number rather than a string. */
const numberAmount = (type: CallbackEventType): boolean => type.startsWith('payment.mobile_money.');

/** The payload field that carries the merchant reference, for the types that have one. */
export const referenceFields: Readonly<Partial<Record<CallbackEventType, string>>> = Object.freeze({
  'payment.mobile_money.failed': 'transaction_reference',
  'checkout.succeeded': 'order_id',
  'checkout.failed': 'order_id',
  'payout.succeeded': 'reference_id',
  'payout.failed': 'reference_id',
});

/** True when `value` names one of the eight callback event types. */
export function isCallbackEventType(value: unknown): value is CallbackEventType {
  return typeof value === 'string' && (callbackEventTypes as readonly string[]).includes(value);
}

/** The message for a type that is not one of the eight, naming it (at most its first 40 characters). */
export function unknownEventTypeMessage(type: unknown): string {
  const shown = typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : typeof type;
  return `unknown event type ${shown}; expected one of: ${callbackEventTypes.join(', ')}`;
}

/**
 * An amount as the payload of `type` carries it under `key`: a whole number, as a string, of at
 * least 0 — at least 1 for a success's `amount` (one of zero says paid for nothing, and the handler
 * refuses it); for the mobile-money payment payloads (a JSON number) at most
 * `Number.MAX_SAFE_INTEGER`.
 */
export function checkPayloadAmount(type: CallbackEventType, amount: unknown, key = 'amount'): Check<string> {
  const whole = checkWholeNumber(amount, key === 'amount' && type.endsWith('.succeeded') ? 1 : 0);
  if (!whole.ok) return whole;
  if (numberAmount(type) && !Number.isSafeInteger(Number(whole.value))) {
    return fail(
      'invalid_amount',
      `expected a whole number up to ${Number.MAX_SAFE_INTEGER}: ${type} carries amount as a JSON number`,
    );
  }
  return pass(whole.value);
}

/**
 * The merchant reference of a callback of `type`, as its payload carries it: a payout's
 * `reference_id` (12 digits, the first not 0), a checkout's `order_id` (a whole number written with
 * digits: the service takes it as a JSON integer and echoes it as a string), else a non-empty
 * string (`transaction_reference`, or only the signed URL's reference for the card and
 * mobile-money success payloads).
 */
export function checkPayloadReference(type: CallbackEventType, reference: unknown): Check<string> {
  if (type.startsWith('payout.')) {
    return checkReferenceId(reference).ok
      ? pass(String(reference))
      : fail(
          'invalid_reference_id',
          `expected the payout's 12-digit reference_id (the first digit not 0), e.g. 123456789012, got ${preview(reference)}`,
        );
  }
  if (type.startsWith('checkout.')) {
    return typeof reference === 'string' &&
      /^(?:0|[1-9]\d*)$/.test(reference) &&
      Number.isSafeInteger(Number(reference))
      ? pass(reference)
      : fail(
          'invalid_order_id',
          `expected the checkout's order_id, a whole number written with digits (no sign or leading zeros), e.g. 1001, got ${preview(reference)}`,
        );
  }
  const field = referenceFields[type] ?? 'reference';
  if (typeof reference !== 'string' || reference.trim() === '' || /\p{Cs}/u.test(reference)) {
    return fail('invalid_reference', `expected ${field} as a non-empty string, got ${preview(reference)}`);
  }
  return pass(reference);
}

/**
 * A mobile-money brand word: a non-empty string without blanks around it or a control or invisible
 * character, and not the card method word (`CARD`, ASCII case and blanks around ignored, as the callback verdict reads it).
 */
export function checkBrand(brand: unknown): Check<string> {
  if (!isMethodWordValue(brand)) {
    return fail(
      'invalid_brand',
      `expected a brand word such as M-PESA (a non-empty string without blanks around it or a control or invisible character), got ${preview(brand)}`,
    );
  }
  if (isCardMethod(brand)) {
    return fail(
      'invalid_brand',
      'expected a mobile-money brand word such as M-PESA, got the card method word (a card payment is another callback type)',
    );
  }
  return pass(brand);
}

/**
 * What the service fixes in a payload of `type`: its status words, `paid`, the codes that are 200
 * in every described callback, the card method word and the message texts (a mobile-money text
 * follows the payload's `payment_method`, its brand word). The keys left out vary: amounts, ids,
 * references, the time and a failure's reason. The card redirect success carries `paid: 'False'`
 * with `Payment complete.`, the contradiction the service documents.
 */
export function fixedPayloadValues(
  type: CallbackEventType,
  payload: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const method = typeof payload.payment_method === 'string' ? payload.payment_method : '';
  const card = method === 'CARD';
  const fixed: { [K in CallbackEventType]: () => Readonly<Record<string, unknown>> } = {
    'payment.card.succeeded': () => ({
      status: 200,
      'payment method': 'CARD',
      message: 'CARD Payment Success',
      'payment status': 'Payment complete.',
      paid: 'True',
    }),
    'payment.card.failed': () => ({
      status: 200,
      'payment method': 'CARD',
      message: 'CARD Payment Failed',
      'payment status': 'Payment incomplete.',
      paid: 'False',
    }),
    'payment.mobile_money.succeeded': () => ({
      response_status: 200,
      message: `${method} Payment Success`,
      payment_status: 'Payment complete.',
      paid: 'True',
    }),
    'payment.mobile_money.failed': () => ({ paid: 'False', 'payment status': 'Payment Incomplete.' }),
    'checkout.succeeded': () => ({
      paid: card ? 'False' : 'True',
      response_status: 200,
      message: card ? 'Card Payment Successful' : `${method} Payment Successful`,
      payment_status: 'Payment complete.',
    }),
    'checkout.failed': () => ({ paid: 'False', response_status: 200, payment_status: 'Payment Incomplete.' }),
    'payout.succeeded': () => ({ message: 'Payout Successful', status: 'Success' }),
    'payout.failed': () => ({ message: 'Payout Failed', status: 'Failed' }),
  };
  return fixed[type]();
}
