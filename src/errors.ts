/**
 * The whole error hierarchy of the SDK. Every failure a merchant can meet is one of these,
 * each with a literal `name`, readonly fields, and a message that names the field and the rule
 * but never a card number, a cvc or a whole payload. The tracker's errors
 * (`hosted-payments/transactions`) extend `PaymentsError` too, and {@link isPaymentsError} knows
 * their names.
 *
 * @module
 */
import type {
  TransactionConflictError,
  TransactionStoreError,
  TransactionStoreFullError,
  TransactionTimeoutError,
  UnknownTransactionError,
} from './transactions/errors.js';

/**
 * Where in the input a problem was found, e.g. `['card_details', 'expiry_month']`.
 *
 * @example
 * ```ts
 * const path: IssuePath = ['products', 0, 'quantity'];
 * formatIssuePath(path); // 'products[0].quantity'
 * ```
 */
export type IssuePath = readonly (string | number)[];

/**
 * One problem found in an input or a payload.
 *
 * @example
 * ```ts
 * if (error instanceof ValidationError) {
 *   for (const issue of error.issues) form.setError(formatIssuePath(issue.path), issue.message);
 * }
 * ```
 */
export interface ValidationIssue {
  /** Path to the offending field, from the root of the input. Empty for the input as a whole. */
  readonly path: IssuePath;
  /** What is wrong and what was expected. Never contains a card number or cvc. */
  readonly message: string;
  /** A stable machine-readable code, e.g. `invalid_phone_number`, `too_small`, `unrecognized_keys`. */
  readonly code: string;
}

/**
 * Renders a path the way the messages write it: `card_details.expiry_month`, `products[0].quantity`.
 *
 * @example
 * ```ts
 * formatIssuePath(['card_details', 'expiry_month']); // 'card_details.expiry_month'
 * formatIssuePath(['products', 0, 'quantity']); // 'products[0].quantity'
 * ```
 */
export function formatIssuePath(path: IssuePath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (!/^[A-Za-z_$][\w$]*$/.test(segment)) out += `[${JSON.stringify(segment)}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out === '' ? '(root)' : out;
}

/**
 * Issues as one line, the way every error message of the SDK lists them:
 * `products[0].quantity: expected an integer ≥ 1; email: required (expected string)`.
 * Internal: the entries do not re-export it.
 */
export const formatIssues = (issues: readonly ValidationIssue[]): string =>
  issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`).join('; ');

/** The mark of the SDK's errors, the same in every copy of the package (`Symbol.for`). */
const BRAND = Symbol.for('hosted-payments.PaymentsError');

/**
 * Base class of every error the SDK throws. `instanceof PaymentsError` or, across two loaded
 * copies of the package (ESM and CJS in one process), {@link isPaymentsError}.
 *
 * @example
 * ```ts
 * try {
 *   await client.initiateCardPayment(input);
 * } catch (error) {
 *   if (isPaymentsError(error)) console.error(error.name, error.message);
 *   else throw error;
 * }
 * ```
 */
export class PaymentsError extends Error {
  override readonly name: string = 'PaymentsError';

  // Marks the prototype in every loaded copy of the package (an ESM and a CJS copy in one process
  // have a class each): what isPaymentsError reads. Not an own property, so no log shows it.
  static {
    Object.defineProperty(this.prototype, BRAND, { value: true });
  }

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }

  /**
   * A plain, secret-free view of the error for logs (`JSON.stringify(error)` uses it): its name,
   * message and own fields, never its `cause` (which may hold the request).
   */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, ...(this as object) };
  }
}

/**
 * The input (or an initiation response, or a payload) broke a rule of the API (a field's type, format or range).
 * Lists every issue, each with its path. Nothing was sent.
 *
 * @example
 * ```ts
 * try {
 *   buildPayoutRequest(input);
 * } catch (error) {
 *   if (error instanceof ValidationError) {
 *     for (const issue of error.issues) console.log(formatIssuePath(issue.path), issue.message);
 *   }
 * }
 * ```
 */
export class ValidationError extends PaymentsError {
  override readonly name = 'ValidationError' as const;
  /** Every problem found, each with its path. Never empty. */
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], options?: { cause?: unknown; prefix?: string }) {
    const list = issues.length > 0 ? issues : [{ path: [], message: 'invalid input', code: 'invalid' }];
    super(`${options?.prefix ?? 'Invalid input'}: ${formatIssues(list)}`, { cause: options?.cause });
    this.issues = Object.freeze(
      list.map((issue) => Object.freeze({ ...issue, path: Object.freeze([...issue.path]) })),
    );
  }
}

