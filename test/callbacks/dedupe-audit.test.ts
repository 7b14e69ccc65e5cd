// Ways a delivery could reach onEvent twice, or never, through the memory store and the handler's
// claim / release / complete around onEvent.
import { describe, expect, it } from 'vitest';
import { createMemoryDedupeStore } from '../../src/callbacks/index.js';

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
