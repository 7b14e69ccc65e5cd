// The transport: the default single-attempt path on the platform's fetch, the one ky instance
// per client for opted-in retries, the logging hooks, and the one place that turns a response
// (or a failure to get one) into a typed error. Data flows one way: wire body → here → typed
// response or typed error.
import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import { ApiError, ConnectionError, TimeoutError, type ValidationIssue } from './errors.js';
import { toValidationIssues } from './internal/issues.js';
import { stringifyWireBody } from './internal/json.js';
import {
  cardSecretsOf,
  redactHeaders,
  redactText,
  redactWireBody,
  type CardSecrets,
} from './internal/redact.js';

// ky is loaded on first use (opted-in retries only): importing it runs a feature probe that builds
// a Request with a ReadableStream, which makes Node load its fetch and web streams at import time —
// ~50 ms of the main entry's cold start (bench/experiments/import-cost.mjs), for a path the default
// client never takes. Its errors are recognised by name, so no class import is needed.
const isKyError = (error: unknown, name: 'HTTPError' | 'TimeoutError'): boolean =>
  error instanceof Error && error.name === name && 'request' in error;

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
 * What a `beforeRequest` hook receives. Card number and cvc are already redacted.
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
  /** Request headers, lower-cased names, the Authorization value redacted. */
  readonly headers: Readonly<Record<string, string>>;
  /** The wire body with `card_number` as `'**** **** **** 4242'` and `cvc` as `'[redacted]'`. */
  readonly body: unknown;
}

/**
 * What an `afterResponse` hook receives. Card number and cvc are redacted from the body text.
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
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** The raw response body text, card number and cvc of the request redacted if echoed. */
  readonly responseBody: string;
  /** Milliseconds from sending to the whole body read. */
  readonly durationMs: number;
}

/**
 * Logging hooks. A hook that throws fails the call (for `afterResponse`, after the request was sent).
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
  /** Called once per call, before the request is sent (after validation). */
  beforeRequest?: (event: RequestLogEvent) => void | Promise<void>;
  /** Called once per call with the final response (after any opted-in retries). */
  afterResponse?: (event: ResponseLogEvent) => void | Promise<void>;
}

/**
 * Opt-in retries. Initiations are not idempotent: a retried POST may charge or pay out twice.
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
  /** Statuses that are retried. Default `[408, 429, 500, 502, 503, 504]`. */
  statusCodes?: number[];
  /** Also retry after a timeout. Default `false`. */
  retryOnTimeout?: boolean;
  /** Longest `Retry-After` (429, 503) honoured, in ms; a longer one ends the retries. Default: the timeout. */
  maxRetryAfter?: number;
  /** Upper bound of the exponential backoff (300 ms, 600 ms, …) in ms. Default: none. */
  backoffLimit?: number;
}

/**
 * Headers as an object, or a (possibly async) function called before every request.
 *
 * @example
 * ```ts
 * const client = new PaymentsClient({ baseUrl, headers: async () => ({ 'x-request-id': crypto.randomUUID() }) });
 * ```
 */
export type HeadersOption = HeadersInit | (() => HeadersInit | Promise<HeadersInit>);

/**
 * Per-call options of every client method.
 *
 * @example
 * ```ts
 * await client.initiatePayout(input, { signal: AbortSignal.timeout(5_000), headers: { 'x-request-id': 'abc' } });
 * ```
 */
export interface RequestOptions {
  /** Aborts the call; it then rejects with a `ConnectionError` whose `aborted` is true. */
  signal?: AbortSignal;
  /** Timeout of this call in ms, replacing the client's `timeout`. */
  timeout?: number;
  /** Headers of this call, merged over the client's. */
  headers?: HeadersInit;
}

/** The resolved transport settings of a client. */
export interface HttpConfig {
  baseUrl: string;
  apiKey?: string;
  headers?: HeadersOption;
  timeout: number;
  retry?: RetryOptions | number;
  fetch?: (input: Request, init?: RequestInit) => Promise<Response>;
  hooks?: ClientHooks;
}

const lowerCased = (init: HeadersInit | undefined): Record<string, string> => {
  const out: Record<string, string> = {};
  if (init === undefined) return out;
  if (!Array.isArray(init) && !(init instanceof Headers)) {
    for (const [name, value] of Object.entries(init)) out[name.toLowerCase()] = value;
    return out;
  }
  new Headers(init).forEach((value, name) => (out[name] = value));
  return out;
};

const headersOf = (response: Response): Record<string, string> => {
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => (out[name] = value));
  return out;
};

