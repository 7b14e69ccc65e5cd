// PaymentsClient: input → builder (validate, normalise) → http → typed response or typed error.
import * as z from 'zod/v4/mini';
import { ValidationError } from './errors.js';
import {
  Http,
  type ClientHooks,
  type HeadersOption,
  type RequestOptions,
  type Outgoing,
  type RetryOptions,
  expectedHeaders,
  isHeadersInit,
  milliseconds,
} from './http.js';
import { secretProblem } from './callbacks/signing.js';
import { endpointPaths } from './internal/endpoints.js';
import { invalidOption, safeParse, toValidationIssues } from './internal/issues.js';
import {
  buildCardPaymentRequest,
  type CardFieldEncoding,
  type CardPaymentInput,
} from './requests/card-payment.js';
import { isMethodWordValue, methodWordRule } from './validation/method.js';
import { buildCheckoutSessionRequest, type CheckoutSessionInput } from './requests/checkout-session.js';
import {
  buildMobileMoneyPaymentRequest,
  type MobileMoneyPaymentInput,
} from './requests/mobile-money-payment.js';
import {
  buildInitiatedPayoutRequest,
  type PayoutInitiationInput,
  type PayoutRecipientKey,
} from './requests/payout.js';
import {
  cardPaymentResponseSchema,
  checkoutSessionResponseSchema,
  mobileMoneyPaymentResponseSchemaFor,
  payoutResponseSchema,
  type CardPaymentResponse,
  type CheckoutSessionResponse,
  type MobileMoneyPaymentResponse,
  type PayoutResponse,
} from './requests/responses.js';
import { sendTracked } from './transactions/initiation.js';
import type { TransactionKind } from './transactions/store.js';
import type { TransactionTracker } from './transactions/tracker.js';

export { endpointPaths };

/**
 * Options of {@link PaymentsClient}. Only `baseUrl` is required; an unknown key, at any level, is a
 * `ValidationError` naming it.
 *
 * @example
 * ```ts
 * const options: ClientOptions = {
 *   baseUrl: 'https://payments.example.com/api/v2/',
 *   apiKey: process.env.PAYMENTS_API_KEY,
 *   mobileMoneyBrand: 'M-PESA',
 *   timeout: 15_000,
 * };
 * ```
 */
