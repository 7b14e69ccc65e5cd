// The edges of the webhook route: a body longer than it says, a body a parser already took, and
// the Host in its less common forms (twice, a non-default publicOrigin, HTTP/2's :authority).
// Everything that involves the Node adapter runs on real servers on 127.0.0.1.
import { once } from 'node:events';
import http, { type Server } from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import express from 'express';
import { describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  signCallbackUrl,
  toNodeListener,
  type CallbackEvent,
  type CallbackHandlerOptions,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { listenForThisTest } from '../helpers/servers.js';

const payoutSuccess = callbackFixtures['payout.succeeded']; // reference_id '123456789012'
const body = JSON.stringify(payoutSuccess);
const secret = 'whsec_0123456789abcdef';

const listen = async (server: Server | http2.Http2Server): Promise<string> =>
  `http://127.0.0.1:${await listenForThisTest(server)}`;

function route(options: Partial<CallbackHandlerOptions> = {}) {
  const events: CallbackEvent[] = [];
  const refusals: string[] = [];
  const handler = createCallbackHandler({
    secret,
    onEvent: (event) => void events.push(event),
    onError: (error, { status, reason }) => void refusals.push(`${status} ${reason} ${error.message}`),
    ...options,
  });
  return { handler, events, refusals };
}

/** Sends one HTTP/1.1 request exactly as written and reads the answer (the server closes). */
function rawRequest(base: string, head: string, payload = body): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`${head}\r\n\r\n${payload}`));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
  });
}

/** A framework's Request class (Next.js's NextRequest is one). */
class FrameworkRequest extends Request {}

describe('the Fetch handler and a body longer than its Content-Length', () => {
  it.each([
    ['Request', Request],
    ['a subclass', FrameworkRequest],
  ])(
    'stops reading at maxBodyBytes and answers 413, without buffering the rest (%s)',
    async (_name, RequestClass) => {
      const { handler, events } = route({ maxBodyBytes: 10_000 });
      let sent = 0;
      let cancelled = false;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          sent += 1000;
          controller.enqueue(new Uint8Array(1000).fill(0x20));
          if (sent >= 1_000_000) controller.close();
        },
        cancel() {
          cancelled = true;
        },
      });
      const url = await signCallbackUrl('https://shop.example/hooks', { secret, reference: '123456789012' });
      const request = new RequestClass(url, {
        method: 'POST',
        body: stream,
        headers: { 'content-length': '100' },
        duplex: 'half',
      } as RequestInit);
      expect(request.headers.get('content-length')).toBe('100');
      const response = await handler(request);
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ error: 'payload_too_large' });
      expect(cancelled).toBe(true);
      expect(sent).toBeLessThan(20_000);
      expect(events).toEqual([]);
    },
  );
});

/**
 * A framework's lazy Request (its own `body` getter, as `@hono/node-server`'s has): the handler
 * reads it whole with `arrayBuffer()` when its Content-Length is within the cap.
 */
class LazyRequest extends Request {
  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return super.body;
  }
}

describe('the Fetch handler and a framework Request it reads whole', () => {
  it('answers 413 when the body is over maxBodyBytes though its Content-Length is not', async () => {
    const { handler, events } = route({ maxBodyBytes: 1_000 });
    const url = await signCallbackUrl('https://shop.example/hooks', { secret, reference: '123456789012' });
    const request = new LazyRequest(url, {
      method: 'POST',
      body: `${body}${' '.repeat(2_000)}`,
      headers: { 'content-type': 'application/json', 'content-length': '100' },
    });
    expect(request.headers.get('content-length')).toBe('100');
    const response = await handler(request);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'payload_too_large' });
    expect(events).toEqual([]);
  });
});

describe('the Fetch handler and a body stream that does not give bytes', () => {
  it.each([
    ['one string over the cap', [`${body}${' '.repeat(10_000)}`]],
    ['several strings', [body, ' '.repeat(10_000)]],
  ])(
    'refuses a stream of strings (500 handler_failed: the Request was built wrong), whatever maxBodyBytes says: %s',
    async (_name, strings) => {
      const { handler, events, refusals } = route({ maxBodyBytes: 100 });
      // A string chunk has no byteLength to count against the cap.
      const stream = new ReadableStream<string>({
        start(controller) {
          for (const chunk of strings) controller.enqueue(chunk);
          controller.close();
        },
      });
      const url = await signCallbackUrl('https://shop.example/hooks', { secret, reference: '123456789012' });
      const request = new Request(url, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
      const response = await handler(request);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: 'handler_failed' });
      expect(events).toEqual([]);
      expect(refusals).toEqual([expect.stringMatching(/^500 handler_failed .*not bytes/)]);
    },
  );
});

