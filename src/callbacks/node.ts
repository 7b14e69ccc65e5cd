/**
 * `toNodeListener`: a handler from `createCallbackHandler` as a node:http / Express `(req, res)`
 * listener — a thin adapter around the handler's transport-neutral core: it
 * reads the capped body straight from the `IncomingMessage` into a buffer and writes the answer
 * straight to the `ServerResponse`, with no Fetch `Request` or `Response` in between. node:http is
 * imported for its types only, so this module loads on any runtime.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import {
  callbackCoreOf,
  isEncoded,
  isTransferCoded,
  HOST,
  type BodyRead,
  type CallbackHandler,
  type InboundCallback,
} from './handler.js';
import { PaymentsError } from '../errors.js';
import { concatBytes, encoder } from '../internal/bytes.js';

/**
 * The request `toNodeListener` accepts: node:http's, or Express's (which adds `body` when a body
 * parser ran, and `originalUrl`), with `rawBody` where a middleware kept the posted bytes (NestJS's
 * `rawBody: true`, or a body parser's `verify` hook).
 *
 * @example
 * ```ts
 * import type { ServerResponse } from 'node:http';
 * const listener: (req: NodeCallbackRequest, res: ServerResponse) => void = toNodeListener(handler);
 * ```
 */
export type NodeCallbackRequest = IncomingMessage & {
  body?: unknown;
  rawBody?: unknown;
  originalUrl?: string;
};

/**
 * A request listener for node:http, node:https, Express and node:http2's compatibility API. It
 * returns nothing: it answers every request itself, so nothing is left for the server to await or
 * catch.
 *
 * @example
 * ```ts
 * import http2 from 'node:http2';
 *
 * const listener: NodeCallbackListener = toNodeListener(handler);
 * http2.createServer(listener).listen(3000);
 * ```
 */
export interface NodeCallbackListener {
  /** node:http2's compatibility API: `http2.createServer(listener)`, `http2.createSecureServer(options, listener)`. */
  (req: Http2ServerRequest, res: Http2ServerResponse): void;
  /** node:http, node:https, Express. */
  (req: NodeCallbackRequest, res: ServerResponse): void;
}

/** The request of either server API, as the adapter reads it. */
type NodeRequest =
  NodeCallbackRequest | (Http2ServerRequest & Pick<NodeCallbackRequest, 'body' | 'rawBody' | 'originalUrl'>);
/** The response of either server API. */
type NodeResponse = ServerResponse | Http2ServerResponse;

/** A request of node:http2's compatibility API, whose answers have no Connection header. */
const isHttp2 = (req: NodeRequest): boolean => req.httpVersionMajor >= 2;

/**
 * Reads the body from the socket into one buffer: at most `max` bytes (`'too_large'` as soon as
 * more arrive, by Content-Length or while reading) within `timeoutMs` (`'timeout'`). Either way it
 * stops listening; the listener then discards the rest and closes the connection. A body with a
 * Content-Encoding other than `identity` is `'unsupported_encoding'`, left unread.
 */
function readNodeBody(req: NodeRequest, max: number, timeoutMs: number): Promise<BodyRead> {
  if (isEncoded(req.headers['content-encoding'])) return Promise.resolve('unsupported_encoding');
  const declared = req.headers['content-length'];
  const length = declared === undefined ? undefined : Number(declared);
  if (length !== undefined && length > max) return Promise.resolve('too_large');
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    const stop = (): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const done = (read: BodyRead): void => {
      stop();
      resolve(read);
    };
    const onData = (chunk: Uint8Array | string): void => {
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      total += bytes.byteLength;
      if (total > max) done('too_large');
      else chunks.push(bytes);
    };
    const onEnd = (): void => done(concatBytes(chunks, total));
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    // The client went away mid-body: under HTTP/2 the stream then ends as if the body were whole.
    const onAborted = (): void => onError(new Error(CLIENT_GONE));
    // No sender to wait for when the message is in memory whole: the parser says so, or, under
    // HTTP/1 (whose parser ends a message at its Content-Length), every declared byte is buffered
    // (the parser marks the message complete only later). An HTTP/2 stream may stay open after
    // its declared bytes, so it is always timed.
    const inMemory =
      req.complete || (req.httpVersionMajor === 1 && length !== undefined && req.readableLength >= length);
    const timer = inMemory ? undefined : setTimeout(() => done('timeout'), timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
    req.resume(); // in case something paused it before the route
  });
}