/** `https://x/api/v2/` + `api/payment/…` keeps the prefix; the spec's path keeps its own trailing slash. */
export const joinUrl = (baseUrl: string, path: string): string =>
  `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;

interface Context {
  readonly operation: Operation;
  readonly url: string;
  readonly secrets: CardSecrets | undefined;
}

/**
 * The one function that turns a response into an error: a non-2xx (`issues` empty), or a 2xx
 * whose body is not JSON or not the documented shape (`issues` say what is wrong). The body
 * has the request's card number and cvc redacted.
 */
export function errorFromResponse(
  context: Context,
  response: { status: number; statusText?: string; headers: Record<string, string>; body: string },
  issues: readonly ValidationIssue[] = [],
): ApiError {
  const where = `${context.operation} (POST ${context.url})`;
  const message =
    issues.length === 0
      ? `The service answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''} to ${where}; see error.body`
      : `The service answered HTTP ${response.status} to ${where} with a body that is not the documented shape (spec §2.8): ${issues
          .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
          .join('; ')}`;
  return new ApiError(message, {
    status: response.status,
    body: redactText(response.body, context.secrets),
    headers: response.headers,
    issues,
  });
}

/** Maps a failure to get a response. Never keeps a ky object (it holds the request) as `cause`. */
function errorFromFailure(
  context: Context,
  error: unknown,
  signal: AbortSignal | undefined,
  timeout: number,
): Error {
  if (signal?.aborted) {
    return new ConnectionError(`${context.operation} was aborted by the caller's signal`, {
      aborted: true,
      cause: signal.reason,
    });
  }
  if (isKyError(error, 'TimeoutError') || (error instanceof DOMException && error.name === 'TimeoutError')) {
    return new TimeoutError(timeout, {
      cause: new DOMException(`${context.operation} timed out after ${timeout} ms`, 'TimeoutError'),
    });
  }
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const detail = typeof code === 'string' ? code : error instanceof Error ? error.message : 'network error';
  return new ConnectionError(
    `Could not get a response to ${context.operation} from ${new URL(context.url).origin} (${detail}); if the connection was reset, the service may have received the request`,
    { cause: isKyError(error, 'HTTPError') || isKyError(error, 'TimeoutError') ? undefined : error },
  );
}

const defaultStatusCodes = [408, 429, 500, 502, 503, 504];

/**
 * Sends wire bodies: one attempt on the platform's `fetch` by default; the one ky instance
 * when retries are opted in; errors mapped here.
 */
export class Http {
  #ky: Promise<KyInstance> | undefined;
  readonly #config: HttpConfig;
  readonly #staticHeaders: Record<string, string>;
  readonly #retry: RetryOptions | undefined;
  readonly #urls = new Map<string, string>();

  constructor(config: HttpConfig) {
    this.#config = config;
    this.#retry = typeof config.retry === 'number' ? { limit: config.retry } : config.retry;
    if (this.#retry !== undefined && !(this.#retry.limit > 0)) this.#retry = undefined;
    this.#staticHeaders = {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(config.apiKey === undefined ? {} : { authorization: `Bearer ${config.apiKey}` }),
      ...(typeof config.headers === 'function' ? {} : lowerCased(config.headers)),
    };
  }

