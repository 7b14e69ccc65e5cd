// Guards of the transport found missing by a hand-made mutation audit of src/http.ts: headers the
// wire cannot carry are refused before anything is sent, and a failure under a totalTimeout is
// reported as what it was (a refused connection is no timeout). Fetch's own body timeout:
// fetch-own-timeouts.test.ts.
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, PaymentsClient, TimeoutError, ValidationError } from '../../src/index.js';
import { caught } from '../helpers/caught.js';
import { cardPaymentInput, mobileMoneyPaymentInput, payoutInput } from '../helpers/inputs.js';
import { listenForThisTest, refusedUrl } from '../helpers/servers.js';

/**
 * A local service that counts the requests reaching it and answers each with `status` and the
 * documented payout reply.
 */
async function countingService(status = 200): Promise<{ url: string; received: () => number }> {
  let received = 0;
  const server = createServer((request, response) => {
    received += 1;
    request.resume();
    request.on('end', () => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end('{"message":"Mobile Payout Initiated","status":200}');
    });
  });
  const port = await listenForThisTest(server);
  return { url: `http://127.0.0.1:${port}`, received: () => received };
}

describe('a header name that is not an HTTP token', () => {
  it('is refused per call as a ValidationError before anything is sent, its value never echoed', async () => {
    const service = await countingService();
    const client = new PaymentsClient({ baseUrl: service.url });
    const error = await caught(() =>
      client.initiatePayout(payoutInput, { headers: { 'x token': 'tok_secret_value' } }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.code)).toEqual(['invalid_header']);
    expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain('tok_secret_value');
    expect(service.received()).toBe(0);
  });

  it('is refused in the client options when the client is built', () => {
    const error = (() => {
      try {
        new PaymentsClient({
          baseUrl: 'https://payments.example.com',
          headers: { 'x(token)': 'tok_secret' },
        });
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).not.toContain('tok_secret');
  });
});

/**
 * A local service answering its first request with `status` and `headers`, every later one with the
 * documented mobile-money reply; `received()` counts the requests.
 */
async function busyOnceService(
  status: number,
  headers: () => Record<string, string>,
): Promise<{ url: string; received: () => number }> {
  let received = 0;
  const server = createServer((request, response) => {
    received += 1;
    request.resume();
    request.on('end', () => {
      if (received === 1) {
        response.writeHead(status, headers());
        response.end('busy');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"message":"MOBILE-MONEY Payment Initiated","status":200}');
    });
  });
  const port = await listenForThisTest(server);
  return { url: `http://127.0.0.1:${port}`, received: () => received };
}

describe('a Retry-After that asks for a wait already over', () => {
  it.each([
    ['an HTTP date', () => ({ 'retry-after': new Date(Date.now() - 60_000).toUTCString() })],
    ['a Unix time in seconds', () => ({ 'retry-after': String(Math.floor(Date.now() / 1000) - 60) })],
  ] as const)(
    'as %s is honoured: the opted-in retry goes out and its answer is returned',
    async (_name, headers) => {
      const service = await busyOnceService(503, headers);
      const client = new PaymentsClient({ baseUrl: service.url, retry: { limit: 1, maxRetryAfter: 1_000 } });
      await expect(client.initiateMobileMoneyPayment(mobileMoneyPaymentInput)).resolves.toEqual({
        message: 'MOBILE-MONEY Payment Initiated',
        status: 200,
      });
      expect(service.received()).toBe(2);
    },
  );
});

describe('a 413 the merchant opted to retry', () => {
  it('is resent once its Retry-After wait, within maxRetryAfter, is over', async () => {
    const service = await busyOnceService(413, () => ({ 'retry-after': '0' }));
    const client = new PaymentsClient({
      baseUrl: service.url,
      retry: { limit: 1, statusCodes: [413], maxRetryAfter: 1_000 },
    });
    await expect(client.initiateMobileMoneyPayment(mobileMoneyPaymentInput)).resolves.toEqual({
      message: 'MOBILE-MONEY Payment Initiated',
      status: 200,
    });
    expect(service.received()).toBe(2);
  });

  it('is not resent when its Retry-After asks for a longer wait than maxRetryAfter', async () => {
    const service = await busyOnceService(413, () => ({ 'retry-after': '3600' }));
    const client = new PaymentsClient({
      baseUrl: service.url,
      retry: { limit: 2, statusCodes: [413], maxRetryAfter: 1_000, backoffLimit: 1 },
    });
    const error = await caught(() => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(413);
    expect(service.received()).toBe(1);
  });
});

describe('the longest Retry-After honoured without maxRetryAfter', () => {
  it('is the timeout: a 503 asking for a longer wait is not resent', async () => {
    const service = await busyOnceService(503, () => ({ 'retry-after': '3600' }));
    const client = new PaymentsClient({
      baseUrl: service.url,
      timeout: 1_000,
      totalTimeout: 3_000,
      retry: { limit: 2, backoffLimit: 1 },
    });
    const error = await caught(() => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect(service.received()).toBe(1);
  });
});

describe('a retried status whose Retry-After is not read (neither 413, 429 nor 503)', () => {
  it('is retried with backoff whatever wait its Retry-After names', async () => {
    const service = await busyOnceService(500, () => ({ 'retry-after': '3600' }));
    const client = new PaymentsClient({
      baseUrl: service.url,
      retry: { limit: 1, statusCodes: [500], maxRetryAfter: 1_000, backoffLimit: 1 },
    });
    await expect(client.initiateMobileMoneyPayment(mobileMoneyPaymentInput)).resolves.toEqual({
      message: 'MOBILE-MONEY Payment Initiated',
      status: 200,
    });
    expect(service.received()).toBe(2);
  });
});

describe("the merchant's own statusCodes", () => {
  it('replace the default ones: a 500 is not resent when only 503 is opted in', async () => {
    const service = await busyOnceService(500, () => ({}));
    const client = new PaymentsClient({
      baseUrl: service.url,
      retry: { limit: 2, statusCodes: [503], backoffLimit: 1 },
    });
    const error = await caught(() => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    expect(service.received()).toBe(1);
  });
});

describe('the default retried statuses (408, 429, 500, 502, 503, 504)', () => {
  it.each([501, 505, 400, 409])('never resend a payment answered %i', async (status) => {
    const service = await countingService(status);
    const client = new PaymentsClient({ baseUrl: service.url, retry: { limit: 2, backoffLimit: 1 } });
    const error = await caught(() => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(status);
    expect(service.received()).toBe(1);
  });
});

describe('the per-attempt timeout', () => {
  it('runs from sending, not from the call: a slow beforeRequest hook does not cut an answer that arrives in time', async () => {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.flushHeaders();
        setTimeout(() => response.end('{"message":"Mobile Payout Initiated","status":200}'), 200);
      });
    });
    const url = `http://127.0.0.1:${await listenForThisTest(server)}`;
    const client = new PaymentsClient({
      baseUrl: url,
      timeout: 1_500,
      hooks: { beforeRequest: () => new Promise<void>((resolve) => setTimeout(resolve, 1_600)) },
    });
    await expect(client.initiatePayout(payoutInput)).resolves.toEqual({
      message: 'Mobile Payout Initiated',
      status: 200,
    });
  });
});

describe('a headers function', () => {
  it("overrides the client's own headers, the apiKey's authorization included", async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((request, response) => {
      seen.push(request.headers.authorization);
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"message":"Mobile Payout Initiated","status":200}');
      });
    });
    const url = `http://127.0.0.1:${await listenForThisTest(server)}`;
    const client = new PaymentsClient({
      baseUrl: url,
      apiKey: 'sk_test_expired_key',
      headers: async () => ({ authorization: 'Bearer sk_test_rotated_key' }),
    });
    await client.initiatePayout(payoutInput);
    expect(seen).toEqual(['Bearer sk_test_rotated_key']);
  });
});

