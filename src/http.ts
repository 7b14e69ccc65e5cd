// The transport: every call goes through the client's one ky instance (prefixUrl, per-attempt
// timeout, opted-in retries with Retry-After, hooks), then the body is read within the attempt's
// timeout, and one function turns what happened into a typed response or a typed error.
// ky is imported on the first call, not with the module: its own import probes the Fetch API at
// its top level, which in Node loads the whole fetch implementation (tens of ms of cold start a
// process that only builds a client, or only handles webhooks, would pay for nothing).
import type * as KyModuleNamespace from 'ky';
import type { KyInstance } from 'ky';
import * as z from 'zod/v4/mini';
import {
  ApiError,
  ConnectionError,
  formatIssues,
  isRefusalStatus,
  TimeoutError,
  ValidationError,
  type IssuePath,
  type ValidationIssue,
} from './errors.js';
import { invalidOption, safeParse, toValidationIssues } from './internal/issues.js';
import { raced } from './internal/promise.js';
import { MAX_TIMER_MS, monotonicNow } from './internal/timers.js';
import {
  errorCodeOf,
  numberLiteralsOf,
  parsedOrText,
  repeatsAKey,
  stringifyWireBody,
} from './internal/json.js';
import { numberLiteralProblem } from './callbacks/amount.js';
import { failingReplyKey, wentThroughKey } from './callbacks/verdict.js';
import { rootCause } from './internal/root-cause.js';
import { isPlainObject } from './internal/values.js';
import {
  cardSecretsOf,
  credentialValuesOf,
  isInstance,
  plainCause,
  redactHeaders,
  redactText,
  redactWireBody,
  signaturesOf,
  withoutSplitSecret,
  type Secrets,
} from './internal/redact.js';

/**
 * The four client operations, as named in hook events and error messages.
 *
 * @example
 * ```ts
 * const op: Operation = 'initiatePayout';
 * ```
 */
export type Operation =
  'initiateCardPayment' | 'initiateMobileMoneyPayment' | 'createCheckoutSession' | 'initiatePayout';

/**
 * What a `beforeRequest` hook receives. Card number, cvc, the values of credential headers
 * (`authorization`, `proxy-authorization`, `x-api-key`, `api-key`, `cookie`, `x-auth-token`,
 * `x-access-token`, and any whose name holds `auth`, `token`, `key`, `secret`, `pass`,
 * `session`, `cookie`, `cred`, `sig`, `hmac` or `jwt`) and the `hp_sig` of a signed callback URL are
 * redacted.
 *
 * @example
 * ```ts
 * const hooks: ClientHooks = { beforeRequest: (event: RequestLogEvent) => log.info(event.operation, event.body) };
 * ```
 */
export interface RequestLogEvent {
  readonly operation: Operation;
  readonly method: 'POST';
  readonly url: string;
  /** Request headers, lower-cased names; a credential header shows at most its auth scheme (`Bearer [redacted]`). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The wire body with `card_number` as `'**** 4242'`, `cvc` as `'[redacted]'` and a signed
   * callback URL as `…?hp_ref=ORDER-1&hp_sig=[redacted]`; the card number and cvc are also
   * redacted from every other text field they were typed into (an amount equal to the cvc is kept).
   */
  readonly body: unknown;
  /**
   * Which attempt of the call: 1, then 2, 3… for each opted-in retry. Every attempt may reach the
   * service (and charge), so `beforeRequest` fires for each one.
   */
  readonly attempt: number;
}

/**
 * What an `afterResponse` hook receives. The request's card number, cvc, credential header values
 * and callback URLs' `hp_sig` are redacted from the response's headers and body text.
 *
 * @example
 * ```ts
 * const hooks: ClientHooks = {
 *   afterResponse: (event: ResponseLogEvent) => log.info(event.operation, event.status, `${event.durationMs} ms`),
 * };
 * ```
 */
export interface ResponseLogEvent extends RequestLogEvent {
  readonly status: number;
  /**
   * Response headers, lower-cased names, the request's secrets redacted if echoed; a credential
   * header (`set-cookie`, `www-authenticate`, any name holding `auth`, `token`, `key`, …) shows
   * `[redacted]`.
   */
  readonly responseHeaders: Readonly<Record<string, string>>;
  /**
   * The raw response body text (its first MiB at most), the request's secrets redacted if echoed
   * (one the cut at 1 MiB splits is left out whole).
   */
  readonly responseBody: string;
  /** Milliseconds from sending to the whole body read. */
  readonly durationMs: number;
}

/**
 * Logging hooks. A `beforeRequest` hook that throws before anything was sent fails the call with
 * its own error; one that throws before a retry, or an `afterResponse` hook that throws, fails it
 * with a `ConnectionError` whose `sent` is true (a request was sent) and whose `cause` is the
 * hook's error (from `afterResponse`, as plain errors with the call's secrets taken out).
 *
 * @example
 * ```ts
 * const client = new PaymentsClient({
 *   baseUrl: 'https://payments.example.com',
 *   hooks: { afterResponse: (event) => console.log(event.operation, event.status) },
 * });
 * ```
 */
export interface ClientHooks {
  /** Called before each attempt is sent (after validation): once per call, more with `retry`. */
  beforeRequest?: ((event: RequestLogEvent) => void | Promise<void>) | undefined;
  /** Called once per call with the final response (after any opted-in retries), and its `attempt`. */
  afterResponse?: ((event: ResponseLogEvent) => void | Promise<void>) | undefined;
}

/**
 * Opt-in retries (of payments and checkout sessions: a payout is never retried). Initiations are
 * not idempotent: a retried POST may charge twice. A failure to get a response is retried only when
 * the request provably never left this process (the built-in fetch's refused connection, unresolved
 * name or connect timeout, whose `ConnectionError.sent` is false), or, with `retryOnTimeout`, when it
 * timed out; a reset or any other failure after sending, and any failure of a custom `fetch`, is not.
 *
 * @example
 * ```ts
 * // Double-charge risk: retry only where the provider de-duplicates on its side.
 * const client = new PaymentsClient({ baseUrl, retry: { limit: 2, statusCodes: [503], maxRetryAfter: 5_000 } });
 * ```
 */
