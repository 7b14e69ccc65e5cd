/**
 * `createTransactionTracker`: the merchant's pending transactions — recorded when a payment or
 * payout is initiated, settled by its callback (once; a failed payment again as succeeded when
 * another payment of it pays, never a payout), awaited, and expired when the callback never comes.
 *
 * @module
 */
import { ValidationError, type ValidationIssue } from '../errors.js';
import { isNameLike, keyShown } from '../internal/values.js';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import type { CallbackEventType } from '../callbacks/events.js';
import { sameAmount, sameCurrency } from '../callbacks/amount.js';
import { CALLBACK_SETTLEMENT } from '../internal/tracker-hook.js';
import { checkCurrency } from '../validation/currency.js';
import { checkWholeNumber } from '../validation/money.js';
import { callbackSettlement, eventSettles } from './callbacks.js';
import { MAX_TIMER_MS } from '../internal/timers.js';
import { kindOf, wholeNumberOption } from '../internal/whole-number.js';
import { after } from './options.js';
import { isNewReference, isRecordableReference } from './reference.js';
import {
  guardStore,
  TransactionConflictError,
  TransactionTimeoutError,
  UnknownTransactionError,
} from './errors.js';
import {
  createMemoryTransactionStore,
  transactionKinds,
  type TransactionKind,
  type TransactionOutcome,
  type TransactionRecord,
  type TransactionState,
  type TransactionStore,
} from './store.js';

/**
 * What `begin` records.
 *
 * @example
 * ```ts
 * const input: BeginTransactionInput = { reference: 'ORD-1', kind: 'mobile_money', amount: 1500, currency: 'KES' };
 * ```
 */
export interface BeginTransactionInput {
  /** The merchant's reference: the one signed into the callback URL (1–256 characters, no lone surrogate). */
  readonly reference: string;
  readonly kind: TransactionKind;
  /** Whole units, as sent: `1500`, `1500n` or `'1500'` (stored as `'1500'`). */
  readonly amount: number | bigint | string;
  /** 3-letter currency code, when the transaction has one. */
  readonly currency?: string | undefined;
}

/**
 * What `settle` applies: the outcome, and what the callback said about it. What is given is
 * checked against the record before anything is written: `eventType` must be one of the callback
 * event types, of the record's kind and of this outcome; `amount` must be the recorded amount
 * (compared as decimals, `'1500.00'` = `'1500'`); `currency` the recorded currency (ignoring
 * case), when one was recorded. Settling from your own route, pass them from the verified event.
 *
 * @example
 * ```ts
 * await tracker.settle('ORD-1', { outcome: 'failed', eventType: 'payment.mobile_money.failed', amount: '1500', message: 'Insufficient funds' });
 * ```
 */
export interface SettleInput extends TransactionOutcome {
  readonly outcome: 'succeeded' | 'failed';
}

/**
 * What `settle` did: `'settled'` — this call moved it from pending, or from failed to succeeded
 * (another payment of the reference paid after the one recorded failed: a second tab, Pay pressed
 * again); `'late'` — from expired (the callback came after the merchant gave up), or from failed
 * to succeeded when it had been expired before its failure came (`record.late`: the order may
 * have been cancelled); `'duplicate'` — it was already settled with this same outcome, nothing
 * changed (an earlier call settled it; whether its caller finished its own work is not known
 * here); `'another_payment'` — it was settled by another payment (another `transactionId` and
 * another `paymentId` than the ones recorded, each compared where both have one: the customer paid
 * twice), nothing changed, whatever the outcome this one reports (a payout's other outcome, and
 * its success under another id, excepted: see `settle`). `record` is the stored record after the call.
 *
 * @example
 * ```ts
 * const { result, record } = await tracker.settle('ORD-1', { outcome: 'succeeded' });
 * if (result === 'late') await alertOps(`${record.reference} was paid after it expired`); // the order had been given up on
 * ```
 */
export interface SettleResult {
  readonly result: 'settled' | 'late' | 'duplicate' | 'another_payment';
  readonly record: TransactionRecord;
}

/**
 * What `expireIfPending` did: `'expired'` — this call moved it from pending; `'already_expired'` —
 * it was expired before, by another call (or by a call of this one that failed, yet was applied:
 * a store that gave up waiting on Redis); `'already_settled'` — its callback settled it (succeeded
 * or failed, `record.state` says which); `'initiated_again'` — given a `createdAt`, the pending
 * record is another attempt, initiated since (the customer is paying it: left pending).
 * `record` is the stored record after the call. To cancel the order, go by
 * `record.state === 'expired'` with a cancellation that leaves a cancelled order alone
 * (docs/transactions.md, the cron).
 *
 * @example
 * ```ts
 * const { record } = await tracker.expireIfPending('ORD-1');
 * if (record.state === 'expired') console.log(`cancel ${record.reference} if it is still open`);
 * ```
 */
export interface ExpireResult {
  readonly result: 'expired' | 'already_expired' | 'already_settled' | 'initiated_again';
  readonly record: TransactionRecord;
}

/**
 * Options of `expireIfPending`.
 *
 * @example
 * ```ts
 * for (const listed of await tracker.stale()) {
 *   await tracker.expireIfPending(listed.reference, { createdAt: listed.createdAt });
 * }
 * ```
 */
export interface ExpireOptions {
  /**
   * Expire only the attempt created at this time: the `createdAt` of the record `stale()`
   * listed. A record the client's `transactions` option recorded pending again since (a new
   * initiation under the reference, with its own `createdAt`) is left pending and answered
   * `'initiated_again'`. Without it, any pending record of the reference is expired, however young.
   */
  readonly createdAt?: number | undefined;
}

/**
 * Options of `waitFor`.
 *
 * @example
 * ```ts
 * const options: WaitForOptions = { timeout: 120_000, signal: request.signal };
 * ```
 */