describe('a call with a totalTimeout', () => {
  it('leaves no timer behind once it has its answer: a process need not wait for the deadline to exit', async () => {
    const service = await countingService();
    const client = new PaymentsClient({ baseUrl: service.url, totalTimeout: 600_000 });
    await client.initiatePayout(payoutInput);
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    await client.initiatePayout(payoutInput);
    await client.initiatePayout(payoutInput);
    expect(timers()).toBeLessThanOrEqual(before);
    expect(service.received()).toBe(3);
  });
});

describe('a 2xx with HTML and then JSON in two content-type headers', () => {
  it('is an ApiError naming content-type, never an initiation', async () => {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': ['text/html', 'application/json'] });
        response.end('{"message":"Mobile Payout Initiated","status":200}');
      });
    });
    const url = `http://127.0.0.1:${await listenForThisTest(server)}`;
    const error = await caught(() => new PaymentsClient({ baseUrl: url }).initiatePayout(payoutInput));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).issues.map((issue) => issue.code)).toEqual(['invalid_content_type']);
  });
});

/** A local service answering every request with a 200, the JSON content-type and `body`. */
async function replyingService(body: string): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    });
  });
  return `http://127.0.0.1:${await listenForThisTest(server)}`;
}

describe('a reply of exactly 1 MiB', () => {
  it('is read whole and resolves; one byte more is an ApiError', async () => {
    const documented = '{"message":"Mobile Payout Initiated","status":200,"pad":""}';
    const padded = (length: number) =>
      documented.replace('"pad":""', `"pad":"${'x'.repeat(length - documented.length)}"`);
    const exact = await replyingService(padded(1_048_576));
    await expect(new PaymentsClient({ baseUrl: exact }).initiatePayout(payoutInput)).resolves.toMatchObject({
      message: 'Mobile Payout Initiated',
      status: 200,
    });
    const over = await replyingService(padded(1_048_577));
    const error = await caught(() => new PaymentsClient({ baseUrl: over }).initiatePayout(payoutInput));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).issues.map((issue) => issue.code)).toEqual(['body_too_large']);
  });
});

