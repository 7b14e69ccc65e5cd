// `expected` is the merchant's code reading its own records. An amount it returns that is not a
// plain decimal (a Decimal object, a bigint, a padded or grouped string, null from a nullable
// column) is a bug in that code, not a callback for another amount: the answer is 500
// handler_failed, which the sender retries (processed once the code is fixed), never the 422
// amount_mismatch it does not retry, which left a genuine payment unpaid for good.
import { describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  type CallbackHandlerError,
  type ExpectedPayment,
} from '../../src/callbacks/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';

const secret = 'whsec_expected_shape_0123';

async function deliver(expected: unknown) {
  const errors: { error: CallbackHandlerError; status: number; reason: string }[] = [];
  const events: string[] = [];
  const handler = createCallbackHandler({
    secret,
    expected: () => expected as ExpectedPayment,
    onEvent: (event) => {
      events.push(event.type);
    },
    onError: (error, { status, reason }) => {
      errors.push({ error, status, reason });
    },
  });
  // payout.succeeded's fixture: amount 1000, currency KES.
  const response = await handler(await createCallbackRequest('payout.succeeded', { secret }));
  return {
    status: response.status,
    body: (await response.json().catch(() => null)) as unknown,
    errors,
    events,
  };
}

describe('what expected returns', () => {
  it.each([
    ['a Decimal-like object', { amount: { toString: () => '1000' } }, 'object'],
    ['a bigint', { amount: 1000n }, 'bigint'],
    ['a padded string', { amount: ' 1000' }, 'string'],
    ['a grouped string', { amount: '1,000' }, 'string'],
    ['null', { amount: null }, 'null'],
    ['a currency that is not a string', { amount: '1000', currency: 404 }, 'number'],
  ])(
    'with %s is 500 handler_failed, onError naming expected and the type, never the value',
    async (_label, value, type) => {
      const { status, body, errors, events } = await deliver(value);
      expect(status).toBe(500);
      expect(body).toEqual({ error: 'handler_failed' });
      expect(events).toEqual([]);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.error.message).toMatch(/expected returned/);
      expect(errors[0]!.error.message).toContain(type);
      expect(errors[0]!.error.message).not.toMatch(/1,000| 1000/);
    },
  );

  it.each([
    ['a string', { amount: '1000' }],
    ['a number', { amount: 1000 }],
    ['a string with decimals', { amount: '1000.00', currency: 'kes' }],
    ['no amount', { currency: 'KES' }],
    ['undefined (no check)', undefined],
  ])('with %s that agrees is processed (200)', async (_label, value) => {
    const { status, events } = await deliver(value);
    expect(status).toBe(200);
    expect(events).toEqual(['payout.succeeded']);
  });

  it('with another plain amount is still 422 amount_mismatch', async () => {
    const { status, errors } = await deliver({ amount: '999' });
    expect(status).toBe(422);
    expect(errors[0]!.reason).toBe('amount_mismatch');
  });

  // A lookup returning the order row's total, a tuple, or an object keyed after the wire field
  // (`total`) or misspelt was read as "no expectation": a 1000 payment was paid whatever the
  // order cost. Only undefined skips the check; anything else that names neither an amount nor a
  // currency is a bug in the lookup (500, retried once it is fixed).
  it.each([
    ['a bare amount string', '999', 'string'],
    ['a bare amount number', 999, 'number'],
    ['an array', ['999', 'KES'], 'array'],
    ["an object keyed like the wire ('total')", { total: '999', currency_code: 'KES' }, 'total'],
    ["an object with a misspelt key ('Amount')", { Amount: '999' }, 'Amount'],
    ['an empty object', {}, 'neither'],
    ['null (a lookup that found no order)', null, 'null'],
  ])('with %s is 500 handler_failed naming what came back, never paid', async (_label, value, named) => {
    const { status, body, errors, events } = await deliver(value);
    expect(events).toEqual([]);
    expect(status).toBe(500);
    expect(body).toEqual({ error: 'handler_failed' });
    expect(errors[0]!.error.message).toMatch(/expected returned/);
    expect(errors[0]!.error.message).toContain(named);
    expect(errors[0]!.error.message).not.toContain('999');
  });

  it('with the whole order row (amount and currency among other fields) checks them', async () => {
    const row = { id: 7, status: 'pending', amount: '1000', currency: 'KES' };
    expect((await deliver(row)).status).toBe(200);
    const { status, errors } = await deliver({ ...row, amount: '999' });
    expect(status).toBe(422);
    expect(errors[0]!.reason).toBe('amount_mismatch');
  });
});
