// msw handlers created once per file and closed in afterEach (as docs/testing.md said to) answered
// the next test's initiation 200 and dropped its callback ("cancelled after 0 attempts"): a test
// asserting "no callback came, so the cron cancels the order" passed where production would have
// charged the customer (merchant evaluation). Once closed, the handlers — and an app from
// createSandboxApp — answer every request 410 `sandbox_closed`, saying why: nothing is initiated.
// 410, not 503: a client with retry would retry a 503, and a tracker would keep a 5xx pending.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { ApiError } from '../../src/errors.js';
import { createSandboxApp } from '../../src/sandbox/index.js';
import { createPaymentsHandlers } from '../../src/testing/msw/index.js';

const baseUrl = 'https://payments.example.test';
const payments = createPaymentsHandlers({ baseUrl, onCallback: () => undefined });
const server = setupServer(...payments.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const stkPush = (reference: string) => ({
  customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
  amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
  callback_details: { transaction_reference: reference, callback_url: 'https://shop.example/hooks' },
});

describe('msw handlers after close()', () => {
  it('a first test: initiated, its callback delivered', async () => {
    const client = new PaymentsClient({ baseUrl });
    await expect(client.initiateMobileMoneyPayment(stkPush('ORDER-FIRST'))).resolves.toMatchObject({
      status: 200,
    });
    expect((await payments.waitForIdle()).ok).toBe(true);
    payments.close(); // what an afterEach did
  });

  it('a later test: the initiation is refused 410 sandbox_closed, saying close() was called — not 200 with no callback', async () => {
    const client = new PaymentsClient({ baseUrl });
    const error = await client.initiateMobileMoneyPayment(stkPush('ORDER-LATER')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(410);
    expect(JSON.parse((error as ApiError).body)).toMatchObject({
      error: 'sandbox_closed',
      message: expect.stringMatching(/createPaymentsHandlers: close\(\) was called/),
    });
    expect(payments.deliveries.map((delivery) => delivery.reference)).toEqual(['ORDER-FIRST']);
  });
});

it('an app from createSandboxApp answers 410 sandbox_closed once closed', async () => {
  const sandbox = createSandboxApp({ publicUrl: 'http://127.0.0.1:1' });
  sandbox.close();
  const response = await sandbox.app.fetch(
    new Request('http://127.0.0.1:1/api/payout/mobile-money-payout', { method: 'POST', body: '{}' }),
  );
  expect(response.status).toBe(410);
  expect(await response.json()).toMatchObject({
    error: 'sandbox_closed',
    message: expect.stringMatching(/createSandboxApp: close\(\) was called/),
  });
});

it('a tracked payment refused by closed handlers is expired, not left pending (410 is a refusal)', async () => {
  const { createTransactionTracker } = await import('../../src/transactions/index.js');
  const tracker = createTransactionTracker();
  const closed = createPaymentsHandlers({
    baseUrl: 'https://closed.example.test',
    onCallback: () => undefined,
  });
  server.use(...closed.handlers);
  closed.close();
  const client = new PaymentsClient({
    baseUrl: 'https://closed.example.test',
    retry: 2,
    transactions: { tracker, secret: 'whsec_closed_handlers_0123456789' },
  });
  await expect(client.initiateMobileMoneyPayment(stkPush('ORDER-CLOSED'))).rejects.toMatchObject({
    status: 410,
  });
  expect(await tracker.get('ORDER-CLOSED')).toMatchObject({ state: 'expired' });
});
