import type { CallbackEventType } from '../callbacks/events.js';
import { signCallbackUrl } from '../callbacks/signing.js';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import type { CallbackPayloadByType } from '../sandbox/payloads.js';
import { callbackFixtures } from './fixtures.js';

/**
 * Options of {@link createCallbackRequest}.
 *
 * @example
 * ```ts
 * import type { CallbackRequestOptions } from 'hosted-payments/testing';
 *
 * const options: CallbackRequestOptions<'payout.failed'> = {
 *   secret: 'test-webhook-secret-0123456789',
 *   reference: '123456789012',
 *   url: 'https://shop.example/webhooks/payouts',
 * };
 * ```
 */
export interface CallbackRequestOptions<T extends CallbackEventType = CallbackEventType> {
  /** The secret your handler verifies with (at least 16 characters, as `signCallbackUrl` requires). */
  readonly secret: string;
  /**
   * The merchant reference signed into the URL and, where the payload carries one, written into
   * it (`transaction_reference`, `order_id`, `reference_id`), so the handler's cross-check passes.
   * Default: the fixture's own reference, or `'ORDER-1001'` for payloads without one.
   */
  readonly reference?: string;
  /** Your webhook route's URL. Default `'https://shop.example/webhooks/payments'`. */
  readonly url?: string;
  /** Fields to change in the fixture, e.g. `{ amount: '999' }`. */
  readonly overrides?: Partial<CallbackPayloadByType[T]>;
}

/** The options {@link createCallbackRequest} knows; any other key is refused. */
const REQUEST_OPTIONS: OptionNames<CallbackRequestOptions> = {
  secret: true,
  reference: true,
  url: true,
  overrides: true,
};

const DEFAULT_URL = 'https://shop.example/webhooks/payments';
const DEFAULT_REFERENCE = 'ORDER-1001';

/** The payload field that carries the merchant reference, for the types that have one. */
const referenceField: Partial<Record<CallbackEventType, string>> = {
  'payment.mobile_money.failed': 'transaction_reference',
  'checkout.succeeded': 'order_id',
  'checkout.failed': 'order_id',
  'payout.succeeded': 'reference_id',
  'payout.failed': 'reference_id',
};

/**
 * A ready `Request` for your webhook handler: the fixture of `type` (see `callbackFixtures`),
 * POSTed as JSON to your route's URL signed with `signCallbackUrl` for `secret` and `reference`
 * — the payload's own reference field set to the same reference — exactly what the service
 * would send. Hand it to a Fetch handler, or to your framework's test client.
 *
 * @example
 * ```ts
 * import { createCallbackHandler } from 'hosted-payments/callbacks';
 * import { createCallbackRequest } from 'hosted-payments/testing';
 *
 * const secret = 'test-webhook-secret-0123456789';
 * const handler = createCallbackHandler({ secret, onEvent: (event) => console.log(event.type) });
 * const request = await createCallbackRequest('payment.mobile_money.failed', { secret, reference: 'ORDER-7' });
 * const response = await handler(request); // 200
 * ```
 */
export async function createCallbackRequest<T extends CallbackEventType>(
  type: T,
  options: CallbackRequestOptions<T>,
): Promise<Request> {
  refuseUnknownOptions('createCallbackRequest', options, REQUEST_OPTIONS);
  const fixture: Record<string, unknown> = { ...callbackFixtures[type], ...options.overrides };
  const field = referenceField[type];
  const own = field === undefined ? undefined : fixture[field];
  const reference = options.reference ?? (typeof own === 'string' ? own : DEFAULT_REFERENCE);
  if (field !== undefined) fixture[field] = reference;
  const url = await signCallbackUrl(options.url ?? DEFAULT_URL, { secret: options.secret, reference });
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'hosted-payments-testing' },
    body: JSON.stringify(fixture),
  });
}
