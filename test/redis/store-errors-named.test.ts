// A Redis store's failure reaches onError as handler_failed, the reason an onEvent that threw gets
// too: the error must say which it was. A timeout already said "Redis dedupe store: …"; a client
// that gave up at once (ioredis's MaxRetriesPerRequestError while Redis is down) came through as
// it was, so an operator could not tell the store from their own code. Every error of a store
// call now names the store and keeps the client's error as its cause.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createCallbackHandler, type CallbackHandlerError } from '../../src/callbacks/index.js';
import { createRedisDedupeStore, createRedisTransactionStore } from '../../src/redis/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';
import { freePort } from '../reliability/helpers/ports.js';

const secret = 'whsec_store_errors_named_0123';
const clients: Redis[] = [];
/** A client of a Redis that is not there, which gives up on a command at once. */
async function down(): Promise<Redis> {
  const client = new Redis(await freePort(), '127.0.0.1', {
    maxRetriesPerRequest: 0,
    retryStrategy: () => 50,
    lazyConnect: false,
  });
  client.on('error', () => undefined);
  clients.push(client);
  return client;
}
afterAll(() => {
  for (const client of clients) client.disconnect();
});

describe('a store call Redis refused', () => {
  it('reaches onError as an error naming the Redis dedupe store, the client error as its cause', async () => {
    const errors: { error: CallbackHandlerError; reason: string }[] = [];
    const handler = createCallbackHandler({
      secret,
      dedupe: createRedisDedupeStore({ client: await down() }),
      onEvent: () => undefined,
      onError: (error, { reason }) => void errors.push({ error, reason }),
    });
    const response = await handler(await createCallbackRequest('payout.succeeded', { secret }));
    expect(response.status).toBe(500);
    expect(errors[0]!.reason).toBe('handler_failed');
    expect(errors[0]!.error.message).toMatch(/^Redis dedupe store: /);
    expect((errors[0]!.error as Error).cause).toBeInstanceOf(Error);
  });

  it('is a rejection naming the Redis transaction store, the client error as its cause', async () => {
    const store = createRedisTransactionStore({ client: await down() });
    const error = await store.get('ORD-1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^Redis transaction store: /);
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});

describe('a record under the store’s key that is not JSON (another program wrote it)', () => {
  const store = createRedisTransactionStore({ client: { eval: async () => '{not json' } });

  it('get rejects naming the store and the key, the parser’s error as its cause', async () => {
    const error = await store.get('ORD-1').catch((caught: unknown) => caught);
    expect((error as Error).message).toBe(
      'Redis transaction store: hosted-payments:tx:r:ORD-1 holds a record that is not JSON (is another application using the prefix?)',
    );
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });

  it('listPending rejects naming the pending index it read', async () => {
    const listing = createRedisTransactionStore({ client: { eval: async () => ['{not json'] } });
    await expect(listing.listPending({ kind: 'card', createdBefore: Date.now(), limit: 10 })).rejects.toThrow(
      'Redis transaction store: a record listed in hosted-payments:tx:pending:card is not JSON (is another application using the prefix?)',
    );
  });
});
