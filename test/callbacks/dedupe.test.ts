import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex, sha256HexPortable } from '../../src/callbacks/dedupe.js';
import { callbackDedupeKey, createMemoryDedupeStore, parseCallback } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { describedPayloads } from '../fixtures/described-payloads.js';

const payoutSuccess = callbackFixtures['payout.succeeded'];
const checkoutFailure = callbackFixtures['checkout.failed'];

describe('createMemoryDedupeStore', () => {
  it('claims a key once, then reports it in progress, then done', async () => {
    const store = createMemoryDedupeStore();
    expect(await store.begin('k', 1000)).toBe('new');
    expect(await store.begin('k', 1000)).toBe('in_progress');
    await store.complete('k', 1000);
    expect(await store.begin('k', 1000)).toBe('done');
  });

  it('gives only one of many concurrent claims', async () => {
    const store = createMemoryDedupeStore();
    const states = await Promise.all(Array.from({ length: 50 }, () => store.begin('k', 1000)));
    expect(states.filter((state) => state === 'new')).toHaveLength(1);
  });

  it('lets a retry through after abandon, but never abandons a done key', async () => {
    const store = createMemoryDedupeStore();
    await store.begin('k', 1000);
    await store.abandon('k');
    expect(await store.begin('k', 1000)).toBe('new');
    await store.complete('k', 1000);
    await store.abandon('k');
    expect(await store.begin('k', 1000)).toBe('done');
  });

  it('forgets keys after their TTL', async () => {
    let now = 0;
    const store = createMemoryDedupeStore({ now: () => now });
    await store.begin('k', 100);
    now = 101;
    expect(await store.begin('k', 100)).toBe('new');
    await store.complete('k', 50);
    now = 200;
    expect(await store.begin('k', 100)).toBe('new');
  });

  it('when its claims are full, makes room from a claim whose TTL ends this very millisecond', async () => {
    // A claim counts as held while its expiry is in the future (begin then says in_progress);
    // from its expiry on it is a crashed delivery's, and must not answer a genuine one 'full'.
    let now = 0;
    const store = createMemoryDedupeStore({ now: () => now, maxInProgress: 1 });
    expect(await store.begin('crashed', 100)).toBe('new');
    now = 99;
    expect(await store.begin('genuine', 100)).toBe('full');
    now = 100;
    expect(await store.begin('genuine', 100)).toBe('new');
  });

  it('caps every TTL at its own ttlMs', async () => {
    let now = 0;
    const store = createMemoryDedupeStore({ now: () => now, ttlMs: 10 });
    await store.begin('k', 1_000_000);
    now = 11;
    expect(await store.begin('k', 1_000_000)).toBe('new');
  });

  it('stays bounded: the least recently touched keys go first', async () => {
    const store = createMemoryDedupeStore({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) await store.complete(key, 1000);
    await store.complete('a', 1000); // touch a
    await store.complete('d', 1000); // evicts b
    expect(await store.begin('a', 1000)).toBe('done');
    expect(await store.begin('b', 1000)).toBe('new');
  });

  it('keeps the heap bounded over 1,000,000 distinct deliveries', async () => {
    const store = createMemoryDedupeStore({ maxEntries: 1000 });
    for (let i = 0; i < 1_000_000; i++) {
      await store.begin(`delivery-${i}`, 60_000);
      await store.complete(`delivery-${i}`, 60_000);
    }
    // The most recent keys are remembered, the oldest were evicted.
    expect(await store.begin('delivery-999999', 60_000)).toBe('done');
    expect(await store.begin('delivery-0', 60_000)).toBe('new');
    globalThis.gc?.();
    expect(process.memoryUsage().heapUsed).toBeLessThan(512 * 1024 * 1024);
  }, 60_000);
});

describe('callbackDedupeKey', () => {
  it('gives every spec payload a distinct, stable key', () => {
    const keys = describedPayloads.map(([, payload]) => callbackDedupeKey(parseCallback(payload)));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(
      describedPayloads.map(([, payload]) => callbackDedupeKey(parseCallback(JSON.stringify(payload)))),
    );
  });

  it('is the type and the SHA-256 of the identifiers and the signed reference', () => {
    const digest = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(callbackDedupeKey(parseCallback(payoutSuccess), '123456789012')).toBe(
      `payout.succeeded:${digest('PYT0000000001:123456789012:123456789012')}`,
    );
    expect(callbackDedupeKey(parseCallback(checkoutFailure), '1003')).toBe(
      `checkout.failed:${digest('1003:CARD:2500:1003')}`,
    );
    expect(callbackDedupeKey(parseCallback(checkoutFailure))).toBe(
      `checkout.failed:${digest('1003:CARD:2500:%')}`,
    );
    // The verified hp_sig tells two checkout sessions of one order apart; a payout (as a payment)
    // names itself, so its key does not depend on the URL it was delivered to.
    expect(callbackDedupeKey(parseCallback(checkoutFailure), '1003', 'SIG')).toBe(
      `checkout.failed:${digest('1003:CARD:2500:1003:SIG')}`,
    );
    expect(callbackDedupeKey(parseCallback(payoutSuccess), '123456789012', 'SIG')).toBe(
      `payout.succeeded:${digest('PYT0000000001:123456789012:123456789012')}`,
    );
  });

  it('hashes like node:crypto whatever the length and characters', () => {
    for (const text of [
      '',
      'a',
      'x'.repeat(55),
      'x'.repeat(56),
      'y'.repeat(64),
      'é€😀'.repeat(1000),
      'lone \ud800 surrogate',
      'z'.repeat(70_000),
    ]) {
      const expected = createHash('sha256').update(text, 'utf8').digest('hex');
      expect(sha256Hex(text)).toBe(expected);
      // The plain-JS digest that runtimes without node:crypto use.
      expect(sha256HexPortable(text)).toBe(expected);
    }
  });

  it('keeps parts apart when an identifier contains the separator', () => {
    const a = callbackDedupeKey(
      parseCallback({ ...payoutSuccess, transaction_id: 'a:b', reference_id: 'c' }),
    );
    const b = callbackDedupeKey(
      parseCallback({ ...payoutSuccess, transaction_id: 'a', reference_id: 'b:c' }),
    );
    expect(a).not.toBe(b);
  });
});