  /** POSTs a wire body to `path` and returns the response validated by `schema`. */
  async post<S extends z.core.$ZodType>(
    operation: Operation,
    path: string,
    body: object,
    schema: S,
    options: RequestOptions = {},
  ): Promise<z.output<S>> {
    let url = this.#urls.get(path);
    if (url === undefined) this.#urls.set(path, (url = joinUrl(this.#config.baseUrl, path)));
    const context: Context = { operation, url, secrets: cardSecretsOf(body) };
    const timeout = options.timeout ?? this.#config.timeout;
    const dynamic =
      typeof this.#config.headers === 'function' ? lowerCased(await this.#config.headers()) : undefined;
    const headers =
      dynamic === undefined && options.headers === undefined
        ? this.#staticHeaders
        : { ...this.#staticHeaders, ...dynamic, ...lowerCased(options.headers) };
    const hooks = this.#config.hooks;
    const logEvent: RequestLogEvent | undefined =
      hooks?.beforeRequest || hooks?.afterResponse
        ? { operation, method: 'POST', url, headers: redactHeaders(headers), body: redactWireBody(body) }
        : undefined;
    if (hooks?.beforeRequest && logEvent) await hooks.beforeRequest(logEvent);

    const started = Date.now();
    const wireText = stringifyWireBody(body);
    const custom = this.#config.fetch;
    const signal = options.signal;
    let response: Response;
    let text: string;
    if (this.#retry === undefined) {
      // Default path (no retries): one timer and one AbortController cover the whole call —
      // connect, headers and body — and the caller's signal is forwarded to it.
      const controller = new AbortController();
      const abort = () => controller.abort(signal?.reason);
      const timer = setTimeout(
        () =>
          controller.abort(new DOMException(`${operation} timed out after ${timeout} ms`, 'TimeoutError')),
        timeout,
      );
      if (signal?.aborted) abort();
      else signal?.addEventListener('abort', abort, { once: true });
      const init = { method: 'POST', headers, body: wireText, signal: controller.signal };
      const send = custom === undefined ? () => fetch(url, init) : () => custom(new Request(url, init));
      try {
        // Not through ky: even with no timeout, no retry and this fetch, each ky call builds two
        // undici Requests (its own and a clone for retries), each with an AbortSignal that undici
        // follows through a FinalizationRegistry — ~1.5× a bare fetch on loopback (bench/experiments/
        // ky-variants.mjs). The opted-in retry path below keeps ky for its backoff and Retry-After.
        response = await send();
        // A custom fetch may ignore the signal while reading the body: race it there.
        text =
          custom === undefined ? await response.text() : await this.#readBody(response, controller.signal);
      } catch (error) {
        throw errorFromFailure(context, error, signal, timeout);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
      }
    } else {
      // Opted-in retries: ky's timeout (per attempt), signal and retry machinery, then the body
      // read within what is left of the timeout.
      const retry = this.#retry;
      const send = (request: Request): Promise<Response> => {
        const init = { method: 'POST', headers, body: wireText, signal: request.signal };
        return custom === undefined ? fetch(url, init) : custom(new Request(url, init));
      };
      try {
        // ky runs the opted-in retries (backoff, Retry-After, per-attempt timeout, the caller's
        // signal). It is handed a body-less Request and a per-call `fetch` that sends the
        // pre-serialised string itself: given the body, ky turns it into a stream and tees it
        // with `clone()` for retries, and undici re-pipes a Request's stream body (about a
        // millisecond per call on loopback).
        this.#ky ??= import('ky').then(({ default: ky }) =>
          ky.create({ throwHttpErrors: false, retry: 0, timeout: this.#config.timeout }),
        );
        response = await (
          await this.#ky
        ).post(url, {
          fetch: send as typeof fetch,
          timeout,
          signal,
          throwHttpErrors: true,
          retry: {
            limit: retry.limit,
            methods: ['post'],
            statusCodes: retry.statusCodes ?? defaultStatusCodes,
            afterStatusCodes: [413, 429, 503],
            retryOnTimeout: retry.retryOnTimeout ?? false,
            maxRetryAfter: retry.maxRetryAfter ?? timeout,
            ...(retry.backoffLimit === undefined ? {} : { backoffLimit: retry.backoffLimit }),
          },
        });
      } catch (error) {
        if (!isKyError(error, 'HTTPError')) throw errorFromFailure(context, error, signal, timeout);
        response = (error as { response: Response }).response;
      }
      const deadline = AbortSignal.timeout(Math.max(timeout - (Date.now() - started), 1));
      try {
        text = await this.#readBody(response, deadline);
      } catch (error) {
        throw errorFromFailure(context, error, signal, timeout);
      }
    }

    if (hooks?.afterResponse && logEvent) {
      await hooks.afterResponse({
        ...logEvent,
        status: response.status,
        responseHeaders: headersOf(response),
        responseBody: redactText(text, context.secrets),
        durationMs: Date.now() - started,
      });
    }
    const raw = () => ({
      status: response.status,
      statusText: response.statusText,
      headers: headersOf(response),
      body: text,
    });
    if (!response.ok) throw errorFromResponse(context, raw());
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // The SyntaxError quotes the body, so it is not kept as the cause.
      throw errorFromResponse(context, raw(), [
        { path: [], code: 'invalid_json', message: 'the body is not valid JSON' },
      ]);
    }
    const result = z.safeParse(schema, json);
    if (!result.success) throw errorFromResponse(context, raw(), toValidationIssues(result.error.issues));
    return result.data;
  }

  /**
   * Reads the body, giving up when `deadline` aborts. It reads through its own reader so that
   * giving up cancels the stream and frees the socket (`body.cancel()` on the stream that
   * `response.text()` has locked would be refused, leaving the connection open).
   */
  async #readBody(response: Response, deadline: AbortSignal): Promise<string> {
    if (deadline.aborted) throw deadline.reason;
    const body = response.body;
    if (body === null) return '';
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let onAbort: () => void = () => undefined;
    const expired = new Promise<never>((_, reject) => {
      onAbort = () => {
        reject(deadline.reason);
        reader.cancel(deadline.reason).catch(() => undefined);
      };
    });
    deadline.addEventListener('abort', onAbort, { once: true });
    try {
      let text = '';
      for (;;) {
        const chunk = await Promise.race([reader.read(), expired]);
        // Cancelling settles a pending read as done: that is the deadline, not the end of the body.
        if (deadline.aborted) throw deadline.reason;
        if (chunk.done) return text + decoder.decode();
        text += decoder.decode(chunk.value, { stream: true });
      }
    } finally {
      deadline.removeEventListener('abort', onAbort);
    }
  }
}
