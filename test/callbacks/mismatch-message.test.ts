// A 422 amount_mismatch / currency_mismatch tells the operator which order and which values
// disagreed, so the log line alone says what to look at; an amount holding a card number's run of
// digits (12 in a row, hundreds too) is not shown.
import { describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  signCallbackUrl,
  type CallbackHandlerError,
  type ExpectedPayment,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const secret = 'whsec_0123456789abcdef';
const route = 'https://shop.example/webhooks/payments';

async function refusal(payload: object, reference: string, expected: ExpectedPayment) {
  const errors: CallbackHandlerError[] = [];
  const handler = createCallbackHandler({
    secret,
    expected: () => expected,
    onEvent: () => undefined,
    onError: (error) => void errors.push(error),
  });
  const url = await signCallbackUrl(route, { secret, reference });
  const response = await handler(
    new Request(url, {
      method: 'POST',
      body: JSON.stringify(payload),
      headers: { 'content-type': 'application/json' },
    }),
  );
  return {
    status: response.status,
    body: (await response.json()) as unknown,
    message: errors[0]?.message ?? '',
  };
}

describe('the message of a mismatch with expected', () => {
  it('amount: names the event, the order, the amount received and the one expected', async () => {
    const payout = { ...callbackFixtures['payout.succeeded'], amount: '999' };
    const { status, body, message } = await refusal(payout, payout.reference_id, { amount: '1500' });
    expect([status, body]).toEqual([422, { error: 'amount_mismatch' }]);
    expect(message).toContain('payout.succeeded');
    expect(message).toContain(`"${payout.reference_id}"`);
    expect(message).toMatch(/\b999\b/);
    expect(message).toMatch(/\b1500\b/);
  });

  it('currency: names the currency received and the one expected', async () => {
    const payout = { ...callbackFixtures['payout.succeeded'], currency: 'USD' };
    const { status, message } = await refusal(payout, payout.reference_id, { currency: 'KES' });
    expect(status).toBe(422);
    expect(message).toContain('USD');
    expect(message).toContain('KES');
    expect(message).toContain(`"${payout.reference_id}"`);
  });

  it.each(['4242424242424242', '4242424242424242.00', '1.4242424242424242'])(
    "an amount %s, a card number's run of digits, is not shown (nor cut to a part of it)",
    async (amount) => {
      const payout = { ...callbackFixtures['payout.succeeded'], amount };
      const { status, message } = await refusal(payout, payout.reference_id, { amount: '1500' });
      expect(status).toBe(422);
      expect(message).not.toMatch(/424242/);
      expect(message).toMatch(/\b1500\b/);
    },
  );

  it('an amount of 300 digits is not shown', async () => {
    const payout = { ...callbackFixtures['payout.succeeded'], amount: '9'.repeat(300) };
    const { status, message } = await refusal(payout, payout.reference_id, { amount: '1500' });
    expect(status).toBe(422);
    expect(message.length).toBeLessThan(300);
    expect(message).toMatch(/\b1500\b/);
  });
});

describe('the message of an event already being processed (503 in_progress)', () => {
  it('names the order, so an operator can tell which delivery waits', async () => {
    const errors: CallbackHandlerError[] = [];
    let release: () => void = () => undefined;
    const handler = createCallbackHandler({
      secret,
      onEvent: () => new Promise<void>((resolve) => (release = resolve)),
      onError: (error) => void errors.push(error),
    });
    const payout = callbackFixtures['payout.succeeded'];
    const url = await signCallbackUrl(route, { secret, reference: payout.reference_id });
    const post = () =>
      handler(
        new Request(url, {
          method: 'POST',
          body: JSON.stringify(payout),
          headers: { 'content-type': 'application/json' },
        }),
      );
    const first = post();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await post()).status).toBe(503);
    release();
    expect((await first).status).toBe(200);
    expect(errors[0]?.message).toContain(`"${payout.reference_id}"`);
  });
});
