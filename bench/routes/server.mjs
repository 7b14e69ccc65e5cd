// One webhook route in its own process, on 127.0.0.1 only, driven over IPC by suites/routes.mjs:
//   node bench/routes/server.mjs <kind> <callbacks entry>
// It sends { type: 'ready', port } once listening; on 'start' it zeroes its counters and takes
// process.cpuUsage() (user + system of every thread, the Web Crypto thread pool included); on 'stop'
// it answers with the CPU time (and its user part) and the counts since 'start'. Every route counts
// the deliveries it accepted ("events"), the way a merchant's code would see them, so the suite can
// check that each request was processed, not short-circuited as a duplicate or refused.
//
// Kinds:
//   sdk-express     Express 5, app.post(path, toNodeListener(createCallbackHandler(…)))
//   stripe-express  Express 5, express.raw() + stripe.webhooks.constructEvent, the route of Stripe's docs
//   sdk-node        bare node:http, createServer(toNodeListener(handler))
//   bare-node       bare node:http: read the body, JSON.parse it, answer 200 (the floor of any route)
//   bare-express    the same route behind Express 5 (the floor of any Express route)
//   sdk-hono        the Fetch handler as a Hono route on @hono/node-server
//   bare-hono       the bare route as a Hono route on @hono/node-server (the floor of any Hono route)
//   minimal-express Express 5, the least a verifying route can do with the SDK's parts: read the raw
//                   body, verifyCallbackUrl, safeParseCallback, a Set of seen bodies, 200 — no body
//                   cap or deadline, no Host check, unbounded dedupe (a floor to read the SDK's
//                   route against, not a route to ship)
//   handmade-express Express 5, the 30-line route issue 16 measured: raw body, node:crypto HMAC of
//                   host, path and hp_ref (the bench's URLs carry no other parameter), safeParseCallback,
//                   a Set of seen bodies, 200 — what hand-written code that skips the SDK's route gets
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { handlerOptions, stripeWebhookSecret, webhookPath } from '../fixtures/deliveries.mjs';

const [kind, callbacksEntry] = process.argv.slice(2);
let events = 0;
let requests = 0;

async function sdkHandler() {
  const { createCallbackHandler, toNodeListener } = await import(pathToFileURL(callbacksEntry).href);
  const handler = createCallbackHandler({
    ...handlerOptions,
    onEvent: () => {
      events++;
    },
  });
  return { handler, listener: toNodeListener(handler) };
}

async function expressApp() {
  const { default: express } = await import('express');
  const app = express();
  app.disable('x-powered-by');
  return { express, app };
}

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** Calls `then` with the whole raw body once the request has ended. */
function onBody(request, then) {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => then(Buffer.concat(chunks)));
}

/**
 * The Express route of the minimal and hand-written kinds: reads the raw body, asks `verified`
 * (a boolean, or a promise of one) about the request, runs `safeParseCallback`, counts each body
 * (by its SHA-256) once and answers 200 — 401 or 400 otherwise.
 */
async function rawBodyRoute(safeParseCallback, verified) {
  const { createHash } = await import('node:crypto');
  const seen = new Set();
  return (request, response) =>
    onBody(request, (body) => {
      const answer = (ok) => {
        if (!ok) return response.writeHead(401).end();
        if (!safeParseCallback(body).success) return response.writeHead(400).end();
        const key = createHash('sha256').update(body).digest('hex');
        if (!seen.has(key)) {
          seen.add(key);
          events++;
        }
        return response.end();
      };
      const ok = verified(request);
      if (ok instanceof Promise) ok.then(answer);
      else answer(ok);
    });
}

/** `route` as the POST route of a Hono app on `@hono/node-server`. */
async function honoServer(route) {
  const { Hono } = await import('hono');
  const { serve } = await import('@hono/node-server');
  const app = new Hono();
  app.post(webhookPath, route);
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server));
  });
}

/** Reads the body, `JSON.parse`s it and answers 200 (400 when it is not JSON): the floor of any route. */
function bareRoute(request, response) {
  onBody(request, (body) => {
    try {
      JSON.parse(body.toString('utf8'));
    } catch {
      response.writeHead(400).end();
      return;
    }
    events++;
    response.writeHead(200).end();
  });
}

