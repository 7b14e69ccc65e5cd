// Ways a delivery could reach onEvent twice, or never, through the memory store and the handler's
// claim / release / complete around onEvent.
import { describe, expect, it, vi } from 'vitest';
import {
  createCallbackHandler,
  createMemoryDedupeStore,
  type DedupeStore,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const payoutSuccess = callbackFixtures['payout.succeeded'];
const route = 'https://shop.example/webhooks/payments';
// Lets pending promise work run (setImmediate stays real; only Date is faked in these tests).
const settled = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};
const post = (url: string, body: string) =>
  new Request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('createMemoryDedupeStore given a TTL that is not a positive number', () => {
  // `Number(process.env.CLAIM_TTL)` with the variable unset is NaN: a claim that expires at NaN
  // is never "in progress", so every concurrent delivery would be told 'new'. A TTL of 0 or less
  // made a 1 ms claim, which lapses while the first delivery is still in onEvent.
  it.each([
    ['NaN', Number.NaN],
    ['undefined', undefined],
    ['0', 0],
    ['-1', -1],
  ])('refuses begin(key, %s) with a RangeError instead of a claim that does not hold', async (_name, ttl) => {
    const store = createMemoryDedupeStore();
    const answers = await Promise.allSettled([
      store.begin('k', ttl as number),
      store.begin('k', ttl as number),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe('rejected');
      expect((answer as PromiseRejectedResult).reason).toBeInstanceOf(RangeError);
      expect(String((answer as PromiseRejectedResult).reason)).toMatch(
        /begin: ttlMs must be a positive number/,
      );
    }
    // Nothing was claimed: a delivery with a usable TTL is processed.
    expect(await store.begin('k', 1_000)).toBe('new');
  });

  it('refuses complete(key, NaN) instead of recording the event as processed for no time at all', async () => {
    const store = createMemoryDedupeStore();
    expect(await store.begin('k', 1_000)).toBe('new');
    await expect(store.complete('k', Number.NaN)).rejects.toThrow(
      /complete: ttlMs must be a positive number/,
    );
    // The claim stands (a redelivery waits) rather than a replay being processed at once.
    expect(await store.begin('k', 1_000)).toBe('in_progress');
  });
});

describe('a claim whose store answered slowly', () => {
  // A store whose reply arrives late (a Redis under load) has written the claim before the
  // handler hears 'new': the claim lapses processingTimeoutMs after it was written, not after the
  // reply. When the first delivery's onEvent then throws, its claim may already be a second
  // delivery's; releasing it let a third copy run while the second still did.
  it('does not release a claim that lapsed while the reply was on its way', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    try {
      const inner = createMemoryDedupeStore();
      let slowReply: (() => void) | undefined;
      const store: DedupeStore = {
        begin: async (key, ttlMs) => {
          const state = await inner.begin(key, ttlMs);
          if (slowReply === undefined) await new Promise<void>((resolve) => (slowReply = resolve));
          return state;
        },
        complete: (key, ttlMs) => inner.complete(key, ttlMs),
        abandon: (key) => inner.abandon(key),
      };
      const running: { fail: (error: Error) => void }[] = [];
      const handler = createCallbackHandler({
        verify: false,
        dedupe: store,
        processingTimeoutMs: 200,
        onEvent: () => new Promise<void>((_resolve, reject) => void running.push({ fail: reject })),
      });
      const delivery = () => handler(post(route, JSON.stringify(payoutSuccess)));

      const first = delivery(); // the claim is written now; its reply comes 150 ms later
      await settled();
      expect(slowReply).toBeDefined();
      vi.advanceTimersByTime(150);
      slowReply!();
      await settled();
      expect(running).toHaveLength(1);

      vi.advanceTimersByTime(70); // 220 ms: the first claim has lapsed
      void delivery(); // the sender's retry takes the claim over and runs onEvent
      await settled();
      expect(running).toHaveLength(2);

      vi.advanceTimersByTime(80); // 300 ms: the first onEvent fails
      running[0]!.fail(new Error('database down'));
      expect((await first).status).toBe(500);

      // The second delivery is still in onEvent: a third copy must wait, not run alongside it.
      const third = delivery();
      await settled();
      expect(running).toHaveLength(2);
      const answer = await third;
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({ error: 'in_progress' });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a claim exactly processingTimeoutMs old', () => {
  // The memory store holds a claim for less than processingTimeoutMs: at exactly that age it has
  // lapsed, and may be another delivery's. A failing onEvent must then leave it alone.
  it('is not released when onEvent fails at that very moment: a third copy still waits', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    try {
      const running: { fail: (error: Error) => void }[] = [];
      const handler = createCallbackHandler({
        verify: false,
        dedupe: createMemoryDedupeStore(),
        processingTimeoutMs: 200,
        onEvent: () => new Promise<void>((_resolve, reject) => void running.push({ fail: reject })),
      });
      const delivery = () => handler(post(route, JSON.stringify(payoutSuccess)));

      const first = delivery();
      await settled();
      expect(running).toHaveLength(1);
      vi.advanceTimersByTime(200); // the first claim has just lapsed
      void delivery(); // the sender's retry takes the claim over and runs onEvent
      await settled();
      expect(running).toHaveLength(2);

      running[0]!.fail(new Error('database down')); // still at 200 ms
      expect((await first).status).toBe(500);
      const third = await delivery();
      expect(third.status).toBe(503);
      expect(await third.json()).toEqual({ error: 'in_progress' });
      expect(running).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a store that rejects with something other than an Error', () => {
  // A hand-made store passing on a driver's rejection as is (a string, a plain object): onError
  // must point at the store, not at an onEvent that never ran.
  it.each([
    ['a string', 'ECONNRESET'],
    ['a plain object', { code: 'ETIMEDOUT' }],
  ])('names the store when begin() rejects with %s', async (_name, thrown) => {
    const refusals: string[] = [];
    let attempts = 0;
    const handler = createCallbackHandler({
      verify: false,
      dedupe: {
        begin: () => Promise.reject(thrown as unknown as Error),
        complete: async () => undefined,
        abandon: async () => undefined,
      },
      onEvent: () => void (attempts += 1),
      onError: (error, { status, reason }) => void refusals.push(`${status} ${reason} ${error.message}`),
    });
    const answer = await handler(post(route, JSON.stringify(payoutSuccess)));
    expect(await answer.json()).toEqual({ error: 'handler_failed' });
    expect(answer.status).toBe(500);
    expect(attempts).toBe(0);
    expect(refusals).toEqual([
      "500 handler_failed The dedupe store's begin() threw a value that is not an Error",
    ]);
  });

  it('hands onError the Error begin() rejected with, as is (not wrapped as a value that is not an Error)', async () => {
    const thrown = new Error('ECONNREFUSED 127.0.0.1:6379');
    const errors: unknown[] = [];
    let attempts = 0;
    const handler = createCallbackHandler({
      verify: false,
      dedupe: {
        begin: () => Promise.reject(thrown),
        complete: async () => undefined,
        abandon: async () => undefined,
      },
      onEvent: () => void (attempts += 1),
      onError: (error, { status, reason }) => void errors.push({ error, status, reason }),
    });
    const answer = await handler(post(route, JSON.stringify(payoutSuccess)));
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({ error: 'handler_failed' });
    expect(attempts).toBe(0);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toEqual({ error: thrown, status: 500, reason: 'handler_failed' });
    expect((errors[0] as { error: unknown }).error).toBe(thrown);
  });
});

describe('the record of a processed event', () => {
  it('is in the store before the route answers 200, so a redelivery right after is a duplicate', async () => {
    const memory = createMemoryDedupeStore();
    let recorded = false;
    const handler = createCallbackHandler({
      verify: false,
      dedupe: {
        begin: (key, ttl) => memory.begin(key, ttl),
        complete: async (key, ttl) => {
          await new Promise((resolve) => setImmediate(resolve)); // a round trip to the store
          await memory.complete(key, ttl);
          recorded = true;
        },
        abandon: (key) => memory.abandon(key),
      },
      onEvent: () => undefined,
    });
    const answer = await handler(post(route, JSON.stringify(payoutSuccess)));
    expect(answer.status).toBe(200);
    expect(recorded).toBe(true);
    const again = await handler(post(route, JSON.stringify(payoutSuccess)));
    expect(again.status).toBe(200);
    expect(again.headers.get('x-callback-duplicate')).toBe('true');
  });
});