export interface RetryOptions {
  /** How many times to retry after the first attempt. */
  limit: number;
  /**
   * Statuses that are retried: error statuses, 400–599 (a redirect is never retried). Default
   * `[408, 429, 500, 502, 503, 504]`.
   */
  statusCodes?: number[] | undefined;
  /** Also retry after a timeout. Default `false`. */
  retryOnTimeout?: boolean | undefined;
  /**
   * Longest wait a 413, 429 or 503 asks for (`Retry-After`, or without it `RateLimit-Reset` and its
   * kin) honoured, in ms; a longer one, or one that cannot be read, ends the retries. Default: the timeout.
   */
  maxRetryAfter?: number | undefined;
  /** Upper bound of the exponential backoff (300 ms, 600 ms, …) in ms. Default: none. */
  backoffLimit?: number | undefined;
}

/**
 * Headers as an object, or a (possibly async) function called once per call, before its first
 * request; the call's retries send the same headers. The call's `totalTimeout` and `signal` count
 * the function's time: when either ends the call first, nothing is sent.
 *
 * @example
 * ```ts
 * const client = new PaymentsClient({ baseUrl, headers: async () => ({ 'x-request-id': crypto.randomUUID() }) });
 * ```
 */
export type HeadersOption = HeaderFields | (() => HeaderFields | Promise<HeaderFields>);

/**
 * Headers as `new Headers()` takes them: an object of names and values, an array of [name, value]
 * pairs, or a Headers. Named through `Headers`, which both the DOM lib and @types/node declare
 * (`HeadersInit` is the DOM lib's alone).
 */
export type HeaderFields = NonNullable<ConstructorParameters<typeof Headers>[0]>;

/**
 * Per-call options of every client method. An unknown key is a `ValidationError` naming it.
 *
 * @example
 * ```ts
 * await client.initiatePayout(input, { signal: AbortSignal.timeout(5_000), headers: { 'x-request-id': 'abc' } });
 * ```
 */
export interface RequestOptions {
  /**
   * Aborts the call, its headers function and hooks, retries and waits included; it then rejects
   * with a `ConnectionError` whose `aborted` is true and whose `cause` is the signal's reason as plain errors (name, message,
   * stack, `code`; the call's secrets taken out). A signal already aborted when the request would go out sends nothing.
   */
  signal?: AbortSignal | undefined;
  /** Timeout of each attempt of this call in ms (sending to the last body byte), replacing the client's. */
  timeout?: number | undefined;
  /**
   * Deadline of this whole call in ms (the headers function, the hooks before sending, every attempt,
   * the waits between them, the body), replacing the client's.
   */
  totalTimeout?: number | undefined;
  /** Headers of this call, merged over the client's. */
  headers?: HeaderFields | undefined;
}

/** The resolved transport settings of a client. */
export interface HttpConfig {
  /** Absolute http(s) URL ending in `/`. */
  baseUrl: string;
  apiKey?: string | undefined;
  headers?: HeadersOption | undefined;
  timeout: number;
  totalTimeout?: number | undefined;
  retry?: RetryOptions | number | undefined;
  fetch?: ((input: Request, init?: RequestInit) => Promise<Response>) | undefined;
  hooks?: ClientHooks | undefined;
}

/** One call, as the client describes it: what to send, where, and how to read the answer. */
export interface Outgoing<S extends z.core.$ZodType> {
  readonly operation: Operation;
  /** A path of `endpointPaths`, relative to the base URL. */
  readonly path: string;
  /** The builder's wire body (a card payment's card fields already encoded as the client's option says). */
  readonly body: object;
  readonly schema: S;
  /** What the response must hold that its schema cannot say (a checkout's `order_id` echoes the one sent). */
  readonly check?: ((data: z.output<S>) => readonly ValidationIssue[]) | undefined;
  /** Sent at most once, whatever the client's `retry` (a payout: one transfer per reference). */
  readonly once?: boolean | undefined;
}

const tokenName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const fieldValue = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The shape of headers the transport reads: a record, an array of [name, value] pairs, or another
 * iterable of pairs such as a Headers. The client's `headers` option, per-call `headers` and what a
 * headers function returns are all checked with it; names and values are checked for the wire.
 */
export const isHeadersInit = (value: unknown): value is HeaderFields =>
  typeof value === 'object' &&
  value !== null &&
  (!Array.isArray(value) || value.every((pair) => Array.isArray(pair) && pair.length === 2));

/** What {@link isHeadersInit} expects, as option messages say it. */
export const expectedHeaders =
  'expected headers as an object of names and values, an array of [name, value] pairs or a Headers';

/** Lower-cased header names; a name or value that HTTP cannot carry is refused, never echoed. */
function headerRecord(init: HeaderFields | undefined, source: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (init === undefined) return out;
  // A Headers object and an array of pairs iterate as [name, value]; a record does not iterate.
  // (No `instanceof Headers`: in Node that global alone loads the whole fetch implementation.)
  const entries: Iterable<[string, string]> =
    Symbol.iterator in init ? (init as Iterable<[string, string]>) : Object.entries(init);
  const issues: ValidationIssue[] = [];
  for (const [name, value] of entries) {
    if (typeof name !== 'string' || !tokenName.test(name)) {
      issues.push({
        path: [source],
        code: 'invalid_header',
        message: 'a header name is not a valid HTTP token',
      });
    } else if (typeof value !== 'string' || !fieldValue.test(value)) {
      issues.push({
        path: [source, name.toLowerCase()],
        code: 'invalid_header',
        message: 'expected a header value HTTP can carry (no CR, LF, NUL or character above U+00FF)',
      });
    } else out[name.toLowerCase()] = value;
  }
  if (issues.length > 0) throw new ValidationError(issues, { prefix: 'Invalid request headers' });
  return out;
}

const headersOf = (response: Response): Record<string, string> => {
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => (out[name] = value));
  return out;
};

/**
 * Marks an error that reaches the caller as it is and is never retried: a merchant's hook's,
 * `beforeSend`'s, or the aborted call's own.
 */
class PassThrough extends Error {
  constructor(readonly error: unknown) {
    super('an error passed through to the caller');
  }
}

/** Runs a hook; what it throws is passed through to the caller. */
async function passThrough(hook: () => unknown): Promise<void> {
  try {
    await hook();
  } catch (error) {
    throw new PassThrough(error);
  }
}

