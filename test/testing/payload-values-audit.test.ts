// Callback payload amounts the service writes as strings (card, checkout, payout) carry any whole
// number exactly, even one above Number.MAX_SAFE_INTEGER: only the mobile-money payment payloads,
// whose amount is a JSON number, are bounded by it.
import { describe, expect, it } from 'vitest';
import { caught } from '../helpers/caught.js';
import { buildCallbackPayload } from '../../src/testing/index.js';

const big = '90071992547409930';

describe('string-carried amounts above Number.MAX_SAFE_INTEGER', () => {
  it.each(['payment.card.succeeded', 'payment.card.failed', 'payout.succeeded'] as const)(
    'builds %s with the amount written exactly',
    (type) => {
      const payload: Record<string, unknown> = buildCallbackPayload(type, { amount: big });
      expect(payload.amount).toBe(big);
    },
  );

  it('still refuses the same amount for a mobile-money payment', () => {
    expect(() => buildCallbackPayload('payment.mobile_money.failed', { amount: big })).toThrow(
      /^buildCallbackPayload: amount: /,
    );
  });
});

describe('a checkout order_id the service takes as a JSON integer', () => {
  it('builds checkout.succeeded with the largest exact order_id', () => {
    const payload: Record<string, unknown> = buildCallbackPayload('checkout.succeeded', {
      reference: String(Number.MAX_SAFE_INTEGER),
    });
    expect(payload.order_id).toBe(String(Number.MAX_SAFE_INTEGER));
  });

  it('refuses an order_id above Number.MAX_SAFE_INTEGER, naming reference and order_id', () => {
    expect(() => buildCallbackPayload('checkout.failed', { reference: big })).toThrow(
      /^buildCallbackPayload: reference: expected the checkout's order_id/,
    );
  });
});

describe('a transaction_reference JSON cannot carry faithfully', () => {
  it('refuses a reference holding a lone surrogate, naming transaction_reference', () => {
    expect(() => buildCallbackPayload('payment.mobile_money.failed', { reference: 'ORDER-\uD800' })).toThrow(
      /^buildCallbackPayload: reference: expected transaction_reference as a non-empty string/,
    );
  });
});

describe('an unknown event type', () => {
  it('is named in the refusal, cut to its first 40 characters', async () => {
    const type = `payment.${'x'.repeat(100)}`;
    const error = (await caught(() => buildCallbackPayload(type as never))) as Error;
    expect(error.message).toContain(`unknown event type ${JSON.stringify(type.slice(0, 40))};`);
    expect(error.message).not.toContain(type.slice(0, 41));
  });
});
