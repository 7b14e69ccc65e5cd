// The dedupe store's complete() failing after onEvent resolved: the event was processed, so the
// answer stays 200 (a 500 would have the sender deliver it again), and a redelivery reaching this
// handler is answered as the duplicate it is. But the store now holds a claim where it should hold
// a processed event (another instance answers that event 503 in_progress until the claim lapses,
// then runs onEvent again): onError is told, with status 200 (what was answered) and reason
// handler_failed, and a PaymentsError whose cause is what the store threw. It was told nothing.
import { describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  createMemoryDedupeStore,
  type DedupeStore,
} from '../../src/callbacks/index.js';
import { PaymentsError } from '../../src/errors.js';
import { createCallbackRequest } from '../../src/testing/index.js';

const secret = 'whsec_complete_failed_told_0123456789';

const deliver = async (handler: (request: Request) => Promise<Response>) =>
  handler(await createCallbackRequest('payout.succeeded', { secret, reference: '123456789012' }));

/** A handler whose store's complete() throws `thrown` the first `times` times. */
function route(times: number, thrown: unknown) {
  const memory = createMemoryDedupeStore();
  let fails = times;
  const store: DedupeStore = {
    begin: (key, ttl) => memory.begin(key, ttl),
    complete: async (key, ttl) => {
      if (fails-- > 0) throw thrown;
      return memory.complete(key, ttl);
    },
    abandon: (key) => memory.abandon(key),
  };
  let processed = 0;
  const told: { error: unknown; status: number; reason: string; path: string }[] = [];
  const handler = createCallbackHandler({
    secret,
    dedupe: store,
    onEvent: () => void (processed += 1),
    onError: (error, { status, reason, request }) =>
      void told.push({ error, status, reason, path: new URL(request.url).pathname }),
  });
  return { handler, told, processed: () => processed };
}

const answered = async (response: Response) => ({
  status: response.status,
  duplicate: response.headers.get('x-callback-duplicate'),
  body: await response.text(),
});

describe("the dedupe store's complete() throws after onEvent resolved", () => {
  it('answers 200 and tells onError: status 200, handler_failed, the store error as cause', async () => {
    const thrown = new Error('ECONNRESET');
    const { handler, told, processed } = route(1, thrown);
    expect(await answered(await deliver(handler))).toEqual({ status: 200, duplicate: null, body: '' });
    expect(processed()).toBe(1);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ status: 200, reason: 'handler_failed', path: '/webhooks/payments' });
    const error = told[0]!.error as Error;
    expect(error).toBeInstanceOf(PaymentsError);
    expect(error.cause).toBe(thrown);
    expect(error.message).toMatch(/processed/);
    expect(error.message).toMatch(/complete\(\)/);

    // The redelivery reaching this handler records it: a duplicate, onEvent not run, nothing to tell.
    expect(await answered(await deliver(handler))).toEqual({ status: 200, duplicate: 'true', body: '' });
    expect(processed()).toBe(1);
    expect(told).toHaveLength(1);
  });

  it('failing again for the redelivery: a duplicate 200, and onError told again', async () => {
    const { handler, told, processed } = route(2, new Error('ECONNRESET'));
    expect((await deliver(handler)).status).toBe(200);
    expect(await answered(await deliver(handler))).toEqual({ status: 200, duplicate: 'true', body: '' });
    expect(processed()).toBe(1);
    expect(told.map(({ status, reason }) => `${status} ${reason}`)).toEqual([
      '200 handler_failed',
      '200 handler_failed',
    ]);
  });

  it('a value that is not an Error: its cause, as is', async () => {
    const { handler, told } = route(1, 'redis: connection lost');
    expect((await deliver(handler)).status).toBe(200);
    expect(told).toHaveLength(1);
    expect(told[0]!.error).toBeInstanceOf(PaymentsError);
    expect((told[0]!.error as Error).cause).toBe('redis: connection lost');
  });
});

it('a complete() that goes through tells onError nothing', async () => {
  const { handler, told } = route(0, undefined);
  expect((await deliver(handler)).status).toBe(200);
  expect(told).toEqual([]);
});
