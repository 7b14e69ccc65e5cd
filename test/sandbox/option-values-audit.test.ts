// startSandbox / createSandboxApp option checks at their edges: the documented ends of each range
// are accepted, one step past them is refused naming the option, and a word option that only looks
// filled (blanks, a control character) is refused like an empty one.
import { describe, expect, it } from 'vitest';
import { caught } from '../helpers/caught.js';
import { MAX_TIMER_MS } from '../../src/internal/timers.js';
import { createSandboxApp } from '../../src/sandbox/index.js';

const refusal = async (options: object): Promise<Error> =>
  (await caught(() => createSandboxApp({ log: false, ...options }))) as Error;

describe('sandbox options at the ends of their ranges', () => {
  it('accepts failureRate 0 and 1, duplicateDeliveries 10, callbackDelayMs at the timer maximum', () => {
    createSandboxApp({ log: false, failureRate: 0 }).close();
    createSandboxApp({ log: false, failureRate: 1 }).close();
    createSandboxApp({ log: false, duplicateDeliveries: 10 }).close();
    createSandboxApp({ log: false, duplicateDeliveries: false }).close();
    createSandboxApp({ log: false, callbackDelayMs: MAX_TIMER_MS }).close();
  });

  it.each([
    ['duplicateDeliveries', { duplicateDeliveries: 11 }],
    ['callbackDelayMs', { callbackDelayMs: MAX_TIMER_MS + 1 }],
    ['retryDelayMs', { retryDelayMs: MAX_TIMER_MS + 1 }],
    ['failureRate', { failureRate: -0.1 }],
    ['failureRate', { failureRate: Number.NaN }],
  ])('refuses %s one step past its range with a RangeError naming it', async (name, options) => {
    const error = await refusal(options);
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(new RegExp(`^createSandboxApp: ${name} `));
  });
});

describe('sandbox word and function options', () => {
  it.each([
    ['mobileMoneyBrand', { mobileMoneyBrand: '   ' }],
    ['mobileMoneyBrand', { mobileMoneyBrand: 'M-PESA\n' }],
    ['cardPaymentMethod', { cardPaymentMethod: 'CA\u0000RD' }],
    // words the client refuses as paymentMethods / mobileMoneyBrand, so no client could match them
    ['mobileMoneyBrand', { mobileMoneyBrand: ' M-PESA ' }],
    ['mobileMoneyBrand', { mobileMoneyBrand: 'M-PESA\u200b' }],
    ['cardPaymentMethod', { cardPaymentMethod: 'CARD ' }],
    ['transport', { transport: 'fetch' }],
    ['publicUrl', { publicUrl: 'https://sandbox.example.test/#top' }],
    ['publicUrl', { publicUrl: 'https://sandbox.example.test/?a=1' }],
  ])('refuses a %s the sandbox cannot use with a TypeError naming it', async (name, options) => {
    const error = await refusal(options);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(new RegExp(`^createSandboxApp: ${name} `));
  });

  it('accepts a publicUrl base with a path', () => {
    createSandboxApp({ log: false, publicUrl: 'https://sandbox.example.test/base' }).close();
  });
});
