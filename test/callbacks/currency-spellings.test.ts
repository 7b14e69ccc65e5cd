// A currency a callback carries under a key spelt otherwise (`Currency`, `currency_code`,
// `currencyCode`) names the money as surely as `currency` does: it is compared with the expected
// currency like the documented key, as every reference key is compared in any spelling. A checkout
// for 2500 KES answered with `"Currency": "USD"` is not the order's payment.
import { describe, expect, it } from 'vitest';
import { createCallbackHandler, signCallbackUrl } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';

const secret = 'whsec_currency_spellings_0123';
const route = 'https://shop.example/webhooks/payments';
const checkout = callbackFixtures['checkout.succeeded'];
const card = callbackFixtures['payment.card.succeeded'];

async function answer(payload: object, reference: string, options: { tracked?: boolean } = {}) {
  const events: string[] = [];
  const tracker = createTransactionTracker();
  if (options.tracked) {
    const amount = String((payload as { amount: unknown }).amount);
    const kind = 'order_id' in payload ? 'checkout' : 'card';
    await tracker.begin({ reference, kind, amount, currency: 'KES' });
  }
  const handler = createCallbackHandler({
    secret,
    dedupe: false,
    onEvent: (event) => void events.push(event.type),
    ...(options.tracked
      ? { tracker }
      : { expected: () => ({ amount: String((payload as { amount: unknown }).amount), currency: 'KES' }) }),
  });
  const url = await signCallbackUrl(route, { secret, reference });
  const response = await handler(new Request(url, { method: 'POST', body: JSON.stringify(payload) }));
  return { status: response.status, body: await response.text(), events };
}

describe('a currency under a key spelt otherwise', () => {
  it.each([
    ['Currency', 'USD'],
    ['currency_code', 'USD'],
    ['currencyCode', 'USD'],
    ['CURRENCY', 'usd'],
    ['Currency', 840],
  ])('%s: %s on a KES checkout is a currency_mismatch (422), onEvent not called', async (key, value) => {
    const result = await answer({ ...checkout, [key]: value }, checkout.order_id);
    expect(result).toEqual({ status: 422, body: '{"error":"currency_mismatch"}', events: [] });
  });

  it('is compared on a tracked transaction too', async () => {
    const result = await answer({ ...checkout, Currency: 'USD' }, checkout.order_id, { tracked: true });
    expect(result).toEqual({ status: 422, body: '{"error":"currency_mismatch"}', events: [] });
  });

  it('is compared next to the documented currency of a card payment', async () => {
    const result = await answer({ ...card, currency: 'KES', currency_code: 'USD' }, 'ORDER-CARD');
    expect(result).toEqual({ status: 422, body: '{"error":"currency_mismatch"}', events: [] });
  });

  it.each([
    ['Currency', 'KES'],
    ['currency_code', 'kes'],
  ])('%s: %s agrees with KES (200)', async (key, value) => {
    const result = await answer({ ...checkout, [key]: value }, checkout.order_id);
    expect(result.status).toBe(200);
    expect(result.events).toEqual(['checkout.succeeded']);
  });
});