/**
 * Awaited just before each attempt of a call, with its retry count (`0` for the first) and when the
 * call's deadline passes (`deadlineAt`, `Infinity` without one), and what the call redacts from
 * what it shows (`secrets`: the card number and cvc, the credential headers' values, `hp_sig`).
 */
export type BeforeSend = (retryCount: number, deadlineAt: number, secrets: Secrets) => Promise<void>;

/** What the instance's ky hooks need of the call in flight (passed as ky's `context`). */
interface CallState {
  readonly operation: Operation;
  readonly url: string;
  /** Of the client's own headers until the call has all of its headers ({@link secretsOf}). */
  secrets: Secrets;
  readonly timeout: number;
  /** The caller's signal. */
  readonly signal: AbortSignal | undefined;
  /** The whole-call deadline and its controller, when there is one. */
  readonly totalTimeout: number | undefined;
  readonly deadline: AbortController | undefined;
  /**
   * When the deadline passes, on `monotonicNow`'s clock (`Infinity` without one): the deadline's
   * timer, the check before each attempt and a tracked call's wait for its store all count to it.
   */
  readonly deadlineAt: number;
  /** The hooks' event without its attempt number, once the call has its headers. */
  logEvent: Omit<RequestLogEvent, 'attempt'> | undefined;
  readonly beforeSend: BeforeSend | undefined;
  /** Never retried (`Outgoing.once`). */
  readonly once: boolean;
  attemptStarted: number;
  /** The attempt being sent or answered: 1, then 2… for each retry. */
  attempt: number;
  /** Whether a finished attempt may have reached the service (see {@link neverConnected}). */
  sent: boolean;
  /** Attempts whose fetch has not settled: each may have reached the service. */
  inFlight: number;
  /**
   * Whether an answer may follow another request of the call that reached the service: a retry
   * after one that may have, or the `fetch` option's (it may retry by itself). A replaced global
   * fetch is not counted, as the tracked call does not count it.
   */
  resent: boolean;
}

/** Whether a request of the call may have reached the service: one did, or one is still out. */
const maybeSent = (call: CallState): boolean => call.sent || call.inFlight > 0;

/** A 3xx: the SDK sends with `redirect: 'manual'` and follows none, so it arrives as an error. */
const isRedirect = (status: number): boolean => status >= 300 && status <= 399;

/**
 * `: <code>` for a JSON refusal whose `error` is a code (`duplicate_reference_id`: letters, `_`,
 * `.`, `-`, at most 64), else nothing: no free text and no digit of the body reaches the message
 * (a card number or cvc the service echoed could hide there); `error.body` holds the rest. `reply`
 * is the body parsed ({@link parsedOrText}).
 */
function refusalCode(reply: unknown): string {
  const code = errorCodeOf(reply);
  return code === undefined ? '' : `: ${code}`;
}

/**
 * Words of a reference in use (`duplicate`, `already exists`, `has been used`, `must be unique`,
 * `in progress`, `being processed`, `Transaction exists`): a payment or transfer under it may be
 * under way.
 */
const REFERENCE_IN_USE =
  /duplicat|already[\s_]+(?:exist|used|sent|processed|initiated|submitted)|in[\s_-]+(?:use|progress)|been[\s_]+used|(?:be|not)[\s_]+unique|unique(?:ness|[\s_]+constraint)|being[\s_]+processed|(?:reference|transaction|payment|payout|transfer|order|record|request)(?:[\s_]*id)?[\s_]+exists/i;

/**
 * What an error reply's body says of the request, where it says it went through as a 2xx reply
 * does ({@link wentThroughKey}: `status: 200`, `success: true`, `ResponseCode: '0'`, a `message`
 * saying `Initiated` or `accepted` with no other word reading otherwise; a body that is not JSON
 * read as such a message, at `[]`; a JSON array's items each read so), or that the reference is a
 * duplicate or in use, as a 409 does ({@link REFERENCE_IN_USE}, at `[]`). Undefined for any other
 * body. `reply` is `text` parsed ({@link parsedOrText}).
 */
function initiatedKey(text: string, reply: unknown): { path: IssuePath; says: string } | undefined {
  // The reference in use, as a 409 says it: a payment or transfer under it may be under way.
  if (REFERENCE_IN_USE.test(text)) return { path: [], says: 'the reference is in use' };
  const path = wentThroughPath(reply);
  return path && { path, says: 'the request was initiated' };
}

/** Where a reply says it went through: a text as a message would, an array's items as replies. */
function wentThroughPath(reply: unknown, inArray = false): IssuePath | undefined {
  if (typeof reply === 'string') return wentThroughKey({ message: reply }) && [];
  if (isPlainObject(reply)) return wentThroughKey(reply as object);
  if (inArray || !Array.isArray(reply)) return undefined;
  for (const [index, item] of reply.entries()) {
    const path = wentThroughPath(item, true);
    if (path) return [index, ...path];
  }
  return undefined;
}

/**
 * The one function that turns a response into an error: a non-2xx (`issues` empty, unless its
 * body says the request was initiated or its reference in use: {@link initiatedKey}), or a 2xx whose body is not JSON or
 * not the documented shape (`issues` say what is wrong). The body and
 * headers have the request's secrets redacted.
 */
function errorFromResponse(
  call: CallState,
  response: Response,
  body: Body,
  issues: readonly ValidationIssue[] = [],
): ApiError {
  const { text } = body;
  const where = `${call.operation} (POST ${call.url})`;
  const answered = `The service answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''} to ${where}`;
  // A 4xx but 409 (a refusal, were it not for its body) whose body says the request was initiated
  // or its reference is in use: the API reference documents no error replies.
  const refusal = isRefusalStatus(response.status) && !response.redirected;
  const reply = parsedOrText(text);
  const initiated = refusal ? initiatedKey(text, reply) : undefined;
  if (initiated !== undefined) {
    issues = [
      {
        path: initiated.path,
        message: `says ${initiated.says}, on an HTTP ${response.status}`,
        code: 'contradictory_reply',
      },
    ];
  }
  const message = response.redirected
    ? `${answered} after the fetch followed a redirect to ${response.url}, which the SDK never does: the request may have reached another server, and this is not the service's answer; check the fetch option`
    : initiated !== undefined
      ? `${answered} with a body that says ${initiated.says}: which it meant cannot be known, and the payment may have started; see error.body`
      : issues.length > 0
        ? `The service answered HTTP ${response.status} to ${where} with a body that is not the documented shape: ${formatIssues(issues)}`
        : isRedirect(response.status)
          ? `${answered}; the SDK does not follow redirects, so nothing was sent to its Location (error.headers.location): check baseUrl`
          : `${answered}${refusalCode(reply)}; see error.body`;
  // The status text is the server's: it may echo what was sent.
  return new ApiError(redactText(message, call.secrets), {
    status: response.status,
    body: shownText(body, call.secrets),
    headers: redactHeaders(headersOf(response), call.secrets),
    issues,
    onlyAttempt: !call.resent,
  });
}

