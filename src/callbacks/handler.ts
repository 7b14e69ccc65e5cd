/**
 * `createCallbackHandler`: a Fetch API route, `(request: Request) => Promise<Response>`, that
 * verifies, reads (capped), parses, cross-checks, deduplicates and only then calls `onEvent`.
 * It runs as-is as a Next.js App Router route, a Hono/Bun/Deno/Workers handler, and on
 * node:http / Express through `toNodeListener`.
 *
 * One implementation, transport-neutral: the core takes a method, a URL, a body reader and
 * answers a status, headers and bytes. The Fetch handler and `toNodeListener` are thin adapters
 * around it (the Node one reads the socket and writes the response directly, with no Fetch
 * `Request` or `Response` on the way).
 *
 * @module
 */
import { CallbackParseError, PaymentsError, type CallbackVerificationError } from '../errors.js';
import { concatBytes } from '../internal/bytes.js';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import { raced } from '../internal/promise.js';
import { MAX_TIMER_MS, monotonicNow } from '../internal/timers.js';
import { isNameLike, keyShown, shown, typeName } from '../internal/values.js';
import { kindOf, wholeNumberOption } from '../internal/whole-number.js';
import { readDecimal, sameAmount, sameCurrency } from './amount.js';
import { callbackDedupeKey, createMemoryDedupeStore, MAX_TTL, type DedupeStore } from './dedupe.js';
import type { CallbackEvent } from './events.js';
import { safeParseCallback, type ParseCallbackOptions } from './parse.js';
import { MIN_SECRET_LENGTH, ORIGIN_RULE, originOf, secretProblem, verifySignedUrl } from './signing.js';
import { contradictionPolicy, currencyEntries, keyForm, REFERENCE_FORMS } from './verdict.js';
import { CALLBACK_SETTLEMENT } from '../internal/tracker-hook.js';
import type { CallbackSettlement } from '../transactions/callbacks.js';
import type { TransactionRecord } from '../transactions/store.js';
import type { SettleResult, TransactionTracker } from '../transactions/tracker.js';

/**
 * What `onEvent` gets besides the event. `Reference` is `string` when the handler verifies
 * signatures (the default), `string | undefined` with `verify: false`.
 *
 * @example
 * ```ts
 * const handler = createCallbackHandler({
 *   secret,
 *   onEvent: async (event, { reference, dedupeKey }) => {
 *     // reference: the order signed into the callback URL (a string: the handler verifies)
 *     await orders.settle(reference, event.paid, dedupeKey);
 *   },
 * });
 * ```
 */
export interface CallbackContext<Reference extends string | undefined = string | undefined> {
  /**
   * The incoming request as a Fetch `Request`, its body already read (the event is the body).
   * Under `toNodeListener` it is built on first access, with the method, URL and headers only; a
   * method the Fetch API builds no Request for (TRACE, CONNECT, TRACK) is built as a GET whose
   * `method` property reads the method received.
   */
  readonly request: Request;
  /**
   * The order the callback is about, for all eight types: the reference signed into the URL
   * (already checked against the payload's own `transaction_reference` / `order_id` /
   * `reference_id` where it has one). With `verify: false`, the payload's own reference, if any.
   */
  readonly reference: Reference;
  /** The event's dedupe key ({@link callbackDedupeKey}). */
  readonly dedupeKey: string;
  /** With `tracker`: the transaction after this callback settled it. */
  readonly transaction?: TransactionRecord | undefined;
  /**
   * With `tracker`: `'settled'` (also for a payment that succeeded after another payment of the
   * reference failed: the order is paid); `'late'` when the transaction had been expired (also
   * before such a failure); `'duplicate'` when
   * it was already settled with this outcome by an earlier delivery of this payment whose
   * processing may not have finished (its `onEvent` threw, its process died, the store's reply was
   * lost) — so process it idempotently rather than skip it; `'another_payment'` when it was settled
   * by another payment of the reference (another payment id or checkout session: the customer paid
   * twice) and this one paid — nothing changed;
   * refund it, once per `dedupeKey` (never a payout: its success under another id is a 409
   * `conflicting_outcome`). Another payment's failure moves no money: it is answered 200
   * and `onEvent` is not called; a later success of that same payment is a 409
   * `conflicting_outcome`, never the order's payment.
   */
  readonly settlement?: SettleResult['result'] | undefined;
}

/**
 * What the merchant expected for an event, from its own records (see `expected`).
 *
 * @example
 * ```ts
 * const expected: ExpectedPayment = { amount: '1500', currency: 'KES' };
 * ```
 */
export interface ExpectedPayment {
  /**
   * Compared as a decimal with `event.amount` (`'1500'`, `1500` and `'1500.00'` agree). A value
   * that is not a plain decimal (`'1,500'`, `' 1500'`, a Decimal object, `null`) is a bug in
   * `expected`: the answer is 500 `handler_failed`, which the sender retries.
   */
  readonly amount?: string | number | undefined;
  /**
   * Compared ignoring ASCII letter case with each currency the payload has: under any key whose
   * form (letter case, and all but ASCII letters and digits, ignored) ends in `currency`,
   * `currencycode` or `currencyiso`, or is `ccy` (`Currency`, `currency_code`,
   * `settlement_currency`; not `currency_symbol`).
   */
  readonly currency?: string | undefined;
}

