// examples/webhooks/aws-lambda.ts invoked as API Gateway invokes it, with events written by hand in
// the two documented payload formats (REST API 1.0, HTTP API 2.0): bodies base64-encoded and not,
// a stage in the path, a custom domain whose API mapping is not in the 2.0 rawPath, the query
// decoded and grouped by name in 1.0. Two module instances stand for two warm Lambda instances,
// sharing a real redis-server. Next to it, what goes wrong when the URL verified is rebuilt from
// the event's path, and when each instance keeps its own dedupe store or tracker.
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCallbackHandler } from '../../src/callbacks/index.js';
import { createRedisTransactionStore } from '../../src/redis/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { startRedisServer, type RedisServer } from '../reliability/helpers/redis-server.js';
import type * as LambdaExample from '../../examples/webhooks/aws-lambda.js';

type LambdaModule = typeof LambdaExample;

const secret = 'lambda-shop-webhook-secret-0123456789';
const executeApi = 'abc123.execute-api.eu-west-1.amazonaws.com';
const customDomain = 'pay.shop.example';

let server: RedisServer;
const modules: LambdaModule[] = [];
const clients: Redis[] = [];

/** A fresh copy of the example module: one warm Lambda instance, configured for `callbackUrl`. */
async function instance(callbackUrl: string): Promise<LambdaModule> {
  process.env.WEBHOOK_SECRET = secret;
  process.env.CALLBACK_URL = callbackUrl;
  process.env.REDIS_URL = server.url;
  vi.resetModules();
  const module = await import('../../examples/webhooks/aws-lambda.js');
  modules.push(module);
  return module;
}

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(
    [...modules.map((m) => m.redis), ...clients].map((c) => c.quit().catch(() => c.disconnect())),
  );
  await server?.stop();
});

let logs: string[];
beforeEach(() => {
  logs = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logs.push(args.join(' ')));
});

let counter = 0;
/** A signed URL and the body the service posts to it, for a fresh order. */
async function callback(base: string, options: { reference?: string } = {}) {
  const reference = options.reference ?? `ORDER-${Date.now()}-${counter++}`;
  const request = await createCallbackRequest('payment.mobile_money.succeeded', {
    secret,
    reference,
    url: base,
  });
  return { reference, url: new URL(request.url), body: await request.text() };
}

interface V2Options {
  readonly url: URL;
  readonly body: string;
  readonly rawPath: string;
  readonly host: string;
  readonly base64?: boolean;
  readonly method?: string;
}

/** An HTTP API event, payload format 2.0: lower-case header names, the query as sent. */
function v2Event({ url, body, rawPath, host, base64 = true, method = 'POST' }: V2Options) {
  return {
    version: '2.0',
    routeKey: `${method} /webhooks/payments`,
    rawPath,
    rawQueryString: url.search.slice(1),
    headers: {
      host,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-forwarded-proto': 'https',
    },
    queryStringParameters: Object.fromEntries(url.searchParams),
    requestContext: {
      domainName: host,
      stage: 'prod',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9' },
    },
    body: base64 ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded: base64,
  };
}

interface V1Options {
  readonly url: URL;
  readonly body: string;
  readonly path: string;
  readonly contextPath: string;
  readonly host: string;
  readonly base64?: boolean;
}

/** A REST API event, payload format 1.0: the query only decoded, grouped by name. */
function v1Event({ url, body, path, contextPath, host, base64 = false }: V1Options) {
  const multi: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) (multi[name] ??= []).push(value);
  return {
    resource: '/webhooks/payments',
    path,
    httpMethod: 'POST',
    headers: { Host: host, 'Content-Type': 'application/json' },
    multiValueHeaders: { Host: [host], 'Content-Type': ['application/json'] },
    queryStringParameters: Object.fromEntries(url.searchParams),
    multiValueQueryStringParameters: multi,
    requestContext: { domainName: host, stage: 'prod', path: contextPath, httpMethod: 'POST' },
    body: base64 ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded: base64,
  };
}

/** What a handler answers that rebuilds the URL from the event's Host and path (the mistake). */
async function fromEventPath(
  event: { headers: Record<string, string>; body: string },
  path: string,
  url: URL,
) {
  const handler = createCallbackHandler({ secret, dedupe: false, onEvent: () => {} });
  const host = event.headers.host ?? event.headers.Host;
  const request = new Request(`https://${host}${path}${url.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(event.body, 'base64').toString(),
  });
  return (await handler(request)).status;
}

it("docs/runtimes.md's Lambda block is the example, without its header comment", () => {
  const example = readFileSync(new URL('../../examples/webhooks/aws-lambda.ts', import.meta.url), 'utf8');
  const docs = readFileSync(new URL('../../docs/runtimes.md', import.meta.url), 'utf8');
  const code = example.slice(example.indexOf('import { Redis }'));
  expect(docs).toContain('```ts\n' + code + '```');
});

describe('HTTP API, payload format 2.0', () => {
  it('accepts a genuine callback on the execute-api URL, the stage in the path, the body base64', async () => {
    const base = `https://${executeApi}/prod/webhooks/payments`;
    const lambda = await instance(base);
    const { reference, url, body } = await callback(base);
    const answer = await lambda.handler(
      v2Event({ url, body, rawPath: '/prod/webhooks/payments', host: executeApi }),
    );
    expect(answer).toEqual({ statusCode: 200, headers: { 'cache-control': 'no-store' }, body: '' });
    expect(logs).toEqual([`webhook: payment.mobile_money.succeeded reference=${reference} amount=1500`]);
  });

  it('accepts one behind a custom domain whose API mapping the rawPath leaves out; rebuilt from rawPath, 401', async () => {
    const base = `https://${customDomain}/payments/webhooks/payments`;
    const lambda = await instance(base);
    const { url, body } = await callback(base);
    const event = v2Event({ url, body, rawPath: '/webhooks/payments', host: customDomain });
    expect((await lambda.handler(event)).statusCode).toBe(200);
    expect(await fromEventPath(event, event.rawPath, url)).toBe(401);
  });

  it('refuses a forged signature, a URL signed for another path, and a changed query: 401', async () => {
    const base = `https://${customDomain}/webhooks/payments`;
    const lambda = await instance(base);
    const genuine = await callback(`${base}?tenant=7`);
    const forged = new URL(genuine.url);
    forged.searchParams.set('hp_sig', 'A'.repeat(43));
    const payouts = await callback(`https://${customDomain}/webhooks/payouts`);
    const tenant = new URL(genuine.url.href.replace('tenant=7', 'tenant=8'));
    for (const url of [forged, payouts.url, tenant]) {
      const answer = await lambda.handler(
        v2Event({ url, body: genuine.body, rawPath: url.pathname, host: customDomain }),
      );
      expect(answer.statusCode, url.pathname).toBe(401);
      expect(answer.body).toBe('{"error":"invalid_signature"}');
    }
    expect(logs).toEqual([]);
  });

  it('answers a GET 405 with Allow: POST', async () => {
    const base = `https://${customDomain}/webhooks/payments`;
    const lambda = await instance(base);
    const { url, body } = await callback(base);
    const answer = await lambda.handler(
      v2Event({ url, body, rawPath: url.pathname, host: customDomain, method: 'GET' }),
    );
    expect(answer.statusCode).toBe(405);
    expect(answer.headers.allow).toBe('POST');
  });
});