/** express.json() with a `verify` hook keeping the bytes it read as req.rawBody. */
const keepingRawBody = (options: Parameters<typeof express.json>[0] = {}) =>
  express.json({
    ...options,
    verify: (req: http.IncomingMessage & { rawBody?: Buffer }, _res, buf) => {
      req.rawBody = buf;
    },
  });

describe('toNodeListener behind a body parser (express 5)', () => {
  const parserHelp = /not the posted body.*mount the webhook route before it.*express\.raw/;

  async function expressRoute(...parsers: express.RequestHandler[]) {
    const { handler, events, refusals } = route();
    const app = express();
    for (const parser of parsers) app.use(parser);
    app.post('/hooks', toNodeListener(handler));
    const base = await listen(http.createServer(app));
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' });
    return { url, events, refusals };
  }

  it('refuses a form body express.urlencoded() turned into an object: 500, and onError says how to mount the route', async () => {
    const { url, events, refusals } = await expressRoute(express.urlencoded({ extended: true }));
    const form = new URLSearchParams(
      Object.entries(payoutSuccess).map(([key, value]) => [key, String(value)]),
    );
    const response = await fetch(url, { method: 'POST', body: form }); // not JSON: not what the service posts
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'handler_failed' });
    expect(events).toEqual([]);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatch(/^500 handler_failed toNodeListener: /);
    expect(refusals[0]).toMatch(parserHelp);
  });

  it('refuses an object a parser made of a body that is not JSON (express.json({ type: "*/*" }) on text/plain)', async () => {
    const { url, events, refusals } = await expressRoute(express.json({ type: '*/*' }));
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    });
    expect(response.status).toBe(500);
    expect(events).toEqual([]);
    expect(refusals).toEqual([expect.stringMatching(parserHelp)]);
  });

  it.each([
    ['express.json() keeping req.rawBody', keepingRawBody(), 'application/json; charset=utf-8'],
    [
      'express.json() on +json keeping req.rawBody',
      keepingRawBody({ type: '*/*' }),
      'application/vnd.payments+json',
    ],
    ['express.text()', express.text({ type: '*/*' }), 'text/plain'],
  ])('takes the body %s read from a JSON (UTF-8) body', async (_name, parser, type) => {
    const { url, events } = await expressRoute(parser);
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
    expect(response.status).toBe(200);
    expect(events.map((event) => event.type)).toEqual(['payout.succeeded']);
  });

  it('refuses the text express.text() decoded: a body that is not UTF-8 would pass as replacement characters', async () => {
    const { url, events, refusals } = await expressRoute(express.text({ type: '*/*' }));
    const bytes = Buffer.concat([
      Buffer.from(body.slice(0, -1)),
      Buffer.from(',"note":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}'),
    ]);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: bytes,
    });
    expect(response.status).toBe(500);
    expect(events).toEqual([]);
    expect(refusals).toEqual([expect.stringMatching(parserHelp)]);
  });

  it('reads the stream, not req.body, when the stream is still unread', async () => {
    const setBody: express.RequestHandler = (req, _res, next) => {
      (req as { body?: unknown }).body = { hello: 'world' };
      next();
    };
    const { url, events } = await expressRoute(setBody);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(200);
    expect(events.map((event) => event.type)).toEqual(['payout.succeeded']);
  });

  it('refuses a body another middleware read without leaving it in req.body or req.rawBody: 500, never the 400 of an empty body', async () => {
    const readElsewhere: express.RequestHandler = (req, _res, next) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        (req as { payload?: Buffer }).payload = Buffer.concat(chunks);
        next();
      });
    };
    const { url, events, refusals } = await expressRoute(readElsewhere);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'handler_failed' });
    expect(events).toEqual([]);
    expect(refusals).toEqual([expect.stringMatching(/^500 handler_failed toNodeListener: .*already read/)]);
  });

  it('takes the text express.text() decoded from a body with non-ASCII characters (its UTF-8 length is the Content-Length)', async () => {
    const { url, events } = await expressRoute(express.text({ type: '*/*' }));
    // In a field of its own: a success's message outside printable ASCII is refused by the verdict.
    const text = JSON.stringify({ ...payoutSuccess, note: 'Paiement réussi — ✓' });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: text,
    });
    expect(response.status).toBe(200);
    expect(events.map((event) => event.data.note)).toEqual(['Paiement réussi — ✓']);
  });

  it('refuses the string express.json({ strict: false }) unwrapped from a JSON string: it is not the posted text', async () => {
    const { url, events, refusals } = await expressRoute(express.json({ strict: false }));
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body), // "{\"transaction_id\":…}": a string holding a payload
    });
    expect(response.status).toBe(500);
    expect(events).toEqual([]);
    expect(refusals).toEqual([expect.stringMatching(parserHelp)]);
  });

  it('still uses the Buffer express.raw() produced', async () => {
    const { url, events } = await expressRoute(express.raw({ type: '*/*' }));
    expect((await fetch(url, { method: 'POST', body })).status).toBe(200);
    expect(events).toHaveLength(1);
  });
});

