/**
 * The tracker's typed errors. Each extends `PaymentsError`, has a literal `name`, and names the
 * reference it is about (a merchant reference is not a secret).
 *
 * @module
 */
import { PaymentsError } from '../errors.js';
import { raced } from '../internal/promise.js';
import { monotonicNow } from '../internal/timers.js';
import { plainCause, type Secrets } from '../internal/redact.js';
import type { TransactionRecord, TransactionState } from './store.js';

/**
 * `settle`, `expire` or `waitFor` for a reference `begin` never recorded (or whose settled record
 * has aged out of the store); and `waitFor` whose record was gone from the store at its timeout.
 *
 * @example
 * ```ts
 * try {
 *   await tracker.settle('ORD-1', { outcome: 'succeeded' });
 * } catch (error) {
 *   if (error instanceof UnknownTransactionError) console.warn('no pending transaction', error.reference);
 * }
 * ```
 */
export class UnknownTransactionError extends PaymentsError {
  override readonly name = 'UnknownTransactionError' as const;

  /** `gone`: `waitFor` read the record, and its last read, at the timeout, no longer found it. */
  constructor(
    readonly reference: string,
    gone?: boolean,
  ) {
    super(
      gone
        ? `reference: transaction ${JSON.stringify(reference)} is no longer in the store (it was when the wait began; a store that lost its data, such as a Redis restarted without persistence, cannot settle it)`
        : `reference: no transaction ${JSON.stringify(reference)} was recorded (by tracker.begin, or the client's transactions option, before the initiation)`,
    );
  }
}

const conflictMessage = (
  reason: TransactionConflictError['reason'],
  record: TransactionRecord,
  attempted: TransactionState,
): string => {
  switch (reason) {
    case 'conflicting_outcome':
      return record.kind === 'payout' && record.state === attempted
        ? `already ${record.state} under another transaction id, refused (a payout's reference_id names one transfer: reconcile it with the provider)`
        : `already ${record.state}, a ${attempted} outcome is refused (a transaction settles once)`;
    case 'kind_mismatch':
      return `recorded as a ${record.kind} transaction, and the event type settled with is of another kind; nothing was settled`;
    case 'amount_mismatch':
      return `amount is not the recorded ${record.amount} (compared as decimals); nothing was settled`;
    case 'currency_mismatch':
      return `currency is not the recorded ${record.currency ?? ''}; nothing was settled`;
    case 'already_settled':
      return `this transaction already ${record.state}; nothing was sent (initiate a new attempt with a new reference)`;
    case 'reference_in_use':
      return 'already recorded with another kind, amount or currency (references must be unique per transaction)';
    case 'payout_already_sent':
      return `a payout under this reference_id is already recorded (${record.state}), and may have been sent; nothing was sent now: wait for its callback, or reconcile it with the provider before paying under a new reference_id`;
  }
};

/**
 * A transition the record does not allow, never applied: a second, different outcome for a
 * settled transaction (`reason: 'conflicting_outcome'`), `begin` again for a reference in use
 * with another kind, amount or currency (`reason: 'reference_in_use'`), a callback (its
 * `eventType`) of another kind than the one recorded (`reason: 'kind_mismatch'`), a settlement
 * whose `amount` is not the recorded one, compared as decimals (`reason: 'amount_mismatch'`) or
 * whose `currency` is not the recorded one (`reason: 'currency_mismatch'`), or a client initiation
 * (the `transactions` option) with the reference of a transaction that already succeeded or failed
 * (`reason: 'already_settled'`, nothing sent: a new attempt needs a new reference), or a client
 * payout under a `reference_id` already recorded pending or expired (`reason:
 * 'payout_already_sent'`, nothing sent: a reference_id names one transfer). `record` is the
 * stored record, unchanged.
 *
 * @example
 * ```ts
 * try {
 *   await tracker.settle('ORD-1', { outcome: 'failed', eventType: 'payment.card.failed' });
 * } catch (error) {
 *   if (error instanceof TransactionConflictError && error.reason === 'conflicting_outcome') {
 *     alertOps(`${error.reference} was ${error.record.state}, then a ${error.attempted} callback came`);
 *   }
 * }
 * ```
 */
export class TransactionConflictError extends PaymentsError {
  override readonly name = 'TransactionConflictError' as const;
  readonly reference: string;

  constructor(
    readonly reason:
      | 'conflicting_outcome'
      | 'reference_in_use'
      | 'kind_mismatch'
      | 'amount_mismatch'
      | 'currency_mismatch'
      | 'already_settled'
      | 'payout_already_sent',
    readonly record: TransactionRecord,
    /** The outcome (or state) that was refused. */
    readonly attempted: TransactionState,
  ) {
    super(`reference ${JSON.stringify(record.reference)}: ${conflictMessage(reason, record, attempted)}`);
    this.reference = record.reference;
  }
}

/** A store's failure, as {@link plainCause} kept it, in a message. */
const describeFailure = (cause: unknown): string =>
  cause instanceof Error
    ? `${cause.name}: ${cause.message}`
    : typeof cause === 'string'
      ? cause
      : 'it did not give an Error';