const CLIENT_GONE = 'The client closed the connection before the body was read';

/** `application/json` or `application/…+json`, parameters aside. */
const JSON_TYPE = /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** The two usual ways of keeping the posted bytes as `req.rawBody`, for the messages below. */
const KEEP_RAW_BODY =
  'NestJS: rawBody: true; Express: express.json({ verify: (req, _res, buf) => { Object.assign(req, { rawBody: buf }); } })';

/**
 * The body a parser already read, or `undefined` to read the stream (while it is unread, whatever
 * `req.body` and `req.rawBody` hold). Where the request carries the posted bytes as `req.rawBody`
 * (NestJS's `rawBody: true` sets it, as does an `express.json()` whose `verify` hook keeps its
 * buffer), those bytes, whatever `req.body` holds (see {@link keptBytes}). Else `express.raw()`'s
 * Buffer as is, and `express.text()`'s text. Anything else is not what the sender posted, and
 * throws a PaymentsError (500 `handler_failed`, so the sender retries) that says how to mount the
 * route: the value a JSON parser made of a JSON body (Content-Type `application/json` or
 * `…+json`), an object, array, number, boolean or `null` in which JSON.parse has already rounded
 * any number with more digits than it keeps and kept only the last of a repeated key, so that the
 * route cannot read them as sent; nothing at all (a middleware read the stream and kept the bytes
 * elsewhere: the body is out of reach, not empty); a parsed form (`express.urlencoded()`); text
 * holding U+FFFD (what a decoder puts in place of bytes that are not UTF-8; the Fetch handler
 * refuses those bytes); and a string whose UTF-8 length is not the Content-Length of an unencoded
 * body, less a leading byte order mark express.text() dropped (such as the one
 * `express.json({ strict: false })` unwrapped from a JSON string).
 */
function bufferedBody(req: NodeRequest): Uint8Array | undefined {
  if (!req.readableEnded) return undefined;
  const { 'content-length': declared, 'content-encoding': encoding } = req.headers;
  const kept = req.rawBody;
  if (kept !== undefined && kept !== null) return keptBytes(kept, declared, encoding);
  const body = req.body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (typeof body === 'string' && !body.includes('\uFFFD')) {
    const bytes = encoder.encode(body);
    // express.text() drops a leading byte order mark (3 bytes), which the route skips anyway. A
    // string express.json({ strict: false }) unwrapped is shorter by its quotes and escapes: 3
    // bytes only for a text that is no JSON object (an object's keys add at least 2 escapes).
    const missing = Number(declared) - bytes.byteLength;
    if (declared === undefined || isEncoded(encoding) || missing === 0 || missing === 3) return bytes;
  }
  if (body !== undefined && typeof body !== 'string' && JSON_TYPE.test(req.headers['content-type'] ?? '')) {
    throw new PaymentsError(
      `toNodeListener: req.body is what a JSON parser made of the body, whose numbers and keys are no longer as sent (JSON.parse rounds long numbers, keeps the last of a repeated key); mount the webhook route before express.json(), give it express.raw({ type: '*/*' }), or keep the posted bytes as req.rawBody (${KEEP_RAW_BODY})`,
    );
  }
  throw new PaymentsError(
    `toNodeListener: req.body is not the posted body (a middleware such as express.urlencoded() already read it); mount the webhook route before it, give it express.raw({ type: '*/*' }), or keep the posted bytes as req.rawBody (${KEEP_RAW_BODY})`,
  );
}

/**
 * The posted bytes a middleware kept as `req.rawBody`: a Buffer (any `Uint8Array`) as is, or text
 * as UTF-8. Throws a PaymentsError (500 `handler_failed`, as {@link bufferedBody} does) for anything
 * else, for text holding U+FFFD (bytes that were not UTF-8, decoded), and for bytes whose length is
 * not the Content-Length of an unencoded body. A body with a Content-Encoding is taken as the
 * parser inflated it (its Content-Length counts the encoded bytes).
 */
function keptBytes(kept: unknown, declared: string | undefined, encoding: string | undefined): Uint8Array {
  let bytes: Uint8Array | undefined;
  if (kept instanceof Uint8Array) bytes = kept;
  else if (typeof kept === 'string' && !kept.includes('\uFFFD')) bytes = encoder.encode(kept);
  if (bytes === undefined) {
    throw new PaymentsError(
      `toNodeListener: req.rawBody is not the posted body (neither bytes nor UTF-8 text); keep there the Buffer the body parser read (${KEEP_RAW_BODY})`,
    );
  }
  if (declared !== undefined && !isEncoded(encoding) && Number(declared) !== bytes.byteLength) {
    throw new PaymentsError(
      `toNodeListener: req.rawBody is not the posted body (${bytes.byteLength} bytes, not the Content-Length ${declared}); keep there the Buffer the body parser read (${KEEP_RAW_BODY})`,
    );
  }
  return bytes;
}

