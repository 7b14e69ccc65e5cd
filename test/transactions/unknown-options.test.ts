// The tracker, its stores and the Redis stores refuse an option they do not know, naming it: a
// misspelt `store` would otherwise give a tracker in this process's memory, where the merchant
// meant the Redis store every instance shares, and a misspelt `timeout` a wait without its bound.
import { describe, expect, it } from 'vitest';
import { caught } from '../helpers/caught.js';
import { createRedisDedupeStore, createRedisTransactionStore } from '../../src/redis/index.js';
import { createMemoryTransactionStore, createTransactionTracker } from '../../src/transactions/index.js';

const client = { eval: async () => null };

describe('an unknown option', () => {
  it.each([
    ['createTransactionTracker', 'stor', () => createTransactionTracker({ stor: {} } as never)],
    [
      'createMemoryTransactionStore',
      'maxEntry',
      () => createMemoryTransactionStore({ maxEntry: 1 } as never),
    ],
    ['createRedisDedupeStore', 'prefx', () => createRedisDedupeStore({ client, prefx: 'a:' } as never)],
    [
      'createRedisTransactionStore',
      'finishedTTLMs',
      () => createRedisTransactionStore({ client, finishedTTLMs: 1 } as never),
    ],
  ])('is refused by %s, naming it', async (where, name, create) => {
    const error = await caught(create);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      new RegExp(`^${where}: unknown option "${name}"; the options are `),
    );
  });

  it('is refused inside staleAfterMs, naming the kind', async () => {
    const error = await caught(() => createTransactionTracker({ staleAfterMs: { cards: 1_000 } } as never));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      'createTransactionTracker: staleAfterMs: unknown option "cards"; the options are card, mobile_money, checkout, payout',
    );
  });

  it('is refused by waitFor and stale, naming it, before anything is read', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-1', kind: 'card', amount: 1500, currency: 'KES' });
    const waited = await caught(() => tracker.waitFor('ORD-1', { timout: 10 } as never));
    expect(waited).toBeInstanceOf(TypeError);
    expect((waited as Error).message).toBe(
      'waitFor: unknown option "timout"; the options are timeout, signal',
    );
    const listed = await caught(() => tracker.stale({ olderThen: 0 } as never));
    expect(listed).toBeInstanceOf(TypeError);
    expect((listed as Error).message).toBe(
      'stale: unknown option "olderThen"; the options are olderThan, kind, limit',
    );
  });
});

// A cron job's stale({ kind: 'mobile-money' }) listed nothing, so nothing was ever expired.
describe('a kind stale does not know', () => {
  it.each(['mobile-money', 'MOBILE_MONEY', 'cards', ''])(
    '%j is refused with a TypeError naming kind, not answered with an empty list',
    async (kind) => {
      let t = 1_000_000;
      const tracker = createTransactionTracker({ now: () => t });
      await tracker.begin({ reference: 'ORD-1', kind: 'mobile_money', amount: 1500, currency: 'KES' });
      t += 60 * 60_000;
      for (const options of [{ kind }, { kind, olderThan: 0 }]) {
        const listed = await caught(() => tracker.stale(options as never));
        expect(listed).toBeInstanceOf(TypeError);
        expect((listed as Error).message).toBe(
          'stale: kind must be one of card, mobile_money, checkout, payout',
        );
      }
    },
  );
});

describe('an option of the wrong kind is refused where it is given, naming it', () => {
  // A store missing listPending (written to an older interface) worked until the cron job's stale().
  it.each([
    ['an empty object', {}],
    ['a store without listPending', { insert: () => 0, get: () => 0, update: () => 0 }],
    ['the store factory itself, not called', createMemoryTransactionStore],
  ])('store: %s is a TypeError at creation', (_what, store) => {
    expect(() => createTransactionTracker({ store: store as never })).toThrow(
      /^createTransactionTracker: store must be a TransactionStore/,
    );
  });

  // The AbortController passed where its signal belongs.
  it('waitFor signal that is not an AbortSignal is a TypeError naming signal, before anything is read', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-1', kind: 'card', amount: 1500, currency: 'KES' });
    const waited = await caught(() =>
      tracker.waitFor('ORD-1', { timeout: 10, signal: new AbortController() as never }),
    );
    expect(waited).toBeInstanceOf(TypeError);
    expect((waited as Error).message).toBe('waitFor: signal must be an AbortSignal (controller.signal)');
  });
});

describe('the documented options', () => {
  it('are accepted', async () => {
    const store = createMemoryTransactionStore({
      maxEntries: 10,
      maxBytes: 4_096,
      finishedTtlMs: 1_000,
      now: Date.now,
    });
    const tracker = createTransactionTracker({
      store,
      staleAfterMs: { card: 1 },
      pollIntervalMs: 100,
      now: Date.now,
    });
    await tracker.begin({ reference: 'ORD-2', kind: 'card', amount: 1500, currency: 'KES' });
    await tracker.expire('ORD-2');
    await expect(
      tracker.waitFor('ORD-2', { timeout: 1_000, signal: new AbortController().signal }),
    ).resolves.toMatchObject({ state: 'expired' });
    await expect(tracker.stale({ olderThan: 0, kind: 'card', limit: 5 })).resolves.toEqual([]);
    expect(() => createRedisDedupeStore({ client, prefix: 'a:', completeRetryMs: 10 })).not.toThrow();
    expect(() =>
      createRedisTransactionStore({ client, subscriber: undefined, prefix: 'b:', finishedTtlMs: 1_000 }),
    ).not.toThrow();
  });
});
