/**
 * What `PaymentsClient` does with its `transactions` option on each initiation: sign the callback
 * URL with the transaction's reference, record the pending transaction, send, and leave the
 * record as the service's answer says.
 *
 * @module
 */
import { isUtf8Query, signCallbackUrl, UTF8_QUERY_RULE } from '../callbacks/signing.js';
import { ApiError, ConnectionError, TimeoutError, ValidationError } from '../errors.js';
import type { BeforeSend } from '../http.js';
import type { Secrets } from '../internal/redact.js';
import { TransactionConflictError, type guardStore } from './errors.js';
import type { TransactionKind } from './store.js';
import { GUARD_STORE, recordAttempt, type TransactionTracker } from './tracker.js';
import { isNewReference } from './reference.js';
import { randomHex } from '../internal/random.js';

/** The `transactions` option of `PaymentsClient` (validated there). */
interface TransactionsOption {
  readonly tracker: TransactionTracker;
  readonly secret: string;
}

// Where each kind's wire body keeps the reference the callback carries, the amount and currency
// it is checked against, and the callback URL: [object, field].
type Place = readonly [string, string];
interface Places {
  readonly reference: Place;
  readonly amount: Place;
  readonly currency: Place;
  readonly url: Place;
}
const payment: Places = {
  reference: ['callback_details', 'transaction_reference'],
  amount: ['amount', 'total'],
  currency: ['amount', 'currency'],
  url: ['callback_details', 'callback_url'],
};
const places: Record<TransactionKind, Places> = {
  card: payment,
  mobile_money: payment,
  checkout: { ...payment, reference: ['amount', 'order_id'], url: ['redirect_urls', 'callback_url'] },
  payout: {
    reference: ['transfer', 'reference_id'],
    amount: ['transfer', 'amount'],
    currency: ['transfer', 'currency'],
    url: ['webhook_endpoint', 'webhook_url'],
  },
};

type Loose = Record<string, Record<string, unknown> | undefined>;
const read = (body: Loose, [object, field]: Place): unknown => body[object]?.[field];

const untrackable = (place: Place, message: string): ValidationError =>
  new ValidationError([{ path: [...place], code: 'required_for_tracking', message }], {
    prefix: 'Cannot track the transaction',
  });

/**
 * A refusal the service certainly did not act on (`mayHaveStarted` false): a 4xx other than 409
 * answering the call's only attempt, whose body does not say it was initiated. Anything else after
 * sending — a 5xx, a lost connection, a timeout, a 2xx of the wrong shape, a 409 (the reference is
 * in use at the service: a transfer or payment under it may be under way), a 4xx answering a retry
 * (a 409 "duplicate" is what follows a first attempt that went through), a 4xx through the
 * merchant's own `fetch` (which may have retried by itself), a 4xx whose body is the initiation
 * reply — may have started the payment.
 */
const refused = (error: unknown): error is ApiError => error instanceof ApiError && !error.mayHaveStarted;

/**
 * A call none of whose requests left this process (a refused connection, a deadline that passed
 * before sending): nothing to wait for.
 */
const unsent = (error: unknown): boolean =>
  (error instanceof ConnectionError || error instanceof TimeoutError) && !error.sent;

/** One call of this process under a reference, while it runs. */
interface Attempt {
  /** Another call of this process used the reference meanwhile: its payment may be under way. */
  shared: boolean;
  /** This call was sent more than once: the attempt before its answer may have started the payment. */
  retried: boolean;
}
// Per tracker, the calls of this process running under each reference: only the first may find the
// reference unrecorded, and each marks the others shared.
const running = new WeakMap<TransactionTracker, Map<string, Set<Attempt>>>();

/** The calls of this process sending under `reference`, with `attempt` added; each marks the others shared. */
function join(tracker: TransactionTracker, reference: string, attempt: Attempt): Set<Attempt> {
  let byReference = running.get(tracker);
  if (byReference === undefined) running.set(tracker, (byReference = new Map<string, Set<Attempt>>()));
  let calls = byReference.get(reference);
  if (calls === undefined) byReference.set(reference, (calls = new Set()));
  attempt.shared = calls.size > 0;
  for (const other of calls) other.shared = true;
  return calls.add(attempt);
}

