// With `retry` on and retryOnTimeout left false (the default), a timeout is not retried: the
// service may have received the request and be slow. fetch has timeouts of its own (undici's
// headersTimeout and bodyTimeout: 300 s by default, so any client `timeout` above 300 000 ms, or a
// dispatcher the merchant set with a shorter one); when one fired, the SDK saw a plain network
// error, ky retried it, and the payment was posted three times. It is a TimeoutError, not retried.
// (A payment: a payout is never retried, whatever the options.)
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentsClient, TimeoutError } from '../../src/index.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';
import { listenForThisTest } from '../helpers/servers.js';

const dispatcherKey = Symbol.for('undici.globalDispatcher.1');
const global = globalThis as unknown as Record<
  symbol,
  { constructor: new (o: object) => unknown } | undefined
>;
let saved: unknown;

afterEach(() => {
  if (saved !== undefined) (globalThis as unknown as Record<symbol, unknown>)[dispatcherKey] = saved;
  saved = undefined;
});

/**
 * What `setGlobalDispatcher(new Agent(options))` does, until the test ends. Node creates its
 * global dispatcher on the first fetch: make one before.
 */
const useDispatcher = (options: object): void => {
  saved = global[dispatcherKey];
  const Agent = global[dispatcherKey]!.constructor;
  (globalThis as unknown as Record<symbol, unknown>)[dispatcherKey] = new Agent(options);
};

it('does not resend a payment whose response headers timed out when retryOnTimeout is false', async () => {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1; // the service takes the payment, then answers late
      setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"message":"MOBILE-MONEY Payment Initiated","status":200}');
      }, 1_000);
    });
  });
  const port = await listenForThisTest(server);
  const url = `http://127.0.0.1:${port}`;
  await fetch(`${url}/warm-up`).then((r) => r.text()); // makes Node create its global dispatcher
  received = 0;
  // Or undici's own 300 s default with a client `timeout` above it.
  useDispatcher({ headersTimeout: 300 });

  const client = new PaymentsClient({ baseUrl: url, retry: { limit: 2, backoffLimit: 10 } });
  const error = await client
    .initiateMobileMoneyPayment(mobileMoneyPaymentInput)
    .catch((caught: unknown) => caught);
  expect(received).toBe(1);
  expect(error).toBeInstanceOf(TimeoutError);
  expect((error as TimeoutError).message).toMatch(/may have received the request/);
});

describe("fetch's own body timeout (a dispatcher's bodyTimeout)", () => {
  it('is a TimeoutError saying the service may have received the request, not a ConnectionError', async () => {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"message":');
      });
    });
    const url = `http://127.0.0.1:${await listenForThisTest(server)}`;
    await fetch(`${url}/warm-up`).then((response) => response.body?.cancel());
    useDispatcher({ bodyTimeout: 200 });

    const client = new PaymentsClient({ baseUrl: url });
    const error = await client
      .initiateMobileMoneyPayment(mobileMoneyPaymentInput)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).sent).toBe(true);
    expect((error as Error).message).toMatch(/may have received the request/);
  });
});
