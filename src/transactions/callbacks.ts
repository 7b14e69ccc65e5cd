/**
 * What `createCallbackHandler({ tracker })` does with the tracker, in one place: find the
 * transaction a callback is about (refusing one never recorded), and settle it once (refusing the
 * same payment's other outcome; a failed one is settled anew by another payment that paid). The
 * handler calls these functions and answers with the status and reason they give; it finds them
 * on the tracker ({@link callbackSettlement}), so the webhook route ships them only to merchants
 * who use a tracker.
 *
 * @module
 */
import type { CallbackEvent, CallbackEventType } from '../callbacks/events.js';
import { TransactionConflictError, UnknownTransactionError } from './errors.js';
import type { TransactionKind, TransactionRecord } from './store.js';
import { isRecordableReference } from './reference.js';
import type { SettleResult, TransactionTracker } from './tracker.js';

/** A refusal the handler turns into its answer and an `onError` report. */
export interface TransactionRefusal {
  readonly ok: false;
  readonly status: 409 | 422;
  readonly reason:
    | 'unknown_reference'
    | 'transaction_kind_mismatch'
    | 'conflicting_outcome'
    | 'amount_mismatch'
    | 'currency_mismatch';
  readonly error: Error;
}

const refusal = (
  reason: TransactionRefusal['reason'],
  error: Error,
  status: TransactionRefusal['status'] = 409,
): TransactionRefusal => ({ ok: false, status, reason, error });

/**
 * Which transaction kind and outcome each event type settles: the table a reviewer checks. The
 * handler finds transactions by it, and `tracker.settle` refuses an `eventType` whose row names
 * another kind or outcome.
 */
export const eventSettles: Readonly<
  Record<CallbackEventType, { readonly kind: TransactionKind; readonly outcome: 'succeeded' | 'failed' }>
> = {
  'payment.card.succeeded': { kind: 'card', outcome: 'succeeded' },
  'payment.card.failed': { kind: 'card', outcome: 'failed' },
  'payment.mobile_money.succeeded': { kind: 'mobile_money', outcome: 'succeeded' },
  'payment.mobile_money.failed': { kind: 'mobile_money', outcome: 'failed' },
  'checkout.succeeded': { kind: 'checkout', outcome: 'succeeded' },
  'checkout.failed': { kind: 'checkout', outcome: 'failed' },
  'payout.succeeded': { kind: 'payout', outcome: 'succeeded' },
  'payout.failed': { kind: 'payout', outcome: 'failed' },
};

/**
 * The transaction a callback is about, by the signed reference (or the payload's own when the
 * handler has no secret): refused with 409 when it was never recorded, or was recorded as another
 * kind (a payout callback for a card payment's reference).
 */
export async function findCallbackTransaction(
  tracker: TransactionTracker,
  event: CallbackEvent,
  signedReference: string | undefined,
): Promise<{ readonly ok: true; readonly record: TransactionRecord } | TransactionRefusal> {
  const reference = signedReference ?? event.reference;
  // A reference `begin` would refuse (empty, over 256 characters, a lone surrogate) was never recorded.
  const record = isRecordableReference(reference) ? await tracker.get(reference) : undefined;
  if (record === undefined) {
    return refusal(
      'unknown_reference',
      new UnknownTransactionError(reference ?? '(none: sign the callback URL with its reference)'),
    );
  }
  const { kind, outcome } = eventSettles[event.type];
  if (record.kind !== kind) {
    return refusal(
      'transaction_kind_mismatch',
      new TransactionConflictError('kind_mismatch', record, outcome),
    );
  }
  return { ok: true, record };
}

/**
 * What the tracker expects of the callback: the recorded amount, and currency when recorded.
 */
export const expectedFromTransaction = (
  record: TransactionRecord,
): { readonly amount: string; readonly currency?: string } =>
  record.currency === undefined
    ? { amount: record.amount }
    : { amount: record.amount, currency: record.currency };

