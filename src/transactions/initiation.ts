/**
 * What `PaymentsClient` does with its `transactions` option on each initiation: sign the callback
 * URL with the transaction's reference, record the pending transaction, send, and leave the
 * record as the service's answer says.
 *
 * @module
 */
import { signCallbackUrl } from '../callbacks/signing.js';
import { ApiError, ValidationError } from '../errors.js';
import { TransactionConflictError } from './errors.js';
import type { TransactionKind } from './store.js';
import type { TransactionTracker } from './tracker.js';

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
 * A refusal the service certainly did not act on: a 4xx answer, or a request never sent (a
 * `ValidationError` of the request options or headers). Anything else — a 5xx, a lost
 * connection, a timeout, a 2xx of the wrong shape — may have started the payment.
 */
const refused = (error: unknown): boolean =>
  error instanceof ValidationError ||
  (error instanceof ApiError && error.status >= 400 && error.status < 500);

/**
 * Sends one initiation, tracked: signs the body's callback URL with its reference, records the
 * pending transaction (`tracker.begin`) BEFORE sending — so a callback that beats the response is
 * settled rather than refused as an unknown reference — then sends. A refusal the service
 * certainly did not act on expires the record (a genuine callback would still settle it);
 * any other failure leaves it pending for `tracker.stale` to find. A reference whose transaction
 * already settled is refused before anything is sent.
 *
 * `input` is what the merchant passed (a payout's `transfer.reference_id` must be in it: one the
 * builder generates could not be waited on); `body` is the built wire body.
 */
export async function sendTracked<B extends object, R>(
  option: TransactionsOption | undefined,
  kind: TransactionKind,
  input: unknown,
  body: B,
  send: (body: B) => Promise<R>,
): Promise<R> {
  if (option === undefined) return send(body);
  const place = places[kind];
  const wire = body as unknown as Loose;
  if (kind === 'payout' && read(input as Loose, place.reference) === undefined) {
    throw untrackable(
      place.reference,
      'required (pass the 12-digit reference you will wait on, from generateReferenceId())',
    );
  }
  const amount = read(wire, place.amount);
  if (amount === undefined) {
    throw untrackable(place.amount, 'required (the callback is checked against the amount recorded)');
  }
  const reference = String(read(wire, place.reference));
  // What begin and signCallbackUrl would refuse, named by the input's field.
  if (reference.length > 256 || /\p{Cs}/u.test(reference)) {
    throw untrackable(place.reference, 'expected at most 256 characters of well-formed Unicode');
  }
  const currency = read(wire, place.currency) as string | undefined;
  const [object, field] = place.url;
  const signed = {
    ...wire,
    [object]: {
      ...wire[object],
      [field]: await signCallbackUrl(String(read(wire, place.url)), { secret: option.secret, reference }),
    },
  } as unknown as B;

  const record = await option.tracker.begin({
    reference,
    kind,
    amount: amount as string,
    ...(currency === undefined ? {} : { currency }),
  });
  if (record.state === 'succeeded' || record.state === 'failed') {
    throw new TransactionConflictError('already_settled', record, 'pending');
  }
  try {
    return await send(signed);
  } catch (error) {
    // Unblocks whoever waits on it; a failure here leaves it pending, which `stale` lists.
    if (refused(error)) await option.tracker.expire(reference).catch(() => undefined);
    throw error;
  }
}
