// What a merchant's `waitFor` relies on beyond the happy path: its arguments are checked before
// anything is read, a poll that answers with another reference's record never ends the wait as
// that record's outcome, an expiry of an earlier attempt heard after the payment was initiated
// again is not the new attempt's answer, the default timeout is the transaction kind's stale
// limit, and a wait that resolves leaves no timer running behind it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  TransactionTimeoutError,
  type TransactionRecord,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';
import { memoryStoreWith } from '../helpers/stores.js';
import { fakeTimers } from '../helpers/timers.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('waitFor checks its arguments before it reads the store', () => {
  it('refuses an invalid reference with a ValidationError, not as a reference never recorded', async () => {
    const tracker = createTransactionTracker();
    const error = await caught(() => tracker.waitFor(''));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]).toMatchObject({
      path: ['reference'],
      code: 'invalid_reference',
    });
  });

  it('accepts a reference of 256 characters and refuses one of 257, or with a lone surrogate', async () => {
    const tracker = createTransactionTracker();
    const longest = 'R'.repeat(256);
    await tracker.begin({ reference: longest, kind: 'card', amount: 1 });
    expect(await tracker.get(longest)).toMatchObject({ reference: longest, state: 'pending' });
    for (const reference of ['R'.repeat(257), 'ORD-\uD800']) {
      await expect(tracker.begin({ reference, kind: 'card', amount: 1 })).rejects.toBeInstanceOf(
        ValidationError,
      );
      await expect(tracker.get(reference)).rejects.toBeInstanceOf(ValidationError);
    }
  });

  it.each([
    ['without aborted', { addEventListener: () => undefined, removeEventListener: () => undefined }],
    ['without addEventListener', { aborted: false }],
  ])('refuses a signal that is not an AbortSignal (%s), naming it', async (_what, signal) => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-SIG', kind: 'card', amount: 1 });
    await expect(tracker.waitFor('ORD-SIG', { timeout: 1_000, signal: signal as never })).rejects.toThrow(
      new TypeError('waitFor: signal must be an AbortSignal (controller.signal)'),
    );
  });
});

describe('waitFor never ends on a record that is not its own', () => {
  // A SQL store on a case-insensitive collation answers 'ORD-1' for 'ord-1': another order,
  // already paid. Found at a later poll, it is a store fault, never this order's success.
  it("rejects when a later read answers another reference's settled record", async () => {
    fakeTimers();
    const memory = createMemoryTransactionStore();
    let answerAnother = false;
    const store: TransactionStore = memoryStoreWith(memory, {
      get: async (reference) => {
        const record = await memory.get(reference);
        return answerAnother && record !== undefined
          ? { ...record, reference: 'ORD-OTHER', state: 'succeeded' }
          : record;
      },
    });
    const tracker = createTransactionTracker({ store, pollIntervalMs: 10 });
    await tracker.begin({ reference: 'ord-1', kind: 'card', amount: 1 });
    let result: unknown;
    void tracker.waitFor('ord-1', { timeout: 60_000 }).then(
      (record) => (result = record),
      (error: unknown) => (result = error),
    );
    await vi.advanceTimersByTimeAsync(1); // the first read found it pending
    expect(result).toBeUndefined();
    answerAnother = true;
    await vi.advanceTimersByTimeAsync(20); // a poll reads the other order's record
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toContain('another reference');
    expect((await memory.get('ord-1'))?.state).toBe('pending');
  });
});

describe('waitFor and an expiry of an earlier attempt', () => {
  // The cron expired the first attempt, the customer paid again before the expiry's write
  // answered: a wait on the new attempt must not resolve with the old attempt's expiry (the
  // merchant would cancel an order the customer is paying).
  it("ignores this tracker's own expiry of the earlier attempt, and resolves with the new attempt's outcome", async () => {
    let t = 1_700_000_000_000;
    const memory = createMemoryTransactionStore();
    let release: () => void = () => undefined;
    let holdUpdates = false;
    const store: TransactionStore = memoryStoreWith(memory, {
      update: async (r, from, previous) => {
        const applied = await memory.update(r, from, previous);
        if (holdUpdates) await new Promise<void>((resolve) => (release = resolve)); // written, not yet answered
        return applied;
      },
    });
    const tracker = createTransactionTracker({ store, now: () => t, pollIntervalMs: 3_600_000 });
    await tracker.begin({ reference: 'ORD-AGAIN', kind: 'mobile_money', amount: 900, currency: 'KES' });
    t += 5 * 60_000 + 1;
    holdUpdates = true;
    const expiring = tracker.expireIfPending('ORD-AGAIN');
    while ((await memory.get('ORD-AGAIN'))?.state !== 'expired') await Promise.resolve();
    holdUpdates = false;
    // The customer pays again: pending again, a new attempt.
    t += 1_000;
    const { expiredAt: _expiredAt, ...expired } = (await memory.get('ORD-AGAIN'))!;
    const again: TransactionRecord = { ...expired, state: 'pending', createdAt: t, updatedAt: t };
    expect(await memory.update(again, 'expired')).toBe(true);

    let outcome: unknown;
    const waiting = tracker.waitFor('ORD-AGAIN', { timeout: 60_000 });
    void waiting.then(
      (record) => (outcome = record),
      (error: unknown) => (outcome = error),
    );
    await new Promise((resolve) => setTimeout(resolve, 0)); // the wait read the new attempt
    release(); // the expiry's write answers now, and this tracker wakes its waiters with it
    expect((await expiring).result).toBe('expired');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(outcome).toBeUndefined();

    await tracker.settle('ORD-AGAIN', { outcome: 'succeeded', amount: '900', currency: 'KES' });
    await expect(waiting).resolves.toMatchObject({ state: 'succeeded', createdAt: again.createdAt });
  });
});

