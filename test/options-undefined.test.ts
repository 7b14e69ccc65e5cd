// The option types accept `undefined` for every optional option (a merchant on
// exactOptionalPropertyTypes passes `process.env.X`), so an option given as undefined must work as
// if it were left out: the default applies, nothing is refused.
import { describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  createMemoryDedupeStore,
  parseCallback,
  signCallbackUrl,
} from '../src/callbacks/index.js';
import { PaymentsClient } from '../src/index.js';
import { buildCallbackPayload, createCallbackRequest } from '../src/testing/index.js';
import { createMemoryTransactionStore, createTransactionTracker } from '../src/transactions/index.js';

const u = undefined;
const secret = 'whsec_options_undefined_0123';

describe('an optional option given as undefined', () => {
  it('is left out: createCallbackHandler keeps its defaults (64 KiB body cap, dedupe)', async () => {
    const seen: string[] = [];
    const handler = createCallbackHandler({
      secret,
      publicOrigin: u,
      dedupe: u,
      dedupeTtlMs: u,
      processingTimeoutMs: u,
      maxBodyBytes: u,
      bodyTimeoutMs: u,
      tracker: u,
      onError: u,
      onContradiction: u,
      onEvent: (event) => {
        seen.push(event.type);
      },
    });
    const request = () =>
      createCallbackRequest('payout.succeeded', { secret, url: 'https://shop.example/hooks' });
    expect((await handler(await request())).status).toBe(200);
    expect((await handler(await request())).headers.get('x-callback-duplicate')).toBe('true');
    expect(seen).toEqual(['payout.succeeded']);
    const url = await signCallbackUrl('https://shop.example/hooks', { secret, reference: 'R-1' });
    const big = await handler(new Request(url, { method: 'POST', body: 'x'.repeat(65_537) }));
    expect(big.status).toBe(413);
  });

  it('is left out by the client, the tracker, its store, the dedupe store and the parser', () => {
    expect(
      () =>
        new PaymentsClient({
          baseUrl: 'https://payments.example',
          apiKey: u,
          timeout: u,
          retry: u,
          fetch: u,
          hooks: u,
          headers: u,
          mobileMoneyBrand: u,
          paymentMethods: u,
          transactions: u,
        }),
    ).not.toThrow();
    expect(() => createTransactionTracker({ store: u, pollIntervalMs: u, now: u })).not.toThrow();
    expect(() =>
      createMemoryTransactionStore({ maxEntries: u, maxBytes: u, finishedTtlMs: u }),
    ).not.toThrow();
    expect(() => createMemoryDedupeStore({ maxEntries: u, maxBytes: u, ttlMs: u })).not.toThrow();
    expect(parseCallback(buildCallbackPayload('payout.failed'), { onContradiction: u }).paid).toBe(false);
  });
});
