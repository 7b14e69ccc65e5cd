// Options the client does not know are refused, naming them, never dropped: a misspelt per-call
// `timout` or `signl` would otherwise run the call without the timeout or abort the merchant meant,
// and a misspelt client or builder option would fall back to its default. Retry status codes the
// client can never retry are refused at construction.
import { describe, expect, it } from 'vitest';
import {
  buildCardPaymentRequest,
  buildMobileMoneyPaymentRequest,
  buildPayoutRequest,
  PaymentsClient,
  ValidationError,
  type ClientOptions,
  type RequestOptions,
} from '../../src/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import {
  cardPaymentInput,
  checkoutSessionInput,
  mobileMoneyPaymentInput,
  payoutInput,
} from '../helpers/inputs.js';
import { BASE_URL, useMockService } from '../helpers/msw.js';

const service = useMockService();
const secret = 'whsec_unknown_options_test';

const construct = (options: unknown): unknown => {
  try {
    new PaymentsClient(options as ClientOptions);
  } catch (error) {
    return error;
  }
  throw new Error('expected the constructor to throw');
};

const calls = {
  initiateCardPayment: (client: PaymentsClient, options: RequestOptions) =>
    client.initiateCardPayment(cardPaymentInput, options),
  initiateMobileMoneyPayment: (client: PaymentsClient, options: RequestOptions) =>
    client.initiateMobileMoneyPayment(mobileMoneyPaymentInput, options),
  createCheckoutSession: (client: PaymentsClient, options: RequestOptions) =>
    client.createCheckoutSession(checkoutSessionInput, options),
  initiatePayout: (client: PaymentsClient, options: RequestOptions) =>
    client.initiatePayout(payoutInput, options),
};
const references = {
  initiateCardPayment: 'order-1001',
  initiateMobileMoneyPayment: 'order-1002',
  createCheckoutSession: '1003',
  initiatePayout: '483920175561',
};

describe('an unknown per-call option', () => {
  it.each(Object.keys(calls) as (keyof typeof calls)[])(
    '%s refuses it by name before sending or recording anything',
    async (method) => {
      service.documented();
      const tracker = createTransactionTracker();
      const client = new PaymentsClient({ baseUrl: BASE_URL, transactions: { tracker, secret } });
      const signal = new AbortController().signal;
      const error = await calls[method](client, { timout: 5_000, signl: signal } as RequestOptions).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toEqual([
        expect.objectContaining({ path: ['timout'], code: 'unrecognized_keys' }),
        expect.objectContaining({ path: ['signl'], code: 'unrecognized_keys' }),
      ]);
      expect((error as Error).message).toMatch(/^Invalid request options: .*"timout".*"signl"/);
      expect(await service.recorded()).toHaveLength(0);
      expect(await tracker.get(references[method])).toBeUndefined();
    },
  );

  it('accepts the documented ones', async () => {
    service.documented();
    const client = new PaymentsClient({ baseUrl: BASE_URL });
    await expect(
      client.initiatePayout(payoutInput, {
        signal: new AbortController().signal,
        timeout: 5_000,
        totalTimeout: 10_000,
        headers: { 'x-request-id': '1' },
      }),
    ).resolves.toMatchObject({ status: 200 });
  });
});

describe('an unknown client option', () => {
  it.each([
    ['at the top level', { baseUrl: BASE_URL, timout: 5_000 }, ['timout']],
    ['in retry', { baseUrl: BASE_URL, retry: { limit: 1, statusCode: [503] } }, ['retry', 'statusCode']],
    [
      'in paymentMethods',
      { baseUrl: BASE_URL, paymentMethods: { mobile: 'M-PESA' } },
      ['paymentMethods', 'mobile'],
    ],
    ['in hooks', { baseUrl: BASE_URL, hooks: { afterRequest: () => undefined } }, ['hooks', 'afterRequest']],
    [
      'in transactions',
      { baseUrl: BASE_URL, transactions: { tracker: createTransactionTracker(), secret, verify: false } },
      ['transactions', 'verify'],
    ],
  ])('is refused %s, naming it', (_where, options, path) => {
    const error = construct(options);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({ path, code: 'unrecognized_keys' }),
    ]);
    expect((error as Error).message).toMatch(/^Invalid client options: /);
  });
});

describe('an unknown option of a builder', () => {
  it.each([
    [
      'buildCardPaymentRequest',
      () => buildCardPaymentRequest(cardPaymentInput, { cardEncoding: 'string' } as never),
    ],
    [
      'buildMobileMoneyPaymentRequest',
      () => buildMobileMoneyPaymentRequest(mobileMoneyPaymentInput, { paymentMethd: 'M-PESA' } as never),
    ],
    [
      'buildPayoutRequest',
      () => buildPayoutRequest(payoutInput, { recipientKey: 'client_details' } as never),
    ],
  ])('is refused by %s, naming it', (_name, build) => {
    let error: unknown;
    try {
      build();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({ path: [expect.any(String)], code: 'unrecognized_keys' }),
    ]);
    expect((error as Error).message).toMatch(/^Invalid [a-z -]+ options: /);
  });
});

describe('retry.statusCodes', () => {
  it.each([
    ['a redirect', 302],
    ['a 304', 304],
    ['a success', 200],
    ['an informational status', 103],
    ['a status above 599', 600],
    ['a status below 100', 99],
    ['a fraction', 503.5],
    ['a string', '503'],
  ])('refuses %s at construction, naming retry.statusCodes', (_name, code) => {
    const error = construct({ baseUrl: BASE_URL, retry: { limit: 1, statusCodes: [503, code] } });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['retry', 'statusCodes', 1] }),
    ]);
    expect((error as Error).message).toContain('retry.statusCodes[1]');
  });

  it('accepts the error statuses 400 to 599', () => {
    expect(
      () => new PaymentsClient({ baseUrl: BASE_URL, retry: { limit: 1, statusCodes: [400, 409, 503, 599] } }),
    ).not.toThrow();
  });
});