/**
 * Why the handler refused a request; the `error` field of its JSON answer and `onError`'s
 * `reason`. Each reason has one status, and one error class in `onError` (but for the store
 * failure that changes no answer: `handler_failed` with status 200, below):
 *
 * | reason | status | the sender should | `onError`'s error |
 * |---|---|---|---|
 * | `invalid_request` | 400 | not retry: under `toNodeListener`, a Host that is not one `host[:port]` (missing, given twice, or an HTTP/2 `host` that is not its `:authority`), or a request-target that is not a path (or an absolute URL naming that host) or whose path the URL parser would rewrite (dot segments such as `..` or `%2e%2e`, a backslash); the Fetch handler: a Host header that is not one `host[:port]` (Deno.serve and workerd build `request.url` from it), or a URL with a fragment | `PaymentsError` |
 * | `method_not_allowed` | 405 (`Allow: POST`) | not retry | `PaymentsError` |
 * | `invalid_signature` | 401 | not retry: the URL is not one you signed (or the secret changed) | `CallbackVerificationError` (its `reason` says which check failed) |
 * | `body_timeout` | 408 | retry: the body did not arrive within `bodyTimeoutMs` | `PaymentsError` |
 * | `payload_too_large` | 413 | not retry: the body is over `maxBodyBytes` | `PaymentsError` |
 * | `unsupported_encoding` | 415 | not retry: a Content-Encoding other than `identity` on a body the route reads itself, or a Transfer-Encoding other than `chunked` (the Fetch handler; `toNodeListener` unless a body parser already decoded it) | `PaymentsError` |
 * | `invalid_payload` | 400 | not retry: not JSON, JSON that writes a key twice in one object, none of the eight documented payloads, or an amount that is not a plain decimal | `CallbackParseError` |
 * | `contradictory_outcome` | 422 | retry: the outcome signals disagree (also the documented contradiction with `onContradiction: 'reject'`); the order stays pending | `CallbackParseError` |
 * | `unrecognised_status` | 422 | retry: an outcome signal has a value the SDK does not know | `CallbackParseError` |
 * | `missing_status` | 422 | retry: an outcome signal the payload documents is absent | `CallbackParseError` |
 * | `reference_mismatch` | 409 | not retry: a reference the payload names is not the signed one | `CallbackParseError` |
 * | `amount_mismatch` | 422 | not retry: `expected` returned another amount | `PaymentsError` |
 * | `currency_mismatch` | 422 | not retry: `expected` returned another currency | `PaymentsError` |
 * | `unknown_reference` | 409 | retry: `tracker` set and no transaction was recorded under the reference (yet) | `PaymentsError` |
 * | `transaction_kind_mismatch` | 409 | not retry: `tracker` set and the transaction recorded under the reference is of another kind | `PaymentsError` |
 * | `conflicting_outcome` | 409 | not retry: `tracker` set and the transaction was already settled with the other outcome (nothing applied) | `PaymentsError` |
 * | `in_progress` | 503 (`Retry-After: 5`) | retry: the same event is being processed by another delivery | `PaymentsError` |
 * | `dedupe_store_full` | 503 (`Retry-After: 5`) | retry: the dedupe store holds as many claims as it may | `PaymentsError` |
 * | `handler_failed` | 500 | retry: `onEvent`, `expected` or the store threw (not the dedupe store's `complete`, below) (the claim was released; one the store failed to release is released by the next delivery reaching this handler, and is answered 503 elsewhere until `processingTimeoutMs`), `expected` returned an amount that is not a plain decimal, a currency that is not a string, or neither (a bare amount, `null`, `{ total }`), or the store's `begin` answered something other than its four states; the Fetch handler was given a Request whose body was already read; or, under `toNodeListener`, a body parser ran first and left something that is not the posted body — a value `express.json()` parsed (it rounds long numbers and keeps the last of a repeated key) without `req.rawBody`, a form `express.urlencoded()` parsed — or a middleware read the body and left `req.body` unset (mount the route before it, give it `express.raw()`, or keep the bytes as `req.rawBody`). The store's `complete` throwing after `onEvent` resolved is not a refusal: the answer is 200, and `onError` is told with `status: 200` and this reason | what was thrown (a non-`Error`, or a value that cannot be inspected such as a revoked Proxy, wrapped in a `PaymentsError` with it as `cause`); a `PaymentsError` naming the body parser; for `complete` (status 200), a `PaymentsError` with what it threw as `cause` |
 *
 * @example
 * ```ts
 * const handler = createCallbackHandler({
 *   secret,
 *   onEvent: async (event, { reference }) => { await orders.settle(reference, event.paid); },
 *   onError: (error, { status, reason }) => metrics.increment(`webhook.${reason}`, { status }),
 * });
 * ```
 */
export type CallbackRejectionReason =
  | 'invalid_request'
  | 'method_not_allowed'
  | 'invalid_signature'
  | 'body_timeout'
  | 'payload_too_large'
  | 'unsupported_encoding'
  | 'invalid_payload'
  | 'contradictory_outcome'
  | 'unrecognised_status'
  | 'missing_status'
  | 'reference_mismatch'
  | 'amount_mismatch'
  | 'currency_mismatch'
  | 'in_progress'
  | 'dedupe_store_full'
  | 'handler_failed'
  | 'unknown_reference'
  | 'transaction_kind_mismatch'
  | 'conflicting_outcome';

/**
 * What `onError` receives: one of the SDK's errors for a refusal (see
 * {@link CallbackRejectionReason} for which), or the `Error` `onEvent`, `expected` or the store
 * threw (`handler_failed`; a `PaymentsError` with status 200 when the store's `complete` threw after
 * `onEvent` resolved). Always an `Error`: `error.name` and `error.message` need no narrowing,
 * and none of them carries the payload: a mismatch with `expected` names the amount received
 * (not one holding 12 digits in a row, which could be a card number) or the currency (only as three
 * letters), nothing else of it.
 *
 * @example
 * ```ts
 * const log = (error: CallbackHandlerError) => console.warn(`${error.name}: ${error.message}`);
 * ```
 */
export type CallbackHandlerError = CallbackVerificationError | CallbackParseError | PaymentsError | Error;

/**
 * Options of {@link createCallbackHandler}.
 *
 * @example
 * ```ts
 * const options: CallbackHandlerOptions = {
 *   secret: process.env.WEBHOOK_SECRET!,
 *   publicOrigin: 'https://shop.example',
 *   onEvent: async (event) => {},
 * };
 * ```
 */
export interface CallbackHandlerOptions<
  Reference extends string | undefined = string | undefined,
