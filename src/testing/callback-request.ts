import type * as z from 'zod/v4/mini';
import type { CallbackEventType } from '../callbacks/events.js';
import { safeParseCallback } from '../callbacks/parse.js';
import { callbackSchemas } from '../callbacks/schemas.js';
import { secretProblem, signCallbackUrl } from '../callbacks/signing.js';
import { safeParse } from '../internal/issues.js';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import { isPlainObject, keyShown } from '../internal/values.js';
import {
  checkCurrency,
  checkPayloadAmount,
  checkPayloadReference,
  fixedPayloadValues,
  isCallbackEventType,
  referenceFields,
  unknownEventTypeMessage,
} from '../sandbox/payload-values.js';
import type { CallbackPayloadByType } from '../sandbox/payloads.js';
import { checkHttpUrl } from '../validation/url.js';
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
   * Default: the override of that field, else the fixture's own reference, or `'ORDER-1001'` for
   * payloads without one. A payout's is a 12-digit `reference_id`, a checkout's a whole-number
   * `order_id`; a reference that contradicts the override of its field is refused.
   */
  readonly reference?: string | undefined;
  /**
   * Your webhook route's URL: an absolute http(s) URL without a user name or password. Default
   * `'https://shop.example/webhooks/payments'`.
   */
  readonly url?: string | undefined;
  /**
   * Fields to change in the fixture, e.g. `{ amount: '999' }`: only keys the payload of the type
   * has, each with the type the service sends it as; an amount (`amount`, `amount captured`,
   * `amount_captured`, `payout_fee`, `wallet_balance`) a whole number of at least 0 (a success's
   * `amount`: at least 1, since the handler refuses a success of zero), a `currency`
   * an ISO 4217 code in upper case. What the service fixes for the type stays as it sends it: the
   * status words, `paid`, the codes that are always 200, the card method word and the message
   * texts (a mobile-money text follows `payment_method`, e.g. `'M-PESA Payment Success'`). On a
   * card or mobile-money success the captured amount follows `amount` unless overridden too.
   */
  readonly overrides?: Partial<CallbackPayloadByType[T]> | undefined;
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
const WHERE = 'createCallbackRequest';

/** What is wrong with a value zod refused, in words that never quote it. */
const issueMessage = (issue: z.core.$ZodIssue): string =>
  issue.code === 'invalid_value'
    ? `expected ${issue.values.map((value) => JSON.stringify(value)).join(' or ')}`
    : issue.message;

/** What a value that is not a plain object is, without showing it: `an array`, `a Map`, `a string`. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const name: unknown = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' ? `a ${name}` : 'an object';
}

/** The payload keys holding money: each a whole number, as `buildCallbackPayload`'s `amount`. */
const AMOUNT_KEYS: readonly string[] = [
  'amount',
  'amount captured',
  'amount_captured',
  'payout_fee',
  'wallet_balance',
];

/** The captured amount of a success, which the service sends equal to its `amount`. */
const CAPTURED_KEYS: Readonly<Partial<Record<CallbackEventType, string>>> = {
  'payment.card.succeeded': 'amount captured',
  'payment.mobile_money.succeeded': 'amount_captured',
};

/**
 * Refuses an amount, currency or reference override that is not of its field's form, with the
 * rule the payload builders use.
 */
function checkOverrideForm(type: CallbackEventType, key: string, value: unknown): void {
  const checked = AMOUNT_KEYS.includes(key)
    ? checkPayloadAmount(type, value, key)
    : key === 'currency'
      ? checkCurrency(value)
      : key === referenceFields[type]
        ? checkPayloadReference(type, value)
        : undefined;
  if (checked !== undefined && !checked.ok) {
    throw new TypeError(`${WHERE}: overrides.${key}: ${checked.message}`);
  }
  // The service sends a currency code upper-case, as the request builders write it.
  if (key === 'currency' && checked?.ok && checked.value !== value) {
    throw new TypeError(
      `${WHERE}: overrides.currency: expected the code in upper case, ${JSON.stringify(checked.value)}: a ${type} payload carries it so, as the service sends it`,
    );
  }
}

