// Hardening of the client against hostile input and hostile servers: secrets in options are refused
// at construction without being echoed, secrets a server echoes (headers, bodies) are redacted, and a
// card number the wire cannot carry as an integer is refused before anything is sent.
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError, PaymentsClient, ValidationError, type ResponseLogEvent } from '../../src/index.js';
import { cardPaymentInput, cvc, mobileMoneyPaymentInput, payoutInput } from '../helpers/inputs.js';
import { BASE_URL, useMockService } from '../helpers/msw.js';

const service = useMockService();
const PAYMENT = 'api/payment/payment-initiate-callback/';

const construct = (options: ConstructorParameters<typeof PaymentsClient>[0]) => {
  try {
    new PaymentsClient(options);
  } catch (error) {
    return error;
  }
  throw new Error('expected the constructor to throw');
};

describe('client options that would put a secret on the wire or into a message', () => {
  it.each([
    ['CR LF', 'sk_live_abc\r\nx-evil: 1'],
    ['LF', 'sk_live_abc\nx'],
    ['NUL', 'sk_live_abc\u0000'],
    ['a non-Latin-1 character', 'sk_live_abc€'],
    ['surrounding whitespace', ' sk_live_abc '],
    ['an empty string', ''],
  ])('refuses an apiKey with %s, without echoing it', (_name, apiKey) => {
    const error = construct({ baseUrl: BASE_URL, apiKey });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['apiKey']]);
    const dump = `${(error as Error).message} ${JSON.stringify(error)}`;
    if (apiKey !== '') expect(dump).not.toContain(apiKey.trim());
    expect(dump).not.toContain('sk_live_abc');
  });

  it.each([
    'Bearer sk_live_abc123',
    'bearer sk_live_abc123',
    'Basic c2tfbGl2ZV9hYmMxMjM=',
    'Token sk_live_abc123',
  ])(
    'refuses an apiKey given with its auth scheme (%s), which would be sent as Bearer Bearer …',
    (apiKey) => {
      const error = construct({ baseUrl: BASE_URL, apiKey });
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toEqual([
        expect.objectContaining({
          path: ['apiKey'],
          message: expect.stringContaining('without its auth scheme'),
        }),
      ]);
      const dump = `${(error as Error).message} ${JSON.stringify(error)}`;
      expect(dump).not.toContain(apiKey.split(' ')[1]);
    },
  );

  it('takes an apiKey that only starts with a scheme word', () => {
    expect(() => new PaymentsClient({ baseUrl: BASE_URL, apiKey: 'Bearer_sk_live_abc123' })).not.toThrow();
    expect(() => new PaymentsClient({ baseUrl: BASE_URL, apiKey: 'basically-a-key-1234' })).not.toThrow();
  });

  it('refuses credentials in baseUrl, without echoing them', () => {
    for (const baseUrl of [
      'https://user:hunter2pass@payments.example.com',
      'https://hunter2pass@payments.example.com/api/',
    ]) {
      const error = construct({ baseUrl });
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['baseUrl']]);
      expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain('hunter2pass');
    }
  });

  it('refuses a header value that is not valid on the wire before sending, naming the header only', async () => {
    service.documented();
    const client = new PaymentsClient({ baseUrl: BASE_URL });
    const error = await client
      .initiateCardPayment(cardPaymentInput, { headers: { 'x-token': 'tok_secret\r\nx-evil: 1' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain('x-token');
    expect((error as Error).message).not.toContain('tok_secret');
    expect(await service.recorded()).toHaveLength(0);
  });
});

describe('client headers of the wrong shape', () => {
  it.each([
    ['null', null],
    ['a string', 'x-request-id: 1'],
    ['a number', 5],
    ['an array of non-pairs', [1]],
    ['an array with a three-element entry', [['x-a', 'b', 'c']]],
    ['an array with a one-element entry', [['x-a']]],
  ])('refuses headers given as %s with a ValidationError naming headers', (_name, headers) => {
    const error = construct({ baseUrl: BASE_URL, headers: headers as never });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['headers']]);
    expect((error as Error).message).toMatch(/^Invalid client options: headers: /);
  });

  it('accepts headers as a record, an array of pairs, a Headers or a function', () => {
    for (const headers of [
      { 'x-request-id': '1' },
      [['x-request-id', '1']],
      new Headers({ 'x-request-id': '1' }),
      () => ({ 'x-request-id': '1' }),
    ] satisfies ConstructorParameters<typeof PaymentsClient>[0]['headers'][]) {
      expect(() => new PaymentsClient({ baseUrl: BASE_URL, headers })).not.toThrow();
    }
  });
});

describe('per-call headers of the wrong shape', () => {
  it.each([
    ['null', null],
    ['a string', 'abc'],
    ['a number', 5],
    ['an array of non-pairs', [1]],
    ['an array with a three-element entry', [['x-a', 'b', 'c']]],
  ])('refuses per-call headers given as %s before sending, naming headers', async (_name, headers) => {
    service.documented();
    const client = new PaymentsClient({ baseUrl: BASE_URL });
    const error = await client
      .initiateMobileMoneyPayment(mobileMoneyPaymentInput, { headers: headers as never })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['headers'], code: 'invalid_option' }),
    ]);
    expect(await service.recorded()).toHaveLength(0);
  });

  it.each([
    ['null', () => null],
    ['a string', () => 'x-request-id: 1'],
    ['nothing', () => undefined],
    ['a promise of null', () => Promise.resolve(null)],
  ])('refuses a headers function that returns %s before sending, naming headers', async (_name, headers) => {
    service.documented();
    const client = new PaymentsClient({ baseUrl: BASE_URL, headers: headers as never });
    const error = await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['headers'], code: 'invalid_option' }),
    ]);
    expect((error as Error).message).toContain('headers function');
    expect(await service.recorded()).toHaveLength(0);
  });
});

