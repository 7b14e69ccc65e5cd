// The one ky instance per client, the logging hooks, and the one place that turns a response
// (or a failure to get one) into a typed error. Data flows one way: wire body → here → typed
// response or typed error.
import ky, { HTTPError, TimeoutError as KyTimeoutError, type KyInstance } from 'ky';
import type * as z from 'zod';
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

/** The four client operations, as named in hook events and error messages. */
export type Operation =
  'initiateCardPayment' | 'initiateMobileMoneyPayment' | 'createCheckoutSession' | 'initiatePayout';

/** What a `beforeRequest` hook receives. Card number and cvc are already redacted. */
export interface RequestLogEvent {
  readonly operation: Operation;
  readonly method: 'POST';
  readonly url: string;
  /** Request headers, lower-cased names, the Authorization value redacted. */
  readonly headers: Readonly<Record<string, string>>;
  /** The wire body with `card_number` as `'**** **** **** 4242'` and `cvc` as `'[redacted]'`. */
  readonly body: unknown;
}

/** What an `afterResponse` hook receives. Card number and cvc are redacted from the body text. */
export interface ResponseLogEvent extends RequestLogEvent {
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** The raw response body text, card number and cvc of the request redacted if echoed. */
  readonly responseBody: string;
  /** Milliseconds from sending to the whole body read. */
  readonly durationMs: number;
}

/** Logging hooks. A hook that throws fails the call (for `afterResponse`, after the request was sent). */
export interface ClientHooks {
  /** Called once per call, before the request is sent (after validation). */
  beforeRequest?: (event: RequestLogEvent) => void | Promise<void>;
  /** Called once per call with the final response (after any opted-in retries). */
  afterResponse?: (event: ResponseLogEvent) => void | Promise<void>;
}

/** Opt-in retries. Initiations are not idempotent: a retried POST may charge or pay out twice. */
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

/** Headers as an object, or a (possibly async) function called before every request. */
export type HeadersOption = HeadersInit | (() => HeadersInit | Promise<HeadersInit>);

/** Per-call options of every client method. */
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
  if (error instanceof KyTimeoutError || (error instanceof DOMException && error.name === 'TimeoutError')) {
    return new TimeoutError(timeout, {
      cause: new DOMException(`${context.operation} timed out after ${timeout} ms`, 'TimeoutError'),
    });
  }
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const detail = typeof code === 'string' ? code : error instanceof Error ? error.message : 'network error';
  return new ConnectionError(
    `Could not get a response to ${context.operation} from ${new URL(context.url).origin} (${detail}); if the connection was reset, the service may have received the request`,
    { cause: error instanceof HTTPError || error instanceof KyTimeoutError ? undefined : error },
  );
}

const defaultStatusCodes = [408, 429, 500, 502, 503, 504];

/** Sends wire bodies: one ky instance, no retries unless opted in, errors mapped here. */
export class Http {
  readonly #ky: KyInstance;
  readonly #config: HttpConfig;
  readonly #staticHeaders: Record<string, string>;
  readonly #retry: RetryOptions | undefined;

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
    // Fast path: the body is a pre-serialised string, errors are mapped by us, nothing retries.
    this.#ky = ky.create({
      throwHttpErrors: false,
      retry: 0,
      timeout: config.timeout,
      ...(config.fetch === undefined ? {} : { fetch: config.fetch as typeof fetch }),
    });
  }

  /** POSTs a wire body to `path` and returns the response validated by `schema`. */
  async post<S extends z.ZodType>(
    operation: Operation,
    path: string,
    body: object,
    schema: S,
    options: RequestOptions = {},
  ): Promise<z.output<S>> {
    const context: Context = {
      operation,
      url: joinUrl(this.#config.baseUrl, path),
      secrets: cardSecretsOf(body),
    };
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
        ? {
            operation,
            method: 'POST',
            url: context.url,
            headers: redactHeaders(headers),
            body: redactWireBody(body),
          }
        : undefined;
    if (hooks?.beforeRequest && logEvent) await hooks.beforeRequest(logEvent);

    const started = Date.now();
    const retry = this.#retry;
    let response: Response;
    try {
      response = await this.#ky.post(context.url, {
        body: stringifyWireBody(body),
        headers,
        timeout,
        signal: options.signal,
        ...(retry === undefined
          ? {}
          : {
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
            }),
      });
    } catch (error) {
      if (!(error instanceof HTTPError)) throw errorFromFailure(context, error, options.signal, timeout);
      response = error.response;
    }

    const text = await this.#readBody(context, response, options.signal, timeout, started);
    const responseHeaders = headersOf(response);
    if (hooks?.afterResponse && logEvent) {
      await hooks.afterResponse({
        ...logEvent,
        status: response.status,
        responseHeaders,
        responseBody: redactText(text, context.secrets),
        durationMs: Date.now() - started,
      });
    }
    const raw = {
      status: response.status,
      statusText: response.statusText,
      headers: responseHeaders,
      body: text,
    };
    if (!response.ok) throw errorFromResponse(context, raw);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // The SyntaxError quotes the body, so it is not kept as the cause.
      throw errorFromResponse(context, raw, [
        { path: [], code: 'invalid_json', message: 'the body is not valid JSON' },
      ]);
    }
    const result = schema.safeParse(json);
    if (!result.success) throw errorFromResponse(context, raw, toValidationIssues(result.error.issues));
    return result.data;
  }

  /** Reads the body within what is left of the timeout (ky's timeout covers only the headers). */
  async #readBody(
    context: Context,
    response: Response,
    signal: AbortSignal | undefined,
    timeout: number,
    started: number,
  ): Promise<string> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          void response.body?.cancel().catch(() => undefined);
          reject(new DOMException('body read timed out', 'TimeoutError'));
        },
        Math.max(timeout - (Date.now() - started), 1),
      );
    });
    try {
      return await Promise.race([response.text(), expired]);
    } catch (error) {
      throw errorFromFailure(context, error, signal, timeout);
    } finally {
      clearTimeout(timer);
    }
  }
}
