// Amounts as long as a body under the handler's 64 KiB cap allows: reading, describing and
// comparing them must cost time in proportion to their length. Two regular expressions made it
// quadratic — describing a long digit string that is not a plain decimal, and dropping the
// trailing zeros of a long fraction before comparing two amounts — so one callback of about 60 KB
// held the webhook's event loop for seconds.
import { describe, expect, it } from 'vitest';
import { createCallbackHandler, safeParseCallback } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const cardSuccess = callbackFixtures['payment.card.succeeded'];
const mobileMoneySuccess = callbackFixtures['payment.mobile_money.succeeded'];
const payoutSuccess = callbackFixtures['payout.succeeded'];

/** Far above what a linear read of 60 KB costs (about a millisecond), far below what the quadratic one did. */
const LIMIT_MS = 500;

const timed = <T>(run: () => T): { result: T; ms: number } => {
  const start = performance.now();
  const result = run();
  return { result, ms: performance.now() - start };
};

describe('a long amount costs time in proportion to its length', () => {
  it.each([
    ['60 000 digits (too large to be finite)', '9'.repeat(60_000)],
    ['60 000 digits and a letter', `${'1'.repeat(60_000)}x`],
  ])('refuses an amount of %s as invalid_amount at once', (_, amount) => {
    const body = JSON.stringify({ ...payoutSuccess, amount });
    expect(body.length).toBeLessThan(65_536);
    const { result, ms } = timed(() => safeParseCallback(body));
    expect(result.error?.reason).toBe('invalid_amount');
    expect(ms).toBeLessThan(LIMIT_MS);
  });

  it('compares a card amount and its capture of 30 000 fraction digits at once', () => {
    const amount = `1.${'0'.repeat(30_000)}1`;
    const body = JSON.stringify({ ...cardSuccess, amount, 'amount captured': amount });
    expect(body.length).toBeLessThan(65_536);
    const { result, ms } = timed(() => safeParseCallback(body));
    expect(result.event?.type).toBe('payment.card.succeeded');
    expect(ms).toBeLessThan(LIMIT_MS);
  });

  it('refuses a mobile-money amount string of 60 000 fraction digits, which no JSON number holds, at once', () => {
    const body = JSON.stringify({ ...mobileMoneySuccess, amount: `1.${'0'.repeat(60_000)}1` });
    expect(body.length).toBeLessThan(65_536);
    const { result, ms } = timed(() => safeParseCallback(body));
    expect(result.success).toBe(false);
    expect(ms).toBeLessThan(LIMIT_MS);
  });

  it("answers a long amount checked against the merchant's expected amount at once (422, not paid)", async () => {
    const amount = `1500.${'0'.repeat(30_000)}1`;
    const handler = createCallbackHandler({
      verify: false,
      expected: () => ({ amount: '1500', currency: 'KES' }),
      onEvent: () => {
        throw new Error('a different amount must never reach onEvent');
      },
    });
    const request = new Request('https://shop.example/callbacks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...cardSuccess, amount, 'amount captured': amount }),
    });
    const start = performance.now();
    const response = await handler(request);
    expect(performance.now() - start).toBeLessThan(LIMIT_MS);
    expect(response.status).toBe(422);
  });
});
