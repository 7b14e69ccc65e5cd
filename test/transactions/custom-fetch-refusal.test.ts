// With the `transactions` option, a 4xx answering the call's only attempt expires the record: the
// service refused it. With the merchant's own `fetch` the SDK cannot know it was the only attempt
// (it already reports `sent: true` for any failure of one, since it may retry by itself): a wrapper
// that retried a 503 after the STK push had started got a 409 "duplicate", the record was expired,
// and waitFor answered 'expired' while the customer paid. With a custom fetch a 4xx leaves the
// record pending, as a 4xx answering a retry does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { ApiError, PaymentsClient } from '../../src/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

// A service may answer a reused reference 409 or 400: either proves nothing about the first attempt.
it.each([409, 400])(
  'leaves the record pending when a retrying custom fetch got a %i after an earlier attempt',
  async (status) => {
    let received = 0;
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received += 1;
        // First attempt: the STK push is started, then the gateway answers 503. Second: duplicate.
        response.writeHead(received === 1 ? 503 : status, { 'content-type': 'application/json' });
        response.end(received === 1 ? '{"error":"busy"}' : '{"error":"duplicate transaction_reference"}');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A common wrapper (fetch-retry, p-retry around fetch): one more try on a 5xx.
    const retryingFetch = async (request: Request): Promise<Response> => {
      const copy = request.clone();
      const response = await fetch(request);
      return response.status >= 500 ? fetch(copy) : response;
    };
    const tracker = createTransactionTracker();
    const client = new PaymentsClient({
      baseUrl,
      fetch: retryingFetch,
      transactions: { tracker, secret: 'a-webhook-secret-of-some-length' },
    });
    const error = await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch((c: unknown) => c);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(status);
    expect(received).toBe(2);
    // The first attempt's STK push is under way: waitFor must not answer 'expired'.
    expect((await tracker.get('order-1002'))?.state).toBe('pending');
  },
);
