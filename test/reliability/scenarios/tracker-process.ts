// A merchant webhook instance with the pending-transaction tracker, in its own process: the
// handler settles transactions in a shared Redis (the Redis DedupeStore too), and the instance
// also waits on transactions (waitFor) that other instances receive. Reports over IPC:
// 'listening'; 'event' for every onEvent (reference, settlement, state); 'error' for every
// refusal; 'waited' / 'wait-failed' per waitFor; 'flushed' after 'flush'. A request carrying
// `x-test-fail-attempt: 1` is answered 500 before the handler runs (a webhook that fails).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createCallbackHandler } from '../../../src/callbacks/handler.js';
import { toNodeListener } from '../../../src/callbacks/node.js';
import { createRedisDedupeStore, createRedisTransactionStore } from '../../../src/redis/index.js';
import { createTransactionTracker } from '../../../src/transactions/index.js';

const env = process.env;
const instance = env.INSTANCE ?? '0';
const send = (message: object) => process.send?.(message);

const redis = new Redis(Number(env.REDIS_PORT), '127.0.0.1', {
  commandTimeout: 1_000,
  maxRetriesPerRequest: 1,
  retryStrategy: () => 100, // reconnect every 100 ms while Redis is down
});
redis.on('error', () => undefined); // reconnect noise while Redis restarts is expected
const store = createRedisTransactionStore({ client: redis });
// Polling is only the fallback for a pub/sub message lost while Redis restarts.
const tracker = createTransactionTracker({ store, pollIntervalMs: Number(env.POLL_INTERVAL_MS ?? 5_000) });

const handler = createCallbackHandler({
  secret: env.SECRET!,
  publicOrigin: env.PUBLIC_ORIGIN!,
  tracker,
  dedupe: createRedisDedupeStore({ client: redis, completeRetryMs: 2_000 }),
  processingTimeoutMs: Number(env.PROCESSING_TIMEOUT_MS ?? 10_000),
  onEvent: (event, { reference, settlement, transaction }) => {
    send({ kind: 'event', instance, reference, settlement, state: transaction?.state, type: event.type });
  },
  onError: (_error, { status, reason }) => send({ kind: 'error', instance, status, reason }),
});
const listener = toNodeListener(handler);

const server = createServer((req, res) => {
  if (req.headers['x-test-fail-attempt'] === '1') {
    req.resume();
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"injected"}');
    return;
  }
  void listener(req, res);
});
server.keepAliveTimeout = 2_000;

process.on('message', (message: { kind: string; references?: string[]; timeout?: number }) => {
  if (message.kind === 'wait') {
    for (const reference of message.references ?? []) {
      tracker.waitFor(reference, { timeout: message.timeout ?? 60_000 }).then(
        (record) => send({ kind: 'waited', instance, reference, state: record.state }),
        (error: Error) => send({ kind: 'wait-failed', instance, reference, name: error.name }),
      );
    }
    send({ kind: 'waiting', instance });
  }
  if (message.kind === 'flush') send({ kind: 'flushed', instance });
  if (message.kind === 'stop') {
    server.close();
    server.closeAllConnections();
    void store
      .close()
      .catch(() => undefined)
      .then(() => redis.quit())
      .catch(() => redis.disconnect());
    process.disconnect?.();
  }
});

server.listen(0, '127.0.0.1', () => {
  send({ kind: 'listening', port: (server.address() as AddressInfo).port, instance });
});
