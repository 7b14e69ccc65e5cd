// A merchant webhook instance in its own process (run by helpers/handler-cluster.ts):
// createCallbackHandler + toNodeListener on node:http, deduplicating in Redis when REDIS_PORT is
// set (in memory otherwise). Reports over IPC: 'listening', every onEvent call ('attempt') and
// success ('processed'), and answers 'flush' with 'flushed' (IPC is ordered, so every report sent
// before it has arrived). 'stop' closes everything; the process must then exit by itself.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createCallbackHandler } from '../../../src/callbacks/handler.js';
import { toNodeListener } from '../../../src/callbacks/node.js';
import { createRedisDedupeStore } from '../../../src/redis/index.js';
import { hashUnit } from '../helpers/merchant.js';
import { render } from '../helpers/secrets.js';

const env = process.env;
const instance = env.INSTANCE ?? '0';
const failFirstPct = Number(env.FAIL_FIRST_DELIVERY_PCT ?? 0);
const seed = Number(env.SEED ?? 1);
const send = (message: object) => process.send?.(message);

const redis =
  env.REDIS_PORT === undefined
    ? undefined
    : new Redis(Number(env.REDIS_PORT), '127.0.0.1', {
        commandTimeout: 500,
        maxRetriesPerRequest: 1,
        retryStrategy: () => 100, // reconnect every 100 ms while Redis is down
      });
redis?.on('error', () => undefined); // reconnect noise while Redis restarts is expected

const handler = createCallbackHandler({
  secret: env.SECRET!,
  ...(env.PUBLIC_ORIGIN ? { publicOrigin: env.PUBLIC_ORIGIN } : {}),
  ...(redis ? { dedupe: createRedisDedupeStore({ client: redis, completeRetryMs: 5_000 }) } : {}),
  processingTimeoutMs: Number(env.PROCESSING_TIMEOUT_MS ?? 10_000),
  onEvent: async (event, { dedupeKey, reference }) => {
    send({ kind: 'attempt', key: dedupeKey, instance });
    if (env.ON_EVENT_DELAY_MS) await new Promise((r) => setTimeout(r, Number(env.ON_EVENT_DELAY_MS)));
    send({ kind: 'processed', key: dedupeKey, reference, type: event.type, instance, at: Date.now() });
  },
  onError: (error, { status, reason }) => send({ kind: 'error', status, reason, text: render(error) }),
});
const listener = toNodeListener(handler);

// "The webhook fails 30% of first deliveries": the first time a callback URL (unique per event)
// is seen, answer 500 for a seeded share of them, before the handler runs.
const seen = new Set<string>();
const server = createServer((req, res) => {
  const url = req.url ?? '';
  if (failFirstPct > 0 && !seen.has(url)) {
    seen.add(url);
    if (hashUnit(url, seed) * 100 < failFirstPct) {
      send({ kind: 'injected', instance });
      req.resume();
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"injected"}');
      return;
    }
  }
  void listener(req, res);
});
server.keepAliveTimeout = 2_000;

process.on('message', (message: { kind: string }) => {
  if (message.kind === 'flush') send({ kind: 'flushed', instance });
  if (message.kind === 'stop') {
    server.close();
    server.closeAllConnections();
    void redis?.quit().catch(() => redis.disconnect());
    process.disconnect?.();
  }
});

server.listen(Number(env.PORT ?? 0), '127.0.0.1', () => {
  send({ kind: 'listening', port: (server.address() as AddressInfo).port, instance });
});