describe('REST API, payload format 1.0', () => {
  it('accepts a genuine callback signed with the stage; rebuilt from an event path without it, 401', async () => {
    const base = `https://${executeApi}/prod/webhooks/payments`;
    const lambda = await instance(base);
    const { reference, url, body } = await callback(`${base}?tenant=7`);
    const event = v1Event({
      url,
      body,
      path: '/webhooks/payments',
      contextPath: '/prod/webhooks/payments',
      host: executeApi,
      base64: true,
    });
    expect((await lambda.handler(event)).statusCode).toBe(200);
    expect(logs).toEqual([`webhook: payment.mobile_money.succeeded reference=${reference} amount=1500`]);
    expect(await fromEventPath(event, event.path, url)).toBe(401);
  });

  it('accepts a plain-text body, the query rebuilt from the decoded parameters', async () => {
    const base = `https://${customDomain}/webhooks/payments`;
    const lambda = await instance(base);
    const { url, body } = await callback(`${base}?shop=caf%C3%A9+bar`);
    const event = v1Event({ url, body, path: url.pathname, contextPath: url.pathname, host: customDomain });
    expect((await lambda.handler(event)).statusCode).toBe(200);
  });
});

describe('several warm instances', () => {
  it('process an event once when their dedupe store is in Redis: the other answers it a duplicate', async () => {
    const base = `https://${customDomain}/webhooks/payments`;
    const [a, b] = [await instance(base), await instance(base)];
    const { reference, url, body } = await callback(base);
    const event = v2Event({ url, body, rawPath: url.pathname, host: customDomain });
    expect((await a.handler(event)).statusCode).toBe(200);
    const again = await b.handler(event);
    expect(again.statusCode).toBe(200);
    expect(again.headers['x-callback-duplicate']).toBe('true');
    expect(logs).toEqual([`webhook: payment.mobile_money.succeeded reference=${reference} amount=1500`]);
  });

  it('each run onEvent for the same event when each keeps the default in-memory store', async () => {
    const calls: string[] = [];
    const [a, b] = [1, 2].map((n) =>
      createCallbackHandler({
        secret,
        onEvent: (_event, { reference }) => void calls.push(`${n} ${reference}`),
      }),
    );
    const base = `https://${customDomain}/webhooks/payments`;
    const { reference } = await callback(base);
    for (const handler of [a!, b!]) {
      const request = await createCallbackRequest('payment.card.succeeded', { secret, reference, url: base });
      expect((await handler(request)).status).toBe(200);
    }
    expect(calls).toEqual([`1 ${reference}`, `2 ${reference}`]);
  });

  it("refuse a callback 409 unknown_reference when the initiating function's tracker is in its own memory", async () => {
    const initiating = createTransactionTracker();
    const webhook = createCallbackHandler({ secret, tracker: createTransactionTracker(), onEvent: () => {} });
    const base = `https://${customDomain}/webhooks/payments`;
    const { reference } = await callback(base);
    await initiating.begin({ reference, kind: 'mobile_money', amount: '1500' });
    const request = await createCallbackRequest('payment.mobile_money.succeeded', {
      secret,
      reference,
      url: base,
    });
    const answer = await webhook(request);
    expect([answer.status, await answer.text()]).toEqual([409, '{"error":"unknown_reference"}']);
  });

  it('settle it when both trackers keep their transactions in the same Redis', async () => {
    const connect = () => {
      const client = new Redis(server.url);
      clients.push(client);
      return createRedisTransactionStore({ client });
    };
    const initiating = createTransactionTracker({ store: connect() });
    const webhookTracker = createTransactionTracker({ store: connect() });
    const webhook = createCallbackHandler({ secret, tracker: webhookTracker, onEvent: () => {} });
    const base = `https://${customDomain}/webhooks/payments`;
    const { reference } = await callback(base);
    await initiating.begin({ reference, kind: 'mobile_money', amount: '1500' });
    const request = await createCallbackRequest('payment.mobile_money.succeeded', {
      secret,
      reference,
      url: base,
    });
    expect((await webhook(request)).status).toBe(200);
    expect((await initiating.get(reference))?.state).toBe('succeeded');
  });
});
