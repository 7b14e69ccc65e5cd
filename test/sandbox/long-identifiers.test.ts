// The sandbox reads integers of 16 digits or more as exact digit strings (a card number above 2^53
// keeps every digit), but an order_id or product_id of 16 digits that JSON numbers hold exactly
// (up to 2^53 - 1, as the client's builders allow) is a number to the service: the sandbox must
// accept it as one, not refuse it as "got string".
import { describe, expect, it } from 'vitest';
import { buildCheckoutSessionRequest } from '../../src/requests/checkout-session.js';
import { createSandboxApp } from '../../src/sandbox/index.js';
import { parseJsonKeepingLongIntegers } from '../../src/sandbox/request-body.js';
import { checkoutSessionInput } from '../helpers/inputs.js';

describe('a 16-digit identifier JSON numbers hold exactly', () => {
  it('is read as a number; a card number above 2^53 still as its exact digits', () => {
    expect(
      parseJsonKeepingLongIntegers('{"order_id":1234567890123456,"card_number":9999999999999995}'),
    ).toEqual({
      order_id: 1234567890123456,
      card_number: '9999999999999995',
    });
  });

  it('a checkout session for order 1234567890123456, built by the client, is created', async () => {
    const body = buildCheckoutSessionRequest({
      ...checkoutSessionInput,
      amount: { ...checkoutSessionInput.amount, order_id: 1234567890123456 },
    });
    const sandbox = createSandboxApp({ callbackDelayMs: 0, log: false });
    try {
      const response = await sandbox.app.fetch(
        new Request('http://sandbox.test/checkout.sessions/hosted/redirect/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: true, order_id: '1234567890123456' });
    } finally {
      sandbox.close();
    }
  });
});
