// The sandbox and the testing aids refuse an option they do not know, naming it, before they start
// anything: a misspelt `failureRate` would otherwise run every payment as a success, and a test
// written to exercise failures would pass without ever seeing one.
import { describe, expect, it } from 'vitest';
import { caught } from '../helpers/caught.js';
import { completeCheckout, createSandboxApp, startSandbox } from '../../src/sandbox/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';
import { createPaymentsHandlers } from '../../src/testing/msw/index.js';

const secret = 'whsec_0123456789abcdef';

describe('an unknown option', () => {
  it.each([
    ['startSandbox', 'failureRat', () => startSandbox({ port: 0, failureRat: 1 } as never)],
    ['createSandboxApp', 'walletBalanc', () => createSandboxApp({ walletBalanc: 5 } as never)],
    [
      'createPaymentsHandlers',
      'callbackDelay',
      () => createPaymentsHandlers({ baseUrl: 'https://payments.example.test', callbackDelay: 0 } as never),
    ],
    [
      'createCallbackRequest',
      'referense',
      () => createCallbackRequest('payout.succeeded', { secret, referense: '123456789012' } as never),
    ],
    [
      'completeCheckout',
      'outcom',
      // Refused before the page is fetched: nothing listens on this port.
      () => completeCheckout('http://127.0.0.1:9/checkout/1', { method: 'card', outcom: 'failure' } as never),
    ],
  ])('is refused by %s, naming it', async (where, name, run) => {
    const error = await caught(run);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      new RegExp(`^${where}: unknown option "${name}"; the options are `),
    );
  });
});

describe('the documented options', () => {
  it('are accepted by startSandbox, including those it hands to the sandbox app', async () => {
    const sandbox = await startSandbox({
      port: 0,
      host: '127.0.0.1',
      callbackDelayMs: 0,
      walletBalance: 1_000,
      payoutFee: 10,
      deliveryRetries: 1,
      retryDelayMs: 10,
      deliveryTimeoutMs: 1_000,
      duplicateDeliveries: false,
      mobileMoneyBrand: 'M-PESA',
      failureRate: 0,
      cardPaymentMethod: 'CARD',
      random: Math.random,
      log: false,
    });
    await sandbox.close();
  });

  it('are accepted by createPaymentsHandlers and createCallbackRequest', async () => {
    expect(() =>
      createPaymentsHandlers({
        baseUrl: 'https://payments.example.test',
        onCallback: () => undefined,
        callbackDelayMs: 0,
        retryDelayMs: 10,
        failureRate: 0,
        log: false,
      }),
    ).not.toThrow();
    const request = await createCallbackRequest('payout.succeeded', {
      secret,
      reference: '123456789012',
      url: 'https://shop.example/hooks',
      overrides: { message: 'Payout Successful' },
    });
    expect(request.method).toBe('POST');
  });
});
