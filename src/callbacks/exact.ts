/**
 * Internal: the fast path of `parseCallback`. One hand-written `typeof` check per variant for
 * the common case — every documented key present with exactly its documented type — so a
 * valid payload costs a few property reads. Anything else goes to the rules compiled from the
 * zod schemas (`rules.ts`), which apply the tolerances and describe the problems. A test keeps
 * the two in agreement: `exactChecks[type](p)` is true exactly when the compiled rules find
 * nothing to convert and nothing wrong.
 *
 * @module
 */
import type { CallbackEventType } from './events.js';

type Payload = Record<string, unknown>;

const str = (value: unknown): boolean => typeof value === 'string';
const int = (value: unknown): boolean => Number.isSafeInteger(value);
const num = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);
const flag = (value: unknown): boolean => value === 'True' || value === 'False';

const cardFailure = (p: Payload): boolean =>
  str(p.id) &&
  int(p.status) &&
  str(p['payment method']) &&
  str(p.message) &&
  str(p.amount) &&
  str(p.currency) &&
  str(p['payment status']) &&
  str(p['transaction id']) &&
  flag(p.paid) &&
  int(p.timestamp);

const checkout = (p: Payload): boolean =>
  str(p.payment_method) &&
  flag(p.paid) &&
  int(p.response_status) &&
  str(p.order_id) &&
  str(p.message) &&
  str(p.amount) &&
  str(p.payment_status);

const payoutFailure = (p: Payload): boolean =>
  str(p.amount) &&
  str(p.currency) &&
  str(p.message) &&
  str(p.reference_id) &&
  p.status === 'Failed' &&
  str(p.transaction_id) &&
  str(p.wallet_balance);

/** True when every documented key of the variant is present with exactly its documented type. */
export const exactChecks: Readonly<Record<CallbackEventType, (payload: Payload) => boolean>> = {
  'payment.card.succeeded': (p) => str(p['amount captured']) && cardFailure(p),
  'payment.card.failed': cardFailure,
  'payment.mobile_money.succeeded': (p) =>
    str(p.id) &&
    int(p.response_status) &&
    str(p.payment_method) &&
    str(p.message) &&
    num(p.amount) &&
    num(p.amount_captured) &&
    str(p.payment_status) &&
    str(p['transaction id']) &&
    flag(p.paid) &&
    int(p.timestamp),
  'payment.mobile_money.failed': (p) =>
    str(p.id) &&
    str(p.transaction_reference) &&
    int(p.response_status) &&
    num(p.amount) &&
    flag(p.paid) &&
    str(p['payment status']) &&
    str(p.message) &&
    int(p.timestamp),
  'checkout.succeeded': checkout,
  'checkout.failed': checkout,
  'payout.succeeded': (p) =>
    str(p.amount) &&
    str(p.currency) &&
    str(p.message) &&
    str(p.payout_fee) &&
    str(p.reference_id) &&
    p.status === 'Success' &&
    str(p.transaction_id) &&
    str(p.wallet_balance),
  'payout.failed': payoutFailure,
};
