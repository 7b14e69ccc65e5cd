// When onEvent threw and the dedupe store then failed to release the claim (its abandon threw once:
// a Durable Object or Redis hiccup), every retry was answered 503 in_progress until
// processingTimeoutMs (5 min) had passed — far longer than a sender retries (the sandbox gives up
// after about 16 s): the payment was settled in the tracker, the order never. Likewise a complete()
// that failed left a processed event answered 503. The handler remembers a claim of its own it
// could not release or complete: a retry reaching it releases the claim and is processed, or, for
// a processed one, is answered as the duplicate it is (edge evaluation).
import { describe, expect, it, vi } from 'vitest';
import {
  createCallbackHandler,
  createMemoryDedupeStore,
  type CallbackEvent,
  type DedupeStore,
} from '../../src/callbacks/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';

const secret = 'whsec_stranded_claim_0123456789';

/** A memory store whose `method` throws `times` times. */
function failing(method: 'abandon' | 'complete', times: number) {
  const memory = createMemoryDedupeStore();
  let left = times;
  const store: DedupeStore = {
    begin: (key, ttl) => memory.begin(key, ttl),
    complete: (key, ttl) => {
      if (method === 'complete' && left-- > 0) return Promise.reject(new Error('store hiccup'));
      return memory.complete(key, ttl);
    },
    abandon: (key) => {
      if (method === 'abandon' && left-- > 0) return Promise.reject(new Error('store hiccup'));
      return memory.abandon(key);
    },
  };
  return store;
}

const deliver = async (handler: (request: Request) => Promise<Response>) =>
  handler(
    await createCallbackRequest('payment.mobile_money.succeeded', { secret, reference: 'ORDER-STRANDED' }),
  );