async function start() {
  switch (kind) {
    case 'sdk-express': {
      const { listener } = await sdkHandler();
      const { app } = await expressApp();
      app.post(webhookPath, listener);
      return listen(createServer(app));
    }
    case 'minimal-express': {
      const { safeParseCallback, verifyCallbackUrl } = await import(pathToFileURL(callbacksEntry).href);
      const { app } = await expressApp();
      const verified = (request) =>
        verifyCallbackUrl(`${handlerOptions.publicOrigin}${request.originalUrl}`, {
          secret: handlerOptions.secret,
        }).then(
          () => true,
          () => false,
        );
      app.post(webhookPath, await rawBodyRoute(safeParseCallback, verified));
      return listen(createServer(app));
    }
    case 'handmade-express': {
      const { safeParseCallback } = await import(pathToFileURL(callbacksEntry).href);
      const { createHmac, timingSafeEqual } = await import('node:crypto');
      const host = new URL(handlerOptions.publicOrigin).host;
      const { app } = await expressApp();
      const verified = (request) => {
        const url = new URL(request.originalUrl, handlerOptions.publicOrigin);
        const given = Buffer.from(url.searchParams.get('hp_sig') ?? '', 'base64url');
        const mac = createHmac('sha256', handlerOptions.secret)
          .update(`hosted-payments/v1\n${host}${url.pathname}\n${url.searchParams.get('hp_ref')}`)
          .digest();
        return given.length === mac.length && timingSafeEqual(mac, given);
      };
      app.post(webhookPath, await rawBodyRoute(safeParseCallback, verified));
      return listen(createServer(app));
    }
    case 'stripe-express': {
      const { default: Stripe } = await import('stripe');
      const stripe = new Stripe('sk_test_bench_0123456789');
      const { express, app } = await expressApp();
      app.post(webhookPath, express.raw({ type: 'application/json' }), (request, response) => {
        let event;
        try {
          event = stripe.webhooks.constructEvent(
            request.body,
            request.headers['stripe-signature'],
            stripeWebhookSecret,
          );
        } catch (error) {
          response.status(400).send(`Webhook Error: ${error.message}`);
          return;
        }
        if (event !== undefined) events++;
        response.send();
      });
      return listen(createServer(app));
    }
    case 'sdk-node': {
      const { listener } = await sdkHandler();
      return listen(createServer(listener));
    }
    case 'bare-node':
      return listen(createServer(bareRoute));
    case 'bare-express': {
      const { app } = await expressApp();
      app.post(webhookPath, bareRoute);
      return listen(createServer(app));
    }
    case 'sdk-hono': {
      const { handler } = await sdkHandler();
      return honoServer((c) => handler(c.req.raw));
    }
    case 'bare-hono':
      return honoServer(async (c) => {
        try {
          JSON.parse(await c.req.text());
        } catch {
          return c.body(null, 400);
        }
        events++;
        return c.body(null, 200);
      });
    default:
      throw new Error(`unknown route kind ${kind}`);
  }
}

const server = await start();
server.on('request', () => {
  requests++;
});
server.keepAliveTimeout = 60_000;

let cpuAtStart = process.cpuUsage();
let timeAtStart = performance.now();
process.on('message', (message) => {
  if (message.type === 'start') {
    events = 0;
    requests = 0;
    cpuAtStart = process.cpuUsage();
    timeAtStart = performance.now();
    process.send({ type: 'started' });
  } else if (message.type === 'stop') {
    const cpu = process.cpuUsage(cpuAtStart);
    process.send({
      type: 'stats',
      cpuMicros: cpu.user + cpu.system,
      userMicros: cpu.user,
      seconds: (performance.now() - timeAtStart) / 1000,
      events,
      requests,
      rss: process.memoryUsage().rss,
    });
  }
});
process.on('disconnect', () => {
  server.closeAllConnections?.();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
});
process.send({ type: 'ready', port: server.address().port });
