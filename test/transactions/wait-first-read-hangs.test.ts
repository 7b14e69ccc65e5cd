// waitFor whose timeout comes before the store has answered any read (a Redis held by CLIENT PAUSE,
// a table under a lock): the wait has not seen the record, so it must not say "still pending" — a
// paid order's return page would invite a second payment. It reads the store once more, as at
// every timeout (given at most 1 s): a settled record found then resolves the wait; a read that
// does not answer, or fails, rejects saying the store could not be read, with a cause.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  TransactionTimeoutError,
  type TransactionRecord,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { memoryStoreWith } from '../helpers/stores.js';
import { fakeTimers } from '../helpers/timers.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A memory store holding `reference` succeeded, whose reads answer as `reads` says, one by one. */
async function paidStore(reference: string, reads: ('hang' | 'answer' | 'fail')[]) {
  const memory = createMemoryTransactionStore();
  const tracker = createTransactionTracker({ store: memory });
  await tracker.begin({ reference, kind: 'card', amount: 1500, currency: 'KES' });
  await tracker.settle(reference, { outcome: 'succeeded', transactionId: 'T1' });
  let count = 0;
  const store: TransactionStore = memoryStoreWith(memory, {
    get: (r) => {
      const read = reads[Math.min(count++, reads.length - 1)];
      if (read === 'hang') return new Promise<never>(() => undefined);
      if (read === 'fail') return Promise.reject(new Error('connection reset'));
      return memory.get(r);
    },
  });
  return { store, reads: () => count };
}

/** A store whose first read answers when `answer()` is called, and whose later reads hang. */
function firstReadHeld(memory: TransactionStore) {
  let answer = (): void => undefined;
  let count = 0;
  const store = memoryStoreWith(memory, {
    get: (reference) =>
      count++ === 0
        ? new Promise((resolve) => (answer = () => resolve(memory.get(reference))))
        : new Promise<never>(() => undefined),
  });
  return { store, answer: () => answer() };
}

/** Starts a wait whose outcome lands in `outcome()`. */
function waiting(store: TransactionStore, reference: string, timeout: number) {
  let result: { resolved?: TransactionRecord; rejected?: unknown } | undefined;
  const tracker = createTransactionTracker({ store, pollIntervalMs: 2_147_483_647 });
  void tracker.waitFor(reference, { timeout }).then(
    (record) => (result = { resolved: record }),
    (error: unknown) => (result = { rejected: error }),
  );
  return () => result;
}

describe('waitFor whose timeout comes before the store answered a read', () => {
  it('reads the store once more at the timeout and resolves with the settled record it finds', async () => {
    fakeTimers();
    const { store, reads } = await paidStore('PAID-1', ['hang', 'answer']);
    const outcome = waiting(store, 'PAID-1', 1_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(outcome()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(reads()).toBe(2); // the first read, still in flight, and the last one
    expect(outcome()?.resolved).toMatchObject({ reference: 'PAID-1', state: 'succeeded' });
  });

  it('when the last read does not answer either: rejects 1 s later saying the store could not be read, never "still pending"', async () => {
    fakeTimers();
    const { store, reads } = await paidStore('PAID-2', ['hang']);
    const outcome = waiting(store, 'PAID-2', 1_000);
    await vi.advanceTimersByTimeAsync(1_000 + 999);
    expect(outcome()).toBeUndefined();
    expect(reads()).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    const error = outcome()?.rejected;
    expect(error).toBeInstanceOf(TransactionTimeoutError);
    expect(error).toMatchObject({ reference: 'PAID-2', timeoutMs: 1_000 });
    const { message, cause } = error as Error;
    expect(message).not.toMatch(/still pending after/);
    expect(message).toMatch(/^reference "PAID-2": the transaction store could not be read \(TimeoutError: /);
    expect(message).toMatch(/whether it is still pending is not known$/);
    expect(cause).toBeInstanceOf(Error);
    expect((cause as Error).name).toBe('TimeoutError');
  });

  it("when the last read fails: rejects at once saying the store could not be read, the store's error its cause", async () => {
    fakeTimers();
    const { store } = await paidStore('PAID-3', ['hang', 'fail']);
    const outcome = waiting(store, 'PAID-3', 1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = outcome()?.rejected;
    expect(error).toBeInstanceOf(TransactionTimeoutError);
    expect((error as Error).message).toMatch(/store could not be read \(Error: connection reset\)/);
    expect((error as Error).message).not.toMatch(/still pending after/);
    expect(((error as Error).cause as Error).message).toBe('connection reset');
  });

  it('when the first read answers during the last read: resolves with it, and the wait stays bounded', async () => {
    fakeTimers();
    const memory = createMemoryTransactionStore();
    const tracker = createTransactionTracker({ store: memory });
    await tracker.begin({ reference: 'PAID-4', kind: 'card', amount: 1 });
    await tracker.settle('PAID-4', { outcome: 'succeeded' });
    const first = firstReadHeld(memory);
    const { store } = first;
    const outcome = waiting(store, 'PAID-4', 1_000);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(outcome()).toBeUndefined();
    first.answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome()?.resolved).toMatchObject({ reference: 'PAID-4', state: 'succeeded' });
  });

  // Without a timeout, the first answer arms the kind's limit: one that comes during the last read
  // (after the longest limit) must not start the wait again.
  it('without a timeout, a pending first answer during the last read ends the wait within the last read’s second', async () => {
    fakeTimers();
    const memory = createMemoryTransactionStore();
    const tracker = createTransactionTracker({ store: memory });
    await tracker.begin({ reference: 'PEND-5', kind: 'card', amount: 1 });
    const first = firstReadHeld(memory);
    const { store } = first;
    let result: unknown;
    void createTransactionTracker({ store, pollIntervalMs: 2_147_483_647 })
      .waitFor('PEND-5')
      .catch((error: unknown) => (result = error));
    const longest = 24 * 60 * 60_000;
    await vi.advanceTimersByTimeAsync(longest + 500);
    expect(result).toBeUndefined();
    first.answer();
    await vi.advanceTimersByTimeAsync(500);
    expect(result).toBeInstanceOf(TransactionTimeoutError);
    expect((result as Error).message).toBe(`reference "PEND-5": still pending after waiting ${longest} ms`);
  });
});