describe('waitFor and an attempt recorded by an instance whose clock is behind', () => {
  // Another instance expired the attempt the wait read and recorded the customer's new one with
  // an earlier createdAt (its clock is behind): that attempt's success settles the transaction.
  it('resolves with the success of the new attempt, though its createdAt is older', async () => {
    const t = 1_700_000_000_000;
    const memory = createMemoryTransactionStore();
    const tracker = createTransactionTracker({ store: memory, now: () => t, pollIntervalMs: 3_600_000 });
    await tracker.begin({ reference: 'ORD-SKEWED', kind: 'card', amount: 1 });
    let outcome: unknown;
    const waiting = tracker.waitFor('ORD-SKEWED', { timeout: 60_000 });
    void waiting.then(
      (record) => (outcome = record),
      (error: unknown) => (outcome = error),
    );
    await new Promise((resolve) => setTimeout(resolve, 0)); // the wait read the first attempt
    // The other instance, its clock 10 s behind, expires it and records the new attempt.
    const first = (await memory.get('ORD-SKEWED'))!;
    const expired: TransactionRecord = { ...first, state: 'expired', updatedAt: t, expiredAt: t };
    expect(await memory.update(expired, 'pending', first)).toBe(true);
    const again: TransactionRecord = { ...first, createdAt: t - 10_000, updatedAt: t - 10_000 };
    expect(await memory.update(again, 'expired', expired)).toBe(true);

    await tracker.settle('ORD-SKEWED', { outcome: 'succeeded' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(outcome).toMatchObject({ state: 'succeeded', createdAt: again.createdAt });
  });
});

describe('waitFor and a store watch that starts late', () => {
  // Redis's SUBSCRIBE answers after the first read: a settlement published in between reached
  // no one. The wait reads the store once the watch has started, and is not left to its timeout.
  it('reads the store once its watch has started, so a settlement made before then is not missed', async () => {
    const memory = createMemoryTransactionStore();
    let startWatch: () => void = () => undefined;
    const watched: TransactionStore = memoryStoreWith(memory, {
      watch: () => new Promise<() => void>((resolve) => (startWatch = () => resolve(() => undefined))),
    });
    const waiter = createTransactionTracker({ store: watched, pollIntervalMs: 3_600_000 });
    const receiver = createTransactionTracker({ store: memory });
    await receiver.begin({ reference: 'ORD-SUB', kind: 'card', amount: 1 });
    let outcome: unknown;
    const waiting = waiter.waitFor('ORD-SUB', { timeout: 60_000 });
    void waiting.then(
      (record) => (outcome = record),
      (error: unknown) => (outcome = error),
    );
    await new Promise((resolve) => setTimeout(resolve, 0)); // read pending, the watch starting
    await receiver.settle('ORD-SUB', { outcome: 'succeeded' }); // published to no one yet
    startWatch();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(outcome).toMatchObject({ state: 'succeeded' });
  });
});

describe("waitFor's default timeout", () => {
  it("is the transaction kind's stale limit, not the longest of any kind", async () => {
    fakeTimers();
    const tracker = createTransactionTracker({
      staleAfterMs: { card: 1_000 },
      pollIntervalMs: 2_147_483_647,
    });
    await tracker.begin({ reference: 'ORD-CARD', kind: 'card', amount: 1 });
    let result: unknown;
    void tracker.waitFor('ORD-CARD').then(
      (record) => (result = record),
      (error: unknown) => (result = error),
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBeInstanceOf(TransactionTimeoutError);
    expect(result).toMatchObject({ reference: 'ORD-CARD', timeoutMs: 1_000 });
  });

  it.each([
    ['mobile_money', 5 * 60_000],
    ['card', 30 * 60_000],
    ['checkout', 60 * 60_000],
  ] as const)('defaults to the documented limit for %s (%i ms)', async (kind, limit) => {
    fakeTimers();
    const tracker = createTransactionTracker({ pollIntervalMs: 2_147_483_647 });
    await tracker.begin({ reference: `ORD-${kind}`, kind, amount: 1 });
    let result: unknown;
    void tracker.waitFor(`ORD-${kind}`).then(
      (record) => (result = record),
      (error: unknown) => (result = error),
    );
    await vi.advanceTimersByTimeAsync(limit - 1);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toMatchObject({ name: 'TransactionTimeoutError', timeoutMs: limit });
  });
});

/** A memory store whose reads fail ('connection refused') until `up()` is called. */
function storeDownAtFirst() {
  const memory = createMemoryTransactionStore();
  let down = true;
  const store: TransactionStore = memoryStoreWith(memory, {
    get: async (reference) => {
      if (down) throw new Error('connection refused');
      return memory.get(reference);
    },
  });
  return { memory, store, up: () => void (down = false) };
}

describe('waitFor at its timeout', () => {
  it('says "still pending after waiting", with no cause, when the store answered', async () => {
    fakeTimers();
    const tracker = createTransactionTracker({ pollIntervalMs: 2_147_483_647 });
    await tracker.begin({ reference: 'ORD-PLAIN', kind: 'card', amount: 1 });
    let result: unknown;
    void tracker.waitFor('ORD-PLAIN', { timeout: 500 }).catch((error: unknown) => (result = error));
    await vi.advanceTimersByTimeAsync(500);
    expect(result).toBeInstanceOf(TransactionTimeoutError);
    expect((result as Error).message).toBe('reference "ORD-PLAIN": still pending after waiting 500 ms');
    expect((result as Error).cause).toBeUndefined();
  });

  it('says "still pending" once a read answers again after failures, not that the store could not be read', async () => {
    fakeTimers();
    const { store, up } = storeDownAtFirst();
    const tracker = createTransactionTracker({ store, pollIntervalMs: 100 });
    await tracker.begin({ reference: 'ORD-AGAIN-UP', kind: 'card', amount: 1 });
    let result: unknown;
    void tracker.waitFor('ORD-AGAIN-UP', { timeout: 500 }).catch((error: unknown) => (result = error));
    await vi.advanceTimersByTimeAsync(150); // the first read and a poll failed
    up();
    await vi.advanceTimersByTimeAsync(350);
    expect(result).toBeInstanceOf(TransactionTimeoutError);
    expect((result as Error).message).toBe('reference "ORD-AGAIN-UP": still pending after waiting 500 ms');
  });

  // A store without a deadline of its own (a custom one, a Redis client without commandTimeout)
  // that stops answering: each poll would add a read to the ones still waiting, a hundred for a
  // 200 ms poll over 20 s. One read is in flight at a time.
  it('polls a store that stops answering with one read at a time', async () => {
    fakeTimers();
    const memory = createMemoryTransactionStore();
    let hang = false;
    let inFlight = 0;
    let most = 0;
    const store: TransactionStore = memoryStoreWith(memory, {
      get: (r) => {
        if (!hang) return memory.get(r);
        most = Math.max(most, ++inFlight);
        return new Promise<never>(() => undefined);
      },
    });
    const tracker = createTransactionTracker({ store, pollIntervalMs: 200 });
    await tracker.begin({ reference: 'ORD-HUNG-POLLS', kind: 'card', amount: 1 });
    let result: unknown;
    void tracker.waitFor('ORD-HUNG-POLLS', { timeout: 20_000 }).catch((error: unknown) => (result = error));
    await vi.advanceTimersByTimeAsync(1); // the first read answered: pending
    hang = true;
    await vi.advanceTimersByTimeAsync(19_999 + 1_000);
    expect(result).toBeInstanceOf(TransactionTimeoutError);
    expect(most).toBeLessThanOrEqual(2); // the poll's read and the timeout's last read
  });

  // Redis half-open: the last read never answers. The wait gives it 1 s, then rejects — it must
  // never hang on the store. An earlier read found it pending, but what it is now is not known
  // (the callback may have settled it since), so the wait does not say "still pending": a
  // merchant reading that, without a cause, would take a paid order for an unpaid one.
  it('gives a last read that never answers one second, then says the store could not be read, not still pending', async () => {
    fakeTimers();
    const memory = createMemoryTransactionStore();
    let hang = false;
    const store: TransactionStore = memoryStoreWith(memory, {
      get: (r) => (hang ? new Promise<never>(() => undefined) : memory.get(r)),
    });
    const tracker = createTransactionTracker({ store, pollIntervalMs: 2_147_483_647 });
    await tracker.begin({ reference: 'ORD-HALF', kind: 'card', amount: 1 });
    let result: unknown;
    void tracker.waitFor('ORD-HALF', { timeout: 500 }).catch((error: unknown) => (result = error));
    await vi.advanceTimersByTimeAsync(1); // the first read answered: pending
    hang = true;
    await vi.advanceTimersByTimeAsync(499 + 999);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBeInstanceOf(TransactionTimeoutError);
    expect(result).toMatchObject({ reference: 'ORD-HALF', timeoutMs: 500 });
    expect((result as Error).message).toMatch(/could not be read.*whether it is still pending is not known/);
    expect((result as Error).message).not.toMatch(/still pending after/);
    expect((result as Error).cause).toMatchObject({ name: 'TimeoutError' });
  });

  // The store was down for the first read and came back with the transaction settled before the
  // timeout, between two polls: the last read's answer is the outcome, not "the store could not
  // be read".
  it('resolves with the settlement a last read finds, though every earlier read failed', async () => {
    fakeTimers();
    const { memory, store, up } = storeDownAtFirst();
    const receiver = createTransactionTracker({ store: memory });
    const waiter = createTransactionTracker({ store, pollIntervalMs: 2_147_483_647 });
    await receiver.begin({ reference: 'ORD-BACK', kind: 'card', amount: 1 });
    let result: unknown;
    void waiter.waitFor('ORD-BACK', { timeout: 500 }).then(
      (record) => (result = record),
      (error: unknown) => (result = error),
    );
    await vi.advanceTimersByTimeAsync(1); // the first read failed
    await receiver.settle('ORD-BACK', { outcome: 'succeeded' });
    up();
    await vi.advanceTimersByTimeAsync(499);
    expect(result).toMatchObject({ reference: 'ORD-BACK', state: 'succeeded' });
  });

  // Until the store answers the first read, the kind is not known: the wait holds for the longest
  // limit of any kind (24 h, a payout's), never the shortest, and never for ever: then the last
  // read's second, and the store could not be read.
  it('without a timeout, while the first read does not answer, waits the longest limit of any kind', async () => {
    fakeTimers();
    const silent: TransactionStore = {
      ...createMemoryTransactionStore(),
      get: () => new Promise<never>(() => undefined),
    };
    const tracker = createTransactionTracker({ store: silent, pollIntervalMs: 2_147_483_647 });
    let result: unknown;
    void tracker.waitFor('ORD-SILENT').catch((error: unknown) => (result = error));
    await vi.advanceTimersByTimeAsync(24 * 60 * 60_000 + 1_000 - 1);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBeInstanceOf(TransactionTimeoutError);
    expect(result).toMatchObject({ reference: 'ORD-SILENT', timeoutMs: 24 * 60 * 60_000 });
    expect((result as Error).message).toMatch(/store could not be read/);
  });
});

describe('waitFor and its signal', () => {
  it("rejects with the signal's reason when it is an Error", async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-REASON', kind: 'card', amount: 1 });
    const reason = new Error('the customer left the page');
    const controller = new AbortController();
    const waiting = tracker.waitFor('ORD-REASON', { timeout: 60_000, signal: controller.signal });
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(tracker.waitFor('ORD-REASON', { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  // A server-wide signal (shutdown) outlives many waits: each removes its listener when it ends.
  it('removes its abort listener from the signal once it resolves', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-LISTENER', kind: 'card', amount: 1 });
    const signal = { aborted: false, addEventListener: vi.fn(), removeEventListener: vi.fn() };
    const waiting = tracker.waitFor('ORD-LISTENER', { timeout: 60_000, signal: signal as never });
    await tracker.settle('ORD-LISTENER', { outcome: 'succeeded' });
    await waiting;
    expect(signal.addEventListener).toHaveBeenCalledTimes(1);
    const listener: unknown = signal.addEventListener.mock.calls[0]?.[1];
    expect(signal.removeEventListener).toHaveBeenCalledWith('abort', listener);
  });
});

describe('a wait that ends leaves nothing running', () => {
  it('resolving at once for a settled transaction, it leaves no timer behind', async () => {
    fakeTimers();
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-DONE', kind: 'payout', amount: 1 });
    await tracker.settle('ORD-DONE', { outcome: 'succeeded' });
    const before = vi.getTimerCount();
    await expect(tracker.waitFor('ORD-DONE')).resolves.toMatchObject({ state: 'succeeded' });
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(before);
  });

  it('settled while it waits, it stops its timeout and its polling', async () => {
    fakeTimers();
    const tracker = createTransactionTracker({ pollIntervalMs: 1_000 });
    await tracker.begin({ reference: 'ORD-POLLED', kind: 'card', amount: 1 });
    const before = vi.getTimerCount();
    const waiting = tracker.waitFor('ORD-POLLED', { timeout: 60_000 });
    await vi.advanceTimersByTimeAsync(2_500); // polled twice
    await tracker.settle('ORD-POLLED', { outcome: 'succeeded' });
    await expect(waiting).resolves.toMatchObject({ state: 'succeeded' });
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(before);
  });
});
