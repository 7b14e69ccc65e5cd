import http, { type Server } from 'node:http';
import net from 'node:net';
import express from 'express';
import { describe, expect, it, vi } from 'vitest';
import {
  createCallbackHandler,
  signCallbackUrl,
  toNodeListener,
  type CallbackEvent,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { listenForThisTest } from '../helpers/servers.js';

const checkoutFailure = callbackFixtures['checkout.failed']; // order_id '1003'
const payoutSuccess = callbackFixtures['payout.succeeded']; // reference_id '123456789012'

const secret = 'whsec_0123456789abcdef';

const listen = async (server: Server): Promise<string> =>
  `http://127.0.0.1:${await listenForThisTest(server)}`;

function makeHandler(options: { maxBodyBytes?: number; publicOrigin?: string } = {}) {
  const events: CallbackEvent[] = [];
  const handler = createCallbackHandler({
    secret,
    ...options,
    onEvent: (event) => {
      events.push(event);
    },
  });
  return { handler, events };
}

/** Posts with node:http so we control chunking, headers and the connection's agent exactly. */
function rawPost(url: string, chunks: string[], headers: Record<string, string> = {}, agent?: http.Agent) {
  return new Promise<{
    status: number;
    body: string;
    connection: string | undefined;
    headers: http.IncomingHttpHeaders;
  }>((resolve, reject) => {
    const request = http.request(url, {
      agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
    });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body,
          connection: response.headers.connection,
          headers: response.headers,
        }),
      );
    });
    request.on('error', reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

describe('toNodeListener with node:http', () => {
  it('verifies the URL signature from the Host header and path, and reads the raw stream', async () => {
    const { handler, events } = makeHandler();
    const base = await listen(http.createServer(toNodeListener(handler)));
    const url = await signCallbackUrl(`${base}/hooks/payments`, { secret, reference: '1003' });
    const response = await fetch(url, { method: 'POST', body: JSON.stringify(checkoutFailure) });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    expect(events.map((event) => event.type)).toEqual(['checkout.failed']);
  });

  it('answers 401 when the signature was made for another path', async () => {
    const { handler, events } = makeHandler();
    const base = await listen(http.createServer(toNodeListener(handler)));
    const url = new URL(await signCallbackUrl(`${base}/hooks/payments`, { secret, reference: '1003' }));
    url.pathname = '/hooks/other';
    expect((await fetch(url, { method: 'POST', body: JSON.stringify(checkoutFailure) })).status).toBe(401);
    expect(events).toEqual([]);
  });

  it('answers 413 to a chunked body over the cap', async () => {
    const { handler, events } = makeHandler({ maxBodyBytes: 1024 });
    const base = await listen(http.createServer(toNodeListener(handler)));
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: 'R' });
    const chunks = Array.from({ length: 64 }, () => ' '.repeat(512));
    const response = await rawPost(url, chunks, { 'transfer-encoding': 'chunked' });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ error: 'payload_too_large' });
    expect(events).toEqual([]);
  });

  it('answers 413 from Content-Length', async () => {
    const { handler } = makeHandler({ maxBodyBytes: 1024 });
    const base = await listen(http.createServer(toNodeListener(handler)));
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: 'R' });
    const body = ' '.repeat(4096);
    const response = await rawPost(url, [body], { 'content-length': String(body.length) });
    expect(response.status).toBe(413);
  });

  it('answers 413 from Content-Length before any of the body arrives (a sender that waits, or never sends it)', async () => {
    const { handler, events } = makeHandler({ maxBodyBytes: 1024 });
    const base = await listen(http.createServer(toNodeListener(handler)));
    const url = new URL(await signCallbackUrl(`${base}/hooks`, { secret, reference: 'R' }));
    const head = `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 1000000`;
    const response = await rawRequest(base, head); // the head only: not a byte of the body
    expect(response.status).toBe(413);
    expect(response.text).toContain('{"error":"payload_too_large"}');
    expect(events).toEqual([]);
  });

  it('answers 405 to a GET', async () => {
    const { handler } = makeHandler();
    const base = await listen(http.createServer(toNodeListener(handler)));
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: 'R' });
    expect((await fetch(url)).status).toBe(405);
  });

  it('sends each answer with its Content-Length, never a chunked body', async () => {
    const { handler } = makeHandler();
    const base = await listen(http.createServer(toNodeListener(handler)));
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: '1003' });
    const payload = [JSON.stringify(checkoutFailure)];
    const accepted = await rawPost(url, payload);
    expect(accepted.status).toBe(200);
    expect(accepted.headers['content-length']).toBe('0');
    expect(accepted.headers['transfer-encoding']).toBeUndefined();
    const refused = await rawPost(`${base}/hooks`, payload); // unsigned: 401 with a JSON body
    expect(refused.status).toBe(401);
    expect(refused.headers['content-length']).toBe(String(Buffer.byteLength(refused.body)));
    expect(refused.headers['transfer-encoding']).toBeUndefined();
    expect(JSON.parse(refused.body)).toEqual({ error: 'invalid_signature' });
  });
});