/**
 * The one function that maps a failure to get a response to the error the caller sees (ky's
 * `HTTPError`, a non-2xx, is not one: the caller reads its response into an `ApiError`): ky's
 * `TimeoutError` and the body deadline become `TimeoutError`, the caller's abort and network
 * failures `ConnectionError`, and a hook's own error is rethrown as it is. No ky object (it holds
 * the request) is kept as a `cause`.
 */
function fromFailure(call: CallState, error: unknown, ky: KyModule): Error {
  if (isInstance(error, PassThrough)) {
    const passed = (error as PassThrough).error;
    return isInstance(passed, Error) ? (passed as Error) : new Error(String(passed));
  }
  const sent = maybeSent(call);
  const outcome = sent ? MAYBE_RECEIVED : 'nothing was sent';
  if (call.signal?.aborted) {
    const message = `${call.operation} was aborted by the caller's signal${sent ? ' once sent' : ''}; ${outcome}`;
    // The reason is the caller's own, and may quote what was being sent (a request-scoped
    // controller aborted with the failing request): kept as a custom fetch's error is.
    return new ConnectionError(message, {
      aborted: true,
      cause: plainCause(call.signal.reason, call.secrets),
      sent,
    });
  }
  const timedOut = (timeout: number, what: string) => {
    const message = `${call.operation} to ${new URL(call.url).origin} ${what} ${timeout} ms; ${outcome}`;
    return new TimeoutError(timeout, { message, cause: new DOMException(message, 'TimeoutError'), sent });
  };
  if (call.deadline?.signal.aborted && call.totalTimeout !== undefined) {
    return timedOut(call.totalTimeout, 'did not complete within');
  }
  if (isTimeout(error, ky)) return timedOut(call.timeout, 'timed out after');
  const url = new URL(call.url);
  const code = rootCause(error, url);
  if (fetchTimedOut(code)) {
    return timedOut(
      Math.max(monotonicNow() - call.attemptStarted, 0),
      `timed out in fetch itself (${code.split(' ')[0]}, before the client's ${call.timeout} ms) after`,
    );
  }
  // The address is the failure's own (a custom fetch's error may put anything there), so the
  // message is redacted as an ApiError's is.
  return new ConnectionError(
    redactText(
      `Could not get a response to ${call.operation} from ${url.origin} (${code}); ${outcome}`,
      call.secrets,
    ),
    {
      cause: plainCause(error, call.secrets),
      sent,
    },
  );
}

/**
 * ky's timeout, or the body deadline's; not a caller's value whose checks throw (a Proxy whose
 * traps throw), which is mapped as any other failure.
 */
function isTimeout(error: unknown, ky: KyModule): boolean {
  try {
    return (
      error instanceof ky.TimeoutError || (error instanceof DOMException && error.name === 'TimeoutError')
    );
  } catch {
    return false;
  }
}

/** How a failure's message ends when a request of the call may have gone out. */
const MAYBE_RECEIVED = 'the service may have received the request: keep it pending until its callback';

/**
 * A failure before any byte of the request left this process: the connection was refused, the
 * name did not resolve, the connection timed out, or fetch refused the port. Anything else (a
 * reset, a TLS failure, an unreachable host, which Linux also reports on a socket that had sent,
 * an abort mid-request) may follow a request the service received.
 */
const neverConnected = (error: unknown, url: URL): boolean =>
  /^(?:ECONNREFUSED|ENOTFOUND|EAI_AGAIN|UND_ERR_CONNECT_TIMEOUT)\b|^fetch refuses port/.test(
    rootCause(error, url),
  );

/**
 * The failures of attempts that provably never left this process ({@link neverConnected}, the
 * built-in fetch's), as `sendWith` saw them: the only network failures the `retry` option retries.
 */
const unsentFailures = new WeakSet<object>();

/**
 * fetch's own timeouts (undici's `headersTimeout` and `bodyTimeout`, 300 s by default, or a
 * dispatcher's shorter ones), given {@link rootCause}'s text: the request was sent and its answer
 * did not come in time — a timeout like the client's own, retried only with `retryOnTimeout`.
 */
const fetchTimedOut = (cause: string): boolean => /^UND_ERR_(?:HEADERS|BODY)_TIMEOUT\b/.test(cause);

/** A number of milliseconds a timer can take (z.number already refuses NaN and the infinities). */
export const milliseconds = z.number({ error: 'expected a number of milliseconds' }).check(
  z.refine((value) => value > 0 && value <= MAX_TIMER_MS, {
    ...invalidOption('expected a number of milliseconds above 0 (at most 2147483647)'),
    abort: true,
  }),
);

/** The per-call options, checked before anything is recorded or sent; an unknown key is refused. */
const requestOptionsSchema = z.optional(
  z.strictObject({
    signal: z.optional(
      z.custom<AbortSignal>(
        (value) => value instanceof AbortSignal,
        invalidOption('expected an AbortSignal'),
      ),
    ),
    timeout: z.optional(milliseconds),
    totalTimeout: z.optional(milliseconds),
    headers: z.optional(z.custom<HeaderFields>(isHeadersInit, invalidOption(expectedHeaders))),
  }),
);

const defaultStatusCodes = [408, 429, 500, 502, 503, 504];

/** The headers ky reads a wait from, in its order. */
const waitHeaders = [
  'retry-after',
  'ratelimit-reset',
  'x-ratelimit-retry-after',
  'x-ratelimit-reset',
  'x-rate-limit-reset',
];