describe('a card payment that names another payment method', () => {
  it('refuses it before sending, naming customer_details.payment_method', async () => {
    service.documented();
    const client = new PaymentsClient({ baseUrl: BASE_URL, mobileMoneyBrand: 'M-PESA' });
    const error = await client
      .initiateCardPayment({
        ...cardPaymentInput,
        customer_details: { ...cardPaymentInput.customer_details, payment_method: 'M-PESA' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['customer_details', 'payment_method'], code: 'not_card_method' }),
    ]);
    expect(await service.recorded()).toHaveLength(0);
  });
});

describe('per-call options', () => {
  it('refuses an invalid per-call timeout or signal before sending', async () => {
    service.documented();
    const client = new PaymentsClient({ baseUrl: BASE_URL });
    for (const options of [
      { timeout: -5 },
      { timeout: Number.NaN },
      { timeout: Number.POSITIVE_INFINITY },
      { totalTimeout: 0 },
      { signal: 'stop' },
    ]) {
      await expect(client.initiatePayout(payoutInput, options as never)).rejects.toBeInstanceOf(
        ValidationError,
      );
    }
    expect(await service.recorded()).toHaveLength(0);
  });

  it('names the option, with the code of a bad option', async () => {
    const client = new PaymentsClient({ baseUrl: BASE_URL });
    for (const [options, option] of [
      [{ timeout: -5 }, 'timeout'],
      [{ totalTimeout: 0 }, 'totalTimeout'],
      [{ signal: 'stop' }, 'signal'],
    ] as const) {
      const error = await client.initiatePayout(payoutInput, options as never).catch((e: unknown) => e);
      expect((error as ValidationError).issues).toEqual([
        expect.objectContaining({ path: [option], code: 'invalid_option' }),
      ]);
    }
  });
});

describe('secrets a server echoes', () => {
  it('redacts the card number and cvc from response headers (ApiError.headers, JSON, afterResponse)', async () => {
    service.on(
      PAYMENT,
      () =>
        new HttpResponse('declined', {
          status: 402,
          headers: {
            'x-echo-card': '9999  9999  9999  9995',
            'x-echo-plain': '9999999999999995',
            'x-echo-cvc': cvc,
          },
        }),
    );
    const logged: ResponseLogEvent[] = [];
    const client = new PaymentsClient({
      baseUrl: BASE_URL,
      hooks: { afterResponse: (event) => void logged.push(event) },
    });
    const error = (await client.initiateCardPayment(cardPaymentInput).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    const dumps = [JSON.stringify(error.headers), JSON.stringify(error), JSON.stringify(logged)].join('\n');
    expect(dumps).not.toMatch(/9999\D*9999\D*9999\D*9995/);
    expect(dumps).not.toMatch(new RegExp(`(?<!\\d)${cvc}(?!\\d)`));
    expect(error.headers['x-echo-card']).toBe('**** 9995');
    expect(logged[0]!.responseHeaders['x-echo-cvc']).toBe('[redacted]');
  });

  it('redacts the card number and cvc from an echoing status text', async () => {
    service.on(PAYMENT, () =>
      HttpResponse.text('no', { status: 402, statusText: `Declined 9999 9999 9999 9995 cvc ${cvc}` }),
    );
    const client = new PaymentsClient({ baseUrl: BASE_URL });
    const declined = (await client
      .initiateCardPayment(cardPaymentInput)
      .catch((e: unknown) => e)) as ApiError;
    expect(declined).toBeInstanceOf(ApiError);
    expect(`${declined.message} ${JSON.stringify(declined)}`).not.toMatch(/9999\D*9999\D*9999\D*9995/);
    expect(declined.message).not.toMatch(new RegExp(`(?<!\\d)${cvc}(?!\\d)`));
  });

  it.each([401, 403, 500])(
    'redacts an echoed Authorization value from a %i body and headers',
    async (status) => {
      service.on(
        PAYMENT,
        () =>
          new HttpResponse('{"error":"bad key Bearer sk_live_topsecret9","key":"sk_live_topsecret9"}', {
            status,
            headers: { 'www-authenticate': 'Bearer error="invalid_token" token="sk_live_topsecret9"' },
          }),
      );
      const client = new PaymentsClient({ baseUrl: BASE_URL, apiKey: 'sk_live_topsecret9' });
      const error = (await client.initiateCardPayment(cardPaymentInput).catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(status);
      expect(JSON.stringify(error)).not.toContain('sk_live_topsecret9');
      expect(error.body).toContain('[redacted]');
    },
  );
});

describe('card fields the wire cannot carry', () => {
  it("refuses a card number starting with 0 under cardFieldEncoding 'integer', pointing to 'string'", async () => {
    service.documented();
    const input = {
      ...cardPaymentInput,
      card_details: { ...cardPaymentInput.card_details, card_number: '0000 0000 0000 0000' },
    };
    const error = await new PaymentsClient({ baseUrl: BASE_URL })
      .initiateCardPayment(input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['card_details', 'card_number'], code: 'card_number_leading_zero' }),
    ]);
    expect((error as Error).message).toContain("cardFieldEncoding: 'string'");
    expect(await service.recorded()).toHaveLength(0);

    await new PaymentsClient({ baseUrl: BASE_URL, cardFieldEncoding: 'string' }).initiateCardPayment(input);
    const [request] = await service.recorded();
    expect(request!.text).toContain('"card_number":"0000000000000000"');
  });
});
