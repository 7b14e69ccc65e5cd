// Verification that cannot be switched off by accident, bounded dedupe keys and store, and a
// deadline on reading the body: what a forged, replayed or slow callback meets.
import { describe, expect, it, vi } from 'vitest';
import {
  callbackDedupeKey,
  createCallbackHandler,
  createMemoryDedupeStore,
  parseCallback,
  signCallbackUrl,
  type CallbackContext,
  type CallbackEvent,
  type CallbackHandlerOptions,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { caught } from '../helpers/caught.js';

const cardSuccess = callbackFixtures['payment.card.succeeded'];
const checkoutFailure = callbackFixtures['checkout.failed']; // order_id '1003'
const payoutSuccess = callbackFixtures['payout.succeeded']; // reference_id '123456789012'

const secret = 'whsec_0123456789abcdef';
const route = 'https://shop.example/webhooks/payments';

const post = (url: string, body: BodyInit | null, init: RequestInit = {}) =>
  new Request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' }, ...init });
const signed = (reference: string) => signCallbackUrl(route, { secret, reference });
const onEvent = () => undefined;

describe('a handler without a usable secret', () => {
  it.each([
    ['unset (an environment variable that is not there)', undefined],
    ['empty', ''],
    ['shorter than 16 characters', 'short-secret'],
    ['an empty list', []],
    ['a list with one short secret', [secret, 'short']],
    ['a list with a non-string', [secret, undefined as unknown as string]],
  ])('cannot be created when the secret is %s', (_label, value) => {
    const options = { secret: value, onEvent } as CallbackHandlerOptions;
    expect(() => createCallbackHandler(options)).toThrow(TypeError);
    expect(() => createCallbackHandler(options)).toThrow(/secret.*at least 16 characters.*verify: false/s);
  });

  it('never quotes the secret it refuses', () => {
    expect.assertions(2);
    try {
      createCallbackHandler({ secret: 'tooShortSecret', onEvent });
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).not.toContain('tooShortSecret');
    }
  });

  it("refuses a forged checkout.succeeded once the README's snippet runs without its variable", async () => {
    // The README's own example, with WEBHOOK_SECRET unset: it must not become an open route.
    const env: Record<string, string | undefined> = {};
    expect(() => createCallbackHandler({ secret: env.WEBHOOK_SECRET as string, onEvent })).toThrow(TypeError);
  });

  it('runs unverified only with verify: false, said in so many words', async () => {
    const seen = vi.fn((_event: CallbackEvent, _context: CallbackContext) => undefined);
    const handler = createCallbackHandler({ verify: false, onEvent: seen });
    expect((await handler(post(route, JSON.stringify(cardSuccess)))).status).toBe(200);
    expect(seen.mock.calls[0]![1].reference).toBeUndefined();
  });

  it('refuses verify: false next to a secret (which one was meant?)', () => {
    expect(() => createCallbackHandler({ verify: false, secret, onEvent } as CallbackHandlerOptions)).toThrow(
      /verify: false.*secret/s,
    );
  });

  it('accepts every secret of a rotation list', async () => {
    const previous = 'previous-secret-0123456789';
    const handler = createCallbackHandler({ secret: [secret, previous], onEvent });
    const old = await signCallbackUrl(route, { secret: previous, reference: '1003' });
    expect((await handler(post(old, JSON.stringify(checkoutFailure)))).status).toBe(200);
  });
});

