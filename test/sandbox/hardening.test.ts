// Hostile input to the sandbox: bodies built to stall its JSON reader, posts a web page can make
// without CORS (text/plain), and references that try to forge lines in its log.
import { afterEach, describe, expect, it } from 'vitest';
import {
  startSandbox,
  formatSandboxLogEvent,
  type Sandbox,
  type SandboxLogEvent,
} from '../../src/sandbox/index.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const paymentPath = '/api/payment/payment-initiate-callback/';

const mobileMoney = (reference: string) => ({
  customer_details: {
    payment_method: 'MOBILE-MONEY',
    full_name: 'Jane Doe',
    phone_number: '254712345678',
    email: 'jane@example.com',
  },
  amount: { delivery_fee: '100', discount_fee: '50', total: '1500', currency: 'KES' },
  callback_details: { transaction_reference: reference, callback_url: 'http://127.0.0.1:9/hooks' },
});

describe('the sandbox under hostile requests', () => {
  // The reader once rescanned the rest of an unterminated string from every escaped quote: a
  // 160 KiB body blocked the event loop for seconds. A linear reader answers it at once.
  it(
    'answers 400 at once to an unterminated string full of \\" after a long integer',
    { timeout: 5000 },
    async () => {
      sandbox = await startSandbox({ log: false });
      const body = `{"card_number":1234567890123456,"x":"${'\\"'.repeat(80_000)}`;
      const response = await fetch(`${sandbox.url}${paymentPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_json' });
    },
  );

  it('keeps every digit of a long card number while reading', async () => {
    const seen: SandboxLogEvent[] = [];
    sandbox = await startSandbox({ log: (event) => seen.push(event), callbackDelayMs: 60_000 });
    const response = await fetch(`${sandbox.url}${paymentPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: `{"customer_details":{"payment_method":"CARD","full_name":"J","phone_number":"254712345678","email":"j@example.com"},"amount":{"delivery_fee":"100","discount_fee":"50","total":"1500","currency":"KES"},"card_details":{"card_number":9999999999999995,"expiry_month":12,"expiry_year":2099,"cvc":123},"callback_details":{"transaction_reference":"R-\\"1234567890123456\\"","callback_url":"http://127.0.0.1:9/hooks"}}`,
    });
    expect(response.status).toBe(200);
    expect(seen.find((event) => event.kind === 'request')).toMatchObject({
      summary: expect.stringContaining('9995'),
    });
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', ''])(
    'refuses a JSON body sent as %j with 415, creating nothing',
    async (contentType) => {
      sandbox = await startSandbox({ callbackDelayMs: 0, log: false });
      const response = await fetch(`${sandbox.url}${paymentPath}`, {
        method: 'POST',
        headers: contentType ? { 'content-type': contentType } : {},
        body: new TextEncoder().encode(JSON.stringify(mobileMoney('ORDER-1'))),
      });
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({ error: 'unsupported_media_type' });
      await sandbox.waitForIdle();
      expect(sandbox.deliveries).toHaveLength(0);
    },
  );

  it('escapes control characters so a reference cannot forge log lines or colour the terminal', async () => {
    const lines: string[] = [];
    sandbox = await startSandbox({
      log: (event) => lines.push(formatSandboxLogEvent(event)),
      callbackDelayMs: 60_000,
    });
    const forged = 'ORDER-1\n12:00:00.000 ← callback payout.succeeded delivered\u001b[2J\r\u0007';
    const response = await fetch(`${sandbox.url}${paymentPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(mobileMoney(forged)),
    });
    expect(response.status).toBe(200);
    const line = lines.find((text) => text.includes('ORDER-1'));
    expect(line).toBeDefined();
    // eslint-disable-next-line no-control-regex
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(line).toContain('ORDER-1\\n12:00:00.000');
    expect(line).toContain('\\u001b[2J');
  });
});
