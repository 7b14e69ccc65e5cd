// The sandbox never shows a callback URL's hp_sig (a bearer token for its order): not in the log,
// not in the delivery report. A route that echoes the URL it was posted to in its refusal, or a
// transport whose error names the URL, must not bring it back in.
import { describe, expect, it } from 'vitest';
import { signCallbackUrl } from '../../src/callbacks/signing.js';
import { PaymentsClient } from '../../src/client.js';
import type { SandboxLogEvent } from '../../src/sandbox/index.js';
import { amount, closedAfterEach, customer } from './helpers.js';

const opened = closedAfterEach();
const SECRET = 'signature-in-answers-secret-0123';

const signatureOf = (url: string): string => new URL(url).searchParams.get('hp_sig')!;

describe('a refusal or a transport error that quotes the callback URL', () => {
  it('a route answering 404 { error: <the URL it got> }: the report and the log show no hp_sig', async () => {
    const route = await opened.route((req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: req.url }));
    });
    const url = await signCallbackUrl(route, { secret: SECRET, reference: 'ORDER-1' });
    const events: SandboxLogEvent[] = [];
    const sandbox = await opened.sandbox({
      callbackDelayMs: 0,
      deliveryRetries: 0,
      log: (e) => events.push(e),
    });
    await new PaymentsClient({ baseUrl: sandbox.url }).initiateMobileMoneyPayment({
      customer_details: customer,
      amount,
      callback_details: { transaction_reference: 'ORDER-1', callback_url: url },
    });
    const report = await sandbox.waitForIdle();
    expect(report.summary).toContain('404');
    expect(report.summary).toContain('hp_sig=[redacted]');
    const shown = `${report.summary}\n${JSON.stringify(report)}\n${JSON.stringify(events)}`;
    expect(shown).not.toContain(signatureOf(url));
    expect(shown).not.toContain(signatureOf(url).slice(0, 12));
  });

  it('a transport whose error names the URL: the report shows no hp_sig', async () => {
    const url = await signCallbackUrl('https://shop.example/webhooks/payments', {
      secret: SECRET,
      reference: 'ORDER-2',
    });
    const sandbox = opened.app({
      callbackDelayMs: 0,
      deliveryRetries: 0,
      log: false,
      transport: (request) => Promise.reject(new Error(`db write failed for ${request.url}`)),
    });
    const response = await sandbox.app.fetch(
      new Request('http://sandbox.test/api/payment/payment-initiate-callback/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          customer_details: { ...customer, payment_method: 'MOBILE-MONEY', phone_number: '254712345678' },
          amount: { delivery_fee: '100', discount_fee: '50', total: '1500', currency: 'KES' },
          callback_details: { transaction_reference: 'ORDER-2', callback_url: url },
        }),
      }),
    );
    expect(response.status).toBe(200);
    const report = await sandbox.waitForIdle();
    expect(report.summary).toContain('db write failed');
    expect(`${report.summary}\n${JSON.stringify(report)}`).not.toContain(signatureOf(url).slice(0, 12));
  });
});
