// A memory dedupe store's byte bound must hold at least one claim: under it every delivery is
// answered 503 dedupe_store_full for ever, and the sender gives up on genuine callbacks.
import { describe, expect, it } from 'vitest';
import {
  callbackDedupeKey,
  createCallbackHandler,
  createMemoryDedupeStore,
  parseCallback,
  type CallbackEvent,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const route = 'https://shop.example/webhooks/payments';
const post = (body: unknown) =>
  new Request(route, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

describe('createMemoryDedupeStore({ maxBytes })', () => {
  it.each([16, 32, 269])(
    'refuses %d (megabytes meant, or too small for one key) at creation, naming maxBytes and one entry',
    (maxBytes) => {
      expect(() => createMemoryDedupeStore({ maxBytes })).toThrow(RangeError);
      expect(() => createMemoryDedupeStore({ maxBytes })).toThrow(
        new RegExp(`maxBytes must hold at least one entry \\(270 bytes\\), got ${maxBytes}`),
      );
    },
  );

  it('at the smallest bound it accepts, settles every type of callback and drops the redelivery', async () => {
    const store = createMemoryDedupeStore({ maxBytes: 270 });
    const seen: CallbackEvent[] = [];
    const handler = createCallbackHandler({
      verify: false,
      dedupe: store,
      onEvent: (event) => void seen.push(event),
    });
    for (const payload of Object.values(callbackFixtures)) {
      expect((await handler(post(payload))).status).toBe(200);
      expect((await handler(post(payload))).status).toBe(200);
    }
    expect(seen.map((event) => event.type)).toEqual(Object.keys(callbackFixtures));
  });

  it('the 270 bytes are the longest key the handler makes (two bytes per character plus 80)', () => {
    const longest = Math.max(
      ...Object.values(callbackFixtures).map(
        (payload) => callbackDedupeKey(parseCallback(payload), 'ORDER-1').length,
      ),
    );
    expect(longest * 2 + 80).toBe(270);
  });
});
