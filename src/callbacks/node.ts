/**
 * `toNodeListener`: the Fetch API handler as a node:http / Express `(req, res)` listener — a thin
 * adapter (STYLE.md habit 11), not a second implementation. node:http is imported for its types
 * only, so this module loads on any runtime.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallbackHandler } from './handler.js';

/**
 * The request `toNodeListener` accepts: node:http's, or Express's (which adds `body` when a body
 * parser ran, and `originalUrl`).
 *
 * @example
 * ```ts
 * const listener: (req: NodeCallbackRequest, res: ServerResponse) => Promise<void> = toNodeListener(handler);
 * ```
 */
export type NodeCallbackRequest = IncomingMessage & { body?: unknown; originalUrl?: string };

/**
 * A node:http / Express listener.
 *
 * @example
 * ```ts
 * const listener: NodeCallbackListener = toNodeListener(handler);
 * ```
 */
export type NodeCallbackListener = (req: NodeCallbackRequest, res: ServerResponse) => Promise<void>;

/** Streams the request body with back-pressure; on cancel (413), stops reading and discards the rest. */
function bodyStream(req: IncomingMessage): { stream: ReadableStream<Uint8Array>; stop: () => void } {
  let onData: (chunk: unknown) => void = () => undefined;
  let onEnd: () => void = () => undefined;
  let onError: (error: unknown) => void = () => undefined;
  const detach = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onData = (chunk) => {
          const bytes =
            typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk as Uint8Array);
          controller.enqueue(bytes);
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        };
        onEnd = () => {
          detach();
          controller.close();
        };
        onError = (error) => {
          detach();
          controller.error(error);
        };
        req.on('data', onData);
        req.on('end', onEnd);
        req.on('error', onError);
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        detach();
        req.resume(); // drain and discard; nothing more is buffered
      },
    },
    { highWaterMark: 1 },
  );
  return { stream, stop: detach };
}

const isEmptyObject = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  !ArrayBuffer.isView(value) &&
  Object.keys(value).length === 0;

/** The body a parser already produced, or undefined to read the stream. */
function parsedBody(req: NodeCallbackRequest): Uint8Array | string | undefined {
  const body = req.body;
  if (body === undefined || body === null) return undefined;
  // Express 4's json() leaves `{}` without reading a body it does not handle: read the stream then.
  if (isEmptyObject(body) && !req.readableEnded) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return JSON.stringify(body);
}

// host[:port]: a DNS name or IPv4 address (letters, digits, '.', '-', '_'), or a bracketed IPv6
// address; nothing else (no userinfo, path, query or fragment).
const HOST = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/** A request the adapter refuses before the handler sees it: its Host or request-target. */
class InvalidRequestTarget extends Error {}

/** The WHATWG form of a `host[:port]` the client sent (lower-case, default port dropped). */
function validHost(host: string | undefined, scheme: string): string {
  if (host === undefined || !HOST.test(host)) throw new InvalidRequestTarget('Host');
  try {
    return new URL(`${scheme}://${host}`).host;
  } catch {
    throw new InvalidRequestTarget('Host');
  }
}

/**
 * The URL the handler verifies: the host from the Host header (which `publicOrigin` overrides in
 * the handler), the path and query from the request-target alone. An absolute-form target must
 * name the same authority as the Host header; any other form (`*`, authority-form, a fragment) is
 * refused.
 */
function requestUrl(req: NodeCallbackRequest): string {
  const target = req.originalUrl ?? req.url ?? '';
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const scheme = encrypted ? 'https' : 'http';
  const host = validHost(req.headers.host, scheme);
  if (target.includes('#')) throw new InvalidRequestTarget('request-target');
  if (target.startsWith('/')) {
    // Concatenated, not resolved: a path like `//other.host/x` must not change the host.
    const url = new URL(`${scheme}://${host}${target}`);
    if (url.host !== host) throw new InvalidRequestTarget('request-target');
    return url.href;
  }
  if (/^https?:\/\//i.test(target)) {
    let absolute: URL;
    try {
      absolute = new URL(target);
    } catch {
      throw new InvalidRequestTarget('request-target');
    }
    if (absolute.host !== host || absolute.username !== '' || absolute.password !== '') {
      throw new InvalidRequestTarget('request-target');
    }
    return new URL(`${scheme}://${host}${absolute.pathname}${absolute.search}`).href;
  }
  throw new InvalidRequestTarget('request-target');
}

/**
 * Adapts a {@link CallbackHandler} to node:http and Express. Works whether or not a body parser
 * ran first: a parsed object is re-serialised (`express.json()`), a string or Buffer used as is
 * (`express.text()`, `express.raw()`), otherwise the raw stream is read (and no further than the
 * handler's `maxBodyBytes`, nor longer than its `bodyTimeoutMs`). The Request URL is built from
 * the path and query of the request-target (`originalUrl` on Express, else `url`) and the Host
 * header, which must be a valid `host[:port]`; an absolute-form target must name that same host.
 * Anything else gets 400 `invalid_request` before the handler runs. Set the handler's
 * `publicOrigin` in production: the host is then checked against it, not against the Host the
 * client sent.
 *
 * @example
 * ```ts
 * import express from 'express';
 * const app = express();
 * app.post('/webhooks/payments', toNodeListener(createCallbackHandler({ secret, onEvent })));
 *
 * // or plain node:http
 * http.createServer(toNodeListener(handler)).listen(3000);
 * ```
 */
export function toNodeListener(handler: CallbackHandler): NodeCallbackListener {
  return async (req, res) => {
    let response: Response;
    let stopReading: (() => void) | undefined;
    try {
      const url = requestUrl(req);
      const method = req.method ?? 'GET';
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined || name.startsWith(':')) continue;
        try {
          for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
        } catch {
          // a header the Fetch API refuses is not one the handler needs
        }
      }
      let body: BodyInit | undefined;
      if (method !== 'GET' && method !== 'HEAD') {
        const parsed = parsedBody(req);
        if (parsed === undefined) {
          const { stream, stop } = bodyStream(req);
          body = stream;
          stopReading = stop;
        } else {
          body = parsed as BodyInit;
          // The parser consumed the original; its length no longer applies.
          headers.delete('content-length');
          headers.delete('transfer-encoding');
        }
      }
      const init: RequestInit & { duplex?: 'half' } = { method, headers, body: body ?? null, duplex: 'half' };
      response = await handler(new Request(url, init));
    } catch {
      response = new Response(JSON.stringify({ error: 'invalid_request' }), {
        status: 400,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (res.headersSent) return;
    res.statusCode = response.status;
    response.headers.forEach((value, name) => res.setHeader(name, value));
    if (!req.readableEnded) {
      // A body left unread (413): stop feeding the stream, discard the rest, close the connection.
      stopReading?.();
      res.setHeader('connection', 'close');
      req.resume();
    }
    res.end(bytes);
  };
}