/**
 * The fixture of `type` with `overrides`, each key one the payload has, each value of its type
 * and, for amounts, the currency and the reference field, of its form.
 */
function overridden(type: CallbackEventType, overrides: unknown): Record<string, unknown> {
  if (overrides !== undefined && !isPlainObject(overrides)) {
    throw new TypeError(
      `${WHERE}: overrides must be a plain object of payload fields, e.g. { amount: '999' }, got ${describe(overrides)}`,
    );
  }
  const given = (overrides ?? {}) as Readonly<Record<string, unknown>>;
  const schema = callbackSchemas[type];
  const keys = Object.keys(schema.shape);
  for (const key of Object.keys(given)) {
    if (!keys.includes(key)) {
      throw new TypeError(
        `${WHERE}: overrides: unknown key ${keyShown(key)}; a ${type} payload has ${keys.join(', ')}`,
      );
    }
  }
  const fixture: Record<string, unknown> = { ...callbackFixtures[type], ...given };
  const captured = CAPTURED_KEYS[type];
  if (captured !== undefined && 'amount' in given && !(captured in given)) fixture[captured] = given.amount;
  const parsed = safeParse(schema, fixture);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // A value of the right type in the wrong form: the form check's words say what it should be.
    const key = String(issue.path[0]);
    if (issue.code !== 'invalid_type') checkOverrideForm(type, key, fixture[key]);
    throw new TypeError(`${WHERE}: overrides.${issue.path.join('.')}: ${issueMessage(issue)}`);
  }
  for (const [key, value] of Object.entries(given)) checkOverrideForm(type, key, value);
  return fixture;
}

/**
 * Refuses a payload that `parseCallback` (and so the handler) would not read as `type` with the
 * fixture's own warnings: overrides that change its outcome (`paid`, a payment status, a
 * mobile-money `response_status`, a checkout's `payment_method`), that make it one the handler
 * answers 422, or that add a warning (a `timestamp` that is not Unix seconds).
 */
function checkReadAs(type: CallbackEventType, payload: Record<string, unknown>, overrides: string[]): void {
  const keys = overrides.join(', ');
  const result = safeParseCallback(payload);
  if (!result.success) {
    // A payload the overrides turned into another outcome that its fixed texts contradict.
    const { closestVariant } = result.error;
    const other =
      closestVariant === undefined || closestVariant === type
        ? ''
        : `; for a ${closestVariant} callback, ask for ${JSON.stringify(closestVariant)} instead`;
    throw new TypeError(
      `${WHERE}: overrides (${keys}): the handler refuses this ${type} payload (${result.error.reason}): ${result.error.message}${other}`,
    );
  }
  const { event } = result;
  if (event.type !== type) {
    throw new TypeError(
      `${WHERE}: overrides (${keys}) make this a ${event.type} payload, not ${type}; ask for ${JSON.stringify(event.type)} instead`,
    );
  }
  const own = safeParseCallback(callbackFixtures[type]).event?.warnings.map((warning) => warning.code) ?? [];
  const warning = event.warnings.find((each) => !own.includes(each.code));
  if (warning !== undefined) {
    throw new TypeError(
      `${WHERE}: overrides (${keys}): the handler would read this ${type} payload with warning ${warning.code}: ${warning.message}`,
    );
  }
}

/**
 * Refuses overrides that change what the service fixes in a payload of `type` (its status words,
 * `paid`, the codes that are always 200, the card method word, the message texts): the parser
 * reads some of them loosely, but a merchant's test must not pass on a text the service never
 * sends. A fixed value that follows another key (a mobile-money message follows `payment_method`)
 * is named with the override it follows.
 */
