// A currency a callback carries under a key spelt otherwise (`Currency`, `currency_code`,
// `currencyCode`) names the money as surely as `currency` does: it is compared with the expected
// currency like the documented key, as every reference key is compared in any spelling. A checkout
// for 2500 KES answered with `"Currency": "USD"` is not the order's payment.
import { describe, expect, it } from 'vitest';
import { createCallbackHandler, safeParseCallback, signCallbackUrl } from '../../src/callbacks/index.js';
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
  ])('%s: %s on a KES checkout is a currency_mismatch (422), onEvent not called', async (key, value) => {
    const result = await answer({ ...checkout, [key]: value }, checkout.order_id);
    expect(result).toEqual({ status: 422, body: '{"error":"currency_mismatch"}', events: [] });
  });

  it.each([
    ['Currency', 840],
    ['currency_code', ''],
    ['currencyCode', null],
  ])('%s: %j, no currency code, is refused as the payload (400), onEvent not called', async (key, value) => {
    const result = await answer({ ...checkout, [key]: value }, checkout.order_id);
    expect(result).toEqual({ status: 400, body: '{"error":"invalid_payload"}', events: [] });
  });

  it('is compared on a tracked transaction too', async () => {
    const result = await answer({ ...checkout, Currency: 'USD' }, checkout.order_id, { tracked: true });
    expect(result).toEqual({ status: 422, body: '{"error":"currency_mismatch"}', events: [] });
  });

  it('next to the documented currency of a card payment, makes a payload naming two currencies (400)', async () => {
    const result = await answer({ ...card, currency: 'KES', currency_code: 'USD' }, 'ORDER-CARD');
    expect(result).toEqual({ status: 400, body: '{"error":"invalid_payload"}', events: [] });
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

describe('the currency_mismatch refusal', () => {
  async function refusal(payload: object, reference: string) {
    const errors: string[] = [];
    const handler = createCallbackHandler({
      secret,
      dedupe: false,
      expected: () => ({ currency: 'KES' }),
      onEvent: () => undefined,
      onError: (error, { status, reason }) => void errors.push(`${status} ${reason}: ${error.message}`),
    });
    const url = await signCallbackUrl(route, { secret, reference });
    await handler(new Request(url, { method: 'POST', body: JSON.stringify(payload) }));
    return errors;
  }

  it('names the key that holds the other currency', async () => {
    const [error] = await refusal({ ...checkout, Currency: 'USD' }, checkout.order_id);
    expect(error).toMatch(/^422 currency_mismatch: .*"Currency" USD is not the expected KES/);
  });

  it.each([
    ['a card number', '4111111111111111'],
    ['an array', ['KES']],
  ])(
    'is no refusal of a value that is no currency code (%s): that payload is invalid (400), its value not shown',
    async (_name, value) => {
      const [error] = await refusal({ ...checkout, currency_code: value }, checkout.order_id);
      expect(error).toMatch(/^400 invalid_payload: .*currency_code: expected a 3-letter currency code/);
      expect(error).not.toContain('4111111111111111');
    },
  );

  it('is a 400, not a 500, for an object whose toString is no function', async () => {
    const errors = await refusal({ ...checkout, Currency: { toString: 1 } }, checkout.order_id);
    expect(errors).toEqual([
      expect.stringMatching(/^400 invalid_payload: .*Currency: expected a 3-letter currency code/),
    ]);
  });
});

describe('a payload that names two currencies', () => {
  it.each([
    ['a card payment: currency KES, Currency USD', { ...card, currency: 'KES', Currency: 'USD' }],
    ['a checkout: currency_code KES, Currency USD', { ...checkout, currency_code: 'KES', Currency: 'USD' }],
  ])('is refused though no currency is expected: %s', (_name, payload) => {
    const result = safeParseCallback(payload);
    expect(result.success).toBe(false);
    expect(result.error?.reason).toBe('invalid_payload');
  });

  it('differing only by a Unicode case fold (KEſ, a long s), is refused as the handler compares it', () => {
    const result = safeParseCallback({ ...card, currency: 'KES', Currency: 'KE\u017f' });
    expect(result.error?.reason).toBe('invalid_payload');
  });

  it('agreeing but for letter case, is read', () => {
    expect(safeParseCallback({ ...card, currency: 'KES', currency_code: 'kes' }).success).toBe(true);
  });
});
