// DESIGN "Security": the card number and cvc never appear in any error's message, toString,
// JSON.stringify, util.inspect (cause chain included) or a hook's log data. Every error kind is
// raised during a card payment whose server echoes the secrets, and every dump is scanned.
import { inspect } from 'node:util';
import { delay, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentsClient, type ClientOptions } from '../../src/index.js';
import { bigCardNumber, cardPaymentInput, cvc } from '../helpers/inputs.js';
import { BASE_URL, useMockService } from '../helpers/msw.js';
import { refusedUrl, resetting, silent, startServer, type TestServer } from '../helpers/servers.js';
import { withoutSourceNoise } from '../helpers/source-noise.js';

const service = useMockService();
const PAYMENT = 'api/payment/payment-initiate-callback/';
const echo = `{"error":"declined","card_number":${bigCardNumber},"pretty":"9999 9999 9999 9995","cvc":${cvc}}`;
const logs: unknown[] = [];
const hooks: ClientOptions['hooks'] = {
  beforeRequest: (event) => void logs.push(event),
  afterResponse: (event) => void logs.push(event),
};

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  logs.length = 0;
});

const leaks = (text: string): string[] => {
  // Source positions, in stack frames and inside an escaped stack (`http.ts:737:13`), with their
  // paths: a line number or a clone's random path is not a cvc.
  const shown = withoutSourceNoise(text);
  const found: string[] = [];
  if (/9999[\s-]?9999[\s-]?9999[\s-]?9995/.test(shown)) found.push('card number');
  if (new RegExp(`(?<!\\d)${cvc}(?!\\d)`).test(shown)) found.push('cvc');
  return found;
};

const dumps = (error: unknown): string =>
  [
    (error as Error).message,
    String(error),
    JSON.stringify(error),
    inspect(error, { depth: 20, showHidden: true }),
    JSON.stringify(logs),
    inspect(logs, { depth: 20 }),
  ].join('\n');

const failWith = async (options: Partial<ClientOptions>, input: unknown = cardPaymentInput, call = {}) => {
  const client = new PaymentsClient({ baseUrl: BASE_URL, apiKey: 'sk_test_secret', hooks, ...options });
  try {
    await client.initiateCardPayment(input as typeof cardPaymentInput, call);
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
};

describe('card secrets', () => {
  it.each([
    ['400 JSON echoing the card', () => HttpResponse.text(echo, { status: 400 }), 'ApiError'],
    ['500 HTML echoing the card', () => HttpResponse.html(`<p>${echo}</p>`, { status: 500 }), 'ApiError'],
    ['200 of the wrong shape', () => HttpResponse.text(echo, { status: 200 }), 'ApiError'],
    ['200 that is not JSON', () => HttpResponse.text(`not json ${echo}`, { status: 200 }), 'ApiError'],
    ['network error', () => HttpResponse.error(), 'ConnectionError'],
  ])('never leak from a %s', async (_name, resolver, expected) => {
    service.on(PAYMENT, resolver);
    const error = await failWith({});
    expect((error as Error).name).toBe(expected);
    expect(leaks(dumps(error))).toEqual([]);
    expect(logs.length).toBeGreaterThan(0);
  });

  it('never leak from validation errors, a caller abort or a timeout', async () => {
    service.on(PAYMENT, async () => {
      await delay(2_000);
      return HttpResponse.text(echo);
    });
    const invalid = [
      {
        ...cardPaymentInput,
        card_details: { ...cardPaymentInput.card_details, card_number: '9999999999999996' },
      },
      {
        ...cardPaymentInput,
        card_details: { ...cardPaymentInput.card_details, cvc: `0${cvc.slice(1)}`, expiry_year: 1999 },
      },
      {
        ...cardPaymentInput,
        card_details: { ...cardPaymentInput.card_details, card_number: Number('9999999999999995') },
      },
      { ...cardPaymentInput, card_details: { ...cardPaymentInput.card_details, cvc: Number(cvc) * 10 } },
    ];
    const errors = [
      ...(await Promise.all(invalid.map((input) => failWith({}, input)))),
      await failWith({}, cardPaymentInput, { signal: AbortSignal.timeout(20) }),
      await failWith({ timeout: 20 }),
    ];
    expect(errors.map((error) => (error as Error).name)).toEqual([
      'ValidationError',
      'ValidationError',
      'ValidationError',
      'ValidationError',
      'ConnectionError',
      'TimeoutError',
    ]);
    for (const error of errors) expect(leaks(dumps(error))).toEqual([]);
  });

  it('never leak from a reset, a refused connection or a silent server', async () => {
    server = await startServer(resetting);
    const reset = await failWith({ baseUrl: server.url });
    const refused = await failWith({ baseUrl: await refusedUrl() });
    await server.close();
    server = await startServer(silent);
    const timeout = await failWith({ baseUrl: server.url, timeout: 50 });
    expect([reset, refused, timeout].map((error) => (error as Error).name)).toEqual([
      'ConnectionError',
      'ConnectionError',
      'TimeoutError',
    ]);
    for (const error of [reset, refused, timeout]) expect(leaks(dumps(error))).toEqual([]);
  });

  it('never leak through the cause of a ConnectionError a custom fetch threw', async () => {
    // A fetch wrapper's error may carry what it was sending: the request, its headers and body.
    const error = await failWith({
      fetch: async (request) => {
        const body = await request.clone().text();
        const failure = new TypeError(
          `fetch failed sending ${body} with ${request.headers.get('authorization')}`,
          {
            cause: Object.assign(new Error('connect ECONNREFUSED'), {
              code: 'ECONNREFUSED',
              config: { body },
            }),
          },
        );
        throw Object.assign(failure, {
          request,
          options: { headers: Object.fromEntries(request.headers), body },
        });
      },
    });
    expect((error as Error).name).toBe('ConnectionError');
    expect(leaks(dumps(error))).toEqual([]);
    expect(dumps(error)).not.toContain('sk_test_secret');
    // What helps to debug stays: the error's name, its message with the secrets taken out, the code.
    const cause = (error as Error).cause as Error & { cause?: { code?: string } };
    expect(cause).toBeInstanceOf(Error);
    expect(cause.name).toBe('TypeError');
    expect(cause.message).toMatch(/^fetch failed sending /);
    expect(cause.cause?.code).toBe('ECONNREFUSED');
  });

  it('never leak through a code a custom fetch put on its error', async () => {
    // A wrapper may put what it was sending in `code`, the one property copied from a cause as
    // it is besides the message.
    const error = await failWith({
      fetch: async (request) => {
        const body = await request.clone().text();
        throw Object.assign(new TypeError('fetch failed'), {
          code: `${request.headers.get('authorization')} ${body}`,
        });
      },
    });
    expect((error as Error).name).toBe('ConnectionError');
    expect(leaks(dumps(error))).toEqual([]);
    expect(dumps(error)).not.toContain('sk_test_secret');
  });

  it('the scanner itself finds the secrets in an unredacted dump', () => {
    expect(leaks(`${echo}`)).toEqual(['card number', 'cvc']);
  });
});
