// A payout to the test phone 254700000000 is sent and its callback never comes, as for a payment to
// that phone: a merchant can test offline that a payout whose callback was lost stays pending and
// is found by tracker.stale. The money moved (the fee charged, the balance reduced); only the
// callback was lost.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createCallbackHandler } from '../../src/callbacks/handler.js';
import { toNodeListener } from '../../src/callbacks/node.js';
import type { CallbackEvent } from '../../src/callbacks/events.js';
import { PaymentsClient } from '../../src/client.js';
import { sandboxTestValues, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { customer } from './helpers.js';

const secret = 'no-callback-payout-secret-0123456789';
let sandbox: Sandbox | undefined;
let route: Server | undefined;

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  route?.closeAllConnections();
  await new Promise((resolve) => (route ? route.close(resolve) : resolve(undefined)));
  route = undefined;
});

const payout = (url: string, phone: string, reference_id: string) => ({
  customer_details: customer,
  destination: { type: 'mobile', country_code: 'KE', mobile_number: phone, wallet_name: 'MOBILE-MONEY' },
  transfer: { amount: 1000, currency: 'KES', reference_id, description: 'refund' },
  webhook_endpoint: { webhook_url: url },
});

describe(`a payout to the test phone ${sandboxTestValues.phones.noCallback}`, () => {
  it('is initiated, its callback dropped, the wallet charged, and it stays pending for tracker.stale', async () => {
    const tracker = createTransactionTracker();
    const events: CallbackEvent[] = [];
    route = createServer(
      toNodeListener(createCallbackHandler({ secret, tracker, onEvent: (event) => void events.push(event) })),
    );
    await new Promise<void>((resolve) => route!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(route.address() as AddressInfo).port}/webhooks/payouts`;
    sandbox = await startSandbox({ callbackDelayMs: 0, log: false });
    const client = new PaymentsClient({ baseUrl: sandbox.url, transactions: { tracker, secret } });

    const lost = await client.initiatePayout(
      payout(url, sandboxTestValues.phones.noCallback, '310000000101'),
    );
    expect(lost.message).toBe('Mobile Payout Initiated');
    await client.initiatePayout(payout(url, '0712345678', '310000000102'));
    const report = await sandbox.waitForIdle();
    expect(report).toMatchObject({ ok: true, delivered: 1, dropped: 1 });
    expect(sandbox.deliveries.filter((d) => d.state === 'dropped')).toEqual([
      expect.objectContaining({ type: 'payout.succeeded', attempts: [] }),
    ]);
    expect(events.map((event) => event.reference)).toEqual(['310000000102']);
    expect(sandbox.walletBalance).toBe(
      sandboxTestValues.walletBalance - 2 * (1000 + sandboxTestValues.payoutFee),
    );
    expect((await tracker.stale({ olderThan: 0 })).map((record) => record.reference)).toEqual([
      '310000000101',
    ]);
  });
});