describe('dedupe keys', () => {
  it('are a fixed-length digest however long the identifiers are', () => {
    const huge = parseCallback({ ...cardSuccess, id: 'x'.repeat(60_000) });
    const small = parseCallback(cardSuccess);
    const a = callbackDedupeKey(huge, 'ORDER-1');
    const b = callbackDedupeKey(small, 'ORDER-1');
    expect(a.length).toBe(b.length);
    expect(a.length).toBeLessThan(100);
    expect(a).not.toBe(b);
  });

  it('include the signed reference: a genuine callback for order C posted to order A first does not make C a duplicate', async () => {
    const seen = vi.fn((_event: CallbackEvent, _context: CallbackContext) => undefined);
    const handler = createCallbackHandler({ secret, onEvent: seen });
    // Card success carries no merchant reference: only the signed URL ties it to an order.
    expect((await handler(post(await signed('ORDER-A'), JSON.stringify(cardSuccess)))).status).toBe(200);
    const real = await handler(post(await signed('ORDER-C'), JSON.stringify(cardSuccess)));
    expect(real.status).toBe(200);
    expect(real.headers.get('x-callback-duplicate')).toBeNull();
    expect(seen.mock.calls.map(([, context]) => context.reference)).toEqual(['ORDER-A', 'ORDER-C']);
  });

  it('are the same for a redelivery to the same URL', async () => {
    const seen = vi.fn(() => undefined);
    const handler = createCallbackHandler({ secret, onEvent: seen });
    const url = await signed('123456789012');
    await handler(post(url, JSON.stringify(payoutSuccess)));
    const again = await handler(post(url, JSON.stringify(payoutSuccess)));
    expect(again.headers.get('x-callback-duplicate')).toBe('true');
    expect(seen).toHaveBeenCalledTimes(1);
  });
});

describe('the memory store under a flood', () => {
  it('never evicts an in-progress claim: a copy arriving during processing still gets 503', async () => {
    const store = createMemoryDedupeStore({ maxEntries: 10 });
    let release: () => void = () => undefined;
    const running = vi.fn(
      (event: CallbackEvent) =>
        new Promise<void>((resolve) => {
          if (event.type === 'payout.succeeded') release = resolve;
          else resolve();
        }),
    );
    const handler = createCallbackHandler({ verify: false, dedupe: store, onEvent: running });
    const first = handler(post(route, JSON.stringify(payoutSuccess)));
    await vi.waitFor(() => expect(running).toHaveBeenCalledTimes(1));
    for (let i = 0; i < 100; i++) {
      const junk = { ...cardSuccess, id: `junk-${i}` };
      expect((await handler(post(route, JSON.stringify(junk)))).status).toBe(200);
    }
    const copy = await handler(post(route, JSON.stringify(payoutSuccess)));
    expect(copy.status).toBe(503);
    expect(running.mock.calls.filter(([event]) => event.type === 'payout.succeeded')).toHaveLength(1);
    release();
    expect((await first).status).toBe(200);
  });

  it('answers 503 with Retry-After when the claim table is full, and processes the retry later', async () => {
    const store = createMemoryDedupeStore({ maxInProgress: 1 });
    let release: () => void = () => undefined;
    const handler = createCallbackHandler({
      verify: false,
      dedupe: store,
      onEvent: (event) =>
        event.type === 'payout.succeeded' ? new Promise<void>((resolve) => (release = resolve)) : undefined,
    });
    const first = handler(post(route, JSON.stringify(payoutSuccess)));
    await vi.waitFor(() => expect(release).not.toBe(undefined));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const other = await handler(post(route, JSON.stringify(cardSuccess)));
    expect(other.status).toBe(503);
    expect(other.headers.get('retry-after')).toBe('5');
    expect(await other.json()).toEqual({ error: 'dedupe_store_full' });
    release();
    await first;
    expect((await handler(post(route, JSON.stringify(cardSuccess)))).status).toBe(200);
  });

  it('is bounded in bytes as well as entries', async () => {
    const store = createMemoryDedupeStore({ maxEntries: 1_000_000, maxBytes: 10_000 });
    for (let i = 0; i < 1000; i++) await store.complete(`${'k'.repeat(500)}-${i}`, 60_000);
    // The most recent keys are kept; the first ones were evicted to stay under 10,000 bytes.
    expect(await store.begin(`${'k'.repeat(500)}-999`, 1000)).toBe('done');
    expect(await store.begin(`${'k'.repeat(500)}-0`, 1000)).toBe('new');
  });

  it('evicts processed events first-in first-out, so a replay after the flood is processed again', async () => {
    // What SECURITY.md states: eviction forgets processed events, it never drops a claim.
    const store = createMemoryDedupeStore({ maxEntries: 10 });
    const seen = vi.fn(() => undefined);
    const handler = createCallbackHandler({ verify: false, dedupe: store, onEvent: seen });
    await handler(post(route, JSON.stringify(payoutSuccess)));
    for (let i = 0; i < 10; i++) {
      await handler(post(route, JSON.stringify({ ...cardSuccess, id: `junk-${i}` })));
    }
    await handler(post(route, JSON.stringify(payoutSuccess)));
    expect(seen).toHaveBeenCalledTimes(12);
  });
});

