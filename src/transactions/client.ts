/**
 * `trackTransactions`: the client's four initiations, each signing the callback URL with the
 * transaction's reference and recording the pending transaction once the service accepted it —
 * so a merchant who opts in writes neither `signCallbackUrl` nor `tracker.begin`.
 *
 * @module
 */
import { signCallbackUrl } from '../callbacks/signing.js';
import type { PaymentsClient } from '../client.js';
import { ValidationError } from '../errors.js';
import type { TransactionKind, TransactionRecord } from './store.js';
import type { TransactionTracker } from './tracker.js';

type Method =
  'initiateCardPayment' | 'initiateMobileMoneyPayment' | 'createCheckoutSession' | 'initiatePayout';
type Input<M extends Method> = Parameters<PaymentsClient[M]>[0];
type Options<M extends Method> = Parameters<PaymentsClient[M]>[1];
type Result<M extends Method> = Awaited<ReturnType<PaymentsClient[M]>>;

/**
 * The client's initiations, tracked: same inputs and results as `PaymentsClient`; the callback
 * URL is signed for you, and the transaction is recorded under its reference.
 *
 * @example
 * ```ts
 * const payments: TrackedPayments = trackTransactions(client, { tracker, secret: process.env.WEBHOOK_SECRET! });
 * ```
 */
export type TrackedPayments = {
  readonly [M in Method]: (input: Input<M>, options?: Options<M>) => Promise<Result<M>>;
};

/**
 * Options of {@link trackTransactions}.
 *
 * @example
 * ```ts
 * const options: TrackTransactionsOptions = { tracker, secret: process.env.WEBHOOK_SECRET! };
 * ```
 */
export interface TrackTransactionsOptions {
  readonly tracker: TransactionTracker;
  /** The secret the callback handler verifies with (`createCallbackHandler({ secret })`). */
  readonly secret: string;
}

interface Tracked {
  readonly kind: TransactionKind;
  readonly reference: string;
  readonly amount: unknown;
  readonly currency: unknown;
  /** The input with its callback URL signed. */
  readonly signed: (sign: (url: unknown) => Promise<unknown>) => Promise<unknown>;
}

// The fields of the four inputs this module reads; the client validates all of them.
interface LooseInput {
  readonly callback_details?: { readonly transaction_reference?: unknown; readonly callback_url?: unknown };
  readonly amount?: { readonly total?: unknown; readonly currency?: unknown; readonly order_id?: unknown };
  readonly redirect_urls?: { readonly callback_url?: unknown };
  readonly transfer?: {
    readonly reference_id?: unknown;
    readonly amount?: unknown;
    readonly currency?: unknown;
  };
  readonly webhook_endpoint?: { readonly webhook_url?: unknown };
}

const required = (path: string, why: string): never => {
  throw new ValidationError([{ path: path.split('.'), code: 'required_for_tracking', message: why }], {
    prefix: 'Cannot track the transaction',
  });
};
const asReference = (value: unknown, path: string): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint'
    ? String(value)
    : required(path, 'expected the reference the callback will carry');

// Where each initiation keeps its reference, amount, currency and callback URL.
const describe = (method: Method, input: LooseInput): Tracked => {
  switch (method) {
    case 'initiateCardPayment':
    case 'initiateMobileMoneyPayment':
      return {
        kind: method === 'initiateCardPayment' ? 'card' : 'mobile_money',
        reference: asReference(
          input.callback_details?.transaction_reference,
          'callback_details.transaction_reference',
        ),
        amount:
          input.amount?.total ??
          required('amount.total', 'the amount is what the callback is checked against'),
        currency: input.amount?.currency,
        signed: async (sign) => ({
          ...input,
          callback_details: {
            ...input.callback_details,
            callback_url: await sign(input.callback_details?.callback_url),
          },
        }),
      };
    case 'createCheckoutSession':
      return {
        kind: 'checkout',
        reference: asReference(input.amount?.order_id, 'amount.order_id'),
        amount: input.amount?.total,
        currency: input.amount?.currency,
        signed: async (sign) => ({
          ...input,
          redirect_urls: {
            ...input.redirect_urls,
            callback_url: await sign(input.redirect_urls?.callback_url),
          },
        }),
      };
    case 'initiatePayout':
      return {
        kind: 'payout',
        reference: asReference(
          input.transfer?.reference_id ??
            required(
              'transfer.reference_id',
              'pass the 12-digit reference (generateReferenceId()) the callback will carry',
            ),
          'transfer.reference_id',
        ),
        amount: input.transfer?.amount,
        currency: input.transfer?.currency,
        signed: async (sign) => ({
          ...input,
          webhook_endpoint: {
            ...input.webhook_endpoint,
            webhook_url: await sign(input.webhook_endpoint?.webhook_url),
          },
        }),
      };
  }
};

/**
 * Wraps a `PaymentsClient` so that each initiation signs its callback URL with the transaction's
 * reference (`callback_details.transaction_reference`, checkout `amount.order_id`, payout
 * `transfer.reference_id` — required here) and, once the service accepted it, records the pending
 * transaction with the amount and currency sent (`tracker.begin`). A failed initiation records
 * nothing; when recording fails after the service accepted it (the store is unreachable), that
 * error is thrown although the payment is under way — call `tracker.begin` again. A callback that overtakes the recording is answered 409 and counted on the sender's
 * retry. Then `tracker.waitFor(reference)` awaits the outcome.
 *
 * @example
 * ```ts
 * const payments = trackTransactions(client, { tracker, secret: process.env.WEBHOOK_SECRET! });
 * await payments.initiateMobileMoneyPayment({
 *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
 *   amount: { delivery_fee: 0, discount_fee: 0, total: 1500, currency: 'KES' },
 *   callback_details: { transaction_reference: 'ORD-1', callback_url: 'https://shop.example/webhooks/payments' },
 * });
 * const record = await tracker.waitFor('ORD-1', { timeout: 120_000 });
 * ```
 */
export function trackTransactions(
  client: PaymentsClient,
  options: TrackTransactionsOptions,
): TrackedPayments {
  const { tracker, secret } = options;
  const wrap =
    <M extends Method>(method: M) =>
    async (input: Input<M>, callOptions?: Options<M>): Promise<Result<M>> => {
      const tracked = describe(method, input);
      // A URL that cannot be signed is passed on as it is, for the client's ValidationError.
      const sign = (url: unknown) =>
        typeof url === 'string'
          ? signCallbackUrl(url, { secret, reference: tracked.reference }).catch(() => url)
          : Promise.resolve(url);
      const signed = (await tracked.signed(sign)) as Input<M>;
      const call = client[method].bind(client) as (i: Input<M>, o?: Options<M>) => Promise<Result<M>>;
      const result = await call(signed, callOptions);
      await tracker.begin({
        reference: tracked.reference,
        kind: tracked.kind,
        amount: tracked.amount as TransactionRecord['amount'],
        ...(tracked.currency === undefined ? {} : { currency: tracked.currency as string }),
      });
      return result;
    };
  return {
    initiateCardPayment: wrap('initiateCardPayment'),
    initiateMobileMoneyPayment: wrap('initiateMobileMoneyPayment'),
    createCheckoutSession: wrap('createCheckoutSession'),
    initiatePayout: wrap('initiatePayout'),
  };
}