function checkFixedValues(
  type: CallbackEventType,
  payload: Record<string, unknown>,
  given: readonly string[],
): void {
  for (const [key, expected] of Object.entries(fixedPayloadValues(type, payload))) {
    if (payload[key] === expected) continue;
    const contradiction =
      type === 'checkout.succeeded' && key === 'paid' && expected === 'False'
        ? " (the card redirect success carries paid 'False' with payment_status 'Payment complete.': the service sends the two contradicting values)"
        : '';
    if (given.includes(key)) {
      throw new TypeError(
        `${WHERE}: overrides.${key}: a ${type} payload carries ${JSON.stringify(expected)} there, as the service sends it${contradiction}; override only the values that vary (amounts, ids, references, the time, a failure's reason)`,
      );
    }
    throw new TypeError(
      `${WHERE}: overrides (${given.join(', ')}): with them a ${type} payload carries ${key} ${JSON.stringify(expected)}, as the service sends it; override ${key} too`,
    );
  }
}

/**
 * The reference to sign: `reference`, else the override of the payload's reference field, else the
 * fixture's own (or `'ORDER-1001'`); one the payload of `type` can carry.
 */
function referenceOf(
  type: CallbackEventType,
  options: CallbackRequestOptions,
  fixture: Record<string, unknown>,
): string {
  const field = referenceFields[type];
  const overrides: Readonly<Record<string, unknown>> = options.overrides ?? {};
  const overriddenReference = field === undefined ? undefined : overrides[field];
  if (
    options.reference !== undefined &&
    overriddenReference !== undefined &&
    overriddenReference !== options.reference
  ) {
    throw new TypeError(
      `${WHERE}: reference and overrides.${field} differ; give the reference once (the payload's ${field} is set to it)`,
    );
  }
  const own = field === undefined ? undefined : fixture[field];
  const reference = options.reference ?? (typeof own === 'string' ? own : DEFAULT_REFERENCE);
  const checked = checkPayloadReference(type, reference);
  if (!checked.ok) throw new TypeError(`${WHERE}: reference: ${checked.message}`);
  return checked.value;
}

/**
 * A ready `Request` for your webhook handler: the fixture of `type` (see `callbackFixtures`),
 * POSTed as JSON to your route's URL signed with `signCallbackUrl` for `secret` and `reference`
 * — the payload's own reference field set to the same reference — exactly what the service
 * would send. Hand it to a Fetch handler, or to your framework's test client. A `TypeError`
 * naming the option refuses what the service could not send: an unknown type, a `secret` missing
 * or under 16 characters, a `url` that is not http(s) or carries a user name or password,
 * an override key or value type the payload does not have, an amount that is not a whole number or
 * a currency that is not an ISO 4217 code, a reference its payload cannot carry, and overrides
 * after which `parseCallback` would not read the payload as `type` without a new warning (a
 * `paid`, payment status or `response_status` of the other outcome, a `timestamp` in milliseconds),
 * and overrides of a text or code the service fixes for the type (a status word in another
 * spelling, `paid: 'True'` on the card redirect success, another message).
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
  if (!isCallbackEventType(type)) throw new TypeError(`${WHERE}: ${unknownEventTypeMessage(type)}`);
  if (options === undefined || options === null || typeof options !== 'object') {
    throw new TypeError(
      `${WHERE}: secret is required: pass { secret } (the secret your handler verifies with)`,
    );
  }
  refuseUnknownOptions(WHERE, options, REQUEST_OPTIONS);
  const problem = secretProblem(options.secret);
  if (problem !== undefined) {
    throw new TypeError(`${WHERE}: secret ${problem}; pass the secret your handler verifies with`);
  }
  const target = checkHttpUrl(options.url ?? DEFAULT_URL);
  if (!target.ok) throw new TypeError(`${WHERE}: url: ${target.message}`);
  const fixture = overridden(type, options.overrides);
  const reference = referenceOf(type, options, fixture);
  const field = referenceFields[type];
  if (field !== undefined) fixture[field] = reference;
  const given = Object.keys(options.overrides ?? {});
  checkReadAs(type, fixture, given);
  checkFixedValues(type, fixture, given);
  const url = await signCallbackUrl(target.value, { secret: options.secret, reference });
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'hosted-payments-testing' },
    body: JSON.stringify(fixture),
  });
}