/** An HTTP date in the one form RFC 9110 has senders write (IMF-fixdate). */
const imfFixdate =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/;

/**
 * The wait, in ms, that ky reads from the first of {@link waitHeaders} present, the way ky reads
 * it (seconds, a Unix time in seconds, or an HTTP date); `undefined` when none is present, `NaN`
 * when the value is none of these as written: digits (a fraction allowed), or an IMF-fixdate.
 * ky reads more (`-1`, `1,1`, `Jan 1` as a wait already over), which must not send the POST again.
 */
function retryAfterMs(headers: Headers): number | undefined {
  const value = waitHeaders.map((name) => headers.get(name)).find((found) => found !== null);
  if (!value) return undefined;
  if (imfFixdate.test(value)) return Date.parse(value) - Date.now();
  const seconds = /^\d+(?:\.\d+)?$/.test(value) ? Number(value) * 1_000 : NaN;
  return seconds >= Date.parse('2024-01-01') ? seconds - Date.now() : seconds;
}

const kyRetry = (
  retry: RetryOptions | number | undefined,
  timeout: number,
  { HTTPError, TimeoutError: KyTimeoutError }: KyModule,
) => {
  const options = typeof retry === 'number' ? { limit: retry } : retry;
  if (options === undefined || !(options.limit > 0)) return 0;
  const afterStatusCodes = [413, 429, 503];
  const maxRetryAfter = options.maxRetryAfter ?? timeout;
  const retryOnTimeout = options.retryOnTimeout ?? false;
  return {
    limit: options.limit,
    methods: ['post'],
    statusCodes: options.statusCodes ?? defaultStatusCodes,
    afterStatusCodes,
    retryOnTimeout,
    maxRetryAfter,
    ...(options.backoffLimit === undefined ? {} : { backoffLimit: options.backoffLimit }),
    // A hook's error is no reason to send the POST again, nor a wait longer than the merchant
    // allows (ky would shorten it: retrying sooner than the service asked), nor one that cannot be
    // read. A redirect is never retried: statusCodes holds error statuses only (400–599, checked
    // by the client). A failure to get a response is retried only when the request never went out
    // (a reset after sending may follow a request the service received: a retry could charge
    // twice), or, with retryOnTimeout, when it is a timeout.
    shouldRetry: ({ error }: { error: Error }) => {
      if (error instanceof PassThrough) return false;
      if (error instanceof HTTPError) {
        if (afterStatusCodes.includes(error.response.status)) {
          const wait = retryAfterMs(error.response.headers);
          if (wait !== undefined && !(wait <= maxRetryAfter)) return false;
        }
        return undefined;
      }
      // The client's timeout: ky retries it only with retryOnTimeout.
      if (error instanceof KyTimeoutError) return undefined;
      // fetch's own timeout: the service may be processing the request, as after the client's.
      if (fetchTimedOut(rootCause(error))) return retryOnTimeout ? undefined : false;
      return unsentFailures.has(error) ? undefined : false;
    },
  };
};

type KyModule = typeof KyModuleNamespace;

/** The client's ky instance and the module whose error classes it throws. */
interface Transport {
  readonly ky: KyModule;
  readonly instance: KyInstance;
}

/**
 * Why ky could not be loaded, for a call that therefore sent nothing. Jest runs each test file in a
 * vm context where Node refuses `import()` unless it runs with --experimental-vm-modules, and ky is
 * an ES module: a CommonJS project tested with Jest meets this on every call. A missing package is
 * the rare case.
 */
function kyLoadError(operation: Operation, error: unknown): ConnectionError {
  const code = String((error as { code?: unknown } | null)?.code);
  const why = code.startsWith('ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING')
    ? ': ky is an ES module, which Node imports into a vm context (Jest runs tests in one) only with --experimental-vm-modules; run NODE_OPTIONS=--experimental-vm-modules npx jest'
    : code.endsWith('MODULE_NOT_FOUND')
      ? ' (is it installed?)'
      : ` (${String(error)})`;
  return new ConnectionError(
    `${operation} could not load ky, the HTTP client the SDK sends with${why}; nothing was sent`,
    { cause: error, sent: false },
  );
}

/**
 * `work`, or the call's end, whichever comes first: the caller's signal or its deadline, each
 * listened to on its own. Not ky's `request.signal`: a `Request`'s signal follows the one it was
 * made with through a weak reference only, so a call waiting on it alone, its work never settling,
 * could be collected with it and never end.
 */
const untilEnded = <T>(call: CallState, work: Promise<T>): Promise<T> =>
  raced(raced(work, { signal: call.signal }), { signal: call.deadline?.signal });

/**
 * What a call redacts: the card number and cvc, the credential headers' values, and each signed
 * callback URL's hp_sig (whoever reads it can post a callback the handler accepts).
 */
const secretsOf = (body: object, wireText: string, headers: Record<string, string>): Secrets => ({
  ...cardSecretsOf(body),
  values: [...credentialValuesOf(headers), ...signaturesOf(wireText)],
});

/**
 * Sends wire bodies through the client's one ky instance, created on the first call; failures
 * mapped in {@link fromFailure}.
 */
export class Http {
  readonly #config: HttpConfig;
  readonly #staticHeaders: Record<string, string>;
  #transport: Promise<Transport> | undefined;

