// A card number never leaves the sandbox in a refusal or a log line, wherever in the body it came:
// a value, or a key (an object keyed by the card number by mistake).
import { describe, expect, it } from 'vitest';
import { createSandboxApp, type SandboxLogEvent } from '../../src/sandbox/index.js';

const cardNumber = '4242424242424242';

describe('a refusal of a body with a card number as a key', () => {
  it('names the field without the card number, in the answer and in the log', async () => {
    const logs: SandboxLogEvent[] = [];
    const sandbox = createSandboxApp({ callbackDelayMs: 0, log: (event) => logs.push(event) });
    const body = {
      customer_details: {
        payment_method: 'CARD',
        full_name: 'Jane Doe',
        phone_number: '254712345678',
        email: 'jane@example.com',
      },
      card_details: { [cardNumber]: 1, expiry_month: 12, expiry_year: 2030, cvc: 123 },
      callback_details: { transaction_reference: 'ORDER-1', callback_url: 'https://shop.example/hooks' },
    };
    const response = await sandbox.app.fetch(
      new Request('http://sandbox.test/api/payment/payment-initiate-callback/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    const text = await response.text();
    sandbox.close();
    expect(response.status).toBe(400);
    const answer = JSON.parse(text) as { issues: { field: string; code: string }[] };
    expect(answer.issues.map((issue) => issue.code)).toContain('unrecognized_keys');
    expect(answer.issues.map((issue) => issue.field)).toContain('card_details.card_number');
    expect(text).not.toContain(cardNumber);
    expect(JSON.stringify(logs)).not.toContain(cardNumber);
  });
});
