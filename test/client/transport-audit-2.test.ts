// What a merchant relies on from the client's transport and options: a timeout no timer can hold is
// refused before anything is sent (Node would fire it at once); a 500 is among the statuses an
// opted-in retry resends; a host name that does not resolve is reported as "nothing was sent" and
// retried like a refused connection; per-call headers win over the headers function's; a card
// number a reply echoes under a key named like a built-in object member (constructor, toString) is
// redacted like under any other key; a base URL ending in a bare `?` or `#` (which would send every
// path as a query or fragment) is refused, and so are an API key with a leading space or a
// non-ASCII character (neither would authenticate) and a negative retry limit (a typo, not "no
// retries", is reported); a `fetch` or hook that is not a function, and a tracker without a store
// that can update, are refused when the client is built; the client's paymentMethods.mobileMoney is
// the payment_method a mobile-money payment sends; a non-http(s) baseUrl and an empty
// mobileMoneyBrand are refused.
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, PaymentsClient, ValidationError } from '../../src/index.js';
import { caught } from '../helpers/caught.js';
import { bigCardNumber, cardPaymentInput, mobileMoneyPaymentInput, payoutInput } from '../helpers/inputs.js';
import { listenForThisTest } from '../helpers/servers.js';

const documentedMobileMoneyReply = '{"message":"MOBILE-MONEY Payment Initiated","status":200}';

/**
 * A local service that answers its first `failures` requests with `status` (a text body), every
 * later one with the documented mobile-money reply; `received()` counts the requests.
 */
async function failingService(
  status: number,
  failures = 1,
): Promise<{ url: string; received: () => number }> {
  let received = 0;
  const server = createServer((request, response) => {
    received += 1;
    const count = received;
    request.resume();
    request.on('end', () => {
      if (count <= failures) {
        response.writeHead(status, { 'content-type': 'text/plain' });
        response.end('failing');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(documentedMobileMoneyReply);
    });
  });
  const port = await listenForThisTest(server);
  return { url: `http://127.0.0.1:${port}`, received: () => received };
}

describe('a timeout longer than the longest timer (2147483647 ms)', () => {
  it.each([
    ['timeout', { timeout: 2_147_483_648 }],
    ['totalTimeout', { totalTimeout: 2_147_483_648 }],
  ] as const)('is refused as the client option %s when the client is built', (name, option) => {
    const error = (() => {
      try {
        new PaymentsClient({ baseUrl: 'https://payments.example.com', ...option });
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([[name]]);
  });

  it.each([
    ['timeout', { timeout: 2_147_483_648 }],
    ['totalTimeout', { totalTimeout: 2_147_483_648 }],
  ] as const)('is refused as the per-call option %s, nothing sent', async (_name, option) => {
    const service = await failingService(200, 0);
    const client = new PaymentsClient({ baseUrl: service.url });
    const error = await caught(() => client.initiatePayout(payoutInput, option));
    expect(error).toBeInstanceOf(ValidationError);
    expect(service.received()).toBe(0);
  });
});

describe('the default retried statuses', () => {
  it.each([500, 502, 503, 504, 408, 429])(
    'resend a payment answered %i once retry is opted in, and return the answer of the retry',
    async (status) => {
      const service = await failingService(status);
      const client = new PaymentsClient({ baseUrl: service.url, retry: { limit: 1, backoffLimit: 1 } });
      await expect(client.initiateMobileMoneyPayment(mobileMoneyPaymentInput)).resolves.toEqual({
        message: 'MOBILE-MONEY Payment Initiated',
        status: 200,
      });
      expect(service.received()).toBe(2);
    },
  );

  it('are never used without the retry option: a 500 is an ApiError after one request', async () => {
    const service = await failingService(500);
    const client = new PaymentsClient({ baseUrl: service.url });
    const error = await caught(() => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    expect(service.received()).toBe(1);
  });
});

describe('a base URL whose host name does not resolve', () => {
  it('is a ConnectionError saying nothing was sent, and the opted-in retry tries again', async () => {
    const attempts: number[] = [];
    const client = new PaymentsClient({
      baseUrl: 'http://hosted-payments-audit.invalid',
      retry: { limit: 1, backoffLimit: 1 },
      hooks: { beforeRequest: (event) => void attempts.push(event.attempt) },
    });
    const error = await caught(() => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).sent).toBe(false);
    expect(attempts).toEqual([1, 2]);
  });
});

describe('a per-call signal that is no AbortSignal', () => {
  it('is refused as a ValidationError naming signal, even an object that looks like one, nothing sent', async () => {
    const service = await failingService(200, 0);
    const client = new PaymentsClient({ baseUrl: service.url });
    const lookalike = { aborted: false, reason: undefined, addEventListener: () => undefined };
    const error = await caught(() =>
      client.initiatePayout(payoutInput, { signal: lookalike as unknown as AbortSignal }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['signal']]);
    expect(service.received()).toBe(0);
  });
});

describe('headers of a call', () => {
  it("win over what the client's headers function returns for the same name", async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((request, response) => {
      seen.push(request.headers['x-request-id'] as string | undefined);
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(documentedMobileMoneyReply);
      });
    });
    const client = new PaymentsClient({
      baseUrl: `http://127.0.0.1:${await listenForThisTest(server)}`,
      headers: async () => ({ 'X-Request-Id': 'from-the-function', 'x-tenant': 'shop-1' }),
    });
    await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput, {
      headers: { 'x-request-id': 'from-the-call' },
    });
    expect(seen).toEqual(['from-the-call']);
  });
});

