// Every number of milliseconds, entries or bytes the tracker and its stores take is a whole
// number they can honour, checked where it is given: one they could not (Infinity, NaN, 1.5e308)
// used to be accepted and fail later, after a write, or be read as another number.
import { describe, expect, it } from 'vitest';
import { caught } from '../helpers/caught.js';
import { createRedisTransactionStore } from '../../src/redis/index.js';
import { createMemoryTransactionStore, createTransactionTracker } from '../../src/transactions/index.js';

const client = { eval: async () => null };
const notWhole: unknown[] = [Number.POSITIVE_INFINITY, Number.NaN, 1.5e308, -1, 1.5, '60000'];

const refusal = async (
  create: () => unknown,
  where: string,
  name: string,
  value?: unknown,
): Promise<void> => {
  const error = await caught(create);
  // A number out of range is a RangeError, as the webhook handler's are; a string a TypeError.
  expect(error).toBeInstanceOf(typeof value === 'number' ? RangeError : TypeError);
  expect((error as Error).message).toMatch(new RegExp(`^${where}: ${name.replace('.', '\\.')} must be `));
};

describe('a number option the tracker or a store could not honour is refused where it is given', () => {
  it.each(notWhole.concat([0]).map((value) => [String(value), value]))(
    'finishedTtlMs %s, by both stores',
    async (_label, value) => {
      await refusal(
        () => createMemoryTransactionStore({ finishedTtlMs: value as number }),
        'createMemoryTransactionStore',
        'finishedTtlMs',
        value,
      );
      await refusal(
        () => createRedisTransactionStore({ client, finishedTtlMs: value as number }),
        'createRedisTransactionStore',
        'finishedTtlMs',
        value,
      );
    },
  );

  it.each(['maxEntries', 'maxBytes'] as const)('%s that is not a positive whole number', async (name) => {
    for (const value of notWhole.concat([0])) {
      await refusal(
        () => createMemoryTransactionStore({ [name]: value as number }),
        'createMemoryTransactionStore',
        name,
        value,
      );
    }
  });

  it('staleAfterMs of each kind, and pollIntervalMs, that are not positive whole numbers', async () => {
    for (const value of notWhole.concat([0])) {
      await refusal(
        () => createTransactionTracker({ staleAfterMs: { payout: value as number } }),
        'createTransactionTracker',
        'staleAfterMs.payout',
        value,
      );
      await refusal(
        () => createTransactionTracker({ pollIntervalMs: value as number }),
        'createTransactionTracker',
        'pollIntervalMs',
        value,
      );
    }
  });

  it('a waitFor timeout that is not a positive whole number, and stale olderThan that is not a whole number', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-1', kind: 'card', amount: 1 });
    for (const value of notWhole.concat([0])) {
      await refusal(
        () => tracker.waitFor('ORD-1', { timeout: value as number }),
        'waitFor',
        'timeout',
        value,
      );
    }
    for (const value of notWhole) {
      await refusal(() => tracker.stale({ olderThan: value as number }), 'stale', 'olderThan', value);
    }
    expect((await tracker.get('ORD-1'))?.state).toBe('pending');
  });

  it('names what it got without quoting it, as the sandbox does: null is null', async () => {
    const error = await caught(() => createMemoryTransactionStore({ maxEntries: null as unknown as number }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      `createMemoryTransactionStore: maxEntries must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}, got null`,
    );
  });

  it('accepts whole numbers, up to the largest safe integer where no timer holds them', () => {
    expect(() =>
      createMemoryTransactionStore({
        maxEntries: 1,
        maxBytes: Number.MAX_SAFE_INTEGER,
        finishedTtlMs: Number.MAX_SAFE_INTEGER,
      }),
    ).not.toThrow();
    expect(() =>
      createRedisTransactionStore({ client, finishedTtlMs: Number.MAX_SAFE_INTEGER }),
    ).not.toThrow();
    expect(() =>
      createTransactionTracker({ staleAfterMs: { payout: 30 * 24 * 60 * 60_000 }, pollIntervalMs: 1 }),
    ).not.toThrow();
  });
});
