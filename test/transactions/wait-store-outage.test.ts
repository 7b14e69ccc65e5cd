// waitFor while the store is briefly unreachable (Redis restarting): a read that fails is tried
// again at the next poll until the wait's own timeout or signal ends it, and a timeout that comes
// while the store still fails says so — a typed error naming the reference, its cause a plain
// copy of the store's error — never the store's raw error at once.
import { describe, expect, it } from 'vitest';
import { isPaymentsError } from '../../src/errors.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  TransactionTimeoutError,
  type TransactionRecord,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';
import { memoryStoreWith } from '../helpers/stores.js';

/** ioredis's error when a command fails while Redis is down, with a property it must not carry on. */
class MaxRetriesPerRequestError extends Error {
  override readonly name = 'MaxRetriesPerRequestError';
  readonly command = { name: 'evalsha', args: ['secret-looking-arg'] };
  constructor() {
    super(
      'Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.',
    );
  }
}

/** A memory store whose reads (and watch) fail while `down.value` is true. */
function flakyStore(down: { value: boolean }) {
  const memory = createMemoryTransactionStore();
  let reads = 0;
  const store: TransactionStore = memoryStoreWith(memory, {
    get: async (reference) => {
      reads++;
      if (down.value) throw new MaxRetriesPerRequestError();
      return memory.get(reference);
    },
    update: (r, from) => memory.update(r, from),
  });
  return { store, memory, reads: () => reads };
}