/**
 * The Host the request names: its one Host header, or under HTTP/2 its `:authority` (a `host`
 * header beside it must agree); `undefined` for none, for Host given twice, or for a disagreement.
 */
function hostOf(req: NodeRequest): string | undefined {
  const { host, ':authority': authority } = req.headers;
  if (repeats(req, 'host') || (host !== undefined && authority !== undefined && host !== authority)) {
    return undefined;
  }
  return host ?? (typeof authority === 'string' ? authority : undefined);
}

/**
 * The URL the handler verifies: the host from {@link hostOf} (which `publicOrigin` overrides in
 * the handler), the path and query from the request-target alone. An absolute-form target must
 * name the same authority as the Host header; any other form (`*`, authority-form, a fragment) is
 * refused, and so is a path the URL parser would not keep as written (see {@link asWritten}).
 * `undefined` for a Host or request-target it cannot build the URL from; a Host or target the URL
 * parser refuses throws its TypeError (the caller takes both alike).
 */
function requestUrl(req: NodeRequest): URL | undefined {
  const target = req.originalUrl ?? req.url ?? '';
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const scheme = encrypted ? 'https' : 'http';
  const rawHost = hostOf(req);
  if (rawHost === undefined || !HOST.test(rawHost) || target.includes('#')) return undefined;
  if (target.startsWith('/')) {
    // Concatenated, not resolved: a path like `//other.host/x` must not change the host. The
    // Host matched HOST (no '/', '\\', '?', '#' or '@'), so the authority ends where the target
    // begins: one parse both checks the Host and builds the URL.
    return asWritten(new URL(`${scheme}://${rawHost}${target}`), target);
  }
  if (!/^https?:\/\//i.test(target)) return undefined;
  // The WHATWG form of the Host (lower-case, default port dropped), as the target's is.
  const host = new URL(`${scheme}://${rawHost}`).host;
  const absolute = new URL(target);
  if (absolute.host !== host || absolute.username !== '' || absolute.password !== '') return undefined;
  return asWritten(
    new URL(`${scheme}://${host}${absolute.pathname}${absolute.search}`),
    target.replace(/^https?:\/\/[^/?]*/i, ''),
  );
}

/**
 * `url`, when its path is the request-target's path as written. The URL parser removes dot
 * segments (`..`, `%2e%2e`), reads `\` as `/` and escapes what a path may not hold, while a router
 * (Express's `app.use('/webhooks/payments', …)`) matches the target as written: the path verified
 * must be the path routed, or a URL signed for one route would verify on another. A signed URL's
 * path is already in the parser's form, so a genuine delivery is never refused.
 */
const asWritten = (url: URL, pathAndQuery: string): URL | undefined =>
  url.pathname === pathAndQuery.split('?', 1)[0] ? url : undefined;

/**
 * Adapts a handler made by `createCallbackHandler` to node:http and Express (any other function is
 * refused with a `TypeError`: this adapter runs that handler's transport-neutral core, so there is
 * one implementation). It reads the raw stream itself (no further than the handler's
 * `maxBodyBytes`, nor longer than its `bodyTimeoutMs`), or, when a body parser read it first, takes
 * the posted bytes the request carries as `req.rawBody` (a Buffer or text; NestJS's `rawBody: true`
 * sets it, and so does `express.json({ verify: (req, _res, buf) => { Object.assign(req, { rawBody: buf }); } })`), else
 * what the parser left in `req.body`: `express.raw()`'s Buffer or `express.text()`'s text. Either is
 * answered 413 when over `maxBodyBytes` by its length or its Content-Length. A value a JSON parser
 * made of the body (`express.json()`'s object, array, number, boolean or `null`) is not the body:
 * JSON.parse has already rounded any number with more digits than it keeps and kept only the last
 * of a repeated key, where the route reads numbers and keys as the sender wrote them; it is
 * refused, not guessed at. So are a form `express.urlencoded()` parsed, text holding U+FFFD (bytes
 * that were not UTF-8, decoded), a string `express.json({ strict: false })` unwrapped from a JSON
 * string, a `req.rawBody` whose length is not the Content-Length of an unencoded body, and a body a
 * middleware read and left out of both `req.body` and `req.rawBody`: each is answered 500
 * `handler_failed` (the sender retries), and `onError` gets a `PaymentsError` saying why and to
 * mount the route before the body parser, give it `express.raw()`, or keep `req.rawBody`. A stream
 * it would read itself whose Content-Encoding is not `identity` is answered 415
 * `unsupported_encoding`, unread (a parser's output is taken as inflated). A message with
 * Content-Length given more than once (node:http refuses it itself; another runtime's node:http may
 * pass it on) is answered 400 `invalid_payload`, unread. The Request URL is built from the path and
 * query of the request-target (`originalUrl` on Express, else `url`) and the Host header (under
 * node:http2's compatibility API, `:authority`), which must be one valid `host[:port]`; an
 * absolute-form target must name that same host, and the path must be one the URL parser keeps as
 * written. Anything else (Host missing or given twice, an HTTP/2 `host` header that is not the
 * `:authority`, a path with dot segments such as `/a/../b` or `/a/%2e%2e/b`, or a backslash) gets
 * 400 `invalid_request` (and `onError` hears of it) before any other check: a router matches the
 * path as written, so the path verified must be that one. Set the handler's `publicOrigin` in
 * production: the host is then checked against it, not against the Host the client sent. An
 * answer that leaves the body unread or read in part (a 401 or 405 given before reading it, 408,
 * 413, 415) closes an HTTP/1 connection, and the requests a sender pipelined behind it on that
 * connection are not processed (no answer could reach the sender, which delivers them again).
 * Pipelined requests are processed one at a time, in order.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import http from 'node:http';
 *
 * const handler = createCallbackHandler({
 *   secret,
 *   publicOrigin: 'https://shop.example',
 *   onEvent: async (event, { reference }) => { await orders.settle(reference, event.paid); },
 * });
 * const app = express();
 * app.post('/webhooks/payments', toNodeListener(handler));
 *
 * // or plain node:http
 * http.createServer(toNodeListener(handler)).listen(3000);
 * ```
 */
export function toNodeListener(handler: CallbackHandler): NodeCallbackListener {
  const core = callbackCoreOf(handler);
  if (core === undefined) {
    throw new TypeError(
      'toNodeListener: pass the handler createCallbackHandler returned (wrap the listener, not the handler, to add behaviour)',
    );
  }
  // Answers the request; `true` when the answer closes the connection.
  const serve = async (req: NodeRequest, res: NodeResponse): Promise<boolean> => {
    let url: URL | undefined;
    try {
      url = requestUrl(req); // undefined: the core answers 400 invalid_request (and tells onError)
    } catch {
      url = undefined; // likewise
    }
    const answer = await core(inboundFromNode(req, url));
    if (res.headersSent) return false;
    // Status and headers set, not written: `end` then writes them with the body's Content-Length
    // (`writeHead` would write them before the length is known, and the body would go chunked).
    res.statusCode = answer.status;
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    const closes = !req.readableEnded;
    if (closes) {
      // A body left unread (refused before reading, 413, 408): discard the rest, close the
      // connection (HTTP/1; HTTP/2 has no Connection header, and ends only the stream).
      if (!isHttp2(req)) res.setHeader('connection', 'close');
      req.resume();
    }
    if (answer.body === null) res.end();
    else res.end(answer.body);
    return closes;
  };
  const respond = (req: NodeRequest, res: NodeResponse): Promise<boolean> =>
    serve(req, res).catch(() => {
      // The core answers every failure it knows of; this is the response failing under it. Never
      // a 2xx: the sender keeps the callback and delivers it again.
      try {
        if (!res.headersSent) {
          // Its own Content-Length: an `end(body)` that failed has left the body's length set.
          // Connection: close under HTTP/1 only (HTTP/2 has no Connection header).
          res.writeHead(500, isHttp2(req) ? CLOSED_HTTP2 : CLOSED_HTTP1).end();
          return true;
        }
      } catch {
        // the response cannot even say 500: drop the connection
      }
      res.destroy();
      return true;
    });
  return (req: NodeRequest, res: NodeResponse): void => {
    // On an HTTP/1 connection, requests are served one at a time in the order they reach a
    // listener (any listener: `turns` is shared). node:http writes pipelined answers in that order
    // and none after one that closes the connection, so a request behind such an answer is not
    // served at all (RFC 9112 §9.6): never processed for a sender that would not hear of it and
    // would deliver it again. The connection's close ends it. HTTP/2 streams, and a request
    // without a socket, are served at once.
    const socket = isHttp2(req) ? undefined : (req.socket as object | undefined);
    const before = socket && turns.get(socket);
    const turn = (before ?? NOT_CLOSED).then((closed) => closed || respond(req, res));
    if (socket) turns.set(socket, turn);
  };
}

/**
 * Per HTTP/1 connection (its socket), the turn of the last request a listener got: it settles once
 * that request is answered, to `true` once an answer has closed the connection.
 */
const turns = new WeakMap<object, Promise<boolean>>();
const NOT_CLOSED = Promise.resolve(false);

/** The last-resort 500's headers: no body, and the connection closed where HTTP/1 can say so. */
const CLOSED_HTTP1 = { connection: 'close', 'content-length': '0' };
const CLOSED_HTTP2 = { 'content-length': '0' };

/** The core's view of a node:http request; the Fetch `Request` for `context.request` is built only if asked for. */
function inboundFromNode(req: NodeRequest, url: URL | undefined): InboundCallback {
  const method = req.method ?? 'GET';
  let request: Request | undefined;
  return {
    method,
    url,
    readBody: async (max, timeoutMs) => {
      // node:http refuses such a message before the route runs; a runtime whose parser passes it
      // on framed the body by one of the lengths, which the route cannot check.
      if (repeats(req, 'content-length')) throw new Error('Content-Length is given more than once');
      // The client went away before the route read the body: its stream is destroyed (HTTP/1: no
      // data, end or error will come, and a message whole in memory arms no timer) or was dumped
      // (HTTP/2). Both APIs set `aborted` only for a body not read to its end.
      if ((req as { aborted?: unknown }).aborted === true) throw new Error(CLIENT_GONE);
      // node:http undoes only chunked: the bytes of any other transfer coding are still coded.
      if (isTransferCoded(req.headers['transfer-encoding'])) return 'unsupported_encoding';
      const declared = req.headers['content-length'];
      const bytes = bufferedBody(req);
      if (bytes === undefined) {
        // Bytes may already have flowed to another 'data' listener (a middleware that taps the
        // stream and calls next() at once), or been put back (unshift): the body read is the
        // posted one only if it holds every declared byte. Without a Content-Length, no telling.
        const touched = req.readableDidRead;
        const read = await readNodeBody(req, max, timeoutMs);
        if (
          touched &&
          typeof read !== 'string' &&
          (declared === undefined || read.byteLength !== Number(declared))
        ) {
          throw new PaymentsError(
            `toNodeListener: the body was already read from the request stream by another listener before the route read it; mount the webhook route before that middleware, or keep the posted bytes as req.rawBody (${KEEP_RAW_BODY})`,
          );
        }
        return read;
      }
      // What a parser left can be shorter than what was posted (express.text() drops a byte order
      // mark): the declared length is held to the cap as well, as when reading the stream.
      return bytes.byteLength > max || Number(declared) > max ? 'too_large' : bytes;
    },
    // An invalid Host or request-target has no URL of its own: the Request then names a
    // placeholder (`http://invalid.invalid/`), its headers still the ones received.
    toRequest: () => (request ??= fetchRequest(url ?? 'http://invalid.invalid/', method, fetchHeaders(req))),
  };
}

/**
 * A Fetch `Request` with this method, URL and headers. A method the Fetch API builds no Request
 * for (TRACE, CONNECT, TRACK: `new Request` throws) is built as a GET whose `method` property reads
 * the method received, so that `onError` can read and log such a request as any other.
 */
function fetchRequest(url: URL | string, method: string, headers: Headers): Request {
  try {
    return new Request(url, { method, headers });
  } catch {
    const request = new Request(url, { method: 'GET', headers });
    Object.defineProperty(request, 'method', { value: method });
    return request;
  }
}

/** Whether the request has more than one line of the header `name` (given in lower case). */
function repeats(req: NodeRequest, name: string): boolean {
  let lines = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === name && ++lines > 1) return true;
  }
  return false;
}

/** The request's headers as Fetch `Headers` (the body is not included: the core has read it). */
function fetchHeaders(req: NodeRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    try {
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    } catch {
      // a header the Fetch API refuses is not one the handler needs
    }
  }
  return headers;
}