describe('Content-Encoding, where the route reads the bytes itself', () => {
  const gzipped = gzipSync(body);
  const signedUrl = (base = 'https://shop.example') =>
    signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' });

  it.each([
    ['gzip', body, 'a plain body'],
    ['gzip', gzipped, 'a gzipped body'],
    ['br', body, 'a plain body'],
    ['x-unknown', body, 'a plain body'],
    ['gzip, identity', body, 'a plain body'],
    ['identity, gzip', body, 'a plain body'],
    [', br', body, 'a plain body'],
  ])(
    'the Fetch handler answers 415 unsupported_encoding to %j on %s, naming the header, without reading the body',
    async (encoding, payload, _what) => {
      const { handler, events, refusals } = route();
      const request = new Request(await signedUrl(), {
        method: 'POST',
        body: payload,
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      });
      const response = await handler(request);
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({ error: 'unsupported_encoding' });
      expect(request.bodyUsed).toBe(false);
      expect(events).toEqual([]);
      expect(refusals).toEqual([expect.stringMatching(/^415 unsupported_encoding .*Content-Encoding/)]);
    },
  );

  // An empty header, or a list of `identity` with empty items, names no coding (RFC 9110's list
  // rule; body-parser reads it so, workerd drops the header): a genuine callback, not a 415.
  it.each(['identity', ' Identity ', 'IDENTITY', '', ' ', ',', 'identity, identity', ', identity'])(
    'the Fetch handler reads a body whose Content-Encoding is %j',
    async (encoding) => {
      const { handler, events } = route();
      const response = await handler(
        new Request(await signedUrl(), { method: 'POST', body, headers: { 'content-encoding': encoding } }),
      );
      expect(response.status).toBe(200);
      expect(events).toHaveLength(1);
    },
  );

  it('toNodeListener answers 415 to a gzip body it would read from the stream itself', async () => {
    const { handler, events, refusals } = route();
    const base = await listen(http.createServer(toNodeListener(handler)));
    const response = await fetch(await signedUrl(base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipped,
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: 'unsupported_encoding' });
    expect(events).toEqual([]);
    expect(refusals).toEqual([expect.stringMatching(/^415 unsupported_encoding .*Content-Encoding/)]);
  });

  it.each(['identity', '', 'identity, identity'])(
    'toNodeListener reads a stream whose Content-Encoding is %j',
    async (encoding) => {
      const { handler, events } = route();
      const base = await listen(http.createServer(toNodeListener(handler)));
      const response = await fetch(await signedUrl(base), {
        method: 'POST',
        headers: { 'content-encoding': encoding },
        body,
      });
      expect(response.status).toBe(200);
      expect(events).toHaveLength(1);
    },
  );

  it.each([
    ['express.json() keeping req.rawBody', keepingRawBody()],
    ['express.raw()', express.raw({ type: '*/*' })],
    ['express.text()', express.text({ type: '*/*' })],
  ])('toNodeListener takes the body %s inflated from gzip', async (_name, parser) => {
    const { handler, events } = route();
    const app = express();
    app.post('/hooks', parser, toNodeListener(handler));
    const base = await listen(http.createServer(app));
    const response = await fetch(await signedUrl(base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipped,
    });
    expect(response.status).toBe(200);
    expect(events.map((event) => event.type)).toEqual(['payout.succeeded']);
  });
});

