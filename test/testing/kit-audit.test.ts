// The testing kit as a merchant reads its documentation: the fixtures carry the references and
// values their doc comment states, createCallbackRequest posts to the documented default URL and
// signs the documented default reference, and each refusal says what was wrong in the words the
// documentation promises (the field, the expected values, the type to ask for instead).
import { describe, expect, it } from 'vitest';
import type { CallbackEventType } from '../../src/callbacks/events.js';
import { sandboxTestValues } from '../../src/sandbox/index.js';
import { callbackFixtures, createCallbackRequest } from '../../src/testing/index.js';
import { captureRejection } from '../helpers/inputs.js';

const secret = 'kit-audit-secret-0123456789';

const refusal = captureRejection;

describe('callbackFixtures, as documented', () => {
  it.each([
    ['payment.mobile_money.failed', 'transaction_reference', 'ORDER-1002'],
    ['checkout.succeeded', 'order_id', '1001'],
    ['checkout.failed', 'order_id', '1003'],
    ['payout.succeeded', 'reference_id', '123456789012'],
    ['payout.failed', 'reference_id', '123456789013'],
  ] as const)('the %s fixture carries %s %s', (type, field, reference) => {
    expect((callbackFixtures[type] as Record<string, unknown>)[field]).toBe(reference);
  });

  it('are frozen, the set and each payload, so one test cannot change another', () => {
    expect(Object.isFrozen(callbackFixtures)).toBe(true);
    for (const payload of Object.values(callbackFixtures)) expect(Object.isFrozen(payload)).toBe(true);
  });

  it('the payout success is what a fresh sandbox sends: its fee, and the wallet after amount and fee', () => {
    const payout = callbackFixtures['payout.succeeded'];
    expect(Number(payout.payout_fee)).toBe(sandboxTestValues.payoutFee);
    expect(Number(payout.wallet_balance)).toBe(
      sandboxTestValues.walletBalance - Number(payout.amount) - Number(payout.payout_fee),
    );
  });
});

describe('createCallbackRequest defaults', () => {
  it('posts to https://shop.example/webhooks/payments when no url is given', async () => {
    const request = await createCallbackRequest('payout.failed', { secret });
    const url = new URL(request.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://shop.example/webhooks/payments');
  });

  it.each([
    ['payment.card.succeeded', 'ORDER-1001'],
    ['payment.card.failed', 'ORDER-1001'],
    ['payment.mobile_money.succeeded', 'ORDER-1001'],
    ['payment.mobile_money.failed', 'ORDER-1002'],
    ['checkout.succeeded', '1001'],
    ['checkout.failed', '1003'],
    ['payout.succeeded', '123456789012'],
    ['payout.failed', '123456789013'],
  ] as const)('signs %s for the reference %s when none is given', async (type, reference) => {
    const request = await createCallbackRequest(type as CallbackEventType, { secret });
    expect(new URL(request.url).searchParams.get('hp_ref')).toBe(reference);
  });
});

describe('createCallbackRequest refusals say what to change', () => {
  it('says secret is required when options are null', async () => {
    const error = await refusal(() => createCallbackRequest('payout.failed', null as never));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^createCallbackRequest: secret is required/);
  });

  it('names an array given as overrides "an array"', async () => {
    const error = await refusal(() =>
      createCallbackRequest('payout.failed', { secret, overrides: [] as never }),
    );
    expect(error.message).toMatch(/^createCallbackRequest: overrides must be a plain object.*got an array$/);
  });

  it('lists the values a field may take when an override is none of them', async () => {
    const error = await refusal(() =>
      createCallbackRequest('checkout.succeeded', { secret, overrides: { paid: 'Yes' } as never }),
    );
    expect(error.message).toBe('createCallbackRequest: overrides.paid: expected "True" or "False"');
  });

  it('says which type to ask for when overrides turn the payload into another outcome', async () => {
    const error = await refusal(() =>
      createCallbackRequest('checkout.succeeded', {
        secret,
        overrides: { payment_status: 'Payment Incomplete.' },
      }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain('ask for "checkout.failed" instead');
  });

  it('names the overridden field when it changes a text the service fixes', async () => {
    const error = await refusal(() =>
      createCallbackRequest('payment.card.failed', { secret, overrides: { message: 'Declined' } }),
    );
    expect(error.message).toMatch(/^createCallbackRequest: overrides\.message: /);
    expect(error.message).toContain('"CARD Payment Failed"');
  });

  it('keeps a captured amount overridden with the amount: a partial capture is refused, not replaced', async () => {
    const error = await refusal(() =>
      createCallbackRequest('payment.card.succeeded', {
        secret,
        overrides: { amount: '999', 'amount captured': '500' },
      }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain('contradictory_outcome');
  });
});