export interface ClientOptions {
  /**
   * The service's `{base_url}`: absolute http(s), with or without a path prefix and a trailing
   * slash — `https://x/api/v2/` and `https://x/api/v2` both keep the `/api/v2` prefix. No user
   * name or password (pass the key as `apiKey`), no query string or fragment.
   */
  baseUrl: string;
  /**
   * Sent as `Authorization: Bearer <apiKey>` (the API reference does not show its auth scheme):
   * printable ASCII without surrounding spaces, the key alone (`Bearer sk_…` is refused). Default:
   * no Authorization header.
   */
  apiKey?: string | undefined;
  /**
   * Extra headers for every request, or a (possibly async) function called once per call, before its
   * first request (its retries send the same headers; `totalTimeout` counts its time). Default:
   * none.
   */
  headers?: HeadersOption | undefined;
  /** Timeout of each attempt in ms, from sending to the last byte of the body. Default `30000`. */
  timeout?: number | undefined;
  /**
   * Deadline of a whole call in ms: the headers function and the `beforeRequest` hook, every
   * attempt, the waits between retries and the body. Its expiry rejects with a `TimeoutError` whose
   * `timeout` is this value. Default: none (without `retry`, the one attempt's `timeout` bounds
   * the call).
   */
  totalTimeout?: number | undefined;
  /**
   * Opt-in retries of payments and checkout sessions: a number (the retry limit) or
   * {@link RetryOptions}. Default: **no retries** — initiations are not idempotent (the service has
   * no idempotency key), so a retried POST can charge a customer twice. A payout is never retried:
   * a retry under its `reference_id` could be a second transfer. When enabled, 408/429/500/502/503/504 are retried
   * with exponential backoff, honouring `Retry-After` on 429 and 503, and so is a connection failure
   * that provably sent nothing (the built-in fetch's refused connection, unresolved name or connect
   * timeout: a `ConnectionError` whose `sent` is false). A failure after the request may have gone
   * out (a reset, a TLS failure, any failure of a custom `fetch`) is never retried: the service may
   * have received it.
   */
  retry?: RetryOptions | number | undefined;
  /**
   * A fetch implementation, called with a `Request`. Default: the global `fetch`. A custom one's
   * failure is never taken to mean nothing was sent (`ConnectionError.sent` is true, and `retry`
   * does not retry it): it may have retried by itself. So is a `globalThis.fetch` other than the
   * one there when the SDK loaded (a wrapper installed since).
   */
  fetch?: ((input: Request, init?: RequestInit) => Promise<Response>) | undefined;
  /**
   * The mobile-money brand word ("MOBILE-MONEY" stands for it in the API reference): the default
   * mobile-money `payment_method`. A mobile-money reply (`<brand> Payment Initiated`) is taken with
   * any brand word as `<brand>` (ASCII letters and digits joined by single spaces or hyphens, at
   * most 32 characters) that does not read as a failure or a negation (`No`, `Failed`,
   * `Duplicate`), and with this word as it is, ASCII letter case ignored (`M-Pesa` for `M-PESA`),
   * brand word or not; it never narrows what is taken (the service's brand word varies). Without
   * blanks around it or a control or invisible character. Default
   * `'MOBILE-MONEY'`.
   */
  mobileMoneyBrand?: string | undefined;
  /**
   * The `payment_method` values sent when the input has none (the API reference does not list them).
   * A card payment's input may only repeat `card`: the service takes any other value for mobile
   * money. Neither word (nor a mobile-money input's own) may have blanks around it or a control or
   * invisible character. Default `{ card: 'CARD', mobileMoney: <mobileMoneyBrand> }`.
   */
  paymentMethods?: { card?: string | undefined; mobileMoney?: string | undefined } | undefined;
  /** The wire key of the payout recipient. Default `'customer_details'`. */
  payoutRecipientKey?: PayoutRecipientKey | undefined;
  /**
   * `'integer'` (default): the four card fields are JSON integers, as the API reference types them; a cvc or card number with a
   * leading zero is then rejected. `'string'`: all four are sent as digit strings.
   */
  cardFieldEncoding?: CardFieldEncoding | undefined;
  /** Logging hooks; they receive card number and cvc redacted. Default: none. */
  hooks?: ClientHooks | undefined;
  /**
   * Track every initiation: the client signs the callback URL it sends with the transaction's
   * reference (`callback_details.transaction_reference`, checkout `amount.order_id`, payout
   * `transfer.reference_id`, which is then required) using `secret`, and records the pending
   * transaction with the amount and currency it sends (`tracker.begin`) just before sending, so
   * even a callback that beats the response finds it; a call refused before that (invalid per-call
   * options or headers, a `beforeRequest` hook throwing before the first attempt, an aborted
   * signal, a passed `totalTimeout`) records nothing; one throwing before a retry, after an
   * attempt went out, or an `afterResponse` hook that throws, fails the call with a
   * `ConnectionError` and leaves the record pending. A
   * refusal the service certainly did not act on (a 4xx) expires the record, unless another call
   * of this process used the reference meanwhile (when the store fails to, it stays pending and
   * the `ApiError`'s `cause` is a `TransactionStoreError`); a 5xx, timeout or lost connection leaves
   * it pending for `tracker.stale`. A store that fails to record, or does not answer within
   * `totalTimeout` or before `signal` aborts: a `TransactionStoreError`, nothing sent. An expired reference initiated again is recorded pending again.
   * Hand the same `tracker` and `secret` to `createCallbackHandler`, then await the outcome with
   * `tracker.waitFor(reference)`. `secret`: at least 16 characters. Default: no tracking (sign
   * callback URLs yourself with `signCallbackUrl`).
   *
   * @example
   * ```ts
   * const tracker = createTransactionTracker(); // from 'hosted-payments/transactions'
   * const client = new PaymentsClient({
   *   baseUrl: 'https://payments.example.com',
   *   transactions: { tracker, secret: process.env.WEBHOOK_SECRET! },
   * });
   * await client.initiateMobileMoneyPayment({
   *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
   *   amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
   *   callback_details: { transaction_reference: 'ORD-1', callback_url: 'https://shop.example/webhooks/payments' },
   * });
   * const { state } = await tracker.waitFor('ORD-1', { timeout: 120_000 }); // 'succeeded' | 'failed' | 'expired'
   * ```
   */
  transactions?: { readonly tracker: TransactionTracker; readonly secret: string } | undefined;
}

