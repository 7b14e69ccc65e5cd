// The webhook half refuses an option it does not know, naming it, at the call that received it:
// a misspelt `publicOrign` would otherwise verify without the pinned origin, `onContradictions:
// 'reject'` would accept the documented contradiction as paid, and a `dedupe: true` or a
// `tracker` that is not one would answer 500 to every delivery instead of failing at start-up.
import { describe, expect, it } from 'vitest';
import { caught } from '../helpers/caught.js';
import {
  createCallbackHandler,
  createMemoryDedupeStore,
  parseCallback,
  safeParseCallback,
  signCallbackUrl,
  verifyCallbackUrl,
  type CallbackHandlerOptions,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';

const secret = 'whsec_0123456789abcdef';
const onEvent = () => undefined;
// The redirect card success as documented: payment_status complete, paid 'False'.
const contradiction = { ...callbackFixtures['checkout.succeeded'], payment_method: 'CARD', paid: 'False' };

describe('createCallbackHandler', () => {
  it.each([
    ['publicOrign', { publicOrign: 'https://shop.example' }],
    ['onContradictions', { onContradictions: 'reject' }],
    ['dedupeTTLMs', { dedupeTTLMs: 1_000 }],
    ['maxBodyByte', { maxBodyByte: 1_024 }],
  ])('refuses the unknown option %s, naming it', async (name, extra) => {
    const error = await caught(() =>
      createCallbackHandler({ secret, onEvent, ...extra } as unknown as CallbackHandlerOptions),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain(`createCallbackHandler: unknown option "${name}"`);
    expect((error as Error).message).toContain('publicOrigin');
  });

  it.each([
    ['true', true],
    ['null', null],
    ['an object without begin, complete and abandon', {}],
    ['a store missing abandon', { begin: async () => 'new', complete: async () => undefined }],
  ])('refuses a dedupe option that is %s', async (_what, dedupe) => {
    const error = await caught(() =>
      createCallbackHandler({ secret, onEvent, dedupe } as unknown as CallbackHandlerOptions),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^createCallbackHandler: dedupe must be false or a store/);
  });

  it.each([
    ['null', null],
    ['a number', 42],
    ['an object without get and settle', {}],
    [
      'an object with get and settle that createTransactionTracker did not make',
      { ...createTransactionTracker() },
    ],
  ])('refuses a tracker option that is %s', async (_what, tracker) => {
    const error = await caught(() =>
      createCallbackHandler({ secret, onEvent, tracker } as unknown as CallbackHandlerOptions),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^createCallbackHandler: tracker must be/);
  });

  it('accepts every documented option', () => {
    expect(() =>
      createCallbackHandler({
        secret,
        publicOrigin: 'https://shop.example',
        onEvent,
        dedupe: createMemoryDedupeStore(),
        dedupeTtlMs: 1_000,
        processingTimeoutMs: 1_000,
        maxBodyBytes: 1_024,
        bodyTimeoutMs: 1_000,
        expected: () => undefined,
        tracker: createTransactionTracker(),
        onError: () => undefined,
        onContradiction: 'reject',
      }),
    ).not.toThrow();
    expect(() => createCallbackHandler({ verify: false, onEvent, dedupe: false })).not.toThrow();
  });
});

describe('parseCallback and safeParseCallback', () => {
  it.each([
    ['parseCallback', parseCallback],
    ['safeParseCallback', safeParseCallback],
  ] as const)(
    '%s refuses an unknown option rather than accept the documented contradiction',
    async (name, parse) => {
      const error = await caught(() => parse(contradiction, { onContradictions: 'reject' } as never));
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe(
        `${name}: unknown option "onContradictions"; the options are onContradiction`,
      );
    },
  );

  it.each([
    ['parseCallback', parseCallback],
    ['safeParseCallback', safeParseCallback],
  ] as const)('%s refuses options that are not an object', async (name, parse) => {
    const error = await caught(() => parse(contradiction, 'reject' as never));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(`${name}: options must be an object`);
  });

  it('reads the documented option as before', () => {
    expect(parseCallback(contradiction).type).toBe('checkout.succeeded');
    expect(safeParseCallback(contradiction, { onContradiction: 'reject' })).toMatchObject({
      success: false,
      error: { reason: 'contradictory_outcome' },
    });
  });
});

describe('signCallbackUrl and verifyCallbackUrl', () => {
  it('signCallbackUrl refuses an unknown option, naming it', async () => {
    const error = await caught(() =>
      signCallbackUrl('https://shop.example/hooks', {
        secret,
        reference: 'ORDER-1',
        referense: 'ORDER-2',
      } as never),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      'signCallbackUrl: unknown option "referense"; the options are secret, reference',
    );
  });

  it('verifyCallbackUrl refuses a misspelt origin rather than verify against the Host sent', async () => {
    const url = await signCallbackUrl('https://attacker.example/hooks', { secret, reference: 'ORDER-1' });
    // With the origin pinned, this URL (signed for another host) does not verify; misspelt, the
    // pin would be dropped and it would.
    await expect(verifyCallbackUrl(url, { secret, origin: 'https://shop.example' })).rejects.toMatchObject({
      reason: 'bad_signature',
    });
    const error = await caught(() =>
      verifyCallbackUrl(url, { secret, orgin: 'https://shop.example' } as never),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      'verifyCallbackUrl: unknown option "orgin"; the options are secret, origin',
    );
  });
});

describe('createMemoryDedupeStore', () => {
  it('refuses an unknown option, naming it', async () => {
    const error = await caught(() => createMemoryDedupeStore({ maxEntry: 10 } as never));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^createMemoryDedupeStore: unknown option "maxEntry"; /);
  });

  it('accepts every documented option', () => {
    expect(() =>
      createMemoryDedupeStore({
        maxEntries: 10,
        maxBytes: 1_024,
        maxInProgress: 5,
        ttlMs: 1_000,
        now: Date.now,
      }),
    ).not.toThrow();
  });
});