/**
 * `waitFor` gave up: the transaction was still pending after `timeout` ms — or the store could not
 * be read when the timeout came (Redis down since before it), so its state is not known; then
 * `cause` is the store's last error as a plain error (name, message, stack, nothing else it
 * carried), or a `TimeoutError` when the store did not answer the wait's last read. Nothing
 * changed in the store; wait again, or list it with `stale` and `expire` it.
 *
 * @example
 * ```ts
 * try {
 *   const record = await tracker.waitFor('ORD-1', { timeout: 120_000 });
 *   if (record.state === 'succeeded') await fulfil(record.reference);
 * } catch (error) {
 *   if (error instanceof TransactionTimeoutError) await markPending(error.reference); // the callback may still come
 *   else throw error;
 * }
 * ```
 */
export class TransactionTimeoutError extends PaymentsError {
  override readonly name = 'TransactionTimeoutError' as const;

  constructor(
    readonly reference: string,
    readonly timeoutMs: number,
    /** `storeFailure`: what the store's last read failed with, when it failed. */
    options?: { readonly storeFailure: unknown },
  ) {
    const cause = options === undefined ? undefined : plainCause(options.storeFailure, undefined);
    super(
      options === undefined
        ? `reference ${JSON.stringify(reference)}: still pending after waiting ${timeoutMs} ms`
        : `reference ${JSON.stringify(reference)}: the transaction store could not be read (${describeFailure(cause)}) when the wait ended after ${timeoutMs} ms; whether it is still pending is not known`,
      options === undefined ? undefined : { cause },
    );
  }
}

/**
 * The in-memory store is full of pending transactions and payout records (it never drops either
 * to make room, nor the record being written): `begin` is refused, and so is a `settle` whose
 * settled record, larger than the pending one, does not fit (the transaction stays pending).
 * The store's `stats()` says how many of each it holds (`pending`, `payouts`). Expire some pending
 * ones, raise `maxEntries`/`maxBytes`, or use a shared store.
 *
 * @example
 * ```ts
 * export async function POST(): Promise<Response> {
 *   try {
 *     await tracker.begin({ reference: 'ORD-1', kind: 'card', amount: 1500, currency: 'KES' });
 *   } catch (error) {
 *     if (error instanceof TransactionStoreFullError) return new Response('busy', { status: 503 });
 *     throw error;
 *   }
 *   return Response.json({ reference: 'ORD-1' }, { status: 201 });
 * }
 * ```
 */
export class TransactionStoreFullError extends PaymentsError {
  override readonly name = 'TransactionStoreFullError' as const;

  constructor(
    readonly limit: 'maxEntries' | 'maxBytes',
    readonly value: number,
    /** The transaction the store could not record or settle (a store of your own may leave it out). */
    readonly reference?: string,
  ) {
    super(
      `transaction store: ${limit} (${value}) reached with pending transactions and payout records only; none is dropped to make room${reference === undefined ? '' : `, so ${reference} was not written`}`,
    );
  }
}

/**
 * The transaction store failed, or did not answer within the call's `totalTimeout` or before its
 * `signal` aborted, while a client with the `transactions` option recorded an initiation. `sent:
 * false`: it failed recording the pending transaction, before sending; nothing was sent, so the
 * call can be made again (a payout under a new `reference_id`: a store that answers late may
 * still write its record, which is then expired). `sent: true`: the service refused the request (a 4xx) and the store
 * failed to expire its record, which stays pending (`stale()` lists it); this error is then the
 * `cause` of the `ApiError` thrown. `cause`: the store's error as a plain error (its name, message
 * and stack, nothing else it carried), the call's card number, cvc, credential header values (the
 * API key) and signed callback URL's `hp_sig` redacted.
 *
 * @example
 * ```ts
 * try {
 *   await client.initiateMobileMoneyPayment(input);
 * } catch (error) {
 *   if (!(error instanceof TransactionStoreError) || error.sent) throw error;
 *   console.warn('nothing was sent: try again once the store is back');
 * }
 * ```
 */
export class TransactionStoreError extends PaymentsError {
  override readonly name = 'TransactionStoreError' as const;

  constructor(
    readonly reference: string,
    /** Whether the request had been sent. */
    readonly sent: boolean,
    failure: unknown,
    secrets?: Secrets,
  ) {
    const cause = plainCause(failure, secrets);
    super(
      `Transaction store failed (${describeFailure(cause)}) for reference ${JSON.stringify(reference)}: ${
        sent ? 'the request was sent and refused; its record stays pending' : 'nothing was sent'
      }`,
      { cause },
    );
  }
}

/**
 * What a tracker gives the client's `transactions` option for each store call it makes (kept on
 * the tracker, so only a bundle that creates one ships it): `work`, with a failure of the store —
 * anything but the tracker's own typed errors — as a {@link TransactionStoreError}; before sending
 * (`sent` false) also given up on when `signal` aborts or the call's deadline passes: at
 * `deadlineAt` ({@link monotonicNow} ms, the call's own, so what ran before the store counts;
 * `Infinity` without one), else `totalTimeout` ms from now.
 */
export function guardStore<T>(
  work: Promise<T>,
  reference: string,
  sent: boolean,
  secrets: Secrets | undefined,
  signal?: AbortSignal,
  totalTimeout?: number,
  deadlineAt?: number,
): Promise<T> {
  return raced(work, {
    signal,
    ms: deadlineAt === undefined ? totalTimeout : Math.max(deadlineAt - monotonicNow(), 0),
    timedOut: () =>
      new DOMException(`The operation timed out after ${totalTimeout} ms (totalTimeout)`, 'TimeoutError'),
  }).catch((failure: unknown) => {
    throw failure instanceof PaymentsError
      ? failure
      : new TransactionStoreError(reference, sent, failure, secrets);
  });
}