describe('dedupeTtlMs is honoured, never cut short by the store', () => {
  const week = 7 * 86_400_000;

  it('refuses at creation a store that remembers an event for less than dedupeTtlMs, naming both', async () => {
    const error = await caught(() =>
      createCallbackHandler({ secret, onEvent, dedupeTtlMs: week, dedupe: createMemoryDedupeStore() }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      /^createCallbackHandler: dedupeTtlMs \(604800000 ms\) .*ttlMs \(86400000 ms\)/,
    );
  });

  it('refuses a processingTimeoutMs the store would cut short too (a claim that lapses early lets a copy run)', () => {
    expect(() =>
      createCallbackHandler({
        secret,
        onEvent,
        dedupeTtlMs: 3_600_000,
        processingTimeoutMs: 2 * 3_600_000,
        dedupe: createMemoryDedupeStore({ ttlMs: 3_600_000 }),
      }),
    ).toThrow(/processingTimeoutMs/);
  });

  it('accepts a store that remembers events at least that long, and drops a replay 25 h later', async () => {
    let clock = 1_000_000;
    const seen = vi.fn(() => undefined);
    const handler = createCallbackHandler({
      secret,
      onEvent: seen,
      dedupeTtlMs: week,
      dedupe: createMemoryDedupeStore({ ttlMs: week, now: () => clock }),
    });
    const url = await signed('1003');
    expect((await handler(post(url, JSON.stringify(checkoutFailure)))).status).toBe(200);
    clock += 25 * 3_600_000;
    const replay = await handler(post(url, JSON.stringify(checkoutFailure)));
    expect(replay.headers.get('x-callback-duplicate')).toBe('true');
    expect(seen).toHaveBeenCalledTimes(1);
  });

  it('sizes the default store to dedupeTtlMs: a replay 25 h later is still a duplicate', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    try {
      const seen = vi.fn(() => undefined);
      const handler = createCallbackHandler({ secret, onEvent: seen, dedupeTtlMs: week });
      const url = await signed('1003');
      expect((await handler(post(url, JSON.stringify(checkoutFailure)))).status).toBe(200);
      vi.advanceTimersByTime(25 * 3_600_000);
      const replay = await handler(post(url, JSON.stringify(checkoutFailure)));
      expect(replay.headers.get('x-callback-duplicate')).toBe('true');
      expect(seen).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('slow bodies', () => {
  const slowBody = (first: string) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(first));
        // and then nothing more, ever
      },
    });

  it.each([
    ['the body', {}],
    ['a body with a declared Content-Length', { 'content-length': '200' }],
  ])('answers 408 when %s does not arrive within bodyTimeoutMs', async (_label, length) => {
    const seen = vi.fn(() => undefined);
    const onError = vi.fn();
    const handler = createCallbackHandler({ secret, onEvent: seen, bodyTimeoutMs: 50, onError });
    const request = post(await signed('1003'), slowBody('{"order_id":'), {
      headers: { 'content-type': 'application/json', ...length },
      duplex: 'half',
    } as RequestInit);
    const response = await handler(request);
    expect(response.status).toBe(408);
    expect(await response.json()).toEqual({ error: 'body_timeout' });
    expect(seen).not.toHaveBeenCalled();
    expect(onError.mock.calls[0]![1]).toMatchObject({ status: 408, reason: 'body_timeout' });
  });

  it('defaults to a few seconds', async () => {
    vi.useFakeTimers();
    try {
      const handler = createCallbackHandler({ verify: false, onEvent });
      let answered: Response | undefined;
      void handler(post(route, slowBody('{'), { duplex: 'half' } as RequestInit)).then((r) => (answered = r));
      await vi.advanceTimersByTimeAsync(1_000);
      expect(answered).toBeUndefined(); // a slow but honest sender gets its second
      for (let waited = 1_000; waited < 10_000 && answered === undefined; waited += 100) {
        await vi.advanceTimersByTimeAsync(100);
      }
      expect(answered?.status).toBe(408);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('onError', () => {
  it('gets an error whose name and message need no narrowing, for every refusal', async () => {
    const seen: string[] = [];
    const handler = createCallbackHandler({
      secret,
      onEvent: () => {
        throw 'not an Error';
      },
      // error.name and error.message type-check without a cast: the union of the SDK's errors.
      onError: (error, { reason }) => void seen.push(`${reason} ${error.name}: ${error.message}`),
    });
    await handler(new Request(route));
    await handler(post(route, '{}'));
    await handler(post(await signed('R'), '{"nope":1}'));
    await handler(post(await signed('R'), JSON.stringify(checkoutFailure)));
    await handler(post(await signed('1003'), JSON.stringify(checkoutFailure)));
    expect(seen).toHaveLength(5);
    for (const line of seen) expect(line).toMatch(/^[a-z_]+ [A-Za-z]*Error: ./);
    expect(seen.map((line) => line.split(' ')[0])).toEqual([
      'method_not_allowed',
      'invalid_signature',
      'invalid_payload',
      'reference_mismatch',
      'handler_failed',
    ]);
  });
});

describe('bounds that are not numbers', () => {
  it.each(['maxBodyBytes', 'bodyTimeoutMs', 'dedupeTtlMs', 'processingTimeoutMs'] as const)(
    'refuses %s that is not a whole number from 1 at creation (no bound would apply)',
    (name) => {
      for (const value of [Number.NaN, 0, -1, Number.POSITIVE_INFINITY]) {
        expect(() => createCallbackHandler({ secret, onEvent, [name]: value })).toThrow(
          new RegExp(`${name} must be a whole number from 1`),
        );
      }
    },
  );

  it.each(['maxEntries', 'maxBytes', 'maxInProgress', 'ttlMs'] as const)(
    'refuses a memory store whose %s is not a whole number from 1',
    (name) => {
      for (const value of [Number.NaN, 0, -1, Number.POSITIVE_INFINITY]) {
        expect(() => createMemoryDedupeStore({ [name]: value })).toThrow(
          new RegExp(`${name} must be a whole number from 1`),
        );
      }
    },
  );
});

describe('publicOrigin', () => {
  it.each([
    'shop.example',
    'https://shop.example/webhooks',
    'ftp://shop.example',
    'https://user@shop.example',
  ])('refuses %j at creation: it must be an http(s) origin', (publicOrigin) => {
    expect(() => createCallbackHandler({ secret, publicOrigin, onEvent })).toThrow(/publicOrigin must be/);
  });

  it('accepts an origin with or without its trailing slash', () => {
    expect(() =>
      createCallbackHandler({ secret, publicOrigin: 'https://shop.example/', onEvent }),
    ).not.toThrow();
    expect(() =>
      createCallbackHandler({ secret, publicOrigin: 'http://10.0.0.5:3000', onEvent }),
    ).not.toThrow();
  });
});