/**
 * A status the SDK takes for a refusal the service did not act on, unless its body or a retry says
 * otherwise: a 4xx other than 409 (the reference in use, under which a payment may be under way).
 */
export const isRefusalStatus = (status: number): boolean => status >= 400 && status < 500 && status !== 409;

/**
 * The service answered with a non-2xx status, or a 2xx whose body was not the documented
 * shape (not labelled `application/json`, over 1 MiB, invalid JSON, wrong fields). Carries the status, the raw body text and the headers.
 * A 5xx, a 409, a 2xx of the wrong shape or a 4xx whose body says it was initiated (`issues` not
 * empty) and any answer after a retry (`onlyAttempt` false) may follow a payment the service
 * started (`mayHaveStarted`): keep the order pending until its callback.
 *
 * @example
 * ```ts
 * try {
 *   await client.initiateCardPayment(cardInput);
 * } catch (error) {
 *   const { transaction_reference } = cardInput.callback_details;
 *   if (error instanceof ApiError && error.mayHaveStarted) markPending(transaction_reference);
 * }
 * ```
 */
export class ApiError extends PaymentsError {
  override readonly name = 'ApiError' as const;
  /** HTTP status of the response. */
  readonly status: number;
  /** The raw response body text (its first MiB at most, up to a secret the cut splits); the request's card number, cvc, credential header values (`authorization`, `x-api-key`, …) and signed callback URLs' `hp_sig` redacted if echoed. */
  readonly body: string;
  /** The response headers, lower-cased names; the request's secrets redacted if echoed, and a credential header such as `set-cookie` shown as `[redacted]`. */
  readonly headers: Readonly<Record<string, string>>;
  /** Issues found when the body was a 2xx of the wrong shape, or a non-2xx whose body says the request was initiated (`contradictory_reply`); otherwise empty. */
  readonly issues: readonly ValidationIssue[];
  /**
   * Whether this answers the call's only request that may have reached the service. `false` after
   * a retry that followed one that may have (a 500, a 503), or through your own `fetch` option
   * (it may retry by itself): an earlier request may then have started the payment, whatever
   * `status` says. Default `false`.
   */
  readonly onlyAttempt: boolean;
  /**
   * Whether the service may have started the payment (or payout): `false` only for a refusal it
   * certainly did not act on, a 4xx other than 409 answering the call's only request (`onlyAttempt`)
   * whose body does not say it was initiated (`issues` empty). A 5xx, a 409, a 3xx, a 2xx of the
   * wrong shape, an answer after a retry and a 4xx whose body is the initiation reply are `true`:
   * keep the order pending until its callback.
   */
  readonly mayHaveStarted: boolean;

  constructor(
    message: string,
    init: {
      status: number;
      body: string;
      headers?: Record<string, string> | undefined;
      issues?: readonly ValidationIssue[] | undefined;
      onlyAttempt?: boolean | undefined;
      cause?: unknown;
    },
  ) {
    super(message, { cause: init.cause });
    this.status = init.status;
    this.body = init.body;
    this.headers = Object.freeze({ ...init.headers });
    this.issues = Object.freeze([...(init.issues ?? [])]);
    this.onlyAttempt = init.onlyAttempt ?? false;
    this.mayHaveStarted = !(this.onlyAttempt && isRefusalStatus(init.status) && this.issues.length === 0);
  }
}

/**
 * The request never got an HTTP response: connection refused, reset, DNS failure, TLS failure,
 * or aborted by the caller's `signal`. The message names the root system code and address
 * (`ECONNREFUSED 127.0.0.1:4010`), never the platform's own text; `cause` keeps the platform's
 * error (for an abort, the signal's reason) as plain errors, the call's secrets taken out. `sent` says whether the service may have received it: `false` when no request of the
 * call left this process (the built-in fetch's connection was refused, the name did not resolve,
 * fetch refused the port, or the signal aborted it before sending), so it may be sent again (a
 * payout tracked by the client's `transactions` option: under a new `reference_id`); `true`
 * otherwise (a reset after sending; any failure of a custom `fetch`, which may retry on its own,
 * and of a `globalThis.fetch` other than the one there when the SDK loaded — a wrapper installed
 * since, msw's interceptor): treat the payment as pending and wait for its callback.
 *
 * @example
 * ```ts
 * try {
 *   await client.initiateCardPayment(cardInput);
 * } catch (error) {
 *   if (error instanceof ConnectionError && error.sent) markPending(cardInput.callback_details.transaction_reference); // the callback may still come
 * }
 * ```
 */