> extends ParseCallbackOptions {
  // onEvent and expected are function-typed properties, not methods: a method's parameters are
  // checked bivariantly, which would let a function written for one event type (or for a verified
  // reference under verify: false) compile, though the handler passes it every event.
  /**
   * The secret the callback URLs were signed with (`signCallbackUrl`), at least 16 characters; a
   * list during a rotation (each one checked at creation, any one may match). Requests whose URL
   * signature is missing or wrong get 401. Required: without it `createCallbackHandler` throws a
   * `TypeError`, unless `verify: false` says in so many words that nothing is verified. Anything
   * but a string or a list (`null`, a number, a Buffer, a `String` object) is a `TypeError` naming
   * what it is, never showing it.
   */
  readonly secret?: string | readonly string[] | undefined;
  /**
   * `false` accepts unsigned requests: anyone who can reach the route can post a "paid" callback.
   * For tests and routes no one else can reach; never set together with `secret`. Options typed
   * `CallbackHandlerOptions<string>` (the reference a string: verified) cannot set it.
   */
  readonly verify?: undefined extends Reference ? false | undefined : undefined;
  /**
   * The public origin the URLs were signed with (`https://shop.example`): the host the signature
   * is checked against. Set it in production. Without it the host comes from the request (the Host
   * header on Node), which the client chooses: the signature then binds the path and reference,
   * and the host only to whatever name the client sent. Read as the URL parser reads it, as
   * `signCallbackUrl` does: `https://shop.example:443` is `https://shop.example`, and
   * `https://bücher.example` is `https://xn--bcher-kva.example`. Anything more than an origin (a
   * path, query, fragment, userinfo, whitespace) throws a `TypeError` at creation.
   */
  readonly publicOrigin?: string | undefined;
  /**
   * Called once per event, after every check (may return a promise); the answer is 200 when it
   * resolves, 500 when it throws or rejects. Required: anything but a function throws a
   * `TypeError` at creation.
   */
  readonly onEvent: (event: CallbackEvent, context: CallbackContext<Reference>) => unknown;
  /** Where processed events are recorded; `false` turns deduplication off. Default: in-memory store. */
  readonly dedupe?: DedupeStore | false | undefined;
  /**
   * How long a processed event is remembered, ms. Default 24 h. The default store keeps events
   * that long; a store that keeps them for less (a `createMemoryDedupeStore` whose `ttlMs` is
   * shorter) throws a `TypeError` at creation rather than forget them early.
   */
  readonly dedupeTtlMs?: number | undefined;
  /**
   * How long a claim lasts while `onEvent` runs (a crashed process frees it after this), ms.
   * Default 5 min. Set it above your slowest `onEvent`: a delivery of the same event that arrives
   * after it runs `onEvent` again while the first may still be running.
   */
  readonly processingTimeoutMs?: number | undefined;
  /** Body size cap in bytes (413 above it; the body is read no further). Default 65,536. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * How long reading the body may take, ms, from the moment the handler starts reading it (408
   * `body_timeout` after it; a slow sender cannot hold the route open). Default 5,000; at most
   * 2,147,483,647 (the longest timer a runtime keeps).
   */
  readonly bodyTimeoutMs?: number | undefined;
  /**
   * Look up what the merchant expected for this event (by `event.reference`, or the signed
   * reference in `context`); a different amount or currency answers 422 and `onEvent` is not
   * called. Return `undefined` to skip the check; anything else must be an object with an `amount`
   * or a `currency` (other fields are ignored): a bare amount, an array, `null` or an object naming
   * neither (`{ total }`) is a bug in the lookup, answered 500 `handler_failed` (retried).
   */
  readonly expected?:
    | ((
        event: CallbackEvent,
        context: Omit<CallbackContext<Reference>, 'dedupeKey' | 'transaction' | 'settlement'>,
      ) => ExpectedPayment | undefined | Promise<ExpectedPayment | undefined>)
    | undefined;
  /**
   * Settle pending transactions (`hosted-payments/transactions`): a callback for a reference it
   * never recorded is refused (409 `unknown_reference`), the callback is checked against the
   * recorded amount and currency (and then against `expected` too, when given), and a second, different outcome for a settled transaction is refused (409
   * `conflicting_outcome`) and never applied. The key is the signed reference. It must be a
   * tracker `createTransactionTracker` made (anything else throws a `TypeError` at creation).
   */
  readonly tracker?: TransactionTracker | undefined;
  /**
   * Told about every refused request and every `onEvent` failure (for logs and metrics), and, with
   * `status: 200` and reason `handler_failed`, about a dedupe store's `complete` that threw after
   * `onEvent` resolved (the event was processed and answered 200; the store still holds it as in
   * progress, so another instance answers a redelivery 503 until the claim lapses). The answer
   * waits for it, at most 5 s; its own errors are ignored. The error never carries the payload
   * (a mismatch with `expected` names the amount or currency received, see {@link CallbackHandlerError}).
   */
  readonly onError?:
    | ((
        error: CallbackHandlerError,
        context: {
          readonly request: Request;
          readonly status: number;
          readonly reason: CallbackRejectionReason;
        },
      ) => unknown)
    | undefined;
}

/**
 * A Fetch API webhook route.
 *
 * @example
 * ```ts
 * export const POST: CallbackHandler = createCallbackHandler({
 *   secret,
 *   onEvent: async (event, { reference }) => { await orders.settle(reference, event.paid); },
 * });
 * ```
 */
export type CallbackHandler = (request: Request) => Promise<Response>;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

const RETRY_LATER = { 'retry-after': '5' };

/** How long a refusal's answer waits for `onError`, ms. */
const ON_ERROR_MS = 5_000;

/** ` for "ORD-1"`, or nothing without a reference (`verify: false`). */
const about = (reference: string | undefined): string =>
  reference === undefined ? '' : ` for ${JSON.stringify(shown(reference))}`;

/** A callback request as the core reads it, whatever the transport. */
export interface InboundCallback {
  readonly method: string;
  /**
   * The absolute URL whose signature is checked (path and query from the request-target), or
   * `undefined` when the transport found the Host or request-target invalid (400 `invalid_request`).
   */
  readonly url: string | URL | undefined;
  /**
   * Reads the body: at most `max` bytes within `timeoutMs` — the bytes, `'too_large'` as soon as
   * it is larger (the rest is never read), `'timeout'` (reading stops), or, without reading,
   * `'unsupported_encoding'` when the bytes would have to be decoded first (see
   * {@link isEncoded}). Rejects with a `PaymentsError` when the route is set up so that the body
   * cannot be had (500 `handler_failed`), with any other error when the transport fails (400
   * `invalid_payload`).
   */
  readBody(max: number, timeoutMs: number): Promise<BodyRead>;
  /** The request as a Fetch `Request` (`context.request`); built on first use where there is none. */
  toRequest(): Request;
}

/** What {@link InboundCallback.readBody} found. */
export type BodyRead = Uint8Array | 'too_large' | 'timeout' | 'unsupported_encoding';

/**
 * Whether a coding header's list names a coding other than those in `none` (any letter case, spaces
 * around). Empty list items name none (RFC 9110's list rule: an empty header, a repeated header
 * line left empty).
 */
const namesCoding = (value: string | null | undefined, none: readonly string[]): boolean =>
  value != null && value.split(',').some((item) => !none.includes(item.trim().toLowerCase()));

/**
 * Whether a Content-Encoding header value asks for the body to be decoded: any coding but
 * `identity`. The route reads the bytes as sent.
 */
export const isEncoded = (value: string | null | undefined): boolean => namesCoding(value, ['', 'identity']);

/**
 * Whether a Transfer-Encoding header value names a coding other than `chunked`, the one an HTTP/1.1
 * server undoes itself (node:http passes a `gzip, chunked` body on still gzipped), or `identity`.
 */
export const isTransferCoded = (value: string | null | undefined): boolean =>
  namesCoding(value, ['', 'chunked', 'identity']);

/** The core's answer: what an adapter writes back. */
export interface CallbackAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** A small JSON text for a refusal; `null` when the event was received. */
  readonly body: string | null;
}

/** The transport-neutral handler behind a {@link CallbackHandler}. */
export type CallbackCore = (request: InboundCallback) => Promise<CallbackAnswer>;

const answer = (status: number, body: object, headers?: Record<string, string>): CallbackAnswer => ({
  status,
  headers: { ...JSON_HEADERS, ...headers },
  body: JSON.stringify(body),
});

// The accepted path answers without a body: on Node 20 any Response body is a web ReadableStream,
// whose construction (makeTransferable) costs more than parsing the callback itself.
const RECEIVED: CallbackAnswer = { status: 200, headers: { 'cache-control': 'no-store' }, body: null };
const DUPLICATE: CallbackAnswer = {
  status: 200,
  headers: { 'cache-control': 'no-store', 'x-callback-duplicate': 'true' },
  body: null,
};
const received = (duplicate: boolean): CallbackAnswer => (duplicate ? DUPLICATE : RECEIVED);

const CORE = Symbol.for('hosted-payments.callbackCore');

