// trackTransactions against the real sandbox: the callback URL is signed for the reference, the
// transaction is recorded once the service accepted it, and waitFor sees the callback's outcome.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallbackHandler } from '../../src/callbacks/handler.js';
import { toNodeListener } from '../../src/callbacks/node.js';
import { verifyCallbackUrl } from '../../src/callbacks/signing.js';
import { PaymentsClient } from '../../src/client.js';
import { ApiError, ValidationError } from '../../src/errors.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { createTransactionTracker, trackTransactions } from '../../src/transactions/index.js';

const secret = 'whsec_tracked_client_test';
const tracker = createTransactionTracker();
const refusals: string[] = [];
const server = createServer(
  toNodeListener(
    createCallbackHandler({
      secret,
      tracker,
      onEvent: () => undefined,
      onError: (_error, { reason }) => {
        refusals.push(reason);
      },
    }),
  ),
);
let sandbox: Sandbox;
let webhookUrl: string;
let payments: ReturnType<typeof trackTransactions>;

const customer = { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' };

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/payments`;
  sandbox = await startSandbox({ callbackDelayMs: 20 });
  payments = trackTransactions(new PaymentsClient({ baseUrl: sandbox.url }), { tracker, secret });
});
afterAll(async () => {
  await sandbox?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('trackTransactions', () => {
  it('initiates, then awaits the outcome: a mobile-money success and an insufficient-funds failure', async () => {
    await payments.initiateMobileMoneyPayment({
      customer_details: customer,
      amount: { delivery_fee: 0, discount_fee: 0, total: 1500, currency: 'KES' },
      callback_details: { transaction_reference: 'TRK-1', callback_url: webhookUrl },
    });
    await payments.initiateMobileMoneyPayment({
      customer_details: { ...customer, phone_number: '254700000406' },
      amount: { delivery_fee: 0, discount_fee: 0, total: 800, currency: 'KES' },
      callback_details: { transaction_reference: 'TRK-2', callback_url: webhookUrl },
    });
    await expect(tracker.waitFor('TRK-1', { timeout: 10_000 })).resolves.toMatchObject({
      kind: 'mobile_money',
      amount: '1500',
      currency: 'KES',
      state: 'succeeded',
    });
    await expect(tracker.waitFor('TRK-2', { timeout: 10_000 })).resolves.toMatchObject({ state: 'failed' });
    expect(refusals.filter((r) => r !== 'unknown_reference')).toEqual([]);
  });

  it('signs the callback URL it sends with the reference', async () => {
    await payments.initiatePayout({
      customer_details: customer,
      destination: {
        type: 'mobile',
        country_code: 'KE',
        mobile_number: '0712345678',
        wallet_name: 'MOBILE-MONEY',
      },
      transfer: { amount: 1000, currency: 'KES', reference_id: '483920175561', description: 'Refund' },
      webhook_endpoint: { webhook_url: webhookUrl },
    });
    const record = await tracker.waitFor('483920175561', { timeout: 10_000 });
    expect(record).toMatchObject({ kind: 'payout', amount: '1000', state: 'succeeded' });
    const sent = sandbox.deliveries.find((d) => d.url.includes('hp_ref=483920175561'));
    expect(sent).toBeDefined();
    await expect(verifyCallbackUrl(sent!.url, { secret })).resolves.toMatchObject({
      reference: '483920175561',
    });
  });

  it('requires a payout reference_id, and sends nothing without one', async () => {
    const before = sandbox.deliveries.length;
    const error = await payments
      .initiatePayout({
        customer_details: customer,
        destination: {
          type: 'mobile',
          country_code: 'KE',
          mobile_number: '0712345678',
          wallet_name: 'MOBILE-MONEY',
        },
        transfer: { amount: 1000, currency: 'KES', description: 'Refund' },
        webhook_endpoint: { webhook_url: webhookUrl },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toEqual(['transfer', 'reference_id']);
    expect(sandbox.deliveries.length).toBe(before);
  });

  it('records nothing when the initiation fails', async () => {
    const failing = trackTransactions(
      new PaymentsClient({ baseUrl: sandbox.url, fetch: async () => new Response('down', { status: 503 }) }),
      { tracker, secret },
    );
    await expect(
      failing.initiateCardPayment({
        customer_details: customer,
        amount: { delivery_fee: 0, discount_fee: 0, total: 1500, currency: 'KES' },
        card_details: { card_number: '4242 4242 4242 4242', expiry_month: 12, expiry_year: 2099, cvc: '123' },
        callback_details: { transaction_reference: 'TRK-3', callback_url: webhookUrl },
      }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(await tracker.get('TRK-3')).toBeUndefined();
  });
});
