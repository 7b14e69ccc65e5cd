// What docs/webhooks.md ("Behind a reverse proxy") and docs/troubleshooting.md say of proxies: the
// handler reads no X-Forwarded-Host or X-Forwarded-Proto, Express's `trust proxy` changes nothing
// for it, `publicOrigin` is the setting for the host, and a path a proxy stripped a prefix from or
// added one to verifies once the route is given back the path that was signed (the recipes, as
// the docs print them).
import http from 'node:http';
import express, { type Express } from 'express';
import { describe, expect, it } from 'vitest';
import { createCallbackHandler, toNodeListener, type CallbackHandler } from '../../src/callbacks/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';
import { listenForThisTest } from '../helpers/servers.js';

const secret = 'whsec_proxies_0123456789abcdef';

/** A handler and how many events reached its onEvent. */
function counted(options: { publicOrigin?: string } = {}): {
  handler: CallbackHandler;
  events: () => number;
} {
  let events = 0;
  const handler = createCallbackHandler({
    secret,
    ...options,
    onEvent: () => void events++,
  });
  return { handler, events: () => events };
}

/** A signed mobile-money success for `url` (the URL the service posts to): its path and query, and its body. */
async function signedCallback(url: string): Promise<{ target: string; body: string }> {
  const request = await createCallbackRequest('payment.mobile_money.succeeded', {
    secret,
    reference: 'ORD-PROXY-1',
    url,
  });
  const signed = new URL(request.url);
  return { target: signed.pathname + signed.search, body: await request.text() };
}

const listen = (app: Express | http.RequestListener): Promise<number> =>
  listenForThisTest(http.createServer(app));

/** POSTs `body` to `target` on the local port with exactly these headers, as a proxy would forward it. */
function post(port: number, target: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: target,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('toNodeListener behind a proxy: X-Forwarded-Host and X-Forwarded-Proto are not read', () => {
  for (const trustProxy of [false, true]) {
    it(`without publicOrigin, verifies against Host alone (Express trust proxy: ${trustProxy})`, async () => {
      const { target, body } = await signedCallback('https://shop.example/webhooks/payments');
      const { handler, events } = counted();
      const app = express();
      app.set('trust proxy', trustProxy);
      app.post('/webhooks/payments', toNodeListener(handler));
      const port = await listen(app);
      // The proxy passes its upstream's name as Host and the public one as X-Forwarded-Host: 401.
      const forwarded = { 'x-forwarded-host': 'shop.example', 'x-forwarded-proto': 'https' };
      expect(await post(port, target, { host: `127.0.0.1:${port}`, ...forwarded }, body)).toBe(401);
      // The public Host passed on verifies, whatever X-Forwarded-Host names.
      const other = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
      expect(await post(port, target, { host: 'shop.example', ...other }, body)).toBe(200);
      expect(events()).toBe(1);
    });
  }

  it('with publicOrigin, verifies against it whatever Host and X-Forwarded-Host name, over plain HTTP', async () => {
    const { target, body } = await signedCallback('https://shop.example/webhooks/payments');
    const { handler, events } = counted({ publicOrigin: 'https://shop.example' });
    const app = express();
    app.set('trust proxy', true);
    app.post('/webhooks/payments', toNodeListener(handler));
    const port = await listen(app);
    const headers = {
      host: `127.0.0.1:${port}`,
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'http',
    };
    expect(await post(port, target, headers, body)).toBe(200);
    expect(events()).toBe(1);
  });
});

describe('the Fetch handler behind a proxy', () => {
  it('verifies request.url (X-Forwarded-Host ignored) unless publicOrigin is set', async () => {
    const { target, body } = await signedCallback('https://shop.example/webhooks/payments');
    const request = () =>
      new Request(`http://app.internal:3000${target}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-host': 'shop.example',
          'x-forwarded-proto': 'https',
        },
        body,
      });
    expect((await counted().handler(request())).status).toBe(401);
    const pinned = counted({ publicOrigin: 'https://shop.example' });
    expect((await pinned.handler(request())).status).toBe(200);
    expect(pinned.events()).toBe(1);
  });
});

describe('a proxy that changes the path', () => {
  it('stripping a prefix: 401 as is, 200 with the Express recipe putting it back', async () => {
    const { target, body } = await signedCallback('https://shop.example/shop/webhooks/payments');
    expect(target.startsWith('/shop/webhooks/payments?')).toBe(true);
    const arriving = target.slice('/shop'.length); // location /shop/ { proxy_pass http://app/; }
    const headers = { host: 'shop.example' };

    const plain = counted();
    const bare = express();
    bare.post('/webhooks/payments', toNodeListener(plain.handler));
    expect(await post(await listen(bare), arriving, headers, body)).toBe(401);

    const fixed = counted();
    const app = express();
    app.use('/webhooks', (req, _res, next) => {
      req.originalUrl = '/shop' + req.originalUrl;
      next();
    });
    app.post('/webhooks/payments', toNodeListener(fixed.handler));
    expect(await post(await listen(app), arriving, headers, body)).toBe(200);
    expect(fixed.events()).toBe(1);
  });

  it('adding a prefix: 401 as is, 200 with the Express recipe taking it off', async () => {
    const { target, body } = await signedCallback('https://shop.example/webhooks/payments');
    const arriving = '/api' + target; // location /webhooks/ { proxy_pass http://app/api/webhooks/; }
    const headers = { host: 'shop.example' };

    const plain = counted();
    const bare = express();
    bare.post('/api/webhooks/payments', toNodeListener(plain.handler));
    expect(await post(await listen(bare), arriving, headers, body)).toBe(401);

    const fixed = counted();
    const app = express();
    app.use('/api/webhooks', (req, _res, next) => {
      req.originalUrl = req.originalUrl.slice('/api'.length);
      next();
    });
    app.post('/api/webhooks/payments', toNodeListener(fixed.handler));
    expect(await post(await listen(app), arriving, headers, body)).toBe(200);
    expect(fixed.events()).toBe(1);
  });

  it('the Fetch recipes: the prefix put back, or taken off, before the handler', async () => {
    const stripped = await signedCallback('https://shop.example/shop/webhooks/payments');
    const strip = counted({ publicOrigin: 'https://shop.example' });
    {
      const request = new Request(`http://app.internal${stripped.target.slice('/shop'.length)}`, {
        method: 'POST',
        body: stripped.body,
      });
      const url = new URL(request.url);
      const response = await strip.handler(
        new Request(new URL('/shop' + url.pathname + url.search, url), request),
      );
      expect(response.status).toBe(200);
    }

    const added = await signedCallback('https://shop.example/webhooks/payments');
    const add = counted({ publicOrigin: 'https://shop.example' });
    {
      const request = new Request(`http://app.internal/api${added.target}`, {
        method: 'POST',
        body: added.body,
      });
      const url = new URL(request.url);
      const response = await add.handler(
        new Request(new URL(url.pathname.slice('/api'.length) + url.search, url), request),
      );
      expect(response.status).toBe(200);
    }
    expect([strip.events(), add.events()]).toEqual([1, 1]);
  });
});
