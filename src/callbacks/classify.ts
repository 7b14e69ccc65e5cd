/**
 * Which of the eight payloads a callback body is, decided by which keys are present and then,
 * where two variants share their keys, by the status value that tells success from failure.
 * Never by message text or the brand word (`M-PESA` classifies the same as `MOBILE-MONEY`).
 *
 * The decision table, checked top to bottom; the first row whose keys are present decides:
 *
 * | # | key present (exact spelling)                      | variant                                            |
 * |---|---------------------------------------------------|----------------------------------------------------|
 * | 1 | `'payment method'` or `'amount captured'` (space) | card: `'amount captured'` present → `payment.card.succeeded`, absent → `payment.card.failed` (spec: "same keys except amount captured is absent") |
 * | 2 | `transaction_reference`                           | `payment.mobile_money.failed`                      |
 * | 3 | `amount_captured` or `'transaction id'` (space)   | `payment.mobile_money.succeeded` (card is row 1)   |
 * | 4 | `order_id`                                        | checkout: `payment_status` `Payment complete.` → `checkout.succeeded`, `Payment Incomplete.` → `checkout.failed` (case and final dot ignored); unrecognised → by `paid` |
 * | 5 | `payout_fee`, `wallet_balance` or `reference_id`  | payout: `status` `Success` → `payout.succeeded`, `Failed` → `payout.failed`; otherwise by whether `payout_fee` is present |
 * | 6 | none of these                                     | no variant: the closest one (most of its keys present) is named in the error |
 *
 * Classification only picks the variant; the variant's rules (compiled from its schema) then
 * check every key.
 *
 * @module
 */
import type { CallbackEventType } from './events.js';

/** The outcome of the decision table. */
export type Classification =
  | { readonly type: CallbackEventType; readonly statusRecognised: boolean }
  | { readonly type: undefined; readonly statusRecognised: false };

const NONE: Classification = { type: undefined, statusRecognised: false };

/**
 * Reads a payment-status text: `true` for "Payment complete.", `false` for "Payment
 * incomplete." / "Payment Incomplete.", `undefined` for anything else. Case, surrounding
 * blanks and the final dot are ignored.
 */
export function readPaymentStatus(value: unknown): boolean | undefined {
  if (value === 'Payment complete.') return true;
  if (value === 'Payment Incomplete.' || value === 'Payment incomplete.') return false;
  if (typeof value !== 'string' || value.length > 64) return undefined;
  const text = value.trim().toLowerCase().replace(/\.$/, '');
  return text === 'payment complete' ? true : text === 'payment incomplete' ? false : undefined;
}

/** Reads a `paid` flag: `'True'`/`true` → true, `'False'`/`false` → false, else undefined. */
export function readPaidFlag(value: unknown): boolean | undefined {
  if (value === 'True' || value === true) return true;
  if (value === 'False' || value === false) return false;
  return undefined;
}

const classified = (type: CallbackEventType, statusRecognised = true): Classification => ({
  type,
  statusRecognised,
});

// One object per outcome, so classifying allocates nothing.
const CARD_SUCCEEDED = classified('payment.card.succeeded');
const CARD_FAILED = classified('payment.card.failed');
const MM_SUCCEEDED = classified('payment.mobile_money.succeeded');
const MM_FAILED = classified('payment.mobile_money.failed');
const CHECKOUT_SUCCEEDED = classified('checkout.succeeded');
const CHECKOUT_FAILED = classified('checkout.failed');
const CHECKOUT_SUCCEEDED_BY_PAID = classified('checkout.succeeded', false);
const CHECKOUT_FAILED_BY_PAID = classified('checkout.failed', false);
const PAYOUT_SUCCEEDED = classified('payout.succeeded');
const PAYOUT_FAILED = classified('payout.failed');
const PAYOUT_SUCCEEDED_BY_FEE = classified('payout.succeeded', false);
const PAYOUT_FAILED_BY_FEE = classified('payout.failed', false);

/**
 * Runs the decision table above on a plain object.
 *
 * `statusRecognised` is false when the status value did not decide (rows 4 and 5 fell back to
 * `paid` or to `payout_fee`); for checkout with neither readable, the type is `checkout.failed`
 * and the caller reports the unreadable `payment_status`.
 */
export function classifyCallback(payload: Record<string, unknown>): Classification {
  // Each key is read in place (not through a shared `has(payload, key)` helper): one call site
  // per key keeps every property read monomorphic, which a profile showed to be a quarter of
  // parseCallback's time.
  // Row 1: card — the only payloads with 'payment method' / 'amount captured' (with a space).
  if (payload['payment method'] !== undefined || payload['amount captured'] !== undefined) {
    return payload['amount captured'] !== undefined ? CARD_SUCCEEDED : CARD_FAILED;
  }
  // Row 2: mobile-money failure — the only payload that echoes transaction_reference.
  if (payload['transaction_reference'] !== undefined) return MM_FAILED;
  // Row 3: mobile-money success.
  if (payload['amount_captured'] !== undefined || payload['transaction id'] !== undefined)
    return MM_SUCCEEDED;
  // Row 4: redirect checkout — same keys for success and failure; payment_status decides,
  // because the described card success carries paid 'False' (spec §2.9).
  if (payload['order_id'] !== undefined) {
    const complete = readPaymentStatus(payload.payment_status);
    if (complete !== undefined) return complete ? CHECKOUT_SUCCEEDED : CHECKOUT_FAILED;
    return readPaidFlag(payload.paid) === true ? CHECKOUT_SUCCEEDED_BY_PAID : CHECKOUT_FAILED_BY_PAID;
  }
  // Row 5: payout.
  if (
    payload['payout_fee'] !== undefined ||
    payload['wallet_balance'] !== undefined ||
    payload['reference_id'] !== undefined
  ) {
    if (payload.status === 'Success') return PAYOUT_SUCCEEDED;
    if (payload.status === 'Failed') return PAYOUT_FAILED;
    return payload['payout_fee'] !== undefined ? PAYOUT_SUCCEEDED_BY_FEE : PAYOUT_FAILED_BY_FEE;
  }
  // Row 6.
  return NONE;
}
