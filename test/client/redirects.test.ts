// Redirects over real sockets (no msw in this file): the SDK never follows one. A 3xx is an
// ApiError carrying its status, the service receives the POST once, and nothing — neither the card
// body nor a GET — is sent to the Location, with the global fetch, a merchant's fetch, and retries
// opted in (a retry list naming a 3xx is refused at construction).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, PaymentsClient, ValidationError, type ClientOptions } from '../../src/index.js';
import { bigCardNumber, cardPaymentInput } from '../helpers/inputs.js';
import { startServer, type TestServer } from '../helpers/servers.js';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly body: string;
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server that records every request it receives, body read, before answering it. */
async function recording(answer: (response: ServerResponse) => void) {
  const received: Received[] = [];
  const server = await startServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      });
      answer(response);
    });
  });
  servers.push(server);
  return { url: server.url, received };
}

/** The service, answering every request with `status` and `location`; another origin behind it. */
async function redirecting(status: number, location: (elsewhere: string) => string) {
  const elsewhere = await recording((response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"message":"Card Payment Initiated","status":200}');
  });
  const service = await recording((response) => {
    response.writeHead(status, { location: location(elsewhere.url), 'content-type': 'text/plain' });
    response.end('moved');
  });
  return { service, elsewhere };
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

const fetchVariants: [string, Partial<ClientOptions>][] = [
  ['the global fetch', {}],
  ['a custom fetch wrapping globalThis.fetch', { fetch: (input, init) => globalThis.fetch(input, init) }],
];

describe.each(fetchVariants)('a redirect, with %s', (_name, options) => {
  it.each([307, 308])(
    'is an ApiError for a %i to another origin, which receives nothing: the card is posted once, to the service',
    async (status) => {
      const { service, elsewhere } = await redirecting(status, (other) => `${other}/steal`);
      const client = new PaymentsClient({ baseUrl: service.url, apiKey: 'sk_test_redirect', ...options });
      const error = (await rejection(client.initiateCardPayment(cardPaymentInput))) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(status);
      expect(error.headers.location).toBe(`${elsewhere.url}/steal`);
      expect(error.message).toMatch(/does not follow redirects/);
      expect(elsewhere.received).toEqual([]);
      expect(service.received.map(({ method }) => method)).toEqual(['POST']);
      expect(service.received[0]!.body).toContain(`"card_number":${bigCardNumber}`);
    },
  );

  it.each([301, 302, 303])('is an ApiError for a %i, and no GET is sent anywhere', async (status) => {
    const { service, elsewhere } = await redirecting(status, (other) => `${other}/paid`);
    const client = new PaymentsClient({ baseUrl: service.url, ...options });
    const error = (await rejection(client.initiateCardPayment(cardPaymentInput))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(status);
    expect(elsewhere.received).toEqual([]);
    expect(service.received.map(({ method }) => method)).toEqual(['POST']);
  });

  it('is an ApiError for a 307 to the same origin, which receives the POST once', async () => {
    const { service } = await redirecting(307, () => '/again');
    const client = new PaymentsClient({ baseUrl: service.url, ...options });
    const error = (await rejection(client.initiateCardPayment(cardPaymentInput))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(307);
    expect(service.received.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'POST /api/payment/payment-initiate-callback/',
    ]);
  });

  it.each([301, 302, 303, 307, 308])(
    'is never retried, with retries on (a retry list cannot name %i)',
    async (status) => {
      const { service, elsewhere } = await redirecting(status, (other) => `${other}/steal`);
      expect(
        () =>
          new PaymentsClient({
            baseUrl: service.url,
            retry: { limit: 2, statusCodes: [status] },
            ...options,
          }),
      ).toThrow(ValidationError);
      const client = new PaymentsClient({
        baseUrl: service.url,
        retry: { limit: 2, backoffLimit: 10 },
        ...options,
      });
      const error = (await rejection(client.initiateCardPayment(cardPaymentInput))) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(status);
      expect(service.received).toHaveLength(1);
      expect(elsewhere.received).toEqual([]);
    },
  );
});

describe('a merchant fetch that follows a redirect itself', () => {
  // It rebuilds the request without `redirect: 'manual'`: the card body reaches the other origin,
  // whose 200 of the documented shape must not be reported as the service's.
  const following: ClientOptions['fetch'] = async (request) =>
    globalThis.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: await request.text(),
    });

  it('is an ApiError naming the redirect, never the initiation resolved', async () => {
    const { service, elsewhere } = await redirecting(307, (other) => `${other}/steal`);
    const client = new PaymentsClient({ baseUrl: service.url, fetch: following });
    const error = (await rejection(client.initiateCardPayment(cardPaymentInput))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toMatch(/followed a redirect/);
    expect(error.message).not.toContain(bigCardNumber);
    expect(elsewhere.received).toHaveLength(1);
  });
});
