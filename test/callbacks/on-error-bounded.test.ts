// onError is awaited before the answer goes out (a log or a metric that must land before a
// serverless runtime freezes the request), but it is an observer: one that never settles (a
// metrics client with no timeout, its backend down) must not hold the answer of every refused
// delivery, and with it the sender's connection, for ever.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createCallbackHandler } from '../../src/callbacks/handler.js';

const secret = 'whsec_on_error_bounded_0123456789';
const unsigned = () => new Request('https://shop.example/webhooks/payments', { method: 'POST', body: '{}' });

beforeEach(() => {
  // Before the handler is created: it reads the clock from then on.
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether `pending` has settled, after `ms` of fake time. */
async function settledAfter(pending: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void pending.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

it('an onError that never settles: the refusal is answered once 5 s have passed, not never', async () => {
  const handler = createCallbackHandler({
    secret,
    onEvent: () => undefined,
    onError: () => new Promise(() => undefined),
  });
  const answer = handler(unsigned());
  expect(await settledAfter(answer, 4_900)).toBe(false);
  expect(await settledAfter(answer, 200)).toBe(true);
  expect((await answer).status).toBe(401);
});

it('an onError that settles within 5 s is awaited: the answer goes out after it', async () => {
  const told: string[] = [];
  const handler = createCallbackHandler({
    secret,
    onEvent: () => undefined,
    onError: async (_error, { reason }) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      told.push(reason);
    },
  });
  const answer = handler(unsigned());
  expect(await settledAfter(answer, 900)).toBe(false);
  expect(await settledAfter(answer, 200)).toBe(true);
  expect(told).toEqual(['invalid_signature']);
  expect((await answer).status).toBe(401);
});

it('an onError that throws at once, or rejects, does not change the answer', async () => {
  for (const onError of [
    () => {
      throw new Error('metrics down');
    },
    () => Promise.reject(new Error('metrics down')),
  ]) {
    const handler = createCallbackHandler({ secret, onEvent: () => undefined, onError });
    const answer = handler(unsigned());
    expect(await settledAfter(answer, 0)).toBe(true);
    expect((await answer).status).toBe(401);
  }
});