/**
 * `url` with a random value of this session's own (`hp_try`): a checkout callback carries no
 * transaction id, so the signed URL is what tells two sessions of one order apart (the handler keys
 * a checkout callback by its URL's signature). A URL that does not parse is left to
 * `signCallbackUrl` to refuse.
 */
function withAttempt(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  parsed.searchParams.set('hp_try', randomHex());
  return parsed.href;
}

/**
 * Sends one initiation, tracked: signs the body's callback URL with its reference, then has `send`
 * send it, recording the pending transaction (`tracker.begin`) in its `beforeSend` — after every
 * check that can refuse the call without sending, so such a refusal records nothing, and BEFORE
 * sending, so a callback that beats the response is settled rather than refused as an unknown
 * reference. A reference whose transaction already settled is refused before anything is sent; an
 * expired one is recorded pending again; a pending one is sent again, its record a new attempt
 * (`createdAt` now, so `stale` counts from it; the first callback of either settles it). A payout
 * reference already recorded, pending or expired, is refused before anything is sent.
 *
 * Only the call that made the record pending may expire it after sending — the one whose `begin`
 * stored it, or that recorded an expired one pending again — and only while no other call of this
 * process used the reference meanwhile: then a refusal the service certainly did not act on
 * expires its attempt (`expireIfPending` with its `createdAt`: another instance's attempt started
 * since stays pending; a genuine callback would still settle it); when the store fails to, the
 * record stays pending and the `ApiError` is thrown with a `TransactionStoreError` as its `cause`.
 * Any other failure, and any failure of another call, leaves the record pending for
 * `tracker.stale` to find.
 *
 * A store that fails while recording, or does not answer before the call's deadline (its
 * `totalTimeout`, counted from the call's start) or before `signal` aborts, fails the call with a
 * {@link TransactionStoreError}, nothing sent.
 *
 * `body` is the built wire body (a payout's `reference_id` is the merchant's own: `initiatePayout`
 * requires it).
 */
