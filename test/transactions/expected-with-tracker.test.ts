// A merchant who gives both `tracker` and their own `expected` asked for both checks. The handler
// used to take the expectation from the record alone and never call `expected`: a transaction
// recorded without a currency was paid in any currency though the merchant's lookup said KES, and
// an amount their own records disagreed with was paid. Both checks now run (the record's first),
// and the payment is processed only when both agree.
import { describe, expect, it, vi } from 'vitest';
import {
  createCallbackHandler,
  signCallbackUrl,
  type CallbackRejectionReason,
  type ExpectedPayment,
} from '../../src/callbacks/index.js';
import { buildCallbackPayload } from '../../src/sandbox/payloads.js';
import { createTransactionTracker } from '../../src/transactions/index.js';

const secret = 'whsec_expected_with_tracker_0';
const route = 'https://shop.example/webhooks/payments';

async function deliver(expected: ExpectedPayment | undefined, payload: object) {
  const tracker = createTransactionTracker();
  await tracker.begin({ reference: 'ORD-X', kind: 'card', amount: 1500 });
  const lookup = vi.fn(() => expected);
  const paid: string[] = [];
  const reasons: CallbackRejectionReason[] = [];
  const handler = createCallbackHandler({
    secret,
    tracker,
    expected: lookup,
    onEvent: (event) => void paid.push(event.amount),
    onError: (_error, { reason }) => void reasons.push(reason),
  });
  const response = await handler(
    new Request(await signCallbackUrl(route, { secret, reference: 'ORD-X' }), {
      method: 'POST',
      body: JSON.stringify(payload),
      headers: { 'content-type': 'application/json' },
    }),
  );
  return { status: response.status, paid, reasons, lookup, record: await tracker.get('ORD-X') };
}

describe('createCallbackHandler({ tracker, expected })', () => {
  it("refuses a currency the merchant's expected rules out, though the record has none", async () => {
    const payload = buildCallbackPayload('payment.card.succeeded', { amount: 1500, currency: 'USD' });
    const { status, paid, reasons, lookup, record } = await deliver({ currency: 'KES' }, payload);
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(status).toBe(422);
    expect(reasons).toEqual(['currency_mismatch']);
    expect(paid).toEqual([]);
    expect(record?.state).toBe('pending');
  });

  it("refuses an amount the merchant's expected disagrees with, though the record agrees", async () => {
    const payload = buildCallbackPayload('payment.card.succeeded', { amount: 1500, currency: 'KES' });
    const { status, reasons, record } = await deliver({ amount: '999' }, payload);
    expect(status).toBe(422);
    expect(reasons).toEqual(['amount_mismatch']);
    expect(record?.state).toBe('pending');
  });

  it('processes the payment when both agree, and when expected skips (undefined)', async () => {
    const payload = buildCallbackPayload('payment.card.succeeded', { amount: 1500, currency: 'KES' });
    for (const expected of [{ amount: 1500, currency: 'kes' }, undefined]) {
      const { status, paid, record } = await deliver(expected, payload);
      expect(status).toBe(200);
      expect(paid).toEqual(['1500']);
      expect(record?.state).toBe('succeeded');
    }
  });

  it('refuses an amount the record rules out, though expected agrees with it', async () => {
    const payload = buildCallbackPayload('payment.card.succeeded', { amount: 999, currency: 'KES' });
    const { status, reasons } = await deliver({ amount: '999' }, payload);
    expect(status).toBe(422);
    expect(reasons).toEqual(['amount_mismatch']);
  });

  it("checks the record first: when both refuse, onError hears the record's reason", async () => {
    const payload = buildCallbackPayload('payment.card.succeeded', { amount: 999, currency: 'KES' });
    const { status, reasons, lookup } = await deliver({ currency: 'USD' }, payload);
    expect(status).toBe(422);
    expect(reasons).toEqual(['amount_mismatch']);
    expect(lookup).not.toHaveBeenCalled();
  });
});
