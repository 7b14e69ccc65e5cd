// Connection failures against real sockets (no msw in this file).
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, PaymentsClient, TimeoutError } from '../../src/index.js';
import { mobileMoneyPaymentInput, payoutInput } from '../helpers/inputs.js';
import { refusedUrl, resetting, silent, stalling, startServer, type TestServer } from '../helpers/servers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

// The tests of the opted-in retry use a payment: a payout is never retried.
describe('PaymentsClient over real sockets', () => {
  it('turns a refused connection into a ConnectionError whose cause is the network error', async () => {
    const baseUrl = await refusedUrl();
    const client = new PaymentsClient({ baseUrl });
    const error = (await rejection(client.initiatePayout(payoutInput))) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    // the root code and address, not the platform's "fetch failed"
    expect(error.message).toContain(`(ECONNREFUSED ${new URL(baseUrl).host})`);
    expect(error.message).not.toMatch(/fetch failed/);
    expect(error.aborted).toBe(false);
    expect((error.cause as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
  });

  // fetch refuses the ports browsers block (6000, 5060, 10080, …) before connecting, saying only
  // "bad port": a merchant pointing baseUrl at a local mock on one read "(network error)".
  it('names a port fetch refuses to connect to, and why', async () => {
    const client = new PaymentsClient({ baseUrl: 'http://127.0.0.1:6000' });
    const error = (await rejection(client.initiatePayout(payoutInput))) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toContain('(fetch refuses port 6000, a port browsers block)');
  });

  it('turns a reset connection into a ConnectionError', async () => {
    server = await startServer(resetting);
    const client = new PaymentsClient({ baseUrl: server.url });
    const error = (await rejection(client.initiatePayout(payoutInput))) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/may have received the request/);
    expect(error.message).toContain(` ${new URL(server.url).host})`);
  });

  it('turns a server that never answers into a TimeoutError', async () => {
    server = await startServer(silent);
    const client = new PaymentsClient({ baseUrl: server.url, timeout: 100 });
    const error = (await rejection(client.initiatePayout(payoutInput))) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.timeout).toBe(100);
  });

  it('times out a body that stalls after the headers', async () => {
    server = await startServer(stalling);
    const client = new PaymentsClient({ baseUrl: server.url, timeout: 150 });
    const error = (await rejection(client.initiatePayout(payoutInput))) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.timeout).toBe(150);
  });

  it('cuts a body that trickles in forever at the timeout or totalTimeout, and frees the socket', async () => {
    let open = 0;
    server = await startServer((request, response) => {
      open += 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"message":"');
      const drip = setInterval(() => response.write('x'), 20);
      request.socket.on('close', () => {
        clearInterval(drip);
        open -= 1;
      });
    });
    const variants = [
      { timeout: 300 },
      { timeout: 300, retry: { limit: 2 } },
      { timeout: 10_000, totalTimeout: 300 },
    ];
    for (const options of variants) {
      const client = new PaymentsClient({ baseUrl: server.url, ...options });
      const error = (await rejection(
        client.initiateMobileMoneyPayment(mobileMoneyPaymentInput),
      )) as TimeoutError;
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.timeout).toBe(300);
    }
    await expect.poll(() => open, { timeout: 2_000 }).toBe(0);
  });

  it('ends a whole call with retries at totalTimeout, waits and body included', async () => {
    let attempts = 0;
    server = await startServer((_request, response) => {
      attempts += 1;
      response.writeHead(503, { 'retry-after': '5' });
      response.end('busy');
    });
    const client = new PaymentsClient({
      baseUrl: server.url,
      retry: { limit: 3, maxRetryAfter: 5_000 },
      totalTimeout: 400,
    });
    const started = Date.now();
    const error = (await rejection(
      client.initiateMobileMoneyPayment(mobileMoneyPaymentInput),
    )) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.timeout).toBe(400);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(attempts).toBe(1);
  });

  it('ends the retries when Retry-After asks for a longer wait than maxRetryAfter', async () => {
    let attempts = 0;
    server = await startServer((_request, response) => {
      attempts += 1;
      response.writeHead(503, { 'retry-after': '5' });
      response.end('busy');
    });
    const client = new PaymentsClient({ baseUrl: server.url, retry: { limit: 2, maxRetryAfter: 1_000 } });
    const started = Date.now();
    const error = (await rejection(client.initiateMobileMoneyPayment(mobileMoneyPaymentInput))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(503);
    expect(attempts).toBe(1);
    expect(Date.now() - started).toBeLessThan(900);
  });

  // ky reads the wait from these headers, in this order, and shortens it to maxRetryAfter: the
  // retry would go out sooner than the service asked.
  it.each([
    ['Retry-After in exponent form', { 'retry-after': '1e3' }],
    [
      'Retry-After as a Unix timestamp an hour ahead',
      () => ({ 'retry-after': String(Math.floor(Date.now() / 1000) + 3600) }),
    ],
    ['RateLimit-Reset without Retry-After', { 'ratelimit-reset': '3600' }],
    ['X-RateLimit-Reset without Retry-After', { 'x-ratelimit-reset': '3600' }],
    ['a Retry-After that is not a wait', { 'retry-after': 'soon' }],
    // What Number() or Date.parse() would read as a wait already over: the POST would go out again
    // at once, however long the service asked for.
    ...['-1', '-5', '1,1', '1 1', '3-4', 'x 5', 'Jan 1', 'Tuesday 1', '0x10', '+5', ' 5'].map(
      (value) => [`an unreadable Retry-After (${JSON.stringify(value)})`, { 'retry-after': value }] as const,
    ),
    ['an HTTP date in the obsolete RFC 850 form', { 'retry-after': 'Sunday, 06-Nov-94 08:49:37 GMT' }],
    ['an unreadable RateLimit-Reset', { 'ratelimit-reset': '-30' }],
  ] as const)('ends the retries on %s longer than maxRetryAfter (or unreadable)', async (_name, headers) => {
    let attempts = 0;
    server = await startServer((_request, response) => {
      attempts += 1;
      response.writeHead(429, typeof headers === 'function' ? headers() : headers);
      response.end('slow down');
    });
    const client = new PaymentsClient({ baseUrl: server.url, retry: { limit: 2, maxRetryAfter: 200 } });
    const error = (await rejection(client.initiateMobileMoneyPayment(mobileMoneyPaymentInput))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(429);
    expect(attempts).toBe(1);
  });

  it('answers a real server end to end', async () => {
    server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"message":"Mobile Payout Initiated","status":200}');
    });
    const client = new PaymentsClient({ baseUrl: `${server.url}/prefix/` });
    await expect(client.initiatePayout(payoutInput)).resolves.toEqual({
      message: 'Mobile Payout Initiated',
      status: 200,
    });
  });

  it('sends the whole body and the same headers on every attempt: after a 503, and after a timed-out attempt', async () => {
    const attempts: { body: string; length: string | undefined; authorization: string | undefined }[] = [];
    server = await startServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        attempts.push({
          body: Buffer.concat(chunks).toString('utf8'),
          length: request.headers['content-length'],
          authorization: request.headers.authorization,
        });
        if (attempts.length === 1) {
          response.writeHead(503).end();
        } else if (attempts.length === 2) {
          // never answered: the attempt times out and the next one sends again
        } else {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end('{"message":"MOBILE-MONEY Payment Initiated","status":200}');
        }
      });
    });
    const client = new PaymentsClient({
      baseUrl: server.url,
      apiKey: 'sk_test_attempts',
      timeout: 300,
      retry: { limit: 2, backoffLimit: 10, retryOnTimeout: true },
    });
    await expect(client.initiateMobileMoneyPayment(mobileMoneyPaymentInput)).resolves.toEqual({
      message: 'MOBILE-MONEY Payment Initiated',
      status: 200,
    });
    expect(attempts).toHaveLength(3);
    const [first] = attempts;
    expect(JSON.parse(first!.body)).toMatchObject({ amount: { total: expect.anything() } });
    expect(first!.length).toBe(String(Buffer.byteLength(first!.body)));
    expect(first!.authorization).toBe('Bearer sk_test_attempts');
    expect(attempts.slice(1)).toEqual([first, first]);
  });
});
