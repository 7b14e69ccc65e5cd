// hosted-payments/redis on every ioredis major the package declares, against a real redis-server:
// the root install has the newest (6, which speaks RESP3 by default), `test/redis/ioredis-5/` the
// oldest (test/package/peer-ranges.test.ts holds the peer range to both). On each, the whole
// route must hold: a signed callback settles the tracker's record once, a waiter on another
// instance is woken over pub/sub, and the redelivery is answered as a duplicate without reaching
// onEvent again.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallbackHandler, signCallbackUrl, type CallbackEvent } from '../../src/callbacks/index.js';
import {
  createRedisDedupeStore,
  createRedisTransactionStore,
  type RedisTransactionStore,
} from '../../src/redis/index.js';
import { buildCallbackPayload } from '../../src/sandbox/payloads.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { startRedisServer, type RedisServer } from '../reliability/helpers/redis-server.js';
import { ensureInstalled } from '../runtimes/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const oldestDir = join(root, 'test/redis/ioredis-5');

interface RedisClient {
  quit(): Promise<unknown>;
  disconnect(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
}
type RedisClass = new (port: number, host: string, options: Record<string, unknown>) => RedisClient;

interface Major {
  readonly version: string;
  readonly Redis: RedisClass;
}

const versionIn = (packageJson: string): string =>
  (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
const newest = versionIn(createRequire(import.meta.url).resolve('ioredis/package.json'));

let oldest: Major;
let server: RedisServer;
const clients: RedisClient[] = [];
const stores: RedisTransactionStore[] = [];

beforeAll(async () => {
  const installed = await ensureInstalled(oldestDir);
  if (!installed.ok) throw new Error(installed.reason);
  const require = createRequire(join(oldestDir, 'package.json'));
  const module = require('ioredis') as { Redis: RedisClass };
  oldest = { version: versionIn(require.resolve('ioredis/package.json')), Redis: module.Redis };
  server = await startRedisServer();
}, 300_000);

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close().catch(() => undefined)));
  await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  await server?.stop();
});

const Newest = Redis as unknown as RedisClass;
/** The clients the route runs on: the newest major as merchants may set it up, and the oldest. */
const variants = {
  'the newest major (RESP3, its default)': () => ({ Redis: Newest, options: {} }),
  "the newest major with replyMapping: 'resp3' (maps as objects, doubles as numbers)": () => ({
    Redis: Newest,
    options: { replyMapping: 'resp3' },
  }),
  'the newest major over RESP2 (protocol: 2)': () => ({ Redis: Newest, options: { protocol: 2 } }),
  'the oldest major': () => ({ Redis: oldest.Redis, options: {} }),
} satisfies Record<string, () => { Redis: RedisClass; options: Record<string, unknown> }>;

describe('the ioredis majors hosted-payments/redis declares', () => {
  it('are the oldest major in test/redis/ioredis-5 and the newest in the root install', () => {
    expect(Number(oldest.version.split('.')[0])).toBeLessThan(Number(newest.split('.')[0]));
  });
});

const secret = 'whsec_0123456789abcdef';
const route = 'https://shop.example/webhooks/payments';
let prefixes = 0;

describe.each(Object.keys(variants) as (keyof typeof variants)[])('the route on Redis through %s', (name) => {
  it('settles once, wakes a waiter on another instance over pub/sub, and answers the redelivery as a duplicate', async () => {
    const { Redis: Client, options } = variants[name]();
    const connect = (): RedisClient => {
      const client = new Client(server.port, '127.0.0.1', {
        commandTimeout: 2_000,
        maxRetriesPerRequest: 1,
        ...options,
      });
      client.on('error', () => {});
      clients.push(client);
      return client;
    };
    const prefix = `majors${prefixes++}:`;
    // Two instances of the shop, each with its own connection, one Redis.
    const instance = () => {
      const client = connect();
      const store = createRedisTransactionStore({ client: client as never, prefix: `${prefix}tx:` });
      stores.push(store);
      return { client, tracker: createTransactionTracker({ store, pollIntervalMs: 600_000 }) };
    };
    const receiver = instance();
    const waiter = instance();
    const events: CallbackEvent[] = [];
    const handler = createCallbackHandler({
      secret,
      tracker: receiver.tracker,
      dedupe: createRedisDedupeStore({ client: receiver.client as never, prefix: `${prefix}dedupe:` }),
      onEvent: (event) => {
        events.push(event);
      },
    });

    await receiver.tracker.begin({ reference: 'ORD-1', kind: 'mobile_money', amount: 1500, currency: 'KES' });
    const waiting = waiter.tracker.waitFor('ORD-1', { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const url = await signCallbackUrl(route, { secret, reference: 'ORD-1' });
    const body = JSON.stringify(buildCallbackPayload('payment.mobile_money.succeeded', { amount: 1500 }));
    const deliver = () =>
      handler(new Request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } }));

    const first = await deliver();
    expect(first.status).toBe(200);
    expect(first.headers.get('x-callback-duplicate')).toBeNull();
    expect(await waiting).toMatchObject({ reference: 'ORD-1', state: 'succeeded' });
    const again = await deliver();
    expect(again.status).toBe(200);
    expect(again.headers.get('x-callback-duplicate')).toBe('true');
    expect(events.map((event) => [event.type, event.paid])).toEqual([
      ['payment.mobile_money.succeeded', true],
    ]);
    expect(await waiter.tracker.get('ORD-1')).toMatchObject({ state: 'succeeded' });
  });
});
