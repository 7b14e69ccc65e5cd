// The sandbox and its aids check the values of their options, not only the keys: a misspelt word
// or a value out of range would otherwise run something else than the test asked for (a checkout
// paid by card when mobile money was asked, a failure test that succeeds).
import { describe, expect, it } from 'vitest';
import { caught } from '../helpers/caught.js';
import { completeCheckout } from '../../src/sandbox/index.js';

// Refused before the page is fetched: nothing listens on this port.
const LINK = 'http://127.0.0.1:9/checkout/1';

describe('completeCheckout', () => {
  it.each([
    ['outcome', { method: 'card', outcome: 'failed' }, "'success' or 'failure'"],
    ['method', { method: 'MOBILE_MONEY' }, "'card' or 'mobile_money'"],
    ['method', { method: 'mpesa' }, "'card' or 'mobile_money'"],
    ['method', {}, "'card' or 'mobile_money'"],
  ])('refuses an unknown %s, naming the allowed words', async (name, options, allowed) => {
    const error = await caught(() => completeCheckout(LINK, options as never));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(new RegExp(`^completeCheckout: ${name} `));
    expect((error as Error).message).toContain(allowed);
  });

  it('refuses a phoneNumber with the card method', async () => {
    const error = await caught(() => completeCheckout(LINK, { method: 'card', phoneNumber: '254700000406' }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^completeCheckout: phoneNumber /);
  });
});