describe('a claim the dedupe store failed to release or complete', () => {
  it('onEvent threw, abandon failed: the next delivery releases the claim and is processed', async () => {
    const events: CallbackEvent[] = [];
    let throws = 1;
    const handler = createCallbackHandler({
      secret,
      dedupe: failing('abandon', 1),
      onEvent: (event) => {
        if (throws-- > 0) throw new Error('database blip');
        events.push(event);
      },
    });
    expect((await deliver(handler)).status).toBe(500);
    expect((await deliver(handler)).status).toBe(200);
    expect(events).toHaveLength(1);
    // Then a redelivery is the duplicate it is.
    const again = await deliver(handler);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-callback-duplicate')).toBe('true');
    expect(events).toHaveLength(1);
  });

  it('abandon failing again: 503 in_progress, and the delivery after that is processed', async () => {
    const events: CallbackEvent[] = [];
    let throws = 1;
    const handler = createCallbackHandler({
      secret,
      dedupe: failing('abandon', 2),
      onEvent: (event) => {
        if (throws-- > 0) throw new Error('database blip');
        events.push(event);
      },
    });
    expect((await deliver(handler)).status).toBe(500);
    expect((await deliver(handler)).status).toBe(503);
    expect((await deliver(handler)).status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('complete failed after onEvent resolved: the next delivery is answered as a duplicate, onEvent not run again', async () => {
    const events: CallbackEvent[] = [];
    const handler = createCallbackHandler({
      secret,
      dedupe: failing('complete', 1),
      onEvent: (event) => void events.push(event),
    });
    expect((await deliver(handler)).status).toBe(200);
    const again = await deliver(handler);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-callback-duplicate')).toBe('true');
    expect(events).toHaveLength(1);
  });

  it('two deliveries at once after a failed release: one is processed, the other waits (503)', async () => {
    const events: CallbackEvent[] = [];
    let throws = 1;
    const handler = createCallbackHandler({
      secret,
      dedupe: failing('abandon', 1),
      onEvent: async (event) => {
        if (throws-- > 0) throw new Error('database blip');
        await new Promise((resolve) => setTimeout(resolve, 50));
        events.push(event);
      },
    });
    expect((await deliver(handler)).status).toBe(500);
    const statuses = (await Promise.all([deliver(handler), deliver(handler)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 503]);
    expect(events).toHaveLength(1);
  });

  it('a release the store applied but reported failing: the next delivery claims afresh, and one after it while it runs waits (503), never running onEvent alongside it (review)', async () => {
    const memory = createMemoryDedupeStore();
    let lose = 1;
    const store: DedupeStore = {
      begin: (key, ttl) => memory.begin(key, ttl),
      complete: (key, ttl) => memory.complete(key, ttl),
      abandon: async (key) => {
        await memory.abandon(key); // applied…
        if (lose-- > 0) throw new Error('reply lost'); // …and reported failing
      },
    };
    let calls = 0;
    let running = 0;
    let most = 0;
    const handler = createCallbackHandler({
      secret,
      dedupe: store,
      onEvent: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database blip');
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 100));
        running -= 1;
      },
    });
    expect((await deliver(handler)).status).toBe(500);
    const second = deliver(handler); // claims afresh: the release was applied
    await new Promise((resolve) => setTimeout(resolve, 20));
    const third = deliver(handler); // in progress: the second delivery's claim, not a stranded one
    expect([(await second).status, (await third).status]).toEqual([200, 503]);
    expect(most).toBe(1);
  });

  it('a release the store applied but reported failing late: a delivery that claimed meanwhile is never released by a later one (review 3)', async () => {
    const memory = createMemoryDedupeStore();
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    let lose = 1;
    const store: DedupeStore = {
      begin: (key, ttl) => memory.begin(key, ttl),
      complete: (key, ttl) => memory.complete(key, ttl),
      abandon: async (key) => {
        await memory.abandon(key); // applied at the store…
        if (lose-- > 0) {
          await sleep(100); // …its reply lost: the client's own timeout
          throw new Error('command timeout');
        }
      },
    };
    let calls = 0;
    let running = 0;
    let most = 0;
    const handler = createCallbackHandler({
      secret,
      dedupe: store,
      onEvent: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database blip');
        running += 1;
        most = Math.max(most, running);
        await sleep(300);
        running -= 1;
      },
    });
    const first = deliver(handler); // onEvent throws; the release applies, its failure comes 100 ms later
    await sleep(30);
    const second = deliver(handler); // claims afresh and runs onEvent for 300 ms
    expect((await first).status).toBe(500);
    const third = deliver(handler); // the second's claim is in progress: it waits
    expect([(await second).status, (await third).status]).toEqual([200, 503]);
    expect(most).toBe(1);
  });

  // The expired claim's completion and the live claim's release both fail, either reported first.
  it.each([
    ['the live claim’s failure reported last', 20, 100],
    ['the expired claim’s failure reported last', 100, 20],
  ])(
    'two failed releases of one key in flight (the first claim expired meanwhile), %s: the live claim is the one remembered (review 4)',
    async (_order, completeMs, abandonMs) => {
      const memory = createMemoryDedupeStore();
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      let abandonFails = 1;
      let completeFails = 1;
      const store: DedupeStore = {
        begin: (key, ttl) => memory.begin(key, ttl),
        complete: async (key, ttl) => {
          if (completeFails-- > 0) {
            await sleep(completeMs);
            throw new Error('store hiccup');
          }
          return memory.complete(key, ttl);
        },
        abandon: async (key) => {
          if (abandonFails-- > 0) {
            await sleep(abandonMs);
            throw new Error('store hiccup');
          }
          return memory.abandon(key);
        },
      };
      let calls = 0;
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const handler = createCallbackHandler({
        secret,
        dedupe: store,
        processingTimeoutMs: 300,
        onEvent: async () => {
          calls += 1;
          if (calls === 1) {
            started();
            await sleep(350); // outlives its claim
          } else if (calls === 2) throw new Error('database blip');
        },
      });
      const first = deliver(handler);
      await running;
      await sleep(310);
      const second = deliver(handler); // claims the expired key afresh; onEvent throws; its release fails
      expect([(await first).status, (await second).status]).toEqual([200, 500]);
      await sleep(10);
      expect((await deliver(handler)).status).toBe(200); // releases the second's claim and is processed
      expect(calls).toBe(3);
    },
  );

  it("a claim found done by the store is forgotten: a later in_progress (another delivery's claim) is answered 503, never released", async () => {
    const failingOnce = failing('abandon', 1);
    // What begin answers instead of the memory store, in turn (undefined: the memory store's own).
    const answers: (string | undefined)[] = [undefined, 'done', 'in_progress'];
    const store: DedupeStore = {
      ...failingOnce,
      begin: async (key, ttl) => (answers.shift() as 'done' | undefined) ?? failingOnce.begin(key, ttl),
    };
    let calls = 0;
    const handler = createCallbackHandler({
      secret,
      dedupe: store,
      onEvent: () => {
        calls += 1;
        if (calls === 1) throw new Error('database blip');
      },
    });
    expect((await deliver(handler)).status).toBe(500); // its claim's release failed: remembered
    const done = await deliver(handler); // processed elsewhere meanwhile: the stranded claim is void
    expect(done.status).toBe(200);
    expect(done.headers.get('x-callback-duplicate')).toBe('true');
    const busy = await deliver(handler); // another delivery's claim now: wait, do not release it
    expect(busy.status).toBe(503);
    expect(await busy.json()).toEqual({ error: 'in_progress' });
    expect(calls).toBe(1);
  });

  it('complete failed, then the next delivery records it: answered only once the store has recorded it', async () => {
    const memory = createMemoryDedupeStore();
    let completeFails = 1;
    let recorded = false;
    const store: DedupeStore = {
      begin: (key, ttl) => memory.begin(key, ttl),
      complete: async (key, ttl) => {
        if (completeFails-- > 0) throw new Error('store hiccup');
        await new Promise((resolve) => setImmediate(resolve)); // a round trip to the store
        await memory.complete(key, ttl);
        recorded = true;
      },
      abandon: (key) => memory.abandon(key),
    };
    const events: CallbackEvent[] = [];
    const handler = createCallbackHandler({
      secret,
      dedupe: store,
      onEvent: (event) => void events.push(event),
    });
    expect((await deliver(handler)).status).toBe(200);
    expect(recorded).toBe(false);
    const again = await deliver(handler);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-callback-duplicate')).toBe('true');
    // A serverless runtime may freeze the process once answered: the record must have landed.
    expect(recorded).toBe(true);
    expect(events).toHaveLength(1);
  });

  it("a claim left unreleased that has lapsed (exactly processingTimeoutMs old) is not released: another instance's claim on the key is waited for (503)", async () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    try {
      const store = failing('abandon', 1); // its memory store reads the faked clock
      let calls = 0;
      const handler = createCallbackHandler({
        secret,
        dedupe: store,
        processingTimeoutMs: 200,
        onEvent: () => {
          calls += 1;
          throw new Error('database blip');
        },
      });
      const running: unknown[] = [];
      const other = createCallbackHandler({
        secret,
        dedupe: store,
        processingTimeoutMs: 200,
        onEvent: () => new Promise<void>(() => void running.push(1)), // still processing
      });
      expect((await deliver(handler)).status).toBe(500); // its release failed: remembered
      vi.advanceTimersByTime(200); // the claim has lapsed in the store
      void deliver(other); // another instance claims the key afresh and processes it
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(running).toHaveLength(1);
      const answer = await deliver(handler);
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({ error: 'in_progress' });
      expect(calls).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