describe('a reply longer than 1 MiB', () => {
  it('has the rest of its body cancelled, not left streaming, once the first MiB is read', async () => {
    let cancelled = false;
    const fetch = async (): Promise<Response> => {
      const chunk = new TextEncoder().encode(`{"pad":"${'x'.repeat(64 * 1024)}`);
      const body = new ReadableStream<Uint8Array>({
        pull(stream) {
          stream.enqueue(chunk);
        },
        cancel() {
          cancelled = true;
        },
      });
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    };
    const client = new PaymentsClient({ baseUrl: 'https://payments.example.com', fetch });
    const error = await caught(() => client.initiatePayout(payoutInput));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).issues.map((issue) => issue.code)).toEqual(['body_too_large']);
    expect(cancelled).toBe(true);
  });
});

describe('a 2xx reply that echoes the card number across the name and value of an undescribed key', () => {
  it('never returns its digits, though redacting them leaves no valid JSON', async () => {
    const baseUrl = await replyingService(
      '{"message":"Card Payment Initiated","status":200,"9999 9999 9999":"9995"}',
    );
    const reply = await new PaymentsClient({ baseUrl }).initiateCardPayment(cardPaymentInput);
    expect(reply).toMatchObject({ message: 'Card Payment Initiated', status: 200 });
    expect(JSON.stringify(reply)).not.toContain('9999');
  });
});

describe('timeouts at the documented bound', () => {
  it('accepts 2147483647 ms, the longest timer, as timeout and totalTimeout of the client and of a call', async () => {
    const service = await countingService();
    const client = new PaymentsClient({
      baseUrl: service.url,
      timeout: 2_147_483_647,
      totalTimeout: 2_147_483_647,
    });
    await expect(
      client.initiatePayout(payoutInput, { timeout: 2_147_483_647, totalTimeout: 2_147_483_647 }),
    ).resolves.toEqual({ message: 'Mobile Payout Initiated', status: 200 });
    expect(service.received()).toBe(1);
  });
});

describe('a failure of a call with a totalTimeout that has not passed', () => {
  it('is a ConnectionError saying nothing was sent when the connection is refused, not a TimeoutError', async () => {
    const client = new PaymentsClient({ baseUrl: await refusedUrl(), totalTimeout: 60_000 });
    const error = await caught(() => client.initiatePayout(payoutInput));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as ConnectionError).sent).toBe(false);
  });
});
