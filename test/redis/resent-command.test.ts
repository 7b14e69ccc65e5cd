// A connection to Redis that drops after Redis ran a script but before its reply arrived (a
// network blip, a proxy or load balancer resetting it): ioredis reconnects and sends the same
// command again (`autoResendUnfulfilledCommands`, on by default), so Redis runs the script twice
// and the store reads the second run's reply. The second run must answer what the first did: the
// call's own claim is its claim ('new', not 'in_progress' held by nobody until it expires), and
// the call's own write is applied (a settlement 'settled' or 'late', not 'duplicate'; a payout
// recorded by this call, not one "already sent").
// Real redis-server, real ioredis, a TCP proxy between them that drops one reply when armed.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { createCallbackHandler } from '../../src/callbacks/index.js';
import { createRedisDedupeStore, createRedisTransactionStore } from '../../src/redis/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { payoutInput } from '../helpers/inputs.js';
import { listenOnLoopback, closeServer } from '../helpers/servers.js';
import { startRedisServer, type RedisServer } from '../reliability/helpers/redis-server.js';

const secret = 'whsec_resent_command_0123456789';
let server: RedisServer;
let proxy: Server;
let proxyPort: number;
/**
 * When set, the reply to the next command holding this text (a script's own words) is dropped and
 * both sockets closed: Redis ran the command, the client never heard.
 */
let dropReplyTo: string | undefined;
let dropNextReply = false;
let dropped = 0;
const clients: Redis[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  proxy = createServer((client: Socket) => {
    const upstream = connect(server.port, '127.0.0.1');
    client.on('data', (data) => {
      if (dropReplyTo !== undefined && data.toString().includes(dropReplyTo)) {
        dropReplyTo = undefined;
        dropNextReply = true;
      }
      upstream.write(data);
    });
    upstream.on('data', (data) => {
      if (dropNextReply) {
        dropNextReply = false;
        dropped += 1;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(data);
    });
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on('error', () => b.destroy());
      a.on('close', () => b.destroy());
    }
  });
  proxyPort = await listenOnLoopback(proxy);
});
beforeEach(() => {
  dropReplyTo = undefined;
  dropNextReply = false;
  dropped = 0;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.quit().catch(() => client.disconnect())));
});
afterAll(async () => {
  await closeServer(proxy);
  await server?.stop();
});

/** An ioredis client through the proxy (commands resent after a reconnect, ioredis's default). */
async function throughProxy(): Promise<Redis> {
  const client = new Redis(proxyPort, '127.0.0.1', { retryStrategy: () => 10 });
  client.on('error', () => undefined);
  clients.push(client);
  await client.ping();
  return client;
}
async function direct(): Promise<Redis> {
  const client = new Redis(server.port, '127.0.0.1');
  clients.push(client);
  return client;
}

describe('a script whose reply was lost and that ioredis sent again', () => {
  it("dedupe begin: the delivery is processed (the resent begin finds its own claim: 'new')", async () => {
    const prefix = `resent-begin-${Date.now()}:`;
    const events: string[] = [];
    const errors: string[] = [];
    const handler = createCallbackHandler({
      secret,
      dedupe: createRedisDedupeStore({ client: await throughProxy(), prefix }),
      onEvent: (event) => void events.push(event.type),
      onError: (error, { status, reason }) => void errors.push(`${status} ${reason}: ${error.message}`),
    });
    const delivery = () =>
      createCallbackRequest('payment.mobile_money.succeeded', { secret, reference: 'ORD-RESENT-1' });
    const request = await delivery();
    dropReplyTo = "'SET', KEYS[1], ARGV[1], 'NX'"; // begin's script
    const first = await handler(request);
    expect({ dropped, unused: dropReplyTo }).toEqual({ dropped: 1, unused: undefined });
    expect({ status: first.status, events, errors }).toEqual({
      status: 200,
      events: ['payment.mobile_money.succeeded'],
      errors: [],
    });
    const redis = await direct();
    expect(await redis.mget(await redis.keys(`${prefix}*`))).toEqual(['done']);
  });

  it("transaction store update: the settlement the call wrote is 'settled' ('late' after an expiry)", async () => {
    const store = createRedisTransactionStore({
      client: await throughProxy(),
      subscriber: (await direct()).duplicate(),
      prefix: `resent-update-${Date.now()}:`,
    });
    const tracker = createTransactionTracker({ store });
    try {
      await tracker.begin({ reference: 'ORD-FRESH', kind: 'card', amount: 1500, currency: 'KES' });
      await tracker.begin({ reference: 'ORD-LATE', kind: 'card', amount: 1500, currency: 'KES' });
      await tracker.expire('ORD-LATE');
      dropReplyTo = 'PUBLISH'; // update's script
      const fresh = await tracker.settle('ORD-FRESH', { outcome: 'succeeded', transactionId: 'T-1' });
      dropReplyTo = 'PUBLISH';
      const late = await tracker.settle('ORD-LATE', { outcome: 'succeeded', transactionId: 'T-2' });
      expect({ dropped, unused: dropReplyTo }).toEqual({ dropped: 2, unused: undefined });
      expect([fresh.result, late.result]).toEqual(['settled', 'late']);
    } finally {
      await store.close();
    }
  });

  it('transaction store insert: a payout the call recorded is sent, not refused as already sent', async () => {
    const prefix = `resent-insert-${Date.now()}:`;
    const store = createRedisTransactionStore({
      client: await throughProxy(),
      subscriber: (await direct()).duplicate(),
      prefix,
    });
    const tracker = createTransactionTracker({ store });
    let posted = 0;
    const client = new PaymentsClient({
      baseUrl: fakeService(() => {
        posted += 1;
        return Response.json({ message: 'Mobile Payout Initiated', status: 200 });
      }),
      transactions: { tracker, secret },
    });
    try {
      dropReplyTo = "'ZADD', KEYS[2], ARGV[3]"; // insert's script
      const sent = await client
        .initiatePayout({ ...payoutInput, transfer: { ...payoutInput.transfer, reference_id: 310000000777 } })
        .then(
          () => 'sent',
          (error: unknown) => (error as Error).name + ': ' + (error as Error).message,
        );
      expect({ dropped, unused: dropReplyTo }).toEqual({ dropped: 1, unused: undefined });
      expect({ sent, posted }).toEqual({ sent: 'sent', posted: 1 });
    } finally {
      await store.close();
    }
  });
});