/**
 * The context `onEvent`, `expected` and `onError` get: its fields as own data properties, and
 * `request` built on first read (a Fetch `Request` costs more to build than most routes use).
 * Instances of one class rather than object literals with an own getter, which V8 builds in
 * dictionary mode on every delivery.
 */
class HandlerContext {
  readonly #inbound: InboundCallback;
  constructor(inbound: InboundCallback, fields: object, more?: object) {
    this.#inbound = inbound;
    Object.assign(this, fields, more);
  }
  get request(): Request {
    return this.#inbound.toRequest();
  }
}

const contextOf = <Fields extends object>(
  inbound: InboundCallback,
  fields: Fields,
  more?: object,
): Fields & { readonly request: Request } =>
  new HandlerContext(inbound, fields, more) as HandlerContext & Fields;

/**
 * The core of a handler `createCallbackHandler` made (for adapters such as `toNodeListener`), or
 * `undefined` for any other function.
 */
export const callbackCoreOf = (handler: CallbackHandler): CallbackCore | undefined =>
  (handler as CallbackHandler & { [CORE]?: CallbackCore })[CORE];

// host[:port]: a DNS name or IPv4 address (letters, digits, '.', '-', '_'), or a bracketed IPv6
// address; nothing else (no userinfo, path, query or fragment).
export const HOST = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * The Fetch adapter's view of a `Request`. Its URL is `undefined` (400 `invalid_request`) for a
 * Host header that is not one host[:port] and for a URL with a fragment: Deno.serve and workerd
 * build `request.url` as `http://` + Host + request-target, so such a Host would choose the path
 * and query the signature is checked against, where the request-target alone names them.
 */
const inboundFromRequest = (request: Request): InboundCallback => ({
  method: request.method,
  url: fetchUrl(request),
  readBody: (max, timeoutMs) => readBody(request, max, timeoutMs),
  toRequest: () => request,
});

const fetchUrl = ({ url, headers }: Request): string | undefined => {
  const host = headers.get('host');
  return (host === null || HOST.test(host)) && !url.includes('#') ? url : undefined;
};

/**
 * Reads at most `max` bytes within `timeoutMs`: the body, `'too_large'` as soon as it is larger
 * (the rest is never read), or `'timeout'` when it has not ended in time; unread,
 * `'unsupported_encoding'` when its Content-Encoding is not `identity` or it has a transfer coding
 * other than `chunked`.
 *
 * A Request whose body the runtime holds (built with `new Request`, a subclass included) is read
 * chunk by chunk and cancelled once over the cap or out of time, whatever its Content-Length says:
 * one built in process can carry more. A framework's own Request with a `body` of its own making
 * and a declared length of at most `max` is read whole with `arrayBuffer()`: `@hono/node-server`'s
 * reads that straight from the socket, whose parser holds it to its Content-Length, where touching
 * `request.body` first builds a web stream over it (about 3× the CPU of the whole route).
 */
async function readBody(request: Request, max: number, timeoutMs: number): Promise<BodyRead> {
  if (request.bodyUsed) {
    throw new PaymentsError(
      "The callback Request's body was already read before the handler (a middleware's c.req.json() or request.json()): give the handler the request untouched, mounting the route before whatever reads the body; or a handler was given this same Request before: build a new Request for each delivery",
    );
  }
  if (
    isEncoded(request.headers.get('content-encoding')) ||
    isTransferCoded(request.headers.get('transfer-encoding'))
  ) {
    return 'unsupported_encoding';
  }
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > max) return 'too_large';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    if (declared !== null && /^\d+$/.test(declared) && ownBody(request)) {
      const whole = request.arrayBuffer();
      const read = await Promise.race([whole, deadline]);
      if (read === 'timeout') {
        whole.catch(() => undefined); // the sender may still finish, or drop the connection
        return 'timeout';
      }
      return read.byteLength > max ? 'too_large' : new Uint8Array(read);
    }
    return await readChunks(request, max, deadline);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a prototype below `Request.prototype` defines `body`: a framework's lazy Request. */
function ownBody(request: Request): boolean {
  let proto = Object.getPrototypeOf(request) as object | null;
  while (proto !== null && proto !== Request.prototype) {
    if (Object.getOwnPropertyDescriptor(proto, 'body') !== undefined) return true;
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return false;
}

/** Reads a body chunk by chunk, no further than `max` bytes, until `deadline`. */
async function readChunks(
  request: Request,
  max: number,
  deadline: Promise<'timeout'>,
): Promise<Uint8Array | 'too_large' | 'timeout'> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const next = await Promise.race([reader.read(), deadline]);
    if (next === 'timeout') {
      reader.cancel().catch(() => undefined);
      return 'timeout';
    }
    if (next.done) break;
    if (!(next.value instanceof Uint8Array)) {
      // A Request built in process can stream strings; they have no byte length to hold to `max`.
      await reader.cancel().catch(() => undefined);
      throw new PaymentsError(
        'The callback Request body stream gave a chunk that is not bytes (Uint8Array); build the Request with a byte stream, a string or a Buffer',
      );
    }
    total += next.value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      return 'too_large';
    }
    chunks.push(next.value);
  }
  return concatBytes(chunks, total);
}

/** The options `createCallbackHandler` knows; any other key is refused. */
const HANDLER_OPTIONS: OptionNames<CallbackHandlerOptions> = {
  secret: true,
  verify: true,
  publicOrigin: true,
  onEvent: true,
  dedupe: true,
  dedupeTtlMs: true,
  processingTimeoutMs: true,
  maxBodyBytes: true,
  bodyTimeoutMs: true,
  expected: true,
  tracker: true,
  onError: true,
  onContradiction: true,
};

/** What a tracker `createTransactionTracker` made carries for the handler; `undefined` on anything else. */
const settlementOf = (tracker: unknown): CallbackSettlement | undefined =>
  typeof tracker === 'object' && tracker !== null
    ? (tracker as { [CALLBACK_SETTLEMENT]?: CallbackSettlement })[CALLBACK_SETTLEMENT]
    : undefined;

/** Whether `value` is an object with each of these methods. */
const hasMethods = (value: unknown, ...names: string[]): boolean =>
  typeof value === 'object' &&
  value !== null &&
  names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function');

const SECRET_HELP =
  'Set it to the secret the callback URLs were signed with (signCallbackUrl), e.g. ' +
  "secret: process.env.WEBHOOK_SECRET, generated with 'openssl rand -base64 32'. " +
  'To accept unsigned callbacks on purpose (tests, a route no one else can reach), pass verify: false instead.';