/** A value the test accepts, else an issue with the message. */
const rule = <T>(test: (value: T) => boolean, message: string) => z.refine<T>(test, invalidOption(message));

const BASE_URL_EXAMPLE =
  "the service's base URL, an absolute http(s) URL such as https://payments.example.com";

/** A base URL the client can prefix every path with, or what is wrong with it (never the URL itself). */
function baseUrlProblem(value: string): string | undefined {
  if (value === '')
    return `required: ${BASE_URL_EXAMPLE} (got an empty string: an unset environment variable?)`;
  // The URL parser drops them, yet messages carry the URL as written (a newline splits a log line).
  if (/[\s\p{Cc}]/u.test(value)) {
    return 'expected a URL without white space or a control character (a trailing newline from a file or an environment variable?)';
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'expected an absolute http(s) URL such as https://payments.example.com';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return 'expected an absolute http(s) URL such as https://payments.example.com';
  }
  if (url.username !== '' || url.password !== '') {
    return 'expected a URL without a user name or password (they would be logged with every URL); pass the key as apiKey';
  }
  if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#')) {
    return 'expected a base URL without a query string or fragment';
  }
  return undefined;
}

// Printable ASCII without surrounding spaces: anything else would be refused by (or change on)
// the wire as part of an Authorization header.
const apiKeyPattern = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
// A key pasted with its auth scheme would go out as `Bearer Bearer sk_…`.
const authScheme = /^(?:bearer|basic|token|digest)\s/i;
const methodWord = (example: string) =>
  z.string(invalidOption(methodWordRule(example))).check(rule(isMethodWordValue, methodWordRule(example)));
const mobileMoneyWord = methodWord('M-PESA');
const retryLimit = z
  .int(invalidOption('expected an integer of 0 or more'))
  .check(rule((value: number) => value >= 0, 'expected an integer of 0 or more'));
// A status the client can retry: an error status. It never retries a 1xx or 2xx (not errors) nor a
// 3xx (it follows no redirect).
const errorStatus = z
  .int(invalidOption('expected an HTTP error status from 400 to 599'))
  .check(
    rule((value: number) => value >= 400 && value <= 599, 'expected an HTTP error status from 400 to 599'),
  );
const aFunction = (what: string) =>
  z.custom<unknown>((value) => typeof value === 'function', invalidOption(`expected ${what}`));

/** How many checkout callback URLs a client remembers (a URL is some hundred bytes). */
const MAX_CHECKOUT_URLS = 1_000;