describe('waitFor while the store cannot be read', () => {
  it('keeps waiting when its first read fails, and resolves once the store is back and the transaction settled', async () => {
    const down = { value: false };
    const { store, memory } = flakyStore(down);
    const receiver = createTransactionTracker({ store: memory }); // another instance, whose reads work
    const waiter = createTransactionTracker({ store, pollIntervalMs: 20 });
    await receiver.begin({ reference: 'ORD-OUT-1', kind: 'card', amount: 1 });
    down.value = true;
    const waiting = waiter.waitFor('ORD-OUT-1', { timeout: 5_000 });
    const early = await Promise.race([
      waiting.then(
        () => 'resolved',
        (e: unknown) => e,
      ),
      new Promise((r) => setTimeout(() => r('still waiting'), 200)),
    ]);
    expect(early).toBe('still waiting');
    await receiver.settle('ORD-OUT-1', { outcome: 'succeeded' });
    down.value = false;
    await expect(waiting).resolves.toMatchObject({ reference: 'ORD-OUT-1', state: 'succeeded' });
  });

  it('rejects at its timeout, not before, with a typed error naming the reference and the store, when no read succeeded', async () => {
    const { store, reads } = flakyStore({ value: true });
    const tracker = createTransactionTracker({ store, pollIntervalMs: 20 });
    const started = Date.now();
    const error = await caught(() => tracker.waitFor('ORD-OUT-2', { timeout: 300 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(reads()).toBeGreaterThan(3); // tried again at each poll
    expect(error).toBeInstanceOf(TransactionTimeoutError);
    expect(isPaymentsError(error)).toBe(true);
    expect(error).toMatchObject({ reference: 'ORD-OUT-2', timeoutMs: 300 });
    expect((error as Error).message).toContain('"ORD-OUT-2"');
    expect((error as Error).message).toMatch(/store could not be read/);
    expect((error as Error).message).toContain('MaxRetriesPerRequestError');
    const cause = (error as Error).cause as Error;
    expect(cause).toBeInstanceOf(Error);
    expect(cause).not.toBeInstanceOf(MaxRetriesPerRequestError);
    expect(cause.name).toBe('MaxRetriesPerRequestError');
    expect(cause).not.toHaveProperty('command');
  });

  it('rejects with the same typed error when the store fails after the first read and still fails at the timeout', async () => {
    const down = { value: false };
    const { store } = flakyStore(down);
    const tracker = createTransactionTracker({ store, pollIntervalMs: 20 });
    await tracker.begin({ reference: 'ORD-OUT-3', kind: 'payout', amount: 1 });
    const waiting = caught(() => tracker.waitFor('ORD-OUT-3', { timeout: 200 }));
    await new Promise((r) => setTimeout(r, 50));
    down.value = true;
    const error = await waiting;
    expect(error).toBeInstanceOf(TransactionTimeoutError);
    expect((error as Error).message).toMatch(/store could not be read/);
    expect(((error as Error).cause as Error).name).toBe('MaxRetriesPerRequestError');
  });

  it('says "still pending", without a cause, when the store answered again before the timeout', async () => {
    const down = { value: true };
    const { store } = flakyStore(down);
    const tracker = createTransactionTracker({ store, pollIntervalMs: 20 });
    down.value = false;
    await tracker.begin({ reference: 'ORD-OUT-4', kind: 'card', amount: 1 });
    down.value = true;
    const waiting = caught(() => tracker.waitFor('ORD-OUT-4', { timeout: 200 }));
    await new Promise((r) => setTimeout(r, 60));
    down.value = false;
    const error = await waiting;
    expect(error).toBeInstanceOf(TransactionTimeoutError);
    expect((error as Error).message).toMatch(/still pending/);
    expect((error as Error).cause).toBeUndefined();
  });

  it('still ends with its signal while the store fails', async () => {
    const { store } = flakyStore({ value: true });
    const tracker = createTransactionTracker({ store, pollIntervalMs: 20 });
    const controller = new AbortController();
    const waiting = caught(() => tracker.waitFor('ORD-OUT-5', { signal: controller.signal }));
    await new Promise((r) => setTimeout(r, 60));
    controller.abort();
    expect(await waiting).toMatchObject({ name: 'AbortError' });
  });

  it('rejects at once for a reference never recorded once the store answers', async () => {
    const down = { value: true };
    const { store } = flakyStore(down);
    const tracker = createTransactionTracker({ store, pollIntervalMs: 20 });
    const waiting = caught(() => tracker.waitFor('ORD-NEVER', { timeout: 5_000 }));
    await new Promise((r) => setTimeout(r, 50));
    down.value = false;
    expect(await waiting).toMatchObject({ name: 'UnknownTransactionError', reference: 'ORD-NEVER' });
  });
});

describe('waitFor when the store watch cannot start', () => {
  it('starts it again at the next poll, and is woken through it: a notification reads the store', async () => {
    const memory = createMemoryTransactionStore();
    const listeners = new Set<(record: TransactionRecord) => void>();
    let watchCalls = 0;
    let polls = 0;
    const store: TransactionStore = memoryStoreWith(memory, {
      get: async (reference) => {
        polls++;
        return memory.get(reference);
      },
      update: (r, from) => memory.update(r, from),
      watch: async (_reference, listener) => {
        if (++watchCalls < 3) throw new Error('subscriber not connected');
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    });
    const waiter = createTransactionTracker({ store, pollIntervalMs: 20 });
    await memory.insert({
      reference: 'ORD-W',
      kind: 'card',
      amount: '1',
      state: 'pending',
      createdAt: 1,
      updatedAt: 1,
    });
    const waiting = waiter.waitFor('ORD-W', { timeout: 5_000 });
    await new Promise((r) => setTimeout(r, 150));
    expect(watchCalls).toBe(3);
    expect(listeners.size).toBe(1);
    const settled = {
      reference: 'ORD-W',
      kind: 'card',
      amount: '1',
      state: 'succeeded',
      createdAt: 1,
      updatedAt: 2,
    } as const;
    expect(await memory.update(settled, 'pending')).toBe(true);
    const before = polls;
    for (const listener of listeners) listener(settled);
    // The read the notification started, at once (not the next poll's).
    expect(polls).toBe(before + 1);
    await expect(waiting).resolves.toEqual(settled);
    expect(listeners.size).toBe(0);
  });
});

describe('waitFor and a busy channel', () => {
  it('reads the store once per burst of notifications, not once each', async () => {
    const memory = createMemoryTransactionStore();
    const listeners = new Set<(record: TransactionRecord) => void>();
    let reads = 0;
    const store: TransactionStore = memoryStoreWith(memory, {
      get: async (reference) => {
        reads++;
        await new Promise((r) => setTimeout(r, 10));
        return memory.get(reference);
      },
      watch: async (_reference, listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    });
    const tracker = createTransactionTracker({ store, pollIntervalMs: 100_000 });
    const pending = await tracker.begin({ reference: 'ORD-BUSY', kind: 'card', amount: 1 });
    const waiting = tracker.waitFor('ORD-BUSY', { timeout: 5_000 });
    await new Promise((r) => setTimeout(r, 60));
    expect(listeners.size).toBe(1);
    const before = reads;
    // A thousand messages of other apps' ORD-BUSY, while one read is in flight.
    for (let i = 0; i < 1_000; i++) for (const listener of listeners) listener(pending);
    await new Promise((r) => setTimeout(r, 60));
    expect(reads - before).toBe(2); // the one they started, and one after it for those that came during it
    const settled = { ...pending, state: 'succeeded', updatedAt: pending.updatedAt + 1 } as const;
    expect(await memory.update(settled, 'pending')).toBe(true);
    for (const listener of listeners) listener(settled);
    await expect(waiting).resolves.toEqual(settled);
  });
});