// How the handler answers each refusal of `tracker.settle`, with the reasons its own checks give
// for the same thing. `reference_in_use`, `already_settled` and `payout_already_sent` are
// `begin`'s and the client's: settle never gives them, and one that did would be rethrown (500).
const settleRefusals: Partial<
  Record<TransactionConflictError['reason'], Pick<TransactionRefusal, 'reason' | 'status'>>
> = {
  conflicting_outcome: { reason: 'conflicting_outcome', status: 409 },
  kind_mismatch: { reason: 'transaction_kind_mismatch', status: 409 },
  amount_mismatch: { reason: 'amount_mismatch', status: 422 },
  currency_mismatch: { reason: 'currency_mismatch', status: 422 },
};

/**
 * Which payment of the reference an event is, by the field the API reference documents for its
 * type: a card or mobile-money payment's `id`, a payout's `transaction_id`. A checkout callback
 * names none, so its dedupe key's digest (of its order, method, amount and session's signed URL)
 * stands for it — for a success. A session's decline is named with its outcome as well (the whole
 * dedupe key): a hosted page may let the customer try again, and the session's success after a
 * decline is then another payment, which settles the order anew, not the decline contradicting
 * itself.
 */
const paymentIdOf = (event: CallbackEvent, dedupeKey: string): string => {
  const data = event.data as Record<string, unknown>;
  const named = event.type.startsWith('payment.')
    ? data.id
    : event.type.startsWith('payout.')
      ? data.transaction_id
      : undefined;
  if (typeof named === 'string') return named;
  return event.type === 'checkout.failed' ? dedupeKey : dedupeKey.slice(dedupeKey.indexOf(':') + 1);
};

/**
 * Settles the transaction with the event's outcome: `'settled'` (also a payment that succeeded
 * after another payment of the reference failed), `'late'` (it had been expired), `'duplicate'`
 * (already settled with this outcome by this payment: a redelivery) or `'another_payment'` (by
 * another payment of the reference, whatever its outcome: its payment id is not the one
 * recorded). The same payment's other outcome is refused with 409 — also that of another payment
 * whose failure a failed record remembers, and a payout's success under another id — a kind, amount or currency that is not the recorded
 * one as the handler's own checks refuse it (409 `transaction_kind_mismatch`, 422
 * `amount_mismatch` / `currency_mismatch`); none is applied.
 */
export async function settleCallbackTransaction(
  tracker: TransactionTracker,
  event: CallbackEvent,
  record: TransactionRecord,
  dedupeKey: string,
): Promise<{ readonly ok: true; readonly settlement: SettleResult } | TransactionRefusal> {
  // The payload's currency: the documented one (card, payout) or one a mobile-money or checkout
  // callback carries (the event's), or one in its data only (an event not made by parseCallback).
  const currency: unknown = event.currency ?? (event.data as Record<string, unknown>).currency;
  try {
    const settlement = await tracker.settle(record.reference, {
      outcome: eventSettles[event.type].outcome,
      eventType: event.type,
      amount: event.amount,
      message: event.message,
      paymentId: paymentIdOf(event, dedupeKey),
      ...(event.transactionId === undefined ? {} : { transactionId: event.transactionId }),
      ...(typeof currency === 'string' ? { currency } : {}),
    });
    return { ok: true, settlement };
  } catch (error) {
    const answer = error instanceof TransactionConflictError ? settleRefusals[error.reason] : undefined;
    if (answer !== undefined) return refusal(answer.reason, error as Error, answer.status);
    throw error;
  }
}

/** What `createTransactionTracker` puts on each tracker for the handler: these functions, on it. */
export const callbackSettlement = (tracker: TransactionTracker) => ({
  find: (event: CallbackEvent, signedReference: string | undefined) =>
    findCallbackTransaction(tracker, event, signedReference),
  expected: expectedFromTransaction,
  settle: (event: CallbackEvent, record: TransactionRecord, dedupeKey: string) =>
    settleCallbackTransaction(tracker, event, record, dedupeKey),
});

/** What the handler finds on a tracker. */
export type CallbackSettlement = ReturnType<typeof callbackSettlement>;