/** The client options, checked at construction (an unknown key is refused); messages never quote a value. */
const clientOptionsSchema = z.strictObject({
  baseUrl: z
    .string({
      ...invalidOption('expected an absolute http(s) URL string'),
      error: (issue: { readonly input?: unknown }) =>
        issue.input === undefined
          ? `required: ${BASE_URL_EXAMPLE} (got undefined: an unset environment variable?)`
          : 'expected an absolute http(s) URL string',
    })
    .check(
      z.refine((value) => baseUrlProblem(value) === undefined, {
        error: (issue) => baseUrlProblem(issue.input as string),
        params: { code: 'invalid_option' },
      }),
    ),
  apiKey: z.optional(
    z.string(invalidOption('expected a string')).check(
      rule(
        (value: string) => apiKeyPattern.test(value),
        'expected a non-empty key of printable ASCII characters without surrounding spaces (no CR, LF, NUL or other control characters)',
      ),
      rule(
        (value: string) => !authScheme.test(value),
        "expected the key without its auth scheme: the client sends 'Authorization: Bearer <apiKey>' itself (for another scheme, set the Authorization header through headers)",
      ),
    ),
  ),
  headers: z.optional(
    z.custom<unknown>(
      (value) => typeof value === 'function' || isHeadersInit(value),
      invalidOption(`${expectedHeaders}, or a function returning them`),
    ),
  ),
  timeout: z.optional(milliseconds),
  totalTimeout: z.optional(milliseconds),
  retry: z.optional(
    // The object first: an object's own issue (a status code, an unknown key) is then the one reported.
    z.union(
      [
        z.strictObject({
          limit: retryLimit,
          statusCodes: z.optional(z.array(errorStatus)),
          retryOnTimeout: z.optional(z.boolean()),
          maxRetryAfter: z.optional(milliseconds),
          backoffLimit: z.optional(milliseconds),
        }),
        retryLimit,
      ],
      invalidOption(
        'expected a retry limit (an integer of 0 or more) or { limit, statusCodes?, retryOnTimeout?, maxRetryAfter?, backoffLimit? }',
      ),
    ),
  ),
  fetch: z.optional(aFunction('a fetch function')),
  // The words a mobile-money payment may be sent under (the brand reads replies too).
  mobileMoneyBrand: z.optional(mobileMoneyWord),
  paymentMethods: z.optional(
    z.strictObject({
      card: z.optional(methodWord('CARD')),
      mobileMoney: z.optional(mobileMoneyWord),
    }),
  ),
  payoutRecipientKey: z.optional(
    z.enum(
      ['customer_details', 'client_details'],
      invalidOption("expected 'customer_details' or 'client_details'"),
    ),
  ),
  cardFieldEncoding: z.optional(
    z.enum(['integer', 'string'], invalidOption("expected 'integer' or 'string'")),
  ),
  hooks: z.optional(
    z.strictObject({
      beforeRequest: z.optional(aFunction('a function')),
      afterResponse: z.optional(aFunction('a function')),
    }),
  ),
  transactions: z.optional(
    z.strictObject(
      {
        tracker: z.custom<unknown>(
          (value) =>
            typeof (value as Partial<TransactionTracker> | undefined)?.begin === 'function' &&
            typeof (value as Partial<TransactionTracker>).expire === 'function' &&
            typeof (value as Partial<TransactionTracker>).get === 'function' &&
            typeof (value as Partial<TransactionTracker>).store?.update === 'function',
          invalidOption('expected a transaction tracker from createTransactionTracker()'),
        ),
        secret: z.string(invalidOption('expected the callback secret as a string')).check(
          z.refine((value) => secretProblem(value) === undefined, {
            error: (issue) =>
              `expected the secret createCallbackHandler verifies with; it ${secretProblem(issue.input)}`,
            params: { code: 'invalid_option' },
          }),
        ),
      },
      invalidOption('expected { tracker, secret }'),
    ),
  ),
});

/** `https://x/api/v2` and `https://x/api/v2//` both become `https://x/api/v2/`: the prefix of every path. */
const asPrefix = (baseUrl: string): string => `${baseUrl.replace(/\/+$/, '')}/`;

/**
 * The client of the Hosted Payments and Payouts API. Each method validates its input (a
 * {@link ValidationError} sends nothing), posts the exact wire body, and resolves with the
 * validated response or rejects with `ApiError`, `ConnectionError` or `TimeoutError`. No call
 * is ever retried unless `retry` is set.
 *
 * @example
 * ```ts
 * const client = new PaymentsClient({ baseUrl: 'https://payments.example.com', apiKey: 'sk_test_…' });
 * const { message } = await client.initiateMobileMoneyPayment({
 *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
 *   amount: { delivery_fee: 100, discount_fee: 50, total: 500, currency: 'KES' },
 *   callback_details: { transaction_reference: 'order-1002', callback_url: 'https://shop.example/hooks/payments' },
 * });
 * ```
 */
export class PaymentsClient {
  readonly #http: Http;
  readonly #cardMethod: string;
  readonly #mobileMoneyMethod: string;
  readonly #payoutRecipientKey: PayoutRecipientKey;
  readonly #cardFieldEncoding: CardFieldEncoding;
  readonly #transactions: ClientOptions['transactions'];
  /** Whether calls go through the merchant's `fetch`, which may retry without the SDK seeing it. */
  readonly #ownFetch: boolean;
  /** The client's `mobileMoneyBrand`, a word a mobile-money reply may name the brand by. */
  readonly #brand: string | undefined;
  readonly #totalTimeout: number | undefined;
  /**
   * Without `transactions`: the order ids and callback URLs of the checkout sessions this client
   * created or is creating, the latest {@link MAX_CHECKOUT_URLS}.
   */
  readonly #checkoutUrls = new Set<string>();