  constructor(config: HttpConfig) {
    this.#config = config;
    this.#staticHeaders = {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(config.apiKey === undefined ? {} : { authorization: `Bearer ${config.apiKey}` }),
      ...(typeof config.headers === 'function' ? {} : headerRecord(config.headers, 'headers')),
    };
  }

  /**
   * The client's one ky instance: concurrent first calls share one import. A failure is not
   * kept, so a later call tries again.
   */
  #load(operation: Operation): Promise<Transport> {
    this.#transport ??= import('ky').then((ky) => ({ ky, instance: this.#create(ky) }));
    return this.#transport.catch((error: unknown) => {
      this.#transport = undefined;
      throw kyLoadError(operation, error);
    });
  }

  #create(ky: KyModule): KyInstance {
    const config = this.#config;
    const hooks = config.hooks;
    return ky.default.create({
      prefixUrl: config.baseUrl,
      method: 'post',
      timeout: config.timeout,
      retry: kyRetry(config.retry, config.timeout, ky),
      hooks: {
        beforeRequest: [
          async (_request, options, { retryCount }) => {
            const call = options.context.call as CallState;
            const { logEvent, beforeSend } = call;
            call.attempt = retryCount + 1;
            if (maybeSent(call)) call.resent = true;
            // A call already aborted (or past its deadline) is not sent, not even to a custom fetch
            // that ignores signals, and beforeSend is not called. The deadline is read by time too:
            // it may have passed while beforeSend ran, its timer not run yet (a synchronous store,
            // a busy event loop).
            const stopIfEnded = (): void => {
              if (call.deadline && monotonicNow() >= call.deadlineAt) endCall(call.deadline);
              if (call.signal?.aborted || call.deadline?.signal.aborted) {
                throw new PassThrough(fromFailure(call, call.signal?.reason, ky));
              }
            };
            if (hooks?.beforeRequest && logEvent) {
              const { attempt } = call;
              // The call ends at its deadline or the caller's abort even while the hook runs: a hook
              // cannot be cancelled, so it is left running, and what it does after is ignored.
              // Ended, the call fails as stopIfEnded says.
              await untilEnded(
                call,
                passThrough(async () => {
                  try {
                    await hooks.beforeRequest?.({ ...logEvent, attempt });
                  } catch (error) {
                    // Before a retry whose earlier attempt went out: the call may have charged.
                    if (!maybeSent(call)) throw error;
                    throw new ConnectionError(
                      `${call.operation}: the beforeRequest hook threw before attempt ${attempt}; an earlier attempt was sent, and the service may have received it: keep it pending until its callback`,
                      { cause: plainCause(error, call.secrets) },
                    );
                  }
                }),
              ).catch((error: unknown) => {
                stopIfEnded();
                throw error;
              });
            }
            stopIfEnded();
            if (beforeSend) {
              await passThrough(() => beforeSend(retryCount, call.deadlineAt, call.secrets));
              stopIfEnded();
            }
            // Each attempt's timeout runs from here to its last body byte.
            call.attemptStarted = monotonicNow();
          },
        ],
      },
    });
  }

  /**
   * POSTs a wire body and returns the response validated by the schema. `beforeSend` is awaited
   * just before each attempt with its retry count: for the first (`0`), after everything that can
   * refuse the call without sending (options, loading ky, headers, the `beforeRequest` hook, an
   * aborted signal or a passed deadline). What it throws fails the call as it is, and that attempt
   * is not sent.
   */
  async post<S extends z.core.$ZodType>(
    outgoing: Outgoing<S>,
    options: RequestOptions = {},
    beforeSend?: BeforeSend,
  ): Promise<z.output<S>> {
    const checked = safeParse(requestOptionsSchema, options);
    if (!checked.success) {
      throw new ValidationError(toValidationIssues(checked.error.issues), {
        prefix: 'Invalid request options',
      });
    }
    const wireText = stringifyWireBody(outgoing.body);
    // The call, and its deadline, start here.
    const call = this.#callState(outgoing, wireText, options, beforeSend);
    const { response, started, ...body } = await this.#exchange(call, outgoing, wireText, options);
    const afterResponse = this.#config.hooks?.afterResponse;
    if (afterResponse && call.logEvent) {
      try {
        await afterResponse({
          ...call.logEvent,
          attempt: call.attempt,
          status: response.status,
          responseHeaders: redactHeaders(headersOf(response), call.secrets),
          responseBody: shownText(body, call.secrets),
          durationMs: monotonicNow() - started,
        });
      } catch (error) {
        // The service answered: the request was sent, and may have charged.
        throw new ConnectionError(
          `${call.operation}: the afterResponse hook threw after the service answered HTTP ${response.status}; the request was sent: keep it pending until its callback`,
          { cause: plainCause(error, call.secrets) },
        );
      }
    }
    const data = parseResponse(call, response, body, outgoing.schema);
    const issues = outgoing.check?.(data) ?? [];
    if (issues.length > 0) throw errorFromResponse(call, response, body, issues);
    return data;
  }

  /** The client's headers, then the dynamic ones, then the call's, each checked for the wire. */
  async #headersFor(options: RequestOptions): Promise<Record<string, string>> {
    let dynamic: Record<string, string> | undefined;
    if (typeof this.#config.headers === 'function') {
      const returned: unknown = await this.#config.headers();
      if (!isHeadersInit(returned)) {
        throw new ValidationError(
          [
            {
              path: ['headers'],
              code: 'invalid_option',
              message: `the headers function returned no headers: ${expectedHeaders}`,
            },
          ],
          { prefix: 'Invalid client options' },
        );
      }
      dynamic = headerRecord(returned, 'headers');
    }
    return { ...this.#staticHeaders, ...dynamic, ...headerRecord(options.headers, 'headers') };
  }

  /** What the call maps its failures with, and redacts before it has its headers. */
  #callState(
    outgoing: Outgoing<z.core.$ZodType>,
    wireText: string,
    options: RequestOptions,
    beforeSend: BeforeSend | undefined,
  ): CallState {
    const totalTimeout = options.totalTimeout ?? this.#config.totalTimeout;
    return {
      operation: outgoing.operation,
      url: `${this.#config.baseUrl}${outgoing.path}`,
      secrets: secretsOf(outgoing.body, wireText, this.#staticHeaders),
      timeout: options.timeout ?? this.#config.timeout,
      signal: options.signal,
      totalTimeout,
      deadline: totalTimeout === undefined ? undefined : new AbortController(),
      deadlineAt: monotonicNow() + (totalTimeout ?? Infinity),
      logEvent: undefined,
      beforeSend,
      once: outgoing.once === true,
      attemptStarted: monotonicNow(),
      attempt: 1,
      sent: false,
      inFlight: 0,
      resent: false,
    };
  }

  /**
   * Loads ky, gets the call's headers, sends through ky and reads the body before the attempt's
   * timeout, the whole-call deadline or the caller's abort, whichever comes first; `started` is
   * when it had the headers.
   */
  async #exchange(
    call: CallState,
    { operation, path, body: wireBody }: Outgoing<z.core.$ZodType>,
    wireText: string,
    options: RequestOptions,
  ): Promise<{ response: Response; started: number } & Body> {
    const { deadline } = call;
    const signal =
      deadline === undefined
        ? options.signal
        : options.signal === undefined
          ? deadline.signal
          : AbortSignal.any([options.signal, deadline.signal]);
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(() => endCall(deadline), Math.max(call.deadlineAt - monotonicNow(), 0));
    try {
      const { ky, instance } = await this.#load(operation);
      // The call ends at its deadline or the caller's abort even while the headers function runs,
      // nothing sent: it cannot be cancelled, so it is left running, and what it does after is ignored.
      const headers = await untilEnded(call, this.#headersFor(options)).catch((error: unknown) => {
        throw options.signal?.aborted || deadline?.signal.aborted ? fromFailure(call, error, ky) : error;
      });
      const secrets = (call.secrets = secretsOf(wireBody, wireText, headers));
      const hooks = this.#config.hooks;
      if (hooks?.beforeRequest || hooks?.afterResponse) {
        call.logEvent = {
          operation,
          method: 'POST',
          url: call.url,
          headers: redactHeaders(headers, secrets),
          body: redactWireBody(wireBody, secrets),
        };
      }
      const started = monotonicNow();
      let response: Response;
      try {
        response = await instance(path, {
          // ky calls its fetch with its Request only.
          fetch: sendWith(wireText, this.#config.fetch, call) as typeof fetch,
          headers,
          timeout: call.timeout,
          signal,
          throwHttpErrors: true,
          ...(call.once ? { retry: 0 } : {}),
          context: { call },
        });
      } catch (error) {
        if (!isInstance(error, ky.HTTPError)) throw fromFailure(call, error, ky);
        response = (error as InstanceType<KyModule['HTTPError']>).response;
      }
      try {
        return {
          response,
          started,
          ...(await readBody(response, call.attemptStarted + call.timeout, signal)),
        };
      } catch (error) {
        throw fromFailure(call, error, ky);
      }
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The global `fetch` when this module loaded: the runtime's own, unless something replaced it
 * before. Reading it loads nothing (Node's `fetch` loads its implementation on its first call).
 */
const loadedFetch: typeof fetch | undefined = globalThis.fetch;

/**
 * The `fetch` ky calls for one call's attempts: it sends ky's request (URL, method, headers, its
 * signal — ky's timeout and the caller's abort) with the call's body text. ky carries the call
 * without its body: a `Request` built from another `Request` (what ky hands to fetch) pipes its
 * body through a `TransformStream`, and ky clones it before every attempt (a tee), which on Node
 * together cost about as much as the whole bare `fetch`. A string body is sent as it is, and each
 * retry sends it again. A merchant's own `fetch` still gets a `Request`, the body in it. Neither
 * follows a redirect (`redirect: 'manual'`): a 3xx comes back as the response, and the body is
 * never sent to its `Location`.
 */
const sendWith =
  (body: string, custom: HttpConfig['fetch'], call: CallState) =>
  (request: Request, init?: RequestInit): Promise<Response> => {
    const options: RequestInit = {
      ...init,
      method: request.method,
      headers: request.headers,
      body,
      signal: request.signal,
      redirect: 'manual',
    };
    // Whether the service may have this attempt: an answer says it does, and so does any failure
    // but the built-in fetch's before connecting. A custom fetch is not taken at its word: a
    // wrapper that retries may have sent an attempt of its own before the one refused. Nor is a
    // global fetch other than the one there when this module loaded (an APM or retry wrapper put
    // in its place since, msw's interceptor). A failure known to have sent nothing joins
    // unsentFailures: the only ones the retry option retries.
    const globalFetch = globalThis.fetch;
    const builtIn = custom === undefined && globalFetch === loadedFetch;
    if (custom !== undefined) call.resent = true;
    return (async () => {
      call.inFlight++;
      try {
        const response = await untilAborted(
          custom === undefined
            ? globalFetch(request.url, options)
            : custom(new Request(request.url, options), init),
          request.signal,
        );
        call.sent = true;
        return response;
      } catch (error) {
        // An abort proves nothing about what went out, whatever its reason's code says (the
        // caller's own reason may be another call's refused connection).
        if (!builtIn || request.signal.aborted || !neverConnected(error, new URL(call.url))) call.sent = true;
        else if (typeof error === 'object' && error !== null) unsentFailures.add(error);
        throw error;
      } finally {
        call.inFlight--;
      }
    })();
  };

/** Aborts the call's deadline controller: its `totalTimeout` has passed. */
const endCall = (deadline: AbortController): void =>
  deadline.abort(new DOMException('the call deadline passed', 'TimeoutError'));

/**
 * The fetch's answer, or the signal's reason once it aborts (ky's timeout, the call's deadline, the
 * caller's abort): a custom or replaced `fetch` that ignores its signal does not hold the call, and
 * the body of a Response it answers after that is cancelled.
 */
const untilAborted = (answer: Response | PromiseLike<Response>, signal: AbortSignal): Promise<Response> => {
  // A custom fetch may answer a Response, or a thenable with no finally.
  const answered = Promise.resolve(answer);
  // What fetch itself rejects with on an abort: the signal's reason.
  return raced(answered, { signal }).catch((error: unknown) => {
    // The abort came first: a Response answered after it is never read, so its body is cancelled
    // (else its stream, and the socket under it, stay open).
    answered.then((late) => late.body?.cancel()).catch(() => undefined);
    throw error;
  });
};

/** `application/json` or a `+json` type, with no charset or UTF-8. */
const jsonType = /^application\/(?:[\w.-]+\+)?json *(?:; *charset="?utf-8"?)?$/i;

/**
 * A non-2xx, an answer a custom `fetch` got by following a redirect, a body not labelled or not
 * written as JSON, one that writes a key twice in one object, or one of the wrong shape is an
 * `ApiError`; else the data.
 */
/** The numbers of a reply that decide whether the call resolves. */
const DECIDING_NUMBERS = ['status', 'order_id'];

function parseResponse<S extends z.core.$ZodType>(
  call: CallState,
  response: Response,
  body: Body,
  schema: S,
): z.output<S> {
  const { text, cut } = body;
  if (!response.ok || response.redirected) throw errorFromResponse(call, response, body);
  if (cut) {
    throw errorFromResponse(call, response, body, [
      {
        path: [],
        code: 'body_too_large',
        message: `expected a body of at most ${maxReplyBytes} bytes; the rest was not read`,
      },
    ]);
  }
  // The service replies with a JSON body: a 2xx that does not say so (HTML, text, no type, two
  // types, another charset) is not its documented reply, whatever the text looks like.
  if (!jsonType.test(response.headers.get('content-type') ?? '')) {
    throw errorFromResponse(call, response, body, [
      {
        path: [],
        code: 'invalid_content_type',
        message: 'expected the content-type application/json (UTF-8), got another or none',
      },
    ]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // The SyntaxError quotes the body, so it is not kept as the cause.
    throw errorFromResponse(call, response, body, [
      { path: [], code: 'invalid_json', message: 'the body is not valid JSON' },
    ]);
  }
  // JSON.parse keeps the last value of a key written twice (`"status":500,…,"status":200`): which
  // one the service meant cannot be known, so such a body is not its documented reply either.
  if (typeof json === 'object' && json !== null && repeatsAKey(text, json)) {
    throw errorFromResponse(call, response, body, [
      {
        path: [],
        code: 'invalid_json',
        message:
          'the body repeats a key in one object: JSON.parse keeps the last of its values, so which one the service meant cannot be known',
      },
    ]);
  }
  // The reply's status and order_id decide whether the call resolves: each is read as the reply
  // wrote it (`199.99999999999999999` is not the 200 JSON.parse makes of it).
  const literals = typeof json === 'object' && json !== null ? numberLiteralsOf(text) : undefined;
  for (const key of DECIDING_NUMBERS) {
    const literal = literals?.get(key);
    const problem =
      literal === undefined
        ? undefined
        : numberLiteralProblem(literal, (json as Record<string, number>)[key]!);
    if (problem !== undefined) {
      throw errorFromResponse(call, response, body, [
        { path: [key], code: 'invalid_type', message: `expected a number as written, got ${problem}` },
      ]);
    }
  }
  const result = safeParse(schema, json);
  if (!result.success) {
    throw errorFromResponse(call, response, body, toValidationIssues(result.error.issues));
  }
  // Documented fields saying "initiated" beside a key saying the request failed: which one the
  // service meant cannot be known.
  const failing = failingReplyKey(result.data as object, (schema as { shape?: object }).shape ?? {});
  if (failing !== undefined) {
    throw errorFromResponse(call, response, body, [
      {
        path: failing,
        code: 'contradictory_reply',
        message: 'the reply says the request failed, where its documented fields say it was initiated',
      },
    ]);
  }
  return withoutEchoedSecrets(result.data, schema, call.secrets);
}

/**
 * The reply with the request's secrets (card number, cvc, credentials, `hp_sig`) redacted from the
 * keys its schema does not describe, names and values: a service or proxy that echoes the request
 * there must not put them into a merchant's logs. The described keys are checked to exact forms and
 * kept as sent (a cvc of 200 is not the status 200); a reply without other keys is returned as it is.
 */
function withoutEchoedSecrets<T>(data: T, schema: unknown, secrets: Secrets): T {
  const shape = (schema as { shape?: object }).shape;
  if (shape === undefined || typeof data !== 'object' || data === null) return data;
  // zod 4.1 assigns an extra key named __proto__, which replaces the object's prototype with the
  // echoed value: its own keys are kept, the prototype dropped (as later zod drops that key).
  if (Object.getPrototypeOf(data) !== Object.prototype)
    return withoutEchoedSecrets({ ...data }, schema, secrets);
  // A prototype-less object: an extra key named __proto__ is a key like any other.
  const described: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const extra: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(data))
    (Object.hasOwn(shape, key) ? described : extra)[key] = value;
  if (Object.keys(extra).length === 0) return data;
  let redacted: unknown;
  try {
    redacted = JSON.parse(redactText(JSON.stringify(extra), secrets));
  } catch {
    redacted = { redacted: '[redacted]' };
  }
  return { ...described, ...(redacted as object) } as T;
}

/** The most of a reply's body that is read and kept: every documented reply is far smaller. */
const maxReplyBytes = 1_048_576;

/** A reply's body text; `cut` when it was longer than {@link maxReplyBytes}: `text` is then its first. */
interface Body {
  readonly text: string;
  readonly cut: boolean;
}

/**
 * A reply's text as an error or a hook shows it: the request's secrets redacted, and a cut reply
 * first without its end where that may be the start of a secret the cut splits, so that no part
 * of one is kept.
 */
function shownText({ text, cut }: Body, secrets: Secrets): string {
  return redactText(cut ? withoutSplitSecret(text, secrets) : text, secrets);
}

/**
 * Reads the body, at most {@link maxReplyBytes} of it, until `deadline` ({@link monotonicNow} ms)
 * or `signal` aborts; a longer one is cut there as soon as a chunk passes it, nothing more waited
 * for. It reads through its own reader so that giving up (or a failed read) cancels the stream
 * and frees the socket, also with a custom `fetch` that ignores the signal (`body.cancel()` on a
 * stream that `response.text()` has locked would be refused, leaving the connection open).
 */
async function readBody(
  response: Response,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<Body> {
  const body = response.body;
  if (body === null) return { text: '', cut: false };
  const reader = body.getReader();
  const read = async (): Promise<Body> => {
    const decoder = new TextDecoder();
    let text = '';
    let received = 0;
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      const bytes = chunk.value;
      // The chunk's bytes within the first maxReplyBytes (a character the cut splits is left out).
      const within = Math.max(Math.min(bytes.byteLength, maxReplyBytes - received), 0);
      text += decoder.decode(bytes.subarray(0, within), { stream: true });
      received += bytes.byteLength;
      if (received > maxReplyBytes) {
        reader.cancel().catch(() => undefined);
        return { text, cut: true };
      }
    }
    return { text: text + decoder.decode(), cut: false };
  };
  try {
    return await raced(read(), {
      signal,
      ms: Math.max(deadline - monotonicNow(), 0),
      timedOut: () => new DOMException('the response body did not arrive in time', 'TimeoutError'),
    });
  } catch (error) {
    reader.cancel(error).catch(() => undefined);
    throw error;
  }
}