describe('a 2xx card-payment reply that echoes the card number under an undescribed key', () => {
  it.each(['constructor', 'toString', 'hasOwnProperty'])(
    'never returns its digits when the key is named %s',
    async (key) => {
      const server = createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({ message: 'Card Payment Initiated', status: 200, [key]: bigCardNumber }),
          );
        });
      });
      const client = new PaymentsClient({
        baseUrl: `http://127.0.0.1:${await listenForThisTest(server)}`,
        cardFieldEncoding: 'string',
      });
      const reply = await client.initiateCardPayment(cardPaymentInput);
      expect(reply).toMatchObject({ message: 'Card Payment Initiated', status: 200 });
      expect(JSON.stringify(reply)).not.toContain(bigCardNumber);
    },
  );
});

describe('a baseUrl with an empty query string or fragment', () => {
  it.each(['https://payments.example.com/api?', 'https://payments.example.com/api#'])(
    'is refused when the client is built: %s',
    (baseUrl) => {
      const error = (() => {
        try {
          new PaymentsClient({ baseUrl });
        } catch (thrown) {
          return thrown;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['baseUrl']]);
    },
  );
});

describe('an apiKey that is not printable ASCII without surrounding spaces', () => {
  it.each([
    ['a leading space', ' sk_test_leading_space'],
    ['a Latin-1 letter inside', 'sk_test_caf\u00e9_inside'],
  ])('is refused when the client is built (%s), without echoing the key', (_name, apiKey) => {
    const error = (() => {
      try {
        new PaymentsClient({ baseUrl: 'https://payments.example.com', apiKey });
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['apiKey']]);
    expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain(apiKey.trim());
  });
});

describe('a negative retry limit', () => {
  it.each([
    ['a number', -1],
    ['an object', { limit: -1 }],
  ] as const)('is refused as %s when the client is built', (_name, retry) => {
    const error = (() => {
      try {
        new PaymentsClient({ baseUrl: 'https://payments.example.com', retry });
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path[0])).toEqual(['retry']);
  });
});

describe('client options that must be functions or a whole tracker', () => {
  const noop = (): void => undefined;
  it.each([
    ['fetch', { fetch: 'https://proxy.example' }, ['fetch']],
    ['hooks.beforeRequest', { hooks: { beforeRequest: 'log' } }, ['hooks', 'beforeRequest']],
    [
      'transactions.tracker without store.update',
      {
        transactions: {
          tracker: { begin: noop, expire: noop, get: noop, store: {} },
          secret: 'a-webhook-secret-of-some-length',
        },
      },
      ['transactions', 'tracker'],
    ],
  ] as const)('refuses %s of the wrong kind', (_name, options, path) => {
    const error = (() => {
      try {
        new PaymentsClient({
          baseUrl: 'https://payments.example.com',
          ...(options as unknown as Partial<ConstructorParameters<typeof PaymentsClient>[0]>),
        });
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([path]);
  });
});

describe("the client's paymentMethods.mobileMoney", () => {
  it('is the payment_method sent when the input has none, over mobileMoneyBrand', async () => {
    const sent: unknown[] = [];
    const server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        sent.push(
          (JSON.parse(text) as { customer_details: { payment_method: unknown } }).customer_details
            .payment_method,
        );
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"message":"AIRTEL Payment Initiated","status":200}');
      });
    });
    const client = new PaymentsClient({
      baseUrl: `http://127.0.0.1:${await listenForThisTest(server)}`,
      mobileMoneyBrand: 'M-PESA',
      paymentMethods: { mobileMoney: 'AIRTEL' },
    });
    await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput);
    expect(sent).toEqual(['AIRTEL']);
  });
});

describe('client options refused when the client is built', () => {
  it.each([
    ['an ftp baseUrl', { baseUrl: 'ftp://payments.example.com' }, ['baseUrl']],
    ['an empty mobileMoneyBrand', { mobileMoneyBrand: '' }, ['mobileMoneyBrand']],
  ] as const)('%s', (_name, options, path) => {
    const error = (() => {
      try {
        new PaymentsClient({ baseUrl: 'https://payments.example.com', ...options });
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([path]);
  });
});
