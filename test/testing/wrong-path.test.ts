// A client pointed at a path the handlers do not serve (a `/v1` prefix the service does not have)
// gets what the sandbox answers the same mistake with: a 404 naming the endpoint meant, an
// ApiError. Not a network error that says the request may have reached the service (keep the
// order pending), and not a request let through to the real network.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { ApiError } from '../../src/errors.js';
import { createPaymentsHandlers, type PaymentsHandlers } from '../../src/testing/msw/index.js';

const server = setupServer();
let payments: PaymentsHandlers | undefined;
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  payments?.close();
  server.resetHandlers();
});
afterAll(() => server.close());

const input = {
  customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
  amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
  callback_details: { transaction_reference: 'ORDER-1', callback_url: 'https://shop.example/hooks' },
};

describe('a client on a path the handlers do not serve', () => {
  it.each([
    ['a prefix the handlers lack', 'https://payments.example.test', 'https://payments.example.test/v1'],
    [
      'no prefix where the handlers have one',
      'https://payments.example.test/api/v2',
      'https://payments.example.test',
    ],
  ])('%s: an ApiError 404 naming the endpoint, as the sandbox answers', async (_name, served, used) => {
    payments = createPaymentsHandlers({ baseUrl: served });
    server.use(...payments.handlers);
    const error = await new PaymentsClient({ baseUrl: used })
      .initiateMobileMoneyPayment(input)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).body).toContain('payment-initiate-callback');
  });
});