/** express.json()'s `verify` hook keeping the bytes it read, for the route to read as posted. */
const keepRawBody = (req: http.IncomingMessage & { rawBody?: Buffer }, _res: unknown, buf: Buffer): void => {
  req.rawBody = buf;
};

describe('toNodeListener with express 5', () => {
  it('reads the raw stream when no body parser ran', async () => {
    const { handler, events } = makeHandler();
    const app = express();
    app.post('/hooks/payments', toNodeListener(handler));
    const base = await listen(http.createServer(app));
    const url = await signCallbackUrl(`${base}/hooks/payments`, { secret, reference: '123456789012' });
    const response = await fetch(url, { method: 'POST', body: JSON.stringify(payoutSuccess) });
    expect(response.status).toBe(200);
    expect(events[0]?.type).toBe('payout.succeeded');
  });

  it('reads the bytes express.json() kept as req.rawBody, on a mounted router (originalUrl)', async () => {
    const { handler, events } = makeHandler();
    const app = express();
    const router = express.Router();
    router.post('/payments', toNodeListener(handler));
    app.use(express.json({ verify: keepRawBody }));
    app.use('/hooks', router);
    const base = await listen(http.createServer(app));
    const url = await signCallbackUrl(`${base}/hooks/payments`, { secret, reference: '1003' });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(checkoutFailure),
    });
    expect(response.status).toBe(200);
    expect(events[0]).toMatchObject({ type: 'checkout.failed', reference: '1003' });
  });

  it('uses the Buffer express.raw() produced', async () => {
    const { handler, events } = makeHandler();
    const app = express();
    app.post('/hooks', express.raw({ type: '*/*' }), toNodeListener(handler));
    const base = await listen(http.createServer(app));
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: '1003' });
    const response = await fetch(url, { method: 'POST', body: JSON.stringify(checkoutFailure) });
    expect(response.status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('answers 400 to an undocumented body behind express.json() keeping req.rawBody', async () => {
    const onEvent = vi.fn();
    const app = express();
    app.use(express.json({ verify: keepRawBody }));
    app.post('/hooks', toNodeListener(createCallbackHandler({ verify: false, onEvent })));
    const base = await listen(http.createServer(app));
    const response = await fetch(`${base}/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(response.status).toBe(400);
    expect(onEvent).not.toHaveBeenCalled();
  });
});

/** Sends one request exactly as written (request-target and Host included) and reads the answer. */
function rawRequest(base: string, head: string, body = ''): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    // Written, not ended: the server closes the connection after answering (Connection: close).
    const socket = net.connect(Number(port), hostname, () => socket.write(`${head}\r\n\r\n${body}`));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
  });
}

describe('toNodeListener: which URL is verified', () => {
  const body = JSON.stringify(payoutSuccess);
  const head = (target: string, host: string | undefined) =>
    `POST ${target} HTTP/1.1\r\n${host === undefined ? '' : `Host: ${host}\r\n`}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close`;

  it.each([[{}], [{ publicOrigin: 'https://shop' }]])(
    'answers 400 to a Host header that smuggles another path and query in (%o)',
    async (extra) => {
      const events: CallbackEvent[] = [];
      const handler = createCallbackHandler({
        secret,
        ...extra,
        onEvent: (event) => void events.push(event),
      });
      const base = await listen(http.createServer(toNodeListener(handler)));
      const payouts = new URL(
        await signCallbackUrl('https://shop/webhooks/payouts', { secret, reference: '123456789012' }),
      );
      const host = `shop/webhooks/payouts${payouts.search}#`;
      const response = await rawRequest(base, head('/webhooks/payments', host), body);
      expect(response.status).toBe(400);
      expect(events).toEqual([]);
    },
  );

  it.each([undefined, '', 'shop.example:port', 'shop example', 'shop.example:99999', 'user@shop.example'])(
    'answers 400 to the missing or invalid Host %j',
    async (host) => {
      const { handler, events } = makeHandler();
      const base = await listen(http.createServer(toNodeListener(handler)));
      const url = new URL(await signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' }));
      const response = await rawRequest(base, head(`${url.pathname}${url.search}`, host), body);
      expect(response.status).toBe(400);
      expect(events).toEqual([]);
    },
  );

  it('tells onError about a refused Host, with reason invalid_request', async () => {
    const refusals: string[] = [];
    const handler = createCallbackHandler({
      secret,
      onEvent: () => undefined,
      onError: (error, { status, reason, request }) =>
        void refusals.push(`${status} ${reason} ${error.name} ${request.headers.get('host')}`),
    });
    const base = await listen(http.createServer(toNodeListener(handler)));
    const response = await rawRequest(base, head('/hooks', 'shop.example/other?x=1'), body);
    expect(response.status).toBe(400);
    expect(response.text).toContain('{"error":"invalid_request"}');
    expect(refusals).toEqual(['400 invalid_request PaymentsError shop.example/other?x=1']);
  });

  it('refuses an absolute-form target naming another authority (a staging URL sent to production)', async () => {
    const { handler, events } = makeHandler();
    const base = await listen(http.createServer(toNodeListener(handler)));
    const staging = await signCallbackUrl('http://staging.shop.example/hooks', {
      secret,
      reference: '123456789012',
    });
    const response = await rawRequest(base, head(staging, new URL(base).host), body);
    expect(response.status).toBe(400);
    expect(events).toEqual([]);
  });

  it.each(['hooks', '*', 'ftp://127.0.0.1/hooks'])('answers 400 to the request-target %j', async (target) => {
    const { handler, events } = makeHandler();
    const base = await listen(http.createServer(toNodeListener(handler)));
    const response = await rawRequest(base, head(target, new URL(base).host), body);
    expect(response.status).toBe(400);
    expect(events).toEqual([]);
  });

  it.each([
    ['a user name', (base: URL) => `http://merchant@${base.host}`],
    ['a user name and password', (base: URL) => `http://merchant:hunter2@${base.host}`],
    ['an empty user name and a password', (base: URL) => `http://:hunter2@${base.host}`],
  ])(
    'answers 400 invalid_request to an absolute-form target with %s (userinfo), though its host, path and query are the signed ones',
    async (_name, authority) => {
      const { handler, events } = makeHandler();
      const base = await listen(http.createServer(toNodeListener(handler)));
      const url = new URL(await signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' }));
      const target = `${authority(url)}${url.pathname}${url.search}`;
      const response = await rawRequest(base, head(target, url.host), body);
      expect(response.status).toBe(400);
      expect(response.text).toContain('{"error":"invalid_request"}');
      expect(events).toEqual([]);
    },
  );

  it('accepts an absolute-form target naming its own authority, verified by path and query only', async () => {
    const { handler, events } = makeHandler();
    const base = await listen(http.createServer(toNodeListener(handler)));
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' });
    const response = await rawRequest(base, head(url, new URL(base).host), body);
    expect(response.status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('takes the host from publicOrigin when set, whatever valid Host the proxy sends', async () => {
    const { handler, events } = makeHandler({ publicOrigin: 'https://shop.example' });
    const base = await listen(http.createServer(toNodeListener(handler)));
    const url = new URL(
      await signCallbackUrl('https://shop.example/hooks', { secret, reference: '123456789012' }),
    );
    const response = await rawRequest(base, head(`${url.pathname}${url.search}`, '10.0.0.5:3000'), body);
    expect(response.status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('without publicOrigin binds the host only to the Host the client names (what SECURITY.md says)', async () => {
    const { handler, events } = makeHandler();
    const base = await listen(http.createServer(toNodeListener(handler)));
    const staging = new URL(
      await signCallbackUrl('https://staging.shop.example/hooks', { secret, reference: '123456789012' }),
    );
    const target = `${staging.pathname}${staging.search}`;
    // A staging URL sent to this server verifies when the client also sends the staging Host...
    expect((await rawRequest(base, head(target, 'staging.shop.example'), body)).status).toBe(200);
    // ...and not under any other name.
    expect((await rawRequest(base, head(target, 'shop.example'), body)).status).toBe(401);
    expect(events).toHaveLength(1);
  });

  it('with publicOrigin refuses a URL signed for another host, whatever Host the client sends', async () => {
    const { handler, events } = makeHandler({ publicOrigin: 'https://shop.example' });
    const base = await listen(http.createServer(toNodeListener(handler)));
    const staging = new URL(
      await signCallbackUrl('https://staging.shop.example/hooks', { secret, reference: '123456789012' }),
    );
    const target = `${staging.pathname}${staging.search}`;
    expect((await rawRequest(base, head(target, 'staging.shop.example'), body)).status).toBe(401);
    expect(events).toEqual([]);
  });
});

describe('toNodeListener: a signature stays on the route it was issued for (express 5, two mounted routes)', () => {
  // Express routes on the request-target as written; the URL parser removes dot segments. A
  // target the parser would rewrite is refused, so the path verified is the path routed.
  async function twoRoutes() {
    const seen: string[] = [];
    const refusals: string[] = [];
    const mount = (name: string) =>
      toNodeListener(
        createCallbackHandler({
          secret,
          publicOrigin: 'https://shop.example',
          onEvent: (event) => void seen.push(`${name} ${event.type}`),
          onError: (_error, { status, reason }) => void refusals.push(`${name} ${status} ${reason}`),
        }),
      );
    const app = express();
    app.use('/webhooks/payments', mount('payments'));
    app.use('/webhooks/payouts', mount('payouts'));
    const base = await listen(http.createServer(app));
    const payouts = new URL(
      await signCallbackUrl('https://shop.example/webhooks/payouts', { secret, reference: '123456789012' }),
    );
    const body = JSON.stringify(payoutSuccess);
    const post = (path: string) =>
      rawRequest(
        base,
        `POST ${path}${payouts.search} HTTP/1.1\r\nHost: shop.example\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close`,
        body,
      );
    return { post, seen, refusals };
  }

  it('processes the URL on the route it was signed for', async () => {
    const { post, seen } = await twoRoutes();
    expect((await post('/webhooks/payouts')).status).toBe(200);
    expect(seen).toEqual(['payouts payout.succeeded']);
  });

  it.each([
    '/webhooks/payments/../payouts',
    '/webhooks/payments/%2e%2e/payouts',
    '/webhooks/payments/%2E%2E/payouts',
    '/webhooks/payments/.%2e/payouts',
    '/webhooks/payments/./../payouts',
    '/webhooks/payments/..\\payouts',
  ])('answers 400 invalid_request to %s, which the payments route receives', async (path) => {
    const { post, seen, refusals } = await twoRoutes();
    const response = await post(path);
    expect(response.status).toBe(400);
    expect(response.text).toContain('{"error":"invalid_request"}');
    expect(seen).toEqual([]);
    expect(refusals).toEqual(['payments 400 invalid_request']);
  });

  it('still verifies a path whose percent-escapes the URL parser keeps as written', async () => {
    const { handler, events } = makeHandler();
    const app = express();
    app.use('/hooks', toNodeListener(handler));
    const base = await listen(http.createServer(app));
    const url = await signCallbackUrl(`${base}/hooks/p%61y%20outs`, { secret, reference: '123456789012' });
    const response = await fetch(url, { method: 'POST', body: JSON.stringify(payoutSuccess) });
    expect(response.status).toBe(200);
    expect(events).toHaveLength(1);
  });
});

// The deadline bounds how long a sender may take with its body, and is armed only while bytes
// are missing.
/** The route mounted the two ways merchants mount it: on node:http, and as an Express 5 route. */
const mounts = {
  'node:http': (listener: http.RequestListener) => http.createServer(listener),
  'Express 5': (listener: http.RequestListener) => {
    const app = express();
    app.post('/hooks', listener);
    return http.createServer(app);
  },
};

describe.each(Object.keys(mounts) as (keyof typeof mounts)[])(
  'toNodeListener: the body deadline (%s)',
  (mount) => {
    async function timedRoute(bodyTimeoutMs: number) {
      const events: CallbackEvent[] = [];
      const handler = createCallbackHandler({
        secret,
        bodyTimeoutMs,
        onEvent: (event) => void events.push(event),
      });
      const base = await listen(mounts[mount](toNodeListener(handler)));
      const url = new URL(await signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' }));
      const body = JSON.stringify(payoutSuccess);
      /** Writes a POST of `sent` (of the whole body's declared length) on a raw socket; resolves with all the server wrote before closing it. */
      const post = (sent: string, headers = '') => {
        const { hostname, port } = new URL(base);
        return new Promise<string>((resolve, reject) => {
          const socket = net.connect(Number(port), hostname, () =>
            socket.write(
              `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${sent}`,
            ),
          );
          let text = '';
          socket.setEncoding('utf8');
          socket.on('data', (chunk: string) => (text += chunk));
          socket.on('error', reject);
          socket.on('close', () => resolve(text)); // closed by the server, not by us
        });
      };
      return { body, events, post };
    }

    it('answers 408 and closes the connection when the body stalls past bodyTimeoutMs', async () => {
      const { body, events, post } = await timedRoute(100);
      const result = await post(body.slice(0, 10));
      expect(result).toMatch(/^HTTP\/1\.1 408/);
      expect(result).toContain('{"error":"body_timeout"}');
      expect(events).toEqual([]);
    });

    it('arms no timer for a message already in memory whole: every byte its Content-Length declares is buffered', async () => {
      const { body, events, post } = await timedRoute(60_000);
      const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
      try {
        expect(await post(body, 'Connection: close\r\n')).toMatch(/^HTTP\/1\.1 200/);
        expect(setTimeoutSpy.mock.calls.filter(([, delay]) => delay === 60_000)).toEqual([]);
      } finally {
        setTimeoutSpy.mockRestore();
      }
      expect(events.map((event) => event.type)).toEqual(['payout.succeeded']);
    });
  },
);

describe('toNodeListener: nothing left floating', () => {
  it('returns nothing to await, and answers 500 (never a 2xx) when writing the answer fails', async () => {
    const { handler, events } = makeHandler();
    const listener = toNodeListener(handler);
    let returned: unknown = 'not called';
    const base = await listen(
      http.createServer((req, res) => {
        // The first head written (the handler's answer) throws; the listener's 500 goes through.
        const writeHead = res.writeHead.bind(res) as (
          status: number,
          headers?: http.OutgoingHttpHeaders,
        ) => unknown;
        let refused = false;
        res.writeHead = ((status: number, headers?: http.OutgoingHttpHeaders) => {
          if (!refused) {
            refused = true;
            throw new Error('the response refused its head');
          }
          return writeHead(status, headers);
        }) as typeof res.writeHead;
        returned = listener(req, res);
      }),
    );
    // Unsigned: the handler answers 401 with a JSON body, and writing its head throws.
    const response = await rawPost(`${base}/hooks/payments`, [JSON.stringify(checkoutFailure)]);
    expect(response.status).toBe(500);
    expect(returned).toBeUndefined();
    expect(events).toEqual([]);
  });
});

describe('toNodeListener: a response another layer already answered', () => {
  it('is left as that layer wrote it, and its kept-alive connection carries the next delivery', async () => {
    // A request-timeout middleware answers 503 while onEvent still runs; onEvent then fails. The
    // route's own 500 has nowhere to go: the 503 stands and the connection is not torn down.
    let current: http.ServerResponse | undefined;
    let calls = 0;
    const handler = createCallbackHandler({
      secret,
      onEvent: () => {
        calls += 1;
        if (calls > 1) return;
        current!.writeHead(503, { 'content-length': '0' }).end();
        throw new Error('database down');
      },
      onError: () => undefined,
    });
    const listener = toNodeListener(handler);
    const server = http.createServer((req, res) => {
      current = res;
      listener(req, res);
    });
    let connections = 0;
    server.on('connection', () => (connections += 1));
    const base = await listen(server);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const body = JSON.stringify(payoutSuccess);
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' });
    const post = () => rawPost(url, [body], { 'content-length': String(Buffer.byteLength(body)) }, agent);
    try {
      expect((await post()).status).toBe(503);
      await new Promise((resolve) => setImmediate(resolve));
      expect((await post()).status).toBe(200);
      expect(calls).toBe(2);
      expect(connections).toBe(1);
    } finally {
      agent.destroy();
    }
  });
});

describe('toNodeListener: one implementation', () => {
  it('refuses a function createCallbackHandler did not make', () => {
    const custom = async () => new Response(null);
    expect(() => toNodeListener(custom)).toThrow(/pass the handler createCallbackHandler returned/);
  });

  it('gives onEvent a Fetch Request with the method, URL and headers, built only when asked for', async () => {
    const seen: { method: string; url: string; header: string | null }[] = [];
    const handler = createCallbackHandler({
      secret,
      onEvent: (_event, { request }) =>
        void seen.push({ method: request.method, url: request.url, header: request.headers.get('x-shop') }),
    });
    const base = await listen(http.createServer(toNodeListener(handler)));
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'x-shop': 'A' },
      body: JSON.stringify(payoutSuccess),
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual([{ method: 'POST', url, header: 'A' }]);
  });

  it('keeps the connection open after each delivery it read whole, and reads the next one on it', async () => {
    const { handler, events } = makeHandler();
    const server = http.createServer(toNodeListener(handler));
    let connections = 0;
    server.on('connection', () => (connections += 1));
    const base = await listen(server);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = async (url: string, body: string) => {
      const { status, connection } = await rawPost(
        url,
        [body],
        { 'content-length': String(Buffer.byteLength(body)) },
        agent,
      );
      return { status, connection };
    };
    try {
      const checkout = await signCallbackUrl(`${base}/hooks`, { secret, reference: '1003' });
      const payout = await signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' });
      const answers = [
        await post(checkout, JSON.stringify(checkoutFailure)),
        await post(payout, JSON.stringify(payoutSuccess)),
        await post(payout, JSON.stringify(payoutSuccess)), // a duplicate, answered 200 again
      ];
      expect(answers).toEqual([
        { status: 200, connection: 'keep-alive' },
        { status: 200, connection: 'keep-alive' },
        { status: 200, connection: 'keep-alive' },
      ]);
      expect(connections).toBe(1);
      expect(events.map((event) => [event.type, event.reference])).toEqual([
        ['checkout.failed', '1003'],
        ['payout.succeeded', '123456789012'],
      ]);
    } finally {
      agent.destroy();
    }
  });

  it('reads the body of a stream a middleware set an encoding on, its text intact', async () => {
    const { handler, events } = makeHandler();
    const listener = toNodeListener(handler);
    const base = await listen(
      http.createServer((req, res) => {
        req.setEncoding('utf8');
        listener(req, res);
      }),
    );
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: '1003' });
    const message = 'Fonds insuffisants — réessayez';
    const body = JSON.stringify({ ...checkoutFailure, message });
    const response = await rawPost(url, [body], { 'content-length': String(Buffer.byteLength(body)) });
    expect(response.status).toBe(200);
    expect(events.map((event) => (event.data as { message?: string }).message)).toEqual([message]);
  });

  it('reads a body split into many small chunks', async () => {
    const { handler, events } = makeHandler();
    const base = await listen(http.createServer(toNodeListener(handler)));
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' });
    const text = JSON.stringify(payoutSuccess);
    const chunks = text.match(/.{1,7}/gs) ?? [];
    expect((await rawPost(url, chunks, { 'transfer-encoding': 'chunked' })).status).toBe(200);
    expect(events).toHaveLength(1);
  });
});

describe('toNodeListener: a message node:http refuses, passed on by another runtime', () => {
  it('refuses a body whose Content-Length is given twice (400 invalid_payload), closing the connection', async () => {
    const { handler, events } = makeHandler();
    const listener = toNodeListener(handler);
    const base = await listen(
      http.createServer((req, res) => {
        // What Bun's node:http hands over for a Content-Length given twice: both lines, one length.
        req.rawHeaders.push('content-length', req.headers['content-length'] ?? '');
        listener(req, res);
      }),
    );
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: '1003' });
    const body = JSON.stringify(checkoutFailure);
    const response = await rawPost(url, [body], { 'content-length': String(Buffer.byteLength(body)) });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 'invalid_payload' });
    expect(response.connection).toBe('close');
    expect(events).toEqual([]);
  });
});