describe('toNodeListener: the Host header given twice', () => {
  it.each([
    ['two different hosts', ['HOST_A', 'evil.example']],
    ['the same host twice', ['HOST_A', 'HOST_A']],
  ])('answers 400 invalid_request to %s', async (_name, hosts) => {
    const { handler, events, refusals } = route();
    const base = await listen(http.createServer(toNodeListener(handler)));
    const url = new URL(await signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' }));
    const lines = hosts.map((host) => `Host: ${host === 'HOST_A' ? url.host : host}\r\n`).join('');
    const head = `POST ${url.pathname}${url.search} HTTP/1.1\r\n${lines}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close`;
    expect(await rawRequest(base, head)).toBe(400);
    expect(events).toEqual([]);
    expect(refusals).toEqual([expect.stringMatching(/^400 invalid_request /)]);
  });
});

describe('publicOrigin in the forms the URL parser normalises', () => {
  it.each([
    ['https://shop.example:443', 'https://shop.example/hooks'],
    ['HTTPS://Shop.Example:443/', 'https://shop.example/hooks'],
    ['http://shop.example:80', 'http://shop.example:80/hooks'],
    ['https://bücher.example', 'https://bücher.example/hooks'],
    ['https://xn--bcher-kva.example', 'https://bücher.example/hooks'],
  ])(
    'accepts %j and verifies a URL signed for %j, whatever Host arrives',
    async (publicOrigin, signedFor) => {
      const { handler, events } = route({ publicOrigin });
      const base = await listen(http.createServer(toNodeListener(handler)));
      const url = new URL(await signCallbackUrl(signedFor, { secret, reference: '123456789012' }));
      const response = await fetch(`${base}${url.pathname}${url.search}`, { method: 'POST', body });
      expect(response.status).toBe(200);
      expect(events).toHaveLength(1);
    },
  );

  it('still refuses a URL signed for another host', async () => {
    const { handler } = route({ publicOrigin: 'https://bücher.example:443' });
    const url = await signCallbackUrl('https://buecher.example/hooks', { secret, reference: '123456789012' });
    expect((await handler(new Request(url, { method: 'POST', body }))).status).toBe(401);
  });

  it.each([
    'https://shop.example/hooks',
    'https://shop.example?',
    'https://shop.example#',
    'https://user@shop.example',
    ' https://shop.example',
    'https://shop.exa\nmple',
    'ftp://shop.example',
  ])('refuses %j at creation', (publicOrigin) => {
    expect(() => createCallbackHandler({ secret, publicOrigin, onEvent: () => undefined })).toThrow(
      /publicOrigin must be/,
    );
  });
});

describe('toNodeListener under node:http2 (compatibility API)', () => {
  async function h2Post(base: string, headers: http2.OutgoingHttpHeaders, payload: string) {
    const client = http2.connect(base);
    try {
      const stream = client.request({ ':method': 'POST', 'content-type': 'application/json', ...headers });
      stream.end(payload);
      const [response] = (await once(stream, 'response')) as [http2.IncomingHttpHeaders];
      let text = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (text += chunk));
      await once(stream, 'end');
      return { status: Number(response[':status']), text };
    } finally {
      client.close();
    }
  }

  async function h2Route(options: Partial<CallbackHandlerOptions> = {}) {
    const { handler, events, refusals } = route(options);
    const base = await listen(http2.createServer(toNodeListener(handler)));
    const url = new URL(await signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' }));
    return { base, path: `${url.pathname}${url.search}`, events, refusals };
  }

  it('answers a refusal without a Connection header, which HTTP/2 has not (Node warns once per process: keep this first)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const { base, events } = await h2Route();
      const response = await h2Post(base, { ':path': '/hooks' }, body); // unsigned: 401 before reading
      expect(response.status).toBe(401);
      expect(JSON.parse(response.text)).toEqual({ error: 'invalid_signature' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
      expect(events).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('answers 408 to a stream that sent every declared byte but never ended (the deadline holds under HTTP/2)', async () => {
    const { handler, events, refusals } = route({ bodyTimeoutMs: 100 });
    const listener = toNodeListener(handler);
    // A middleware that peeks at the stream, then takes a while before the route: the declared
    // bytes are in the request's buffer by then, but the stream is still open.
    const base = await listen(
      http2.createServer((req, res) => {
        req.once('readable', () => undefined);
        setTimeout(() => {
          expect(req.readableLength).toBe(Buffer.byteLength(body));
          listener(req, res);
        }, 50);
      }),
    );
    const url = new URL(await signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' }));
    const path = `${url.pathname}${url.search}`;
    const client = http2.connect(base);
    try {
      const stream = client.request({
        ':method': 'POST',
        ':path': path,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      });
      stream.write(body); // all of it, without END_STREAM: the sender could still send more
      const [response] = (await once(stream, 'response')) as [http2.IncomingHttpHeaders];
      expect(Number(response[':status'])).toBe(408);
    } finally {
      client.destroy();
    }
    expect(refusals).toEqual([expect.stringMatching(/^408 body_timeout /)]);
    expect(events).toEqual([]);
  });

  it('takes the Host from :authority and processes the event', async () => {
    const { base, path, events } = await h2Route();
    const response = await h2Post(base, { ':path': path }, body);
    expect(response).toEqual({ status: 200, text: '' });
    expect(events.map((event) => event.type)).toEqual(['payout.succeeded']);
  });

  it('answers 400 when a host header names another authority than :authority', async () => {
    const { base, path, events } = await h2Route();
    const authority = new URL(base).host;
    const response = await h2Post(
      base,
      { ':path': path, ':authority': authority, host: 'evil.example' },
      body,
    );
    expect(response.status).toBe(400);
    expect(events).toEqual([]);
    // The same pair agreeing is processed.
    expect(
      (await h2Post(base, { ':path': path, ':authority': authority, host: authority }, body)).status,
    ).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('answers 500 without a Connection header when writing its answer fails', async () => {
    const { handler, events } = route();
    const listener = toNodeListener(handler);
    const heads: [number, http2.OutgoingHttpHeaders | undefined][] = [];
    const base = await listen(
      http2.createServer((req, res) => {
        // The handler's first header throws; the listener's last-resort 500 goes through.
        let refused = false;
        const setHeader = res.setHeader.bind(res);
        res.setHeader = ((name: string, value: string) => {
          if (!refused) {
            refused = true;
            throw new Error('the response refused a header');
          }
          return setHeader(name, value);
        }) as typeof res.setHeader;
        const writeHead = res.writeHead.bind(res) as (
          status: number,
          headers?: http2.OutgoingHttpHeaders,
        ) => unknown;
        res.writeHead = ((status: number, headers?: http2.OutgoingHttpHeaders) => {
          heads.push([status, headers]);
          return writeHead(status, headers);
        }) as typeof res.writeHead;
        listener(req, res);
      }),
    );
    const response = await h2Post(base, { ':path': '/hooks' }, body); // unsigned: 401, whose header throws
    expect(response.status).toBe(500);
    expect(heads).toHaveLength(1);
    expect(heads[0]![0]).toBe(500);
    expect(Object.keys(heads[0]![1] ?? {}).map((name) => name.toLowerCase())).not.toContain('connection');
    expect(events).toEqual([]);
  });
});

describe('onEvent', () => {
  it.each([undefined, 'orders.settle', {}])('must be a function: %j is refused at creation', (onEvent) => {
    expect(() => createCallbackHandler({ secret, onEvent: onEvent as never })).toThrow(TypeError);
    expect(() => createCallbackHandler({ secret, onEvent: onEvent as never })).toThrow(
      /createCallbackHandler: onEvent must be a function/,
    );
    expect(() => createCallbackHandler({ verify: false, onEvent: onEvent as never })).toThrow(/onEvent/);
  });
});

describe('expected and onError', () => {
  it.each([
    ['expected', { amount: '1500', currency: 'KES' }],
    ['expected', 'orders.lookup'],
    ['onError', true],
    ['onError', console],
  ])('%s given but not a function (%j) is refused at creation, naming it', (name, value) => {
    const make = () => createCallbackHandler({ secret, onEvent: () => undefined, [name]: value as never });
    expect(make).toThrow(TypeError);
    expect(make).toThrow(new RegExp(`createCallbackHandler: ${name} must be a function`));
  });
});