  constructor(options: ClientOptions) {
    const checked = safeParse(clientOptionsSchema, options);
    if (!checked.success) {
      throw new ValidationError(toValidationIssues(checked.error.issues), {
        prefix: 'Invalid client options',
      });
    }
    const brand = options.mobileMoneyBrand ?? 'MOBILE-MONEY';
    this.#cardMethod = options.paymentMethods?.card ?? 'CARD';
    this.#mobileMoneyMethod = options.paymentMethods?.mobileMoney ?? brand;
    this.#payoutRecipientKey = options.payoutRecipientKey ?? 'customer_details';
    this.#cardFieldEncoding = options.cardFieldEncoding ?? 'integer';
    this.#transactions = options.transactions;
    this.#ownFetch = options.fetch !== undefined;
    this.#brand = options.mobileMoneyBrand;
    this.#totalTimeout = options.totalTimeout;
    this.#http = new Http({
      baseUrl: asPrefix(options.baseUrl),
      apiKey: options.apiKey,
      headers: options.headers,
      timeout: options.timeout ?? 30_000,
      totalTimeout: options.totalTimeout,
      retry: options.retry,
      fetch: options.fetch,
      hooks: options.hooks,
    });
  }

  /**
   * Endpoint 1: starts a card payment. Resolves with `{ message: 'Card Payment Initiated', status: 200 }`;
   * the result arrives later at `callback_details.callback_url`.
   *
   * @example
   * ```ts
   * await client.initiateCardPayment({
   *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
   *   amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
   *   card_details: { card_number: '4242 4242 4242 4242', expiry_month: 12, expiry_year: 2030, cvc: '123' },
   *   callback_details: { transaction_reference: 'order-1001', callback_url: 'https://shop.example/hooks/payments' },
   * });
   * ```
   */
  async initiateCardPayment(input: CardPaymentInput, options?: RequestOptions): Promise<CardPaymentResponse> {
    const body = buildCardPaymentRequest(input, {
      paymentMethod: this.#cardMethod,
      cardFieldEncoding: this.#cardFieldEncoding,
    });
    return this.#send('card', body, options, {
      operation: 'initiateCardPayment',
      path: endpointPaths.payment,
      schema: cardPaymentResponseSchema,
    });
  }

  /**
   * Endpoint 2: sends an STK push to the customer's phone. Resolves with
   * `{ message: '<BRAND> Payment Initiated', status: 200 }`: `<BRAND>` a brand word that does not
   * read as a failure or a negation, or the client's `mobileMoneyBrand` (ASCII letter case
   * ignored); any other message is an `ApiError` naming `message`.
   *
   * @example
   * ```ts
   * await client.initiateMobileMoneyPayment({
   *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
   *   callback_details: { transaction_reference: 'order-1002', callback_url: 'https://shop.example/hooks/payments' },
   * });
   * ```
   */
  async initiateMobileMoneyPayment(
    input: MobileMoneyPaymentInput,
    options?: RequestOptions,
  ): Promise<MobileMoneyPaymentResponse> {
    const body = buildMobileMoneyPaymentRequest(input, { paymentMethod: this.#mobileMoneyMethod });
    // The reply may name the brand by the client's word or by the method sent (spec: MOBILE-MONEY
    // stands for the brand in identifiers and message texts).
    const method = body.customer_details.payment_method;
    return this.#send('mobile_money', body, options, {
      operation: 'initiateMobileMoneyPayment',
      path: endpointPaths.payment,
      schema: mobileMoneyPaymentResponseSchemaFor(
        this.#brand === undefined ? [method] : [method, this.#brand],
      ),
    });
  }

  /**
   * Endpoint 3: creates a hosted checkout session. Redirect the customer to `checkout_link`. A
   * reply whose `status` is not `true` (`checkout_not_created`) or whose `order_id` is not the one
   * sent (`order_id_mismatch`) is an `ApiError`.
   *
   * @example
   * ```ts
   * const { checkout_link } = await client.createCheckoutSession({
   *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
   *   amount: { order_id: 1003, delivery_fee: 100, discount_fee: 50, total: 2500, currency: 'KES' },
   *   redirect_urls: {
   *     success_url: 'https://shop.example/paid',
   *     failed_url: 'https://shop.example/failed',
   *     callback_url: 'https://shop.example/hooks/payments',
   *   },
   * });
   * ```
   */
  async createCheckoutSession(
    input: CheckoutSessionInput,
    options?: RequestOptions,
  ): Promise<CheckoutSessionResponse> {
    const body = buildCheckoutSessionRequest(input);
    const sent = String(body.amount.order_id);
    // A checkout callback carries no transaction id: two sessions paid alike post the same payload
    // to the same URL, and the route drops the second as a redelivery. With `transactions` each
    // session's URL is signed with an hp_try of its own; without, an order's URL is sent for one
    // session (another order's payload differs by its order_id).
    const url = this.#transactions === undefined ? `${sent} ${body.redirect_urls.callback_url}` : undefined;
    if (url !== undefined) {
      if (this.#checkoutUrls.has(url)) {
        throw new ValidationError(
          [
            {
              path: ['redirect_urls', 'callback_url'],
              code: 'callback_url_reused',
              message:
                "already sent for a session of this order by this client: a second session's payment would post the same callback to it and be dropped as a redelivery; sign each session's URL apart (a parameter of its own before signCallbackUrl) or use the transactions option",
            },
          ],
          { prefix: 'Invalid checkout session' },
        );
      }
      this.#checkoutUrls.add(url);
      if (this.#checkoutUrls.size > MAX_CHECKOUT_URLS) {
        this.#checkoutUrls.delete(this.#checkoutUrls.values().next().value!);
      }
    }
    return this.#send('checkout', body, options, {
      operation: 'createCheckoutSession',
      path: endpointPaths.checkoutSession,
      schema: checkoutSessionResponseSchema,
      // Spec § 2.8: status is a boolean, and only true can mean a session was created; order_id is
      // the echo of the request (another one names another order's page).
      check: ({ status, order_id }) => [
        ...(status === true
          ? []
          : [
              {
                path: ['status'],
                code: 'checkout_not_created',
                message: 'expected true (false: no session was created)',
              },
            ]),
        ...(order_id === sent
          ? []
          : [
              {
                path: ['order_id'],
                code: 'order_id_mismatch',
                message: `expected the order_id sent (${sent})`,
              },
            ]),
      ],
    }).catch((error: unknown) => {
      // No session known to be created: the URL may be sent again (a retry).
      if (url !== undefined) this.#checkoutUrls.delete(url);
      throw error;
    });
  }

  /**
   * Endpoint 4: pays out to a mobile-money wallet. Resolves with
   * `{ message: 'Mobile Payout Initiated', status: 200 }`. `transfer.reference_id` (12 digits,
   * from `generateReferenceId()`, stored before sending) is required: the callback carries it,
   * and it names the transfer when you reconcile. Without it: a `ValidationError` naming it,
   * nothing sent. With the `transactions` option a reference already recorded is never sent again
   * (`TransactionConflictError`, `payout_already_sent`): wait for its callback.
   *
   * @example
   * ```ts
   * await client.initiatePayout({
   *   customer_details: { full_name: 'John Doe', phone_number: '0712345678', email: 'john@example.com' },
   *   destination: { type: 'mobile', country_code: 'KE', mobile_number: '0712345678', wallet_name: 'MOBILE-MONEY' },
   *   transfer: { amount: 1000, currency: 'KES', reference_id: 483920175561, description: 'Refund' },
   *   webhook_endpoint: { webhook_url: 'https://shop.example/hooks/payouts' },
   * });
   * ```
   */
  async initiatePayout(input: PayoutInitiationInput, options?: RequestOptions): Promise<PayoutResponse> {
    const body = buildInitiatedPayoutRequest(input, { payoutRecipientKey: this.#payoutRecipientKey });
    return this.#send('payout', body, options, {
      operation: 'initiatePayout',
      path: endpointPaths.payout,
      schema: payoutResponseSchema,
    });
  }

  /** Sends a built body (tracked when the client has `transactions`). */
  #send<S extends z.core.$ZodType>(
    kind: TransactionKind,
    body: object,
    options: RequestOptions | undefined,
    outgoing: Omit<Outgoing<S>, 'body'>,
  ): Promise<z.output<S>> {
    return sendTracked(
      this.#transactions,
      kind,
      body,
      (sent, beforeSend, once) => this.#http.post({ ...outgoing, body: sent, once }, options, beforeSend),
      {
        signal: options?.signal,
        totalTimeout: options?.totalTimeout ?? this.#totalTimeout,
        ownFetch: this.#ownFetch,
      },
    );
  }
}