/** The secrets to verify with, or `undefined` for `verify: false`; throws what the merchant must fix. */
function usableSecrets(options: CallbackHandlerOptions): readonly string[] | undefined {
  const { secret, verify } = options;
  if (verify === false) {
    if (secret !== undefined) {
      throw new TypeError(
        'createCallbackHandler: verify: false and a secret were both given; remove one (with a secret, every request is verified)',
      );
    }
    return undefined;
  }
  if ((verify as unknown) !== undefined) {
    throw new TypeError('createCallbackHandler: verify can only be false (verification is on by default)');
  }
  const rule = `must be a string of at least ${MIN_SECRET_LENGTH} characters`;
  if (typeof secret !== 'string' && secret !== undefined && !Array.isArray(secret)) {
    // Its kind only: a Buffer or a String object may hold the secret itself.
    throw new TypeError(
      `createCallbackHandler: secret ${rule}, or a non-empty list of them during a rotation, got ${kindOf(secret)}. ${SECRET_HELP}`,
    );
  }
  const list: readonly unknown[] = typeof secret === 'string' || secret === undefined ? [secret] : secret;
  if (list.length === 0) {
    throw new TypeError(
      `createCallbackHandler: secret is an empty list; it needs at least ${MIN_SECRET_LENGTH} characters. ${SECRET_HELP}`,
    );
  }
  list.forEach((item, index) => {
    const problem =
      typeof item === 'string' || item === undefined ? secretProblem(item) : `${rule}, got ${kindOf(item)}`;
    if (problem === undefined) return;
    const which = list.length === 1 ? 'secret' : `secret[${index}]`;
    throw new TypeError(`createCallbackHandler: ${which} ${problem}. ${SECRET_HELP}`);
  });
  return list as readonly string[];
}

/**
 * The key under which the payload names another reference than the signed one, or undefined when
 * it names the signed one or none. A string or number equal to the signed reference agrees; null
 * or an empty string names nothing; any other value disagrees.
 */
function otherReference(event: CallbackEvent, signed: string): string | undefined {
  if (event.reference !== undefined && event.reference !== signed) return 'reference';
  const payment = event.type.startsWith('payment.');
  for (const [key, value] of Object.entries(event.data as Readonly<Record<string, unknown>>)) {
    if (value === undefined || value === null || value === '') continue;
    const form = keyForm(key);
    if (!REFERENCE_FORMS.has(form) || (payment && form === 'orderid')) continue;
    if ((typeof value === 'string' || typeof value === 'number') && String(value) === signed) continue;
    return key;
  }
  return undefined;
}

/**
 * What is wrong with what `expected` returned, or undefined for an answer the handler can check
 * against: undefined (no check), or an object with an amount (a plain decimal) or a currency (a
 * string) among its fields. A bare amount, an array, null, or an object naming neither (`total`,
 * `Amount`) would otherwise read as "no expectation" and pass any amount. Names types and keys,
 * never values.
 */
function expectedProblem(expected: ExpectedPayment | undefined): string | undefined {
  if (expected === undefined) return undefined;
  const shape = 'return { amount, currency } from your records, or undefined to skip the check';
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected)) {
    return `${typeName(expected)}; ${shape}`;
  }
  const { amount, currency } = expected as { amount?: unknown; currency?: unknown };
  if (amount === undefined && currency === undefined) {
    // Only the keys that could be names: one may be anything (a card number as a key).
    const all = Object.keys(expected);
    const keys = all.filter(isNameLike);
    const hidden = all.length - keys.length;
    const parts =
      keys.length === 0 ? [] : [`the fields ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}`];
    if (hidden > 0) parts.push(`${hidden} field${hidden > 1 ? 's' : ''} not shown`);
    const listed = all.length === 0 ? 'no fields' : parts.join(', ');
    return `an object with neither amount nor currency (${listed}); ${shape}`;
  }
  if (amount !== undefined && readDecimal(amount) === undefined) {
    return `an amount of the wrong form (${typeName(amount)}); return a plain decimal string or number (a Decimal's toString())`;
  }
  if (currency !== undefined && typeof currency !== 'string') {
    return `a currency of the wrong form (${typeName(currency)}); return it as a string`;
  }
  return undefined;
}

/**
 * Why a callback does not match what was expected of it, or undefined when it does: 500 for an
 * answer of `expected` no callback could match (a bug in the merchant's lookup, not another
 * payment: the sender retries once it is fixed), 422 for another amount or currency.
 */
function expectationRefusal(
  event: CallbackEvent,
  reference: string | undefined,
  expected: ExpectedPayment | undefined,
):
  | {
      status: 422 | 500;
      reason: 'handler_failed' | 'amount_mismatch' | 'currency_mismatch';
      error: PaymentsError;
    }
  | undefined {
  const wrong = expectedProblem(expected);
  if (wrong !== undefined) {
    return {
      status: 500,
      reason: 'handler_failed',
      error: new PaymentsError(`${event.type}: expected returned ${wrong}`),
    };
  }
  if (expected?.amount !== undefined && !sameAmount(expected.amount, event.amount)) {
    return {
      status: 422,
      reason: 'amount_mismatch',
      error: new PaymentsError(
        `${event.type}${about(reference)}: amount ${amountShown(event.amount)} is not the expected ${shown(expected.amount)}`,
      ),
    };
  }
  // The payload's currencies (`currencyEntries`): the documented one (card, payout), and one under
  // `currency` or `currency_code` in any spelling, which a mobile-money or checkout callback may
  // carry though it documents none — each compared, none ignored. Each is a three-letter code:
  // parseCallback refuses a payload with anything else.
  const want = expected?.currency;
  const other =
    want === undefined
      ? undefined
      : currencyEntries(event.data as Readonly<Record<string, unknown>>).find(
          ([, value]) => !sameCurrency(want, value as string),
        );
  if (want !== undefined && other !== undefined) {
    const [key, got] = other as [string, string];
    return {
      status: 422,
      reason: 'currency_mismatch',
      error: new PaymentsError(
        `${event.type}${about(reference)}: ${keyShown(key)} ${got} is not the expected ${shown(want)}`,
      ),
    };
  }
  return undefined;
}

/**
 * The payload's amount in a message: as written, unless it holds 12 digits in a row, which could
 * be a card number (then its length only); at most 24 characters.
 */
const amountShown = (amount: string): string =>
  /\d{12}/.test(amount) ? `(${amount.length} characters, not shown)` : shown(amount);

/**
 * Whether a thrown `value` is an instance of `type`; `false` for a value that cannot even be asked
 * (a revoked Proxy throws on `instanceof`), which is then wrapped as any other non-`Error` is.
 */