export class ConnectionError extends PaymentsError {
  override readonly name = 'ConnectionError' as const;
  /** True when the caller's own `AbortSignal` ended the request. */
  readonly aborted: boolean;
  /** False when no request of the call left this process: nothing can have reached the service. */
  readonly sent: boolean;

  constructor(message: string, options?: { cause?: unknown; aborted?: boolean; sent?: boolean }) {
    super(message, { cause: options?.cause });
    this.aborted = options?.aborted ?? false;
    this.sent = options?.sent ?? true;
  }
}

/**
 * The request did not complete within its `timeout` (one attempt, body included) or its
 * `totalTimeout` (the whole call); `timeout` says which number of ms elapsed. `sent` is `true`
 * when the service may still have received it (treat the payment as pending and wait for its
 * callback), `false` when the deadline passed before any request of the call was sent (in a slow
 * `headers` function or `beforeRequest` hook, or while the transaction store recorded it).
 *
 * @example
 * ```ts
 * try {
 *   await client.initiatePayout(payoutInput);
 * } catch (error) {
 *   if (error instanceof TimeoutError) console.warn(`gave up after ${error.timeout} ms`);
 * }
 * ```
 */
export class TimeoutError extends PaymentsError {
  override readonly name = 'TimeoutError' as const;
  /** The timeout that elapsed, in milliseconds. */
  readonly timeout: number;
  /** False when no request of the call left this process: nothing can have reached the service. */
  readonly sent: boolean;

  /** @param message - what timed out; default `Request timed out after <timeout> ms`. */
  constructor(timeout: number, options?: { cause?: unknown; message?: string | undefined; sent?: boolean }) {
    super(options?.message ?? `Request timed out after ${timeout} ms`, options);
    this.timeout = timeout;
    this.sent = options?.sent ?? true;
  }
}

/**
 * Every {@link CallbackParseReason}, for metrics and exhaustive checks.
 *
 * @example
 * ```ts
 * for (const reason of callbackParseReasons) metrics.register(`webhook_refused_${reason}`);
 * ```
 */
export const callbackParseReasons = [
  'invalid_json',
  'not_an_object',
  'unknown_callback',
  'invalid_payload',
  'invalid_amount',
  'contradictory_outcome',
  'unrecognised_status',
  'missing_status',
  'reference_mismatch',
] as const;

/**
 * Why a callback body was refused; stable strings a merchant can switch on.
 *
 * - `invalid_json`: not JSON text (or not UTF-8), or JSON text that writes a key twice in one object.
 * - `not_an_object`: JSON, but not an object (or an object that cannot be read).
 * - `unknown_callback`: none of the documented callbacks has this shape.
 * - `invalid_payload`: a documented key is missing or has the wrong type.
 * - `invalid_amount`: an amount is not a plain decimal number (`1500`, `1500.50`).
 * - `contradictory_outcome`: the outcome signals disagree (e.g. `paid: 'True'` with
 *   `Payment incomplete.`), or the one documented contradiction under `onContradiction: 'reject'`.
 * - `unrecognised_status`: an outcome signal has a value the SDK does not know.
 * - `missing_status`: an outcome signal the callback documents is absent.
 * - `reference_mismatch`: the payload's reference is not the one signed into the callback URL.
 *
 * The last four mean the outcome could not be decided: the webhook handler answers 422 for the
 * first three (the order stays pending and the sender retries) and 409 for the last.
 *
 * @example
 * ```ts
 * if (error instanceof CallbackParseError && error.reason === 'contradictory_outcome') alertOps(error.message);
 * ```
 */
export type CallbackParseReason = (typeof callbackParseReasons)[number];

/**
 * A callback body was refused: not JSON, not an object, none of the documented payloads, or
 * its outcome could not be decided (see {@link CallbackParseReason}). The message names the
 * fields and, for an outcome, the status words that disagree — never amounts or other payload
 * content.
 *
 * @example
 * ```ts
 * try {
 *   parseCallback(body);
 * } catch (error) {
 *   if (error instanceof CallbackParseError) console.warn(error.reason, error.closestVariant, error.issues);
 * }
 * ```
 */
export class CallbackParseError extends PaymentsError {
  override readonly name = 'CallbackParseError' as const;
  /** Why the body was refused. */
  readonly reason: CallbackParseReason;
  /** The callback variant the body came closest to, when there is one. */
  readonly closestVariant: string | undefined;
  /** What was missing or wrong, each with its key path. */
  readonly issues: readonly ValidationIssue[];

