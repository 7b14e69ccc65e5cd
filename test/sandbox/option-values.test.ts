// The sandbox and its aids check the values of their options, not only the keys: a misspelt word
// or a value out of range would otherwise run something else than the test asked for (a checkout
// paid by card when mobile money was asked, a failure test that succeeds).
import { describe, expect, it } from 'vitest';
import { caught } from '../helpers/caught.js';
import { completeCheckout, createSandboxApp, startSandbox } from '../../src/sandbox/index.js';
import { createPaymentsHandlers } from '../../src/testing/msw/index.js';

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

  it.each([
    ['the success phone', '254712345678'],
    ['the phone that loses its callback', '254700000000'],
  ])(
    "refuses outcome 'failure' with %s as phoneNumber, whose payment succeeds",
    async (_name, phoneNumber) => {
      const error = await caught(() =>
        completeCheckout(LINK, { method: 'mobile_money', outcome: 'failure', phoneNumber }),
      );
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(/^completeCheckout: outcome 'failure' .*254700000406/);
    },
  );

  it('refuses a phoneNumber with the card method', async () => {
    const error = await caught(() => completeCheckout(LINK, { method: 'card', phoneNumber: '254700000406' }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^completeCheckout: phoneNumber /);
  });
});

describe('the behaviour options of the sandbox', () => {
  const BASE = 'https://payments.example.test';
  const entries = [
    ['createSandboxApp', (options: object) => createSandboxApp(options)],
    ['startSandbox', (options: object) => startSandbox({ port: 0, ...options })],
    ['createPaymentsHandlers', (options: object) => createPaymentsHandlers({ baseUrl: BASE, ...options })],
  ] as const;

  const cases: [string, object, typeof TypeError | typeof RangeError][] = [
    ['walletBalance', { walletBalance: 'abc' }, TypeError],
    ['walletBalance', { walletBalance: -1 }, RangeError],
    ['payoutFee', { payoutFee: '50' }, TypeError],
    ['payoutFee', { payoutFee: Number.NaN }, RangeError],
    ['failureRate', { failureRate: 2 }, RangeError],
    ['failureRate', { failureRate: '0.5' }, TypeError],
    ['deliveryRetries', { deliveryRetries: -1 }, RangeError],
    ['callbackDelayMs', { callbackDelayMs: 'fast' }, TypeError],
    ['retryDelayMs', { retryDelayMs: 1.5 }, RangeError],
    ['deliveryTimeoutMs', { deliveryTimeoutMs: 0 }, RangeError],
    ['duplicateDeliveries', { duplicateDeliveries: 'yes' }, TypeError],
    ['duplicateDeliveries', { duplicateDeliveries: -1 }, RangeError],
    ['mobileMoneyBrand', { mobileMoneyBrand: '' }, TypeError],
    ['mobileMoneyBrand', { mobileMoneyBrand: 'CARD' }, TypeError],
    ['cardPaymentMethod', { cardPaymentMethod: '' }, TypeError],
    ['cardPaymentMethod', { cardPaymentMethod: 5 }, TypeError],
    ['random', { random: 0.5 }, TypeError],
    ['log', { log: 'pretty' }, TypeError],
  ];

  for (const [where, create] of entries) {
    it.each(cases)(`${where} refuses a bad %s value, naming it`, async (name, options, kind) => {
      const error = await caught(() => create(options));
      expect(error).toBeInstanceOf(kind);
      expect((error as Error).message).toMatch(new RegExp(`^${where}: ${name} `));
    });
  }

  it('says what came without quoting it: an empty string is an empty string', async () => {
    const error = await caught(() => createSandboxApp({ mobileMoneyBrand: '' }));
    expect((error as Error).message).toMatch(/^createSandboxApp: mobileMoneyBrand .*, got an empty string$/);
  });

  it("points a log given as a format name at createSandboxLogger('json')", async () => {
    const error = await caught(() => createSandboxApp({ log: 'json' as never }));
    expect((error as Error).message).toContain("createSandboxLogger('json')");
  });

  it('accepts the documented values, duplicateDeliveries as a boolean or a count', async () => {
    const app = createSandboxApp({
      walletBalance: 0,
      payoutFee: 0,
      failureRate: 1,
      deliveryRetries: 0,
      callbackDelayMs: 0,
      retryDelayMs: 0,
      deliveryTimeoutMs: 1,
      duplicateDeliveries: 3,
      mobileMoneyBrand: 'M-PESA',
      cardPaymentMethod: 'card',
      random: () => 0,
      log: false,
    });
    app.close();
    createSandboxApp({ duplicateDeliveries: true, log: () => undefined }).close();
  });

  it('createSandboxApp refuses a publicUrl that is not an http(s) URL, naming it', async () => {
    const error = await caught(() => createSandboxApp({ publicUrl: 'sandbox.internal' }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^createSandboxApp: publicUrl /);
  });

  it('startSandbox refuses a port out of range, naming it', async () => {
    const error = await caught(() => startSandbox({ port: 70_000, log: false }));
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(/^startSandbox: port /);
  });

  it.each([
    ['missing', undefined],
    ['not a URL', 'payments.example.test'],
    ['ftp', 'ftp://x/'],
    ['with a query', 'https://payments.example.test/v1?y=1'],
    ['with a password', 'https://user:pw@payments.example.test'],
  ])('createPaymentsHandlers refuses a baseUrl %s, naming it', async (_, baseUrl) => {
    const error = await caught(() => createPaymentsHandlers({ baseUrl } as never));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^createPaymentsHandlers: baseUrl /);
    expect((error as Error).message).not.toContain('pw');
  });
});