export interface WaitForOptions {
  /**
   * Give up after this many ms from the call with a `TransactionTimeoutError` (a whole number from
   * 1), also while the store has not answered the first read. Default: the kind's stale limit,
   * from the store's first answer (until then, the longest of any kind).
   */
  readonly timeout?: number | undefined;
  /** Abort the wait (rejects with the signal's reason when it is an Error, else an `AbortError`). */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Options of `stale`.
 *
 * @example
 * ```ts
 * const options: StaleOptions = { olderThan: 10 * 60_000, kind: 'mobile_money' };
 * ```
 */
export interface StaleOptions {
  /** Pending for longer than this many ms (a whole number from 0). Default: each kind's limit (`staleAfterMs`). */
  readonly olderThan?: number | undefined;
  /** Only this kind (another value is a `TypeError` naming `kind`). */
  readonly kind?: TransactionKind | undefined;
  /** At most this many, oldest first (a whole number from 1). Default 1000. */
  readonly limit?: number | undefined;
}

/**
 * Options of {@link createTransactionTracker}.
 *
 * @example
 * ```ts
 * const options: TransactionTrackerOptions = { store: createMemoryTransactionStore(), staleAfterMs: { mobile_money: 180_000 } };
 * ```
 */
export interface TransactionTrackerOptions {
  /** Where transactions live. Default: {@link createMemoryTransactionStore} (one process only). */
  readonly store?: TransactionStore | undefined;
  /**
   * How long a transaction may stay pending before `stale` lists it, per kind, ms. Defaults:
   * `mobile_money` 5 min (an STK prompt times out on the phone within about a minute; the
   * provider's callback follows), `card` 30 min (3-D Secure), `checkout` 1 h (a customer on the
   * hosted page), `payout` 24 h. Each a whole number from 1.
   */
  readonly staleAfterMs?: Partial<Record<TransactionKind, number>> | undefined;
  /**
   * While `waitFor` waits, how often it also re-reads the store, ms: the fallback for a store
   * without `watch`, and for a notification lost while the store was unreachable. A whole number
   * from 1 to 2,147,483,647 (the longest a timer holds); below 10 it polls every 10 ms. Default 2000.
   */
  readonly pollIntervalMs?: number | undefined;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/**
 * The tracker: see {@link createTransactionTracker}.
 *
 * @example
 * ```ts
 * const tracker: TransactionTracker = createTransactionTracker();
 * ```
 */
export interface TransactionTracker {
  /** The store it uses. */
  readonly store: TransactionStore;
  /**
   * Records a pending transaction. Calling it again with the same reference, kind, amount and
   * currency resolves with the stored record (whatever its state); with different ones it throws
   * `TransactionConflictError` (`reason: 'reference_in_use'`). Invalid input, a field it does not
   * know included (a misspelt `currency` would record the transaction without one): `ValidationError`.
   */
  begin(input: BeginTransactionInput): Promise<TransactionRecord>;
  /**
   * Records an attempt about to be sent, as the client's `transactions` option does before each
   * initiation: {@link begin}, and a payment recorded `expired` (refused, or given up on) or
   * `pending` (Pay pressed again) is recorded pending again from now, a new attempt (its
   * `createdAt` later than the earlier's): `waitFor` waits for it, `stale` counts from it, and its
   * success settles on time rather than `late`. A failed or succeeded record, and a payout's
   * whatever its state (one `reference_id` is one transfer, never sent again), resolve as they
   * are. Refuses what `begin` refuses.
   */
  beginAttempt(input: BeginTransactionInput): Promise<TransactionRecord>;
  /** The stored record, or `undefined`. */
  get(reference: string): Promise<TransactionRecord | undefined>;
  /**
   * Settles a transaction: from pending, or from expired as `'late'`, once. A failed one is not
   * final: a success of another payment of the reference (another `transactionId` and another
   * `paymentId`, each compared where both have one: a second tab, Pay pressed again; the same
   * `paymentId` under another `transactionId` is the same payment) settles it anew as succeeded
   * with that payment's ids (`'settled'`, or `'late'` when it had been expired). Another payment's
   * failure on a failed or a succeeded one is `'another_payment'` and is remembered in
   * `failedPayments` (the last 16), as is the recorded failure when another payment settles it as
   * succeeded, and that payment's success later is refused as `conflicting_outcome`, as is, once
   * some were dropped (`failedPaymentsDropped`), a success of a payment not listed. Any other
   * settlement of another payment is `'another_payment'`, whatever its outcome, and changes
   * nothing; the same outcome again is a `'duplicate'`; a
   * different one throws `TransactionConflictError` (`reason: 'conflicting_outcome'`) and changes
   * nothing. A payout is one transfer (its reference_id is unique per transfer, and the client
   * never sends it again): a failed one is final, and its other outcome, whatever `transactionId`
   * reports it, throws `conflicting_outcome`, as does its success under another `transactionId`
   * (that transfer under two ids, or money sent twice). An `eventType` of another kind, an `amount` or
   * `currency` that is not the recorded one: `TransactionConflictError` (`reason:
   * 'kind_mismatch'`, `'amount_mismatch'`, `'currency_mismatch'`), nothing written. An outcome, event type or field it does not know, a
   * field that is not a string: `ValidationError` naming it. Unknown reference:
   * `UnknownTransactionError`.
   */
  settle(reference: string, input: SettleInput): Promise<SettleResult>;
  /**
   * Resolves with the record once it is no longer pending (succeeded, failed or expired) — also
   * when another process sharing the store settles it. Rejects with `TransactionTimeoutError`
   * after `timeout` when a last read of the store (given at most 1 s) still finds it pending — or
   * when the store still cannot be read then (its `cause` the store's error, or a `TimeoutError`
   * when it did not answer the last read; a read that fails is tried again at the next poll until
   * then) — with the signal's reason when aborted, with
   * `UnknownTransactionError` for a reference never recorded, or, at the timeout, whose record the
   * last read no longer found (a store that lost its data): no callback can settle it then. A read
   * that misses it before then (a lagging replica) does not end the wait. `failed` is what was
   * true when it resolved, not final: another payment of the reference may still settle it as
   * succeeded (see `settle`), so read the record again (`get`) before acting on a failure for good.
   */
  waitFor(reference: string, options?: WaitForOptions): Promise<TransactionRecord>;
  /**
   * Pending transactions older than their limit (or `olderThan`), oldest first. Each record the
   * store's `listPending` answers is checked itself (pending, of the kind, created before the
   * limit), so a store whose index lags its records never lists one initiated again a moment ago;
   * when it drops some, it asks the store for more (up to 8 times `limit`) to fill the page.
   */
  stale(options?: StaleOptions): Promise<TransactionRecord[]>;
  /**
   * Gives up on a pending transaction: it becomes `expired`, and `waitFor` resolves with it. A
   * later genuine callback still settles it (`'late'`). A record already settled or expired is
   * returned unchanged: to tell whether this call expired it, use `expireIfPending`. Unknown
   * reference: `UnknownTransactionError`.
   */
  expire(reference: string): Promise<TransactionRecord>;
  /**
   * `expire`, saying what it did: `'expired'` only to the one call that moved the transaction
   * from pending (a compare-and-set in the store, so of several instances expiring it at once
   * exactly one is told), `'already_expired'` or `'already_settled'` to any other. With
   * `createdAt` (the listed record's), only that attempt is expired: a cron whose `stale()` list
   * was read before another instance expired the transaction and the customer initiated it again
   * gets `'initiated_again'`, and the new attempt stays pending. Unknown reference:
   * `UnknownTransactionError`.
   */
  expireIfPending(reference: string, options?: ExpireOptions): Promise<ExpireResult>;
}

// The options each function knows; any other key is refused (a misspelt `store` would give a
// tracker in this process's memory where the merchant meant a shared one).
const TRACKER_OPTIONS: OptionNames<TransactionTrackerOptions> = {
  store: true,
  staleAfterMs: true,
  pollIntervalMs: true,
  now: true,
};
const KIND_NAMES: OptionNames<Record<TransactionKind, number>> = {
  card: true,
  mobile_money: true,
  checkout: true,
  payout: true,
};
// The fields `begin` knows: a misspelt `currency` would otherwise record a transaction without one.
const BEGIN_FIELDS: OptionNames<BeginTransactionInput> = {
  reference: true,
  kind: true,
  amount: true,
  currency: true,
};
// The fields `settle` knows: a misspelt `amount` would otherwise go unchecked.
const SETTLE_FIELDS: OptionNames<SettleInput> = {
  outcome: true,
  eventType: true,
  transactionId: true,
  amount: true,
  currency: true,
  message: true,
  paymentId: true,
};
const WAIT_OPTIONS: OptionNames<WaitForOptions> = { timeout: true, signal: true };
const STALE_OPTIONS: OptionNames<StaleOptions> = { olderThan: true, kind: true, limit: true };
const EXPIRE_OPTIONS: OptionNames<ExpireOptions> = { createdAt: true };

const defaultStaleAfterMs: Record<TransactionKind, number> = {
  card: 30 * 60_000,
  mobile_money: 5 * 60_000,
  checkout: 60 * 60_000,
  payout: 24 * 60 * 60_000,
};

const issue = (path: string, code: string, message: string): ValidationIssue => ({
  path: [path],
  code,
  message,
});

const referenceIssue = (recording = false): ValidationIssue =>
  issue(
    'reference',
    'invalid_reference',
    `expected a non-empty string of at most 256 characters of well-formed Unicode (no lone surrogate${recording ? ', no control character' : ''})`,
  );

const checkReference = (reference: unknown): string => {
  if (!isRecordableReference(reference)) {
    throw new ValidationError([referenceIssue()], { prefix: 'Invalid transaction' });
  }
  return reference;
};

/** An `unknown_field` issue for each key of `input` that `known` does not list. */
const unknownFields = (input: object, known: object, what: string): ValidationIssue[] =>
  Object.keys(input)
    .filter((key) => !Object.hasOwn(known, key))
    .map((key) => ({
      path: isNameLike(key) ? [key] : [],
      code: 'unknown_field',
      message: `unknown field ${keyShown(key)}: not a field of ${what}; the fields are ${Object.keys(known).join(', ')}`,
    }));

const settlementError = (issues: ValidationIssue[]): ValidationError =>
  new ValidationError(issues, { prefix: 'Invalid settlement' });

/**
 * `settle`'s input, checked on its own (the record is checked later): the state it asks for and
 * the outcome to store. Refuses a field it does not know, one that is not a string, an event type
 * not in {@link eventSettles} and one that settles the other outcome.
 */
const checkSettlement = (
  input: SettleInput,
): { state: 'succeeded' | 'failed'; outcome: TransactionOutcome } => {
  if (typeof input !== 'object' || input === null) {
    throw settlementError([issue('outcome', 'invalid_outcome', "expected 'succeeded' or 'failed'")]);
  }
  const issues = unknownFields(input, SETTLE_FIELDS, 'a settlement');
  const state = input.outcome;
  if (state !== 'succeeded' && state !== 'failed') {
    issues.push(issue('outcome', 'invalid_outcome', "expected 'succeeded' or 'failed'"));
  }
  const outcome: Record<string, string> = {};
  for (const field of ['eventType', 'transactionId', 'amount', 'currency', 'message', 'paymentId'] as const) {
    const value: unknown = input[field];
    if (value === undefined) continue;
    if (typeof value === 'string') outcome[field] = value;
    else issues.push(issue(field, 'invalid_type', `expected a string, got ${typeof value}`));
  }
  const { eventType } = outcome;
  if (eventType !== undefined) {
    const settles = Object.hasOwn(eventSettles, eventType)
      ? eventSettles[eventType as CallbackEventType]
      : undefined;
    if (settles === undefined) {
      issues.push(
        issue('eventType', 'unknown_event_type', `expected one of ${Object.keys(eventSettles).join(', ')}`),
      );
    } else if ((state === 'succeeded' || state === 'failed') && settles.outcome !== state) {
      issues.push(
        issue(
          'eventType',
          'outcome_mismatch',
          `a ${eventType} callback settles as ${settles.outcome}, not ${state}`,
        ),
      );
    }
  }
  if (issues.length > 0 || (state !== 'succeeded' && state !== 'failed')) throw settlementError(issues);
  return { state, outcome };
};

// What the client's `transactions` option needs of a tracker (internal: the entries do not export
// it): each tracker's clock, to stamp a record it makes pending again as `begin` stamps one; and
// the records a `begin` stored (its store's `insert` answered with that very record) until that
// begin's caller asks, to tell the call that recorded a transaction from one that found it
// recorded without reading the store first.
// Kept on globalThis under Symbol.for, so every loaded copy of the package (its CommonJS and ESM
// builds; installed versions that keep them there) sees the same: a tracker made by one is used by
// another's client. The key names its shape's version.
const shared = <T extends object>(name: string, make: () => T): T => {
  const holder = globalThis as unknown as Record<symbol, T | undefined>;
  return (holder[Symbol.for(`hosted-payments.${name}.v1`)] ??= make());
};
const clocks = shared('trackerClocks', () => new WeakMap<TransactionTracker, () => number>());
const fresh = shared('freshRecords', () => new WeakSet<TransactionRecord>());

/** The clock of a tracker made by {@link createTransactionTracker} (its `now` option), else `Date.now`. */
export const trackerClock = (tracker: TransactionTracker): (() => number) => clocks.get(tracker) ?? Date.now;

/**
 * Where a tracker keeps {@link guardStore}, which turns a store's failure into the
 * `TransactionStoreError` the client's `transactions` option throws: only a bundle that creates a
 * tracker ships it.
 */
export const GUARD_STORE: unique symbol = Symbol.for('hosted-payments.guardStore');

/** Whether the `begin` that returned `record` stored it; true once, for the first to ask. */
const storedByBegin = (record: TransactionRecord): boolean => fresh.delete(record);

const transactionStates: readonly TransactionState[] = ['pending', 'succeeded', 'failed', 'expired'];

/**
 * A store call's answer the tracker does not use (`Transaction store: get("ORD-1") answered …`):
 * the store's failure, a plain `Error` as a driver's would be, not one of the tracker's typed
 * errors, so a call recording a transaction through the client's `transactions` option reports
 * it as a `TransactionStoreError`.
 */
const storeFault = (call: string, reference: string, what: string): Error =>
  new Error(`Transaction store: ${call}(${JSON.stringify(reference)}) answered ${what}`);

/**
 * Why what a store answered for `reference` is not a record the tracker could have written for
 * it, or `undefined` when it is; such an answer is an error, never read as a state. A SQL store on a case-insensitive
 * collation finds 'ORD-1' for 'ord-1' — another order, which must not be settled by this one's
 * callback — and one that maps its rows by hand may get a column wrong.
 */
const storeRefusal = (reference: string, value: unknown, call: string): Error | undefined => {
  const refuse = (what: string): Error => storeFault(call, reference, `${what}; it was not used`);
  if (typeof value !== 'object' || value === null) {
    return refuse(`${kindOf(value)}, not a transaction record`);
  }
  const record = value as Partial<Record<keyof TransactionRecord, unknown>>;
  if (record.reference !== reference) {
    return refuse(
      typeof record.reference === 'string'
        ? `the record of ${JSON.stringify(record.reference)}, another reference`
        : 'a record without a reference',
    );
  }
  if (!(transactionStates as readonly unknown[]).includes(record.state)) {
    return refuse(`a record whose state is not one of ${transactionStates.join(', ')}`);
  }
  if (!(transactionKinds as readonly unknown[]).includes(record.kind)) {
    return refuse(`a record whose kind is not one of ${transactionKinds.join(', ')}`);
  }
  if (typeof record.amount !== 'string') return refuse('a record whose amount is not a string');
  if (record.currency !== undefined && typeof record.currency !== 'string') {
    return refuse('a record whose currency is not a string');
  }
  if (typeof record.createdAt !== 'number' || !Number.isFinite(record.createdAt)) {
    return refuse('a record whose createdAt is not a finite number');
  }
  // What tells a payment's contradicting success from a new payment: never guessed past.
  if (
    record.failedPayments !== undefined &&
    !(
      Array.isArray(record.failedPayments) &&
      record.failedPayments.every((ids) => typeof ids === 'object' && ids !== null)
    )
  ) {
    return refuse('a record whose failedPayments is not a list of objects');
  }
  return undefined;
};

/**
 * Whether two outcomes are of different payments: both have a transaction id or a payment id (a
 * checkout's names its session, a mobile-money failure carries no transaction id), and each they
 * both have differs. A new payment has new ones: the same transaction id, or the same payment id
 * (a card payment's `id` under another transaction id), is the same payment.
 */
const anotherPayment = (recorded: TransactionOutcome | undefined, given: TransactionOutcome): boolean => {
  let compared = false;
  for (const field of ['transactionId', 'paymentId'] as const) {
    const recordedId = recorded?.[field];
    const givenId = given[field];
    if (recordedId === undefined || givenId === undefined) continue;
    if (recordedId === givenId) return false;
    compared = true;
  }
  return compared;
};

/**
 * Whether `given` is one of the other payments that failed on a failed record, compared as
 * {@link anotherPayment} compares: one it cannot tell apart counts as the same payment.
 */
const failedBefore = (record: TransactionRecord, given: TransactionOutcome): boolean =>
  (record.failedPayments ?? []).some(
    (payment) => !anotherPayment(namedNow(record.kind, payment, true), given),
  );

/**
 * A checkout decline as declines are named now. The release before named one as its session's
 * success is named (the digest alone, no `checkout.failed:` before it): read so, the session's
 * success after a decline recorded then would be that decline contradicting itself.
 */
function namedNow<T extends { readonly paymentId?: string | undefined }>(
  kind: TransactionKind,
  ids: T,
  declined: boolean,
): T {
  return kind === 'checkout' && declined && ids.paymentId !== undefined && !ids.paymentId.includes(':')
    ? { ...ids, paymentId: `checkout.failed:${ids.paymentId}` }
    : ids;
}

/** The outcome a record was settled with, a checkout decline named as declines are now. */
const recordedOutcome = (record: TransactionRecord): TransactionOutcome | undefined =>
  record.outcome === undefined
    ? undefined
    : namedNow(record.kind, record.outcome, record.outcome.eventType === 'checkout.failed');

/** The ids of `outcome` that tell payments apart, as `failedPayments` keeps them. */
const paymentIds = (
  outcome: TransactionOutcome,
): NonNullable<TransactionRecord['failedPayments']>[number] => ({
  ...(outcome.transactionId === undefined ? {} : { transactionId: outcome.transactionId }),
  ...(outcome.paymentId === undefined ? {} : { paymentId: outcome.paymentId }),
});

/** How many other failed payments a record remembers (`failedPayments`). */
const MAX_FAILED_PAYMENTS = 16;

/** `record`'s failedPayments with `failure`'s ids added: the last `most`, and whether any were dropped. */
const withFailed = (
  record: TransactionRecord,
  failure: TransactionOutcome,
  most: number,
): Pick<TransactionRecord, 'failedPayments' | 'failedPaymentsDropped'> => {
  const failed = [...(record.failedPayments ?? []), paymentIds(failure)];
  return {
    failedPayments: failed.slice(-most),
    ...(failed.length > most || record.failedPaymentsDropped === true ? { failedPaymentsDropped: true } : {}),
  };
};

/** {@link storeRefusal}'s record, or its error thrown. */
const storedRecord = (reference: string, value: unknown, call: string): TransactionRecord => {
  const refusal = storeRefusal(reference, value, call);
  if (refusal !== undefined) throw refusal;
  return value as TransactionRecord;
};

/**
 * `store.update`, whose answer is `true` (written) or `false` (the stored record changed since it
 * was read). Anything else (a driver's `'QUEUED'`, a row count) is a store fault, never a write.
 */
export const updated = async (
  store: TransactionStore,
  record: TransactionRecord,
  from: TransactionState,
  previous: TransactionRecord,
): Promise<boolean> => {
  const reply: unknown = await store.update(record, from, previous);
  if (typeof reply === 'boolean') return reply;
  throw storeFault(
    'update',
    record.reference,
    `${kindOf(reply)}, not true or false; it was not taken for a write`,
  );
};

/**
 * Records a new attempt of the transaction, pending from now (the tracker's clock): after an
 * earlier attempt was expired (refused, or given up on), or while one is still pending (Pay
 * pressed again). This attempt may be under way, so `waitFor` waits for it and `stale` counts from
 * now: a cron that listed the earlier attempt is answered `'initiated_again'`.
 * Resolves with the record written, or `undefined` when another call or a callback changed the
 * record first.
 */
async function restart(
  tracker: TransactionTracker,
  earlier: TransactionRecord,
): Promise<TransactionRecord | undefined> {
  const { reference, kind, amount, currency } = earlier;
  // Strictly later than the earlier attempt, also within one millisecond (a double submit): the
  // createdAt is what tells the attempts apart.
  const at = Math.max(trackerClock(tracker)(), earlier.createdAt + 1);
  const record: TransactionRecord = {
    reference,
    kind,
    amount,
    ...(currency === undefined ? {} : { currency }),
    state: 'pending',
    createdAt: at,
    updatedAt: at,
  };
  return (await updated(tracker.store, record, earlier.state, earlier)) ? record : undefined;
}

/** A new attempt recorded by {@link recordAttempt}. */
export interface RecordedAttempt {
  readonly record: TransactionRecord;
  /** Whether this call's `begin` stored the record. */
  readonly inserted: boolean;
  /** Whether this call made the record pending: it stored it, or recorded an expired one pending again. */
  readonly mine: boolean;
}

/**
 * Records an attempt about to be sent ({@link TransactionTracker.beginAttempt}, and the client's
 * `transactions` option before each initiation): `begin`, then a payment found expired or pending
 * is recorded pending again from now ({@link restart}); read again when another call or a callback
 * changed the record first. A store that never applies the write is broken (a
 * `TransactionStoreError`): on one that answers at once, an unbounded loop would starve the event
 * loop.
 */
export async function recordAttempt(
  tracker: TransactionTracker,
  input: BeginTransactionInput,
): Promise<RecordedAttempt> {
  for (let tries = 1; ; tries++) {
    if (tries > MAX_WRITES) throw neverWrote(input.reference, ' recording a new attempt');
    const stored = await tracker.begin(input);
    const inserted = storedByBegin(stored);
    // A payout's reference is one transfer, whatever its record says: never recorded as a new attempt.
    const payout = input.kind === 'payout' || stored.kind === 'payout';
    if (inserted || payout || (stored.state !== 'expired' && stored.state !== 'pending')) {
      return { record: stored, inserted, mine: inserted };
    }
    // One still pending is recorded as a new attempt too, but not made this call's: the earlier
    // may be under way, so this call's refusal may not expire it.
    const restarted = await restart(tracker, stored);
    if (restarted !== undefined)
      return { record: restarted, inserted: false, mine: stored.state === 'expired' };
  }
}

/** How long `waitFor`, timing out, waits for its last read of the store. */
const LAST_READ_MS = 1_000;

/** The cause of `waitFor`'s timeout when the store did not answer its last read. */
const unanswered = (): Error =>
  new DOMException(`the store did not answer the wait's last read within ${LAST_READ_MS} ms`, 'TimeoutError');

/** How many writes a compare-and-set loop tries before it calls the store broken. */
const MAX_WRITES = 32;

/**
 * A store whose `update` answered false {@link MAX_WRITES} times in a row (`doing` says what for):
 * broken, a {@link storeFault}.
 */
const neverWrote = (reference: string, doing = ''): Error =>
  storeFault(
    'update',
    reference,
    `false ${MAX_WRITES} times in a row${doing}; it must apply a write when the stored state is \`from\` and, when given, the stored record is \`previous\` (its JSON text as written)`,
  );

// The caller's reason when it is an Error (`abort()` with no argument gives an AbortError), else
// an AbortError of our own: `waitFor` only ever rejects with an Error.
const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new DOMException('The wait was aborted', 'AbortError');

/**
 * Creates a pending-transaction tracker over a store (in memory by default; pass the Redis store
 * from `hosted-payments/redis` when several processes share the work). Hand it to
 * `createCallbackHandler({ tracker })` and every genuine callback settles its transaction once,
 * wherever `waitFor` is waiting (a failed payment again as succeeded when another payment of it
 * pays; a failed payout is final).
 *
 * @example
 * ```ts
 * const tracker = createTransactionTracker();
 * await tracker.begin({ reference: 'ORD-1', kind: 'mobile_money', amount: 1500, currency: 'KES' });
 * // … the callback handler settles it …
 * const record = await tracker.waitFor('ORD-1', { timeout: 120_000 });
 * console.log(record.state); // 'succeeded' | 'failed' | 'expired'
 * ```
 */
export function createTransactionTracker(options: TransactionTrackerOptions = {}): TransactionTracker {
  refuseUnknownOptions('createTransactionTracker', options, TRACKER_OPTIONS);
  refuseUnknownOptions('createTransactionTracker: staleAfterMs', options.staleAfterMs, KIND_NAMES);
  const store = options.store ?? createMemoryTransactionStore();
  // A store written to another interface would fail at its first use — stale() in a nightly job.
  const methods = ['insert', 'get', 'update', 'listPending'] as const;
  if (
    typeof store !== 'object' ||
    store === null ||
    methods.some((name) => typeof store[name] !== 'function') ||
    (store.watch !== undefined && typeof store.watch !== 'function')
  ) {
    throw new TypeError(
      `createTransactionTracker: store must be a TransactionStore (methods ${methods.join(', ')}, optional watch), such as createMemoryTransactionStore()`,
    );
  }
  const now = options.now ?? Date.now;
  const where = 'createTransactionTracker';
  const pollIntervalMs = Math.max(
    10,
    wholeNumberOption(where, 'pollIntervalMs', options.pollIntervalMs, 2_000, { max: MAX_TIMER_MS }),
  );
  const staleAfterMs: Record<TransactionKind, number> = { ...defaultStaleAfterMs };
  for (const kind of transactionKinds) {
    const name = `staleAfterMs.${kind}`;
    staleAfterMs[kind] = wholeNumberOption(
      where,
      name,
      options.staleAfterMs?.[kind],
      defaultStaleAfterMs[kind],
    );
  }
  // waitFor calls in this process, woken directly by this tracker's own transitions, each with a
  // copy of its own (the caller of the transition keeps the record it wrote). A record a custom
  // store built with something no copy can hold (a function) is handed as it is: the transition
  // is written, and must not fail after.
  const waiters = new Map<string, Set<(record: TransactionRecord) => void>>();
  const notify = (record: TransactionRecord): void => {
    for (const wake of waiters.get(record.reference) ?? []) {
      let copy = record;
      try {
        copy = structuredClone(record);
      } catch {
        // handed as it is
      }
      wake(copy);
    }
  };

  /** The stored record, checked, or `undefined`. */
  const read = async (reference: string): Promise<TransactionRecord | undefined> => {
    const record = await store.get(checkReference(reference));
    return record === undefined ? undefined : storedRecord(reference, record, 'get');
  };

  const mustGet = async (reference: string): Promise<TransactionRecord> => {
    const record = await read(reference);
    if (record === undefined) throw new UnknownTransactionError(reference);
    return record;
  };

  /**
   * Reads the record for attempt `attempt` (from 1) of a compare-and-set loop (`settle`,
   * `expire`). `update` answering false means another write came first, so the next read
   * differs; a store that answers false {@link MAX_WRITES} times is broken, and the loop throws
   * instead of hammering it for ever.
   */
  const readFor = (reference: string, attempt: number): Promise<TransactionRecord> => {
    if (attempt > MAX_WRITES) throw neverWrote(reference);
    return mustGet(reference);
  };

  const tracker: TransactionTracker = {
    store,

    async begin(input) {
      const issues =
        typeof input === 'object' && input !== null
          ? unknownFields(input, BEGIN_FIELDS, 'a transaction')
          : [];
      const reference = input?.reference;
      if (!isNewReference(reference)) issues.push(referenceIssue(true));
      if (!(transactionKinds as readonly unknown[]).includes(input?.kind)) {
        issues.push(issue('kind', 'invalid_kind', `expected one of ${transactionKinds.join(', ')}`));
      }
      const amount = checkWholeNumber(input?.amount, 1);
      if (!amount.ok) issues.push(issue('amount', amount.code, amount.message));
      // A mobile-money callback carries its amount as a JSON number: one past this could not be read.
      else if (input.kind === 'mobile_money' && !Number.isSafeInteger(Number(amount.value)))
        issues.push(
          issue('amount', 'invalid_amount', `expected at most ${Number.MAX_SAFE_INTEGER} for mobile money`),
        );
      const currency = input?.currency === undefined ? undefined : checkCurrency(input.currency);
      if (currency !== undefined && !currency.ok)
        issues.push(issue('currency', currency.code, currency.message));
      if (issues.length > 0 || !amount.ok || (currency !== undefined && !currency.ok)) {
        throw new ValidationError(issues, { prefix: 'Invalid transaction' });
      }
      const at = now();
      const record: TransactionRecord = {
        reference,
        kind: input.kind,
        amount: amount.value,
        ...(currency === undefined ? {} : { currency: currency.value }),
        state: 'pending',
        createdAt: at,
        updatedAt: at,
      };
      const stored = storedRecord(reference, await store.insert(record), 'insert');
      // This caller's only when it is the one just built.
      const inserted = stored === record;
      if (inserted) fresh.add(record);
      if (
        stored.kind !== record.kind ||
        stored.amount !== record.amount ||
        stored.currency !== record.currency
      ) {
        throw new TransactionConflictError('reference_in_use', stored, 'pending');
      }
      // Found recorded, it is handed back as a copy: a store that keeps the objects it is given
      // (a Map of them) hands back the very record an earlier `begin` stored, which only that
      // begin's caller may find fresh.
      return inserted ? stored : { ...stored };
    },

    beginAttempt: async (input) => (await recordAttempt(tracker, input)).record,

    // async: an invalid reference rejects, as every other call does, rather than throwing.
    get: async (reference) => read(reference),

    async settle(reference, input) {
      const { state, outcome } = checkSettlement(input);
      const settles =
        outcome.eventType === undefined ? undefined : eventSettles[outcome.eventType as CallbackEventType];
      // Compare-and-set until this call either applies the outcome or finds it applied: a
      // concurrent settle or expire between the read and the write makes `update` answer false.
      for (let attempt = 1; ; attempt++) {
        const current = await readFor(reference, attempt);
        // The callback must be this transaction's, whatever its state: nothing is written otherwise.
        if (settles !== undefined && settles.kind !== current.kind) {
          throw new TransactionConflictError('kind_mismatch', current, state);
        }
        if (outcome.amount !== undefined && !sameAmount(current.amount, outcome.amount)) {
          throw new TransactionConflictError('amount_mismatch', current, state);
        }
        if (
          outcome.currency !== undefined &&
          current.currency !== undefined &&
          !sameCurrency(current.currency, outcome.currency)
        ) {
          throw new TransactionConflictError('currency_mismatch', current, state);
        }
        // A settled reference, in one table:
        // - the recorded payment again: its outcome again is a duplicate, the other a conflict;
        // - another payment of a succeeded one that paid: changes nothing (the customer paid
        //   twice) — unless that payment had failed (below);
        // - another payment of a failed or succeeded one that failed: remembered (failedPayments),
        //   nothing else;
        // - another payment of a failed one that paid (a second tab, Pay pressed again): settles it
        //   anew, the customer has paid, and the recorded failure joins failedPayments;
        // - a success of a payment that had failed (the same payment contradicting itself), or may
        //   have, once failedPayments dropped some: a conflict, on a failed or a succeeded record;
        // - a payout: its reference_id names one transfer (the client never sends it again), so
        //   its other outcome is that transfer contradicting itself, whatever transaction_id
        //   reports it: a conflict. So is its success under another transaction_id: that
        //   transfer under two ids, or money sent twice, to reconcile by hand.
        const oneTransfer = current.kind === 'payout' && current.state !== state;
        if (
          current.kind === 'payout' &&
          current.state === 'succeeded' &&
          state === 'succeeded' &&
          anotherPayment(recordedOutcome(current), outcome)
        ) {
          throw new TransactionConflictError('conflicting_outcome', current, state);
        }
        const another =
          (current.state === 'succeeded' || current.state === 'failed') &&
          !oneTransfer &&
          anotherPayment(recordedOutcome(current), outcome);
        const seen = another && failedBefore(current, outcome);
        if (another && state === 'succeeded' && (seen || current.failedPaymentsDropped === true)) {
          throw new TransactionConflictError('conflicting_outcome', current, state);
        }
        // Another payment's failure, on a failed or a succeeded record (callbacks come in any
        // order): remembered once, only if no other write came since the read.
        if (another && state === 'failed') {
          if (seen) return { result: 'another_payment', record: current };
          const next: TransactionRecord = {
            ...current,
            updatedAt: now(),
            ...withFailed(current, outcome, MAX_FAILED_PAYMENTS),
          };
          if (await updated(store, next, current.state, current)) {
            return { result: 'another_payment', record: next };
          }
          continue;
        }
        if (current.state === 'succeeded' || (current.state === 'failed' && !another)) {
          if (another) return { result: 'another_payment', record: current };
          if (current.state === state) return { result: 'duplicate', record: current };
          throw new TransactionConflictError('conflicting_outcome', current, state);
        }
        // Late when the merchant had given up on it before: expired now, or expired before a late
        // failure that another payment now follows with a success.
        const late = current.state === 'expired' || current.late === true;
        const at = now();
        const next: TransactionRecord = {
          ...current,
          state,
          updatedAt: at,
          settledAt: at,
          outcome,
          ...(late ? { late: true } : {}),
          // The failure it replaces stays known, that payment's success later a conflict; one
          // more than the failures remembered, so it pushes none of those out.
          ...(another && current.outcome !== undefined
            ? withFailed(current, current.outcome, MAX_FAILED_PAYMENTS + 1)
            : {}),
        };
        // Only on the record as read: `next` keeps its attempt's createdAt (and expiredAt), so an
        // attempt initiated since (pending again, maybe expired again) is read and decided anew,
        // as is, from failed, another payment's failure written since.
        if (await updated(store, next, current.state, current)) {
          notify(next);
          return { result: late ? 'late' : 'settled', record: next };
        }
      }
    },

    async waitFor(reference, waitOptions = {}) {
      refuseUnknownOptions('waitFor', waitOptions, WAIT_OPTIONS);
      const { signal } = waitOptions;
      const timeoutOption =
        waitOptions.timeout === undefined
          ? undefined
          : wholeNumberOption('waitFor', 'timeout', waitOptions.timeout, 0);
      if (
        signal !== undefined &&
        (typeof signal !== 'object' ||
          signal === null ||
          typeof signal.aborted !== 'boolean' ||
          typeof signal.addEventListener !== 'function')
      ) {
        throw new TypeError('waitFor: signal must be an AbortSignal (controller.signal)');
      }
      checkReference(reference);
      if (signal?.aborted) throw abortReason(signal);

      // The timeout and the signal hold from the call on, also while the store has not answered the
      // first read (a Redis without commandTimeout, a locked table). Without `timeout`, the limit is
      // the kind's, counted from the store's first answer; until then the longest of any kind. A
      // read that fails (Redis restarting) is tried again at the next poll; only the timeout or the
      // signal ends the wait, and a timeout while the store still fails (or did not answer the last
      // read) says so.
      return new Promise<TransactionRecord>((resolve, reject) => {
        let finished = false;
        let unwatch: (() => void) | undefined;
        let poller: ReturnType<typeof setInterval> | undefined;
        let cancelTimeout: () => void = () => undefined;
        let answered = false; // the store has answered a read: the record exists and was checked
        let timedOut = false; // the timeout came: the last read is under way
        let readSinceTimeout = false; // a read answered after the timeout came
        let failure: unknown; // the last read's failure, until a read answers again
        let failed = false;
        // The last read found no record, after one was found: a store that lost its data, or one
        // that lags (a replica) — read on, and say so only if it is still missing at the timeout.
        let missing = false;
        const finish = (settle: () => void): void => {
          if (finished) return;
          finished = true;
          cancelTimeout();
          clearInterval(poller);
          waiters.get(reference)?.delete(wake);
          if (waiters.get(reference)?.size === 0) waiters.delete(reference);
          signal?.removeEventListener('abort', onAbort);
          unwatch?.();
          settle();
        };
        // The attempt the wait is on: the newest createdAt read or heard. An expiry of an earlier
        // attempt (heard late, after the payment was initiated again) is not its outcome; a
        // success or failure of any attempt settles the transaction (the clock of the instance
        // that recorded an attempt may be behind).
        let attemptAt = Number.NEGATIVE_INFINITY;
        const wake = (record: TransactionRecord): void => {
          if (record.state === 'expired' && record.createdAt < attemptAt) return;
          attemptAt = Math.max(attemptAt, record.createdAt);
          if (record.state !== 'pending') finish(() => resolve(record));
        };
        // What a read hands in: a record that is not this one's ends the wait.
        const heard = (value: unknown): void => {
          const refusal = storeRefusal(reference, value, 'get');
          if (refusal !== undefined) return finish(() => reject(refusal));
          wake(value as TransactionRecord);
        };
        // The first answer: a reference never recorded ends the wait; a pending one is waited on.
        const start = (value: unknown): void => {
          if (value === undefined) return finish(() => reject(new UnknownTransactionError(reference)));
          const refusal = storeRefusal(reference, value, 'get');
          if (refusal !== undefined) return finish(() => reject(refusal));
          wake(value as TransactionRecord);
          if (finished) return;
          answered = true;
          const first = value as TransactionRecord;
          if (timeoutOption === undefined && !timedOut) armTimeout(staleAfterMs[first.kind]);
          let set = waiters.get(reference);
          if (set === undefined) waiters.set(reference, (set = new Set()));
          set.add(wake); // this tracker's own transitions
          listen();
        };
        // A notification only wakes the wait: what it carries may be another store's record of a
        // reference of the same name (apps apart by a Redis keyPrefix share one channel), so the
        // store is read. A notification lost while the store was unreachable only delays the
        // wake-up: the polls read the store, and a watch that could not start is tried again at
        // the next poll.
        let watching = false;
        const listen = (): void => {
          if (store.watch === undefined || watching || finished) return;
          watching = true;
          store.watch(reference, wakeRead).then(
            (stop) => {
              if (finished) return stop();
              unwatch = stop;
              check(); // a settlement between the last read and the watch starting is not missed
            },
            () => (watching = false),
          );
        };
        /** One read of the store; resolves once it answered or failed (never rejects). */
        const readOnce = (): Promise<void> =>
          new Promise<unknown>((done) => done(store.get(reference))).then(
            (value) => {
              failed = false;
              failure = undefined;
              readSinceTimeout = timedOut;
              if (finished) return;
              missing = answered && value === undefined;
              if (!answered) start(value);
              else if (!missing) heard(value);
            },
            (error: unknown) => {
              failed = true;
              failure = error;
              missing = false; // the last read says nothing about the record
            },
          );
        // A poll's read: one at a time, so a store that stops answering (one with no deadline of its
        // own) is not sent a read per poll meanwhile.
        let polling = false;
        const check = (): void => {
          listen();
          if (polling) return;
          polling = true;
          void readOnce().then(() => (polling = false));
        };
        // A notification's read: one at a time, and one more after it for any that came during it
        // (a busy channel, shared with other apps, costs a read per burst, not one per message).
        let reading = false;
        let readAgain = false;
        const wakeRead = (): void => {
          if (finished) return;
          if (reading) {
            readAgain = true;
            return;
          }
          reading = true;
          void readOnce().then(() => {
            reading = false;
            if (readAgain) {
              readAgain = false;
              wakeRead();
            }
          });
        };
        const onAbort = (): void => finish(() => reject(abortReason(signal!)));
        // A 30-day payout limit is longer than one timer holds: `after` waits all of it.
        const armTimeout = (timeoutMs: number): void => {
          cancelTimeout();
          // "Still pending" only when a read since the timeout found it so: a last read that failed,
          // or that did not answer in time, leaves it unknown (the callback may have settled it).
          const timeOut = (): void =>
            finish(() =>
              reject(
                missing
                  ? new UnknownTransactionError(reference, true)
                  : new TransactionTimeoutError(
                      reference,
                      timeoutMs,
                      failed
                        ? { storeFailure: failure }
                        : readSinceTimeout
                          ? undefined
                          : { storeFailure: unanswered() },
                    ),
              ),
            );
          cancelTimeout = after(timeoutMs, () => {
            timedOut = true;
            // The store has the last word: a settlement that came between two polls, or while the
            // first read hung, is the answer, not "still pending". A store slow to answer gets
            // LAST_READ_MS.
            cancelTimeout = after(LAST_READ_MS, timeOut);
            void readOnce().then(timeOut); // after it found it settled, `finish` has run: a no-op
          });
        };

        signal?.addEventListener('abort', onAbort, { once: true });
        armTimeout(timeoutOption ?? Math.max(...Object.values(staleAfterMs)));
        // Polls start once the first read has answered or failed, so a first read that hangs is
        // not joined by more of them.
        void readOnce().then(() => {
          if (!finished) poller = setInterval(check, pollIntervalMs);
        });
      });
    },

    async stale(staleOptions = {}) {
      refuseUnknownOptions('stale', staleOptions, STALE_OPTIONS);
      const olderThan =
        staleOptions.olderThan === undefined
          ? undefined
          : wholeNumberOption('stale', 'olderThan', staleOptions.olderThan, 0, { min: 0 });
      const limit = wholeNumberOption('stale', 'limit', staleOptions.limit, 1_000);
      // A misspelt kind would list nothing, and a cron job would never expire anything.
      if (staleOptions.kind !== undefined && !transactionKinds.includes(staleOptions.kind)) {
        throw new TypeError(`stale: kind must be one of ${transactionKinds.join(', ')}`);
      }
      const at = now();
      const kinds = staleOptions.kind === undefined ? transactionKinds : [staleOptions.kind];
      // One query per kind, each with its own limit, so young payouts never crowd out stale STK pushes.
      // What a store lists is checked against the record itself: a SQL store picks rows by an index
      // column, and one its update left behind would have the cron expire a transaction the
      // customer initiated again a moment ago, or one already settled.
      const pages = await Promise.all(
        kinds.map(async (kind) => {
          const createdBefore = at - (olderThan ?? staleAfterMs[kind]);
          // Rows dropped still took the store's page: ask for more, up to 8 times the limit.
          for (let asked = limit; ; asked *= 2) {
            const listed = await store.listPending({ kind, createdBefore, limit: asked });
            const kept = listed.filter(
              (record) =>
                record.state === 'pending' && record.kind === kind && record.createdAt < createdBefore,
            );
            if (kept.length >= limit || listed.length < asked || asked >= limit * 8) return kept;
          }
        }),
      );
      return pages
        .flat()
        .sort((a, b) => a.createdAt - b.createdAt)
        .slice(0, limit);
    },

    async expire(reference) {
      return (await tracker.expireIfPending(reference)).record;
    },

    async expireIfPending(reference, expireOptions = {}) {
      refuseUnknownOptions('expireIfPending', expireOptions, EXPIRE_OPTIONS);
      const { createdAt } = expireOptions;
      // A time no record holds would leave every attempt pending: the cron would never expire it.
      if (createdAt !== undefined && (typeof createdAt !== 'number' || !Number.isFinite(createdAt))) {
        const got = typeof createdAt === 'number' ? String(createdAt) : kindOf(createdAt);
        throw new TypeError(
          `expireIfPending: createdAt must be the createdAt of the record stale() listed (a finite number), got ${got}`,
        );
      }
      for (let attempt = 1; ; attempt++) {
        const current = await readFor(reference, attempt);
        if (current.state === 'expired') return { result: 'already_expired', record: current };
        if (current.state !== 'pending') return { result: 'already_settled', record: current };
        if (createdAt !== undefined && current.createdAt !== createdAt) {
          return { result: 'initiated_again', record: current };
        }
        const at = now();
        const next: TransactionRecord = { ...current, state: 'expired', updatedAt: at, expiredAt: at };
        // On the record as read: an attempt started since (a new createdAt) is read again.
        if (await updated(store, next, 'pending', current)) {
          notify(next);
          return { result: 'expired', record: next };
        }
      }
    },
  };
  clocks.set(tracker, now);
  // Not enumerable: a spread or JSON copy of the tracker carries only its methods.
  Object.defineProperty(tracker, CALLBACK_SETTLEMENT, { value: callbackSettlement(tracker) });
  Object.defineProperty(tracker, GUARD_STORE, { value: guardStore });
  return tracker;
}