  constructor(
    message: string,
    init?: {
      /** Default `'invalid_payload'`. */
      reason?: CallbackParseReason | undefined;
      closestVariant?: string | undefined;
      issues?: readonly ValidationIssue[] | undefined;
      cause?: unknown;
    },
  ) {
    super(message, { cause: init?.cause });
    this.reason = init?.reason ?? 'invalid_payload';
    this.closestVariant = init?.closestVariant;
    this.issues = Object.freeze([...(init?.issues ?? [])]);
  }
}

/**
 * Why a callback URL failed verification: `invalid_url`, `missing_reference`, `missing_signature`
 * and `bad_signature` are about the URL; `no_secret` (none set) and `weak_secret` (one shorter
 * than 16 characters) about the verifier's own configuration.
 *
 * @example
 * ```ts
 * if (error instanceof CallbackVerificationError && error.reason === 'bad_signature') log.warn('forged callback?');
 * ```
 */
export type CallbackVerificationReason =
  'missing_signature' | 'missing_reference' | 'bad_signature' | 'invalid_url' | 'no_secret' | 'weak_secret';

/**
 * A callback URL's signature was missing or wrong (see `verifyCallbackUrl`).
 *
 * @example
 * ```ts
 * export async function POST(request: Request): Promise<Response> {
 *   let reference: string;
 *   try {
 *     ({ reference } = await verifyCallbackUrl(request.url, { secret }));
 *   } catch (error) {
 *     // 401 (not retried) only for the request's faults; no_secret / weak_secret are the deploy's
 *     // configuration: rethrown, a 500 the sender retries.
 *     const requestFaults = ['invalid_url', 'missing_reference', 'missing_signature', 'bad_signature'];
 *     if (error instanceof CallbackVerificationError && requestFaults.includes(error.reason)) {
 *       return new Response(null, { status: 401 });
 *     }
 *     throw error;
 *   }
 *   await settle(reference, parseCallback(await request.text())); // by event.paid, once per callbackDedupeKey
 *   return new Response(null, { status: 200 });
 * }
 * ```
 */
export class CallbackVerificationError extends PaymentsError {
  override readonly name = 'CallbackVerificationError' as const;
  /** Machine-readable reason. */
  readonly reason: CallbackVerificationReason;

  constructor(reason: CallbackVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Names of every error class, for {@link isPaymentsError}.
 *
 * @example
 * ```ts
 * for (const name of paymentsErrorNames) metrics.register(`payments_error_${name}`);
 * ```
 */
export const paymentsErrorNames = [
  'PaymentsError',
  'ValidationError',
  'ApiError',
  'ConnectionError',
  'TimeoutError',
  'CallbackParseError',
  'CallbackVerificationError',
  'UnknownTransactionError',
  'TransactionConflictError',
  'TransactionTimeoutError',
  'TransactionStoreFullError',
  'TransactionStoreError',
] as const;

/**
 * The name of one of the SDK's error classes.
 *
 * @example
 * ```ts
 * const name: PaymentsErrorName = 'TimeoutError';
 * if (isPaymentsError(error, name)) retryLater();
 * ```
 */
export type PaymentsErrorName = (typeof paymentsErrorNames)[number];

/**
 * True for an error thrown by this SDK, even when it comes from another loaded copy of the
 * package (an ESM and a CJS copy in one process), where `instanceof` would say false; never for
 * another library's error of the same name (a driver's `ConnectionError`, mongoose's
 * `ValidationError`, `AbortSignal.timeout()`'s `TimeoutError`).
 *
 * @example
 * ```ts
 * if (isPaymentsError(error, 'ApiError')) console.log(error.status);
 * ```
 */
export function isPaymentsError(error: unknown): error is PaymentsError;
export function isPaymentsError<N extends PaymentsErrorName>(
  error: unknown,
  name: N,
): error is ErrorByName[N];
export function isPaymentsError(error: unknown, name?: PaymentsErrorName): boolean {
  return error instanceof Error && BRAND in error && (name === undefined || error.name === name);
}

/**
 * Maps each error name to its class instance type.
 *
 * @example
 * ```ts
 * const timeout: ErrorByName['TimeoutError'] = new TimeoutError(30_000);
 * ```
 */
export interface ErrorByName {
  PaymentsError: PaymentsError;
  ValidationError: ValidationError;
  ApiError: ApiError;
  ConnectionError: ConnectionError;
  TimeoutError: TimeoutError;
  CallbackParseError: CallbackParseError;
  CallbackVerificationError: CallbackVerificationError;
  UnknownTransactionError: UnknownTransactionError;
  TransactionConflictError: TransactionConflictError;
  TransactionTimeoutError: TransactionTimeoutError;
  TransactionStoreFullError: TransactionStoreFullError;
  TransactionStoreError: TransactionStoreError;
}