function isA<T>(value: unknown, type: abstract new (...args: never[]) => T): value is T {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/** What a store call that failed threw. */
interface Failed {
  readonly thrown: unknown;
}

/**
 * Runs a store call whose failure changes no answer: a rejection, a synchronous throw and a
 * plain return value (a store not written with `async`) alike. `undefined` when it went through,
 * else what it threw.
 */
async function quietly(call: () => unknown): Promise<Failed | undefined> {
  try {
    await call();
    return undefined;
  } catch (thrown) {
    // The answer stands; the handler remembers the claim (see Stranded).
    return { thrown };
  }
}

/** How many claims a handler remembers having failed to release or complete. */
const MAX_STRANDED = 1_000;

/** What a claim was left needing: a release (`abandon`) or the record of its processing (`complete`). */
type Left = 'abandon' | 'complete';

/**
 * Claims this handler took and then could not release (`abandon` threw after `onEvent` did) or
 * mark processed (`complete` threw): the store answers `in_progress` for them until the claim
 * expires, and no delivery is processing them. A delivery of one reaching this handler before
 * then finishes the job: releases the claim and is processed, or is answered as the duplicate it
 * is. A claim is remembered only if no `begin` of this handler claimed the key afresh (or found
 * it done) while the failing call was in flight — a store may apply a release and report its
 * failure late — and is forgotten at the next such `begin`; taken out before it is acted on, so
 * two deliveries never both act on one. What it cannot tell: a store that applied the `abandon` it
 * reported failing, after which another instance claimed the key, or a store whose replies can
 * arrive out of order — there a delivery may run `onEvent` alongside another's (the tracker
 * settles once either way). Per handler object: a handler created for each request remembers
 * nothing.
 */
class Stranded {
  readonly #claims = new Map<string, { readonly at: number; readonly left: Left }>();
  /** The releases and completions in flight per key; a fresh claim voids them. */
  readonly #inFlight = new Map<string, Set<object>>();

  readonly #timeoutMs: number;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Runs `call` (the store's `abandon` or `complete` of a claim taken at `at`); when it fails,
   * remembers the claim unless the key was claimed afresh meanwhile. `undefined` when it went
   * through, else what it threw.
   */
  async settle(key: string, at: number, left: Left, call: () => unknown): Promise<Failed | undefined> {
    const token = {};
    const tokens = this.#inFlight.get(key) ?? new Set<object>();
    this.#inFlight.set(key, tokens.add(token));
    const failed = await quietly(call);
    if (this.#inFlight.get(key)?.delete(token) === true) {
      if (tokens.size === 0) this.#inFlight.delete(key);
      if (failed !== undefined) this.#remember(key, at, left);
    }
    return failed;
  }

  /** A `begin` claimed the key afresh, or found it done: nothing of it is stranded any more. */
  claimed(key: string): void {
    this.#inFlight.delete(key);
    this.#claims.delete(key);
  }

  /** The claim left on `key`, taken out, if it is still this handler's (not expired). */
  take(key: string): { readonly at: number; readonly left: Left } | undefined {
    const claim = this.#claims.get(key);
    this.#claims.delete(key);
    return claim !== undefined && monotonicNow() - claim.at < this.#timeoutMs ? claim : undefined;
  }

  #remember(key: string, at: number, left: Left): void {
    // Of two claims left on one key (the first expired, a later delivery claimed it), the later.
    if ((this.#claims.get(key)?.at ?? -Infinity) > at) return;
    this.#claims.delete(key);
    if (this.#claims.size >= MAX_STRANDED) this.#claims.delete(this.#claims.keys().next().value!);
    this.#claims.set(key, { at, left });
  }
}

/**
 * Creates the webhook route. Status codes: 200 without a body when the event was processed (a
 * duplicate also carries `x-callback-duplicate: true`); a refusal has a small JSON body that
 * never echoes the payload (`{ error: '<reason>' }`):
 *
 * | status | when |
 * |---|---|
 * | 200 | `onEvent` resolved (also when the store's `complete` then threw: `onError` is told, with `status: 200`, reason `handler_failed`); or a duplicate of an event already processed (`onEvent` not called again) |
 * | 400 `invalid_request` | (`toNodeListener`) the Host header (or HTTP/2 `:authority`) or request-target is not valid (a path with dot segments or a backslash included), or Host is given twice; (Fetch) a Host header that is not one `host[:port]`, or a URL with a fragment |
 * | 400 `invalid_payload` | not JSON (or a key written twice), or matches no documented payload, or an amount is not a plain decimal |
 * | 401 `invalid_signature` | the URL signature is missing or wrong (unless `verify: false`) |
 * | 405 `method_not_allowed` | not a POST |
 * | 408 `body_timeout` | the body did not arrive within `bodyTimeoutMs` |
 * | 409 `reference_mismatch` | a reference the payload names (transaction_reference, order_id, reference_id, in any spelling; not a payment's order_id, the order it pays) is not the signed one |
 * | 409 `unknown_reference` / `transaction_kind_mismatch` | `tracker` set and no transaction of the callback's kind was recorded under the reference |
 * | 409 `conflicting_outcome` | `tracker` set and the transaction was already settled with the other outcome (nothing applied) |
 * | 413 `payload_too_large` | body over `maxBodyBytes` (by Content-Length, or while streaming) |
 * | 415 `unsupported_encoding` | a Content-Encoding other than `identity` on a body the route reads itself (not one a body parser already decoded under `toNodeListener`), or a Transfer-Encoding other than `chunked`; the body is not read |
 * | 422 `contradictory_outcome` / `unrecognised_status` / `missing_status` | the outcome signals disagree (including the documented contradiction with `onContradiction: 'reject'`), or one is unknown or absent: the order stays pending and the sender retries |
 * | 422 `amount_mismatch` / `currency_mismatch` | `expected` returned a different amount or currency |
 * | 500 `handler_failed` | `onEvent` (or `expected`, or the store before `onEvent`) threw; the claim is released, so the sender's retry is processed (a claim the store failed to release: by the next delivery reaching this handler; 503 elsewhere until `processingTimeoutMs`). Also a store whose `begin` answered something other than `'new'`, `'in_progress'`, `'done'` or `'full'` (`onEvent` is not called). Also (`toNodeListener`) a body parser ran before the route and left `req.body` as something other than the posted body (a value `express.json()` parsed, without `req.rawBody`; a parsed form; text that was not UTF-8), or a middleware read the body and left `req.body` unset |
 * | 503 `in_progress` / `dedupe_store_full` + `Retry-After` | the same event is being processed by another delivery right now, or the dedupe store holds as many claims as it may |
 *
 * Without a usable `secret` (missing, empty, under 16 characters — an unset environment variable)
 * it throws a `TypeError` saying how to fix it, unless `verify: false` is passed; so does an
 * option it does not know (a misspelt `publicOrigin` is never dropped in silence), an `onEvent`
 * (or a given `expected` or `onError`) that is not a function, a `publicOrigin` that is not an
 * http(s) origin, a `dedupe` that is neither `false` nor a store, a `dedupeTtlMs` or
 * `processingTimeoutMs` longer than the given memory store keeps a key (its `ttlMs`), and a
 * `tracker` that is not one. `maxBodyBytes`, `bodyTimeoutMs`, `dedupeTtlMs` and
 * `processingTimeoutMs` are whole numbers from 1 to `Number.MAX_SAFE_INTEGER` (`bodyTimeoutMs` to
 * 2,147,483,647): any other number (a fraction, `Infinity`, `NaN`, `1.5e308`) is a `RangeError`
 * naming the option, anything else (a string such as `'65536'`) a `TypeError`.
 *
 * @example
 * ```ts
 * // app/api/webhooks/payments/route.ts (Next.js App Router) — or Hono, Bun.serve, Deno.serve
 * export const POST = createCallbackHandler({
 *   secret: process.env.WEBHOOK_SECRET, // throws at start-up when unset or under 16 characters
 *   publicOrigin: 'https://shop.example',
 *   onEvent: async (event, { reference }) => {
 *     if (event.type === 'checkout.succeeded') await orders.markPaid(reference, event.amount);
 *     if (event.type === 'checkout.failed') await orders.markFailed(reference, event.message);
 *   },
 * });
 * ```
 */
export function createCallbackHandler(options: CallbackHandlerOptions<string>): CallbackHandler;
export function createCallbackHandler(options: CallbackHandlerOptions): CallbackHandler;
export function createCallbackHandler(
  given: CallbackHandlerOptions<string> | CallbackHandlerOptions,
): CallbackHandler {
  // One body serves both overloads: verified, every reference it passes onEvent is a string.
  const options = given as unknown as CallbackHandlerOptions;
  refuseUnknownOptions('createCallbackHandler', options, HANDLER_OPTIONS);
  const secret = usableSecrets(options);
  if (typeof options.onEvent !== 'function') {
    throw new TypeError('createCallbackHandler: onEvent must be a function (event, context) => unknown');
  }
  for (const name of ['expected', 'onError'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new TypeError(`createCallbackHandler: ${name} must be a function when given`);
    }
  }
  const publicOrigin = options.publicOrigin === undefined ? undefined : originOf(options.publicOrigin);
  if (options.publicOrigin !== undefined && publicOrigin === undefined) {
    throw new TypeError(`createCallbackHandler: publicOrigin ${ORIGIN_RULE}`);
  }
  const maxBodyBytes = wholeNumberOption(
    'createCallbackHandler',
    'maxBodyBytes',
    options.maxBodyBytes,
    65_536,
  );
  // A longer timer fires at once on every runtime: every delivery would be a 408.
  const bodyTimeoutMs = wholeNumberOption(
    'createCallbackHandler',
    'bodyTimeoutMs',
    options.bodyTimeoutMs,
    5_000,
    { max: MAX_TIMER_MS },
  );
  const { dedupe, tracker } = options;
  if (dedupe !== undefined && dedupe !== false && !hasMethods(dedupe, 'begin', 'complete', 'abandon')) {
    throw new TypeError(
      'createCallbackHandler: dedupe must be false or a store with begin, complete and abandon (createMemoryDedupeStore, createRedisDedupeStore)',
    );
  }
  const settlement = tracker === undefined ? undefined : settlementOf(tracker);
  if (tracker !== undefined && settlement === undefined) {
    throw new TypeError('createCallbackHandler: tracker must be a tracker from createTransactionTracker');
  }
  const dedupeTtlMs = wholeNumberOption(
    'createCallbackHandler',
    'dedupeTtlMs',
    options.dedupeTtlMs,
    86_400_000,
  );
  const processingTimeoutMs = wholeNumberOption(
    'createCallbackHandler',
    'processingTimeoutMs',
    options.processingTimeoutMs,
    300_000,
  );
  const longest = Math.max(dedupeTtlMs, processingTimeoutMs);
  const store = dedupe === false ? undefined : (dedupe ?? createMemoryDedupeStore({ ttlMs: longest }));
  // A store that caps how long it keeps a key would forget a processed event (or let a claim
  // lapse) before the time promised here, and a replay would run onEvent again.
  const keeps = (store as { [MAX_TTL]?: number } | undefined)?.[MAX_TTL];
  if ((keeps ?? longest) < longest) {
    throw new TypeError(
      `createCallbackHandler: dedupeTtlMs (${dedupeTtlMs} ms) and processingTimeoutMs must be at most the dedupe store's ttlMs (${keeps} ms)`,
    );
  }
  const parseOptions: ParseCallbackOptions = {
    onContradiction: contradictionPolicy('createCallbackHandler', options.onContradiction),
  };
  const stranded = new Stranded(processingTimeoutMs);
  const verifyOptions = secret === undefined ? undefined : { secret, origin: publicOrigin };

  // Tells onError of a refusal, or of a store failure that changes no answer.
  const tell = async (
    request: InboundCallback,
    status: number,
    reason: CallbackRejectionReason,
    error: CallbackHandlerError,
  ): Promise<void> => {
    if (options.onError !== undefined) {
      try {
        // Awaited, so a log or a metric lands before a serverless runtime freezes the request,
        // for at most ON_ERROR_MS: one that never settles must not hold the answer.
        await raced(options.onError(error, contextOf(request, { status, reason })), {
          ms: ON_ERROR_MS,
          timedOut: () => new Error('onError did not settle'),
        });
      } catch {
        // onError is for observation; its failure must not change the answer.
      }
    }
  };

  const refuse = async (
    request: InboundCallback,
    status: number,
    reason: CallbackRejectionReason,
    error: CallbackHandlerError,
    headers?: Record<string, string>,
  ): Promise<CallbackAnswer> => {
    await tell(request, status, reason, error);
    return answer(status, { error: reason }, headers);
  };

  // The event was processed and is answered 200; the store still holds its claim.
  const notRecorded = (request: InboundCallback, { thrown }: Failed): Promise<void> =>
    tell(
      request,
      200,
      'handler_failed',
      new PaymentsError(
        "The event was processed (answered 200), but the dedupe store's complete() failed, so the store still holds it as in progress: a redelivery reaching this handler is answered as a duplicate and recorded; one reaching another instance is answered 503 in_progress until the claim lapses, and then runs onEvent again",
        { cause: thrown },
      ),
    );

  const core: CallbackCore = async (request) => {
    if (request.url === undefined) {
      return refuse(
        request,
        400,
        'invalid_request',
        new PaymentsError(
          'The Host header must be a valid host[:port], and the request-target a path (or an absolute URL naming that host)',
        ),
      );
    }
    if (request.method !== 'POST') {
      return refuse(
        request,
        405,
        'method_not_allowed',
        new PaymentsError('The callback route only accepts POST'),
        {
          allow: 'POST',
        },
      );
    }

    let signedReference: string | undefined;
    let signature: string | undefined;
    if (verifyOptions !== undefined) {
      try {
        ({ reference: signedReference, signature } = await verifySignedUrl(request.url, verifyOptions));
      } catch (error) {
        return refuse(request, 401, 'invalid_signature', error as CallbackVerificationError);
      }
    }

    let body: BodyRead;
    try {
      body = await request.readBody(maxBodyBytes, bodyTimeoutMs);
    } catch (error) {
      // A PaymentsError is the route's set-up (a body parser took the body): 500 until it is fixed.
      return isA(error, PaymentsError)
        ? refuse(request, 500, 'handler_failed', error)
        : refuse(
            request,
            400,
            'invalid_payload',
            new CallbackParseError('The callback body could not be read', { cause: error }),
          );
    }
    if (body === 'too_large') {
      return refuse(
        request,
        413,
        'payload_too_large',
        new PaymentsError(`The callback body is over maxBodyBytes (${maxBodyBytes} bytes)`),
      );
    }
    if (body === 'timeout') {
      return refuse(
        request,
        408,
        'body_timeout',
        new PaymentsError(`The callback body did not arrive within bodyTimeoutMs (${bodyTimeoutMs} ms)`),
      );
    }
    if (body === 'unsupported_encoding') {
      return refuse(
        request,
        415,
        body,
        new PaymentsError(
          'Content-Encoding must be absent or identity, and Transfer-Encoding chunked or absent',
        ),
      );
    }

    const parsed = safeParseCallback(body, parseOptions);
    if (!parsed.success) {
      // The outcome could not be decided: 422, so the order stays pending and the sender retries.
      const reason = parsed.error.reason;
      return reason === 'contradictory_outcome' ||
        reason === 'unrecognised_status' ||
        reason === 'missing_status'
        ? refuse(request, 422, reason, parsed.error)
        : refuse(request, 400, 'invalid_payload', parsed.error);
    }
    const event = parsed.event;
    const reference = signedReference ?? event.reference;

    const mismatch = signedReference === undefined ? undefined : otherReference(event, signedReference);
    if (mismatch !== undefined) {
      return refuse(
        request,
        409,
        'reference_mismatch',
        new CallbackParseError(
          `The ${event.type} payload's ${mismatch} is not the reference signed into the callback URL`,
          { reason: 'reference_mismatch', closestVariant: event.type },
        ),
      );
    }

    let claimed = false;
    let claimedAt = 0;
    let dedupeKey = '';
    let transaction: TransactionRecord | undefined;
    try {
      if (settlement !== undefined) {
        const found = await settlement.find(event, signedReference);
        if (!found.ok) return await refuse(request, found.status, found.reason, found.error);
        transaction = found.record;
      }
      // The recorded transaction's amount and currency first, then the merchant's own `expected`:
      // given both, both must agree (expected is not asked once the record has refused).
      let refusal =
        transaction === undefined
          ? undefined
          : expectationRefusal(event, reference, settlement!.expected(transaction));
      if (refusal === undefined && options.expected !== undefined) {
        const expected = await options.expected(event, contextOf(request, { reference }));
        refusal = expectationRefusal(event, reference, expected);
      }
      if (refusal !== undefined) return refuse(request, refusal.status, refusal.reason, refusal.error);

      // A checkout callback has no transaction id: the signature of its URL, made for one session,
      // keeps two sessions of one order apart (callbackDedupeKey uses it for a checkout only).
      dedupeKey = callbackDedupeKey(event, signedReference, signature);
      if (store !== undefined) {
        const begin = async (): Promise<unknown> => {
          try {
            const answer = await store.begin(dedupeKey, processingTimeoutMs);
            if (answer === 'new' || answer === 'done') stranded.claimed(dedupeKey);
            return answer;
          } catch (error) {
            if (isA(error, Error)) throw error;
            throw new PaymentsError("The dedupe store's begin() threw a value that is not an Error", {
              cause: error,
            });
          }
        };
        // Timed from before the call: the store may write the claim long before its reply arrives.
        let askedAt = monotonicNow();
        let state = await begin();
        const left = state === 'in_progress' ? stranded.take(dedupeKey) : undefined;
        if (left?.left === 'complete') {
          // Processed: onEvent resolved, only the store's record of it failed.
          const failed = await stranded.settle(dedupeKey, left.at, 'complete', () =>
            store.complete(dedupeKey, dedupeTtlMs),
          );
          if (failed !== undefined) await notRecorded(request, failed);
          return received(true);
        }
        if (left?.left === 'abandon') {
          const failed = await stranded.settle(dedupeKey, left.at, 'abandon', () => store.abandon(dedupeKey));
          if (failed === undefined) {
            askedAt = monotonicNow();
            state = await begin();
          }
        }
        if (state === 'done') return received(true);
        if (state === 'in_progress') {
          return refuse(
            request,
            503,
            'in_progress',
            new PaymentsError(`${event.type}${about(reference)}: already being processed`),
            RETRY_LATER,
          );
        }
        if (state === 'full') {
          return refuse(
            request,
            503,
            'dedupe_store_full',
            new PaymentsError('The dedupe store holds as many events in progress as it may'),
            RETRY_LATER,
          );
        }
        // Anything else is not a claim (a store passing on Redis's 'OK' or null): 500, and the
        // sender retries once the store is fixed. Its type only: the value could be anything.
        if (state !== 'new') {
          throw new PaymentsError(
            `The dedupe store's begin() answered ${state === null ? 'null' : typeof state}, not 'new', 'in_progress', 'done' or 'full'`,
          );
        }
        claimed = true;
        claimedAt = askedAt;
      }

      let tracked: Pick<CallbackContext, 'transaction' | 'settlement'> | undefined;
      if (transaction !== undefined) {
        const settled = await settlement!.settle(event, transaction, dedupeKey);
        if (!settled.ok) {
          // Only a claim still this delivery's (as below): an expired one may be another's now.
          if (claimed && monotonicNow() - claimedAt < processingTimeoutMs) {
            await stranded.settle(dedupeKey, claimedAt, 'abandon', () => store!.abandon(dedupeKey));
          }
          claimed = false;
          return await refuse(request, settled.status, settled.reason, settled.error);
        }
        tracked = { transaction: settled.settlement.record, settlement: settled.settlement.result };
      }
      // Another payment's failure moves no money and changes nothing: onEvent is not told (a route
      // that marks the order failed on !event.paid would undo a payment).
      if (!(tracked?.settlement === 'another_payment' && !event.paid)) {
        await options.onEvent(event, contextOf(request, { reference, dedupeKey }, tracked));
      }
      if (claimed) {
        claimed = false;
        // The event was processed: answer 200 even if the store cannot record it (a retry would
        // then wait for the claim to expire rather than run onEvent twice at once); onError is told.
        const failed = await stranded.settle(dedupeKey, claimedAt, 'complete', () =>
          store!.complete(dedupeKey, dedupeTtlMs),
        );
        if (failed !== undefined) await notRecorded(request, failed);
      }
      return received(false);
    } catch (error) {
      // A claim older than processingTimeoutMs has expired and may be another delivery's now:
      // releasing it would let a third copy run while that one still does.
      if (claimed && monotonicNow() - claimedAt < processingTimeoutMs) {
        await stranded.settle(dedupeKey, claimedAt, 'abandon', () => store!.abandon(dedupeKey));
      }
      const failure = isA(error, Error)
        ? error
        : new PaymentsError('onEvent threw a value that is not an Error', { cause: error });
      return refuse(request, 500, 'handler_failed', failure);
    }
  };

  const handler: CallbackHandler = async (request) => {
    const { status, headers, body } = await core(inboundFromRequest(request));
    return new Response(body, { status, headers });
  };
  Object.defineProperty(handler, CORE, { value: core });
  return handler;
}
