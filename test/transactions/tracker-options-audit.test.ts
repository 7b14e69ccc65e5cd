// The tracker's options as a merchant relies on them: a store whose `watch` is not a function is
// refused when the tracker is made (not at the first waitFor in production), waitFor polls every
// 2 s by default and never more often than every 10 ms, and the `now` clock is the one the
// client's `transactions` option stamps a new attempt with (so stale() and the cron see the
// attempt's age on the tracker's clock).
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { stkPush, trackedClient } from '../helpers/tracked-payment.js';
import { memoryStoreWith } from '../helpers/stores.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('createTransactionTracker', () => {
  it('refuses a store whose watch is not a function', () => {
    const store = { ...createMemoryTransactionStore(), watch: 'yes' } as unknown as TransactionStore;
    expect(() => createTransactionTracker({ store })).toThrow(TypeError);
    expect(() => createTransactionTracker({ store })).toThrow(/store must be a TransactionStore/);
  });
});

describe('how often waitFor reads the store', () => {
  /** A memory store counting its reads. */
  const countingStore = () => {
    const memory = createMemoryTransactionStore();
    let reads = 0;
    const store: TransactionStore = memoryStoreWith(memory, {
      get: (r) => {
        reads++;
        return memory.get(r);
      },
    });
    return { store, reads: () => reads };
  };

  it.each([
    ['every 2 s by default', undefined, 9_999, 5],
    ['every 10 ms at most, however small pollIntervalMs is', 1, 99, 10],
  ])('polls %s', async (_what, pollIntervalMs, elapsed, reads) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const counting = countingStore();
    const tracker = createTransactionTracker({
      store: counting.store,
      ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
    });
    await tracker.begin({ reference: 'ORD-POLL', kind: 'card', amount: 1 });
    const waiting = tracker.waitFor('ORD-POLL', { timeout: 60_000 }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(elapsed);
    expect(counting.reads()).toBe(reads); // the first read, then one per poll
    await tracker.expire('ORD-POLL');
    await waiting;
  });
});

describe('the tracker clock and the client', () => {
  it("stamps an attempt initiated again with the tracker's clock", async () => {
    let t = 2_000_000_000_000; // the tracker's clock, ahead of this machine's
    const tracker = createTransactionTracker({ now: () => t });
    const baseUrl = fakeService(() =>
      Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 }),
    );
    const client = trackedClient(baseUrl, tracker);
    await client.initiateMobileMoneyPayment(stkPush('ORD-CLOCK'));
    t += 6 * 60_000;
    await tracker.expire('ORD-CLOCK');
    t += 1_000;
    await client.initiateMobileMoneyPayment(stkPush('ORD-CLOCK'));
    expect(await tracker.get('ORD-CLOCK')).toMatchObject({ state: 'pending', createdAt: t });
  });
});