export async function sendTracked<B extends object, R>(
  option: TransactionsOption | undefined,
  kind: TransactionKind,
  body: B,
  send: (body: B, beforeSend?: BeforeSend, once?: boolean) => Promise<R>,
  call: { readonly signal?: AbortSignal; readonly totalTimeout?: number; readonly ownFetch?: boolean } = {},
): Promise<R> {
  const { signal, totalTimeout } = call;
  // A payout is sent once, tracked or not: a retry of one the service may have received could be a
  // second transfer under its reference.
  if (option === undefined) return send(body, undefined, kind === 'payout');
  const place = places[kind];
  const wire = body as unknown as Loose;
  const amount = read(wire, place.amount);
  if (amount === undefined) {
    throw untrackable(place.amount, 'required (the callback is checked against the amount recorded)');
  }
  const reference = String(read(wire, place.reference));
  // What begin would refuse (signCallbackUrl refuses less), named by the input's field.
  if (!isNewReference(reference)) {
    throw untrackable(
      place.reference,
      'expected at most 256 characters of well-formed Unicode, without a control character',
    );
  }
  const currency = read(wire, place.currency) as string | undefined;
  const [object, field] = place.url;
  const url = String(read(wire, place.url));
  // What signCallbackUrl would refuse with a TypeError, named by the input's field.
  if (URL.canParse(url) && !isUtf8Query(new URL(url)))
    throw untrackable(place.url, `expected a query that ${UTF8_QUERY_RULE}`);
  const signed = {
    ...wire,
    [object]: {
      ...wire[object],
      [field]: await signCallbackUrl(kind === 'checkout' ? withAttempt(url) : url, {
        secret: option.secret,
        reference,
      }),
    },
  } as unknown as B;

  const { tracker } = option;
  // A store's failure as a TransactionStoreError (a tracker of another kind: as it is).
  const guard: typeof guardStore =
    (tracker as { [GUARD_STORE]?: typeof guardStore })[GUARD_STORE] ?? ((work) => work);
  // What the store's errors are redacted with: the call's own secrets, as its transport gives them
  // to recordPending (the card number and cvc, the API key and other credential headers, the
  // hp_sig signed above).
  let secrets: Secrets | undefined;
  // The merchant's own fetch may retry by itself, unseen: a 4xx may answer a second request.
  const attempt: Attempt = { shared: false, retried: call.ownFetch === true };
  let calls: Set<Attempt> | undefined;
  // The createdAt of the record this call made pending, if it did: its refusal expires that
  // attempt only.
  let mineAt: number | undefined;
  // Recorded just before the first request: a call refused before sending records nothing.
  const recordPending = async (
    retryCount: number,
    deadlineAt: number,
    callSecrets: Secrets,
  ): Promise<void> => {
    secrets = callSecrets;
    if (retryCount > 0) {
      attempt.retried = true;
      // Sent again only while pending: once expired (given up on) or settled by its callback, a
      // retry would start a second payment of an order already closed.
      const now = await guard(
        tracker.get(reference),
        reference,
        true,
        secrets,
        signal,
        totalTimeout,
        deadlineAt,
      );
      if (now?.state !== 'pending') {
        throw new ConnectionError(
          `${reference}: not sent again, the transaction is ${now?.state ?? 'gone'}; an earlier attempt was sent, and the service may have received it`,
        );
      }
      return;
    }
    const transaction = {
      reference,
      kind,
      amount: amount as string,
      ...(currency === undefined ? {} : { currency }),
    };
    // The call's deadline holds while the store records (the request's own timeout starts after):
    // counted from the call's start, so a slow beforeRequest hook before it is counted too.
    const recording = recordAttempt(tracker, transaction);
    const recorded = await guard(
      recording,
      reference,
      false,
      secrets,
      signal,
      totalTimeout,
      deadlineAt,
    ).catch((error: unknown) => {
      // Given up on before sending: a record the store writes later is this call's attempt
      // with nothing in flight, so it is expired once written (a wait on it ends).
      void recording
        .then((late) =>
          late.mine ? tracker.expireIfPending(reference, { createdAt: late.record.createdAt }) : undefined,
        )
        .catch(() => undefined);
      throw error;
    });
    // inserted: this call's begin stored the record (a payout reference is sent by that call only).
    const { record, inserted, mine } = recorded;
    if (record.state === 'succeeded' || record.state === 'failed') {
      throw new TransactionConflictError('already_settled', record, 'pending');
    }
    // A payout's reference_id names one transfer: one recorded before (pending, or expired by a
    // refusal or a cron that gave up on it) may have moved money, and the service is not known
    // to refuse a reference used before.
    if (kind === 'payout' && !inserted) {
      throw new TransactionConflictError('payout_already_sent', record, 'pending');
    }
    if (mine) mineAt = record.createdAt;
    // Sent from here on: the other calls of this process under the reference are marked shared
    // (their refusal no longer expires the record), a call refused above never is.
    calls = join(tracker, reference, attempt);
  };
  try {
    // A payout is sent once: a retry of one the service may have received could be a second transfer.
    return await send(signed, recordPending, kind === 'payout');
  } catch (error) {
    // Unblocks whoever waits on it. Any other failure may have started the payment, and a
    // record another call made pending, or also sent under, may have one under way: pending. So
    // may an attempt another instance recorded since (a new createdAt): only this one is expired.
    if (mineAt !== undefined && !attempt.shared && ((!attempt.retried && refused(error)) || unsent(error))) {
      const expiry = tracker.expireIfPending(reference, { createdAt: mineAt });
      await guard(expiry, reference, true, secrets).catch((failure: unknown) => {
        if (error instanceof ApiError) error.cause = failure;
      });
    }
    throw error;
  } finally {
    if (calls !== undefined) {
      calls.delete(attempt);
      if (calls.size === 0) running.get(tracker)?.delete(reference);
    }
  }
}
