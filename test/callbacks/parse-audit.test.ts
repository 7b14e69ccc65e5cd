// What parseCallback hands a merchant is what the sender wrote: the amount and the reference as
// sent (never re-printed through a number or re-cased), an amount that is not a plain decimal
// refused even when it hides a line break, a capture that differs from the amount beyond what a
// double holds refused, and a JSON number read as written wherever in the body it stands.
import { describe, expect, it } from 'vitest';
import { CallbackParseError, parseCallback, safeParseCallback } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const cardSuccess = callbackFixtures['payment.card.succeeded'];
const mobileMoneySuccess = callbackFixtures['payment.mobile_money.succeeded'];
const mobileMoneyFailure = callbackFixtures['payment.mobile_money.failed'];
const checkoutSuccess = callbackFixtures['checkout.succeeded'];
const checkoutFailure = callbackFixtures['checkout.failed'];

const refusal = (body: unknown): CallbackParseError => {
  const result = safeParseCallback(body);
  if (result.success)
    throw new Error(`expected a refusal, got ${result.event.type} (paid: ${result.event.paid})`);
  return result.error;
};

describe('the event carries the amount as the sender wrote it', () => {
  it('a card payment keeps its trailing fractional zero', () => {
    const event = parseCallback({ ...cardSuccess, amount: '1500.50', 'amount captured': '1500.50' });
    expect(event.amount).toBe('1500.50');
  });

  it('a checkout keeps its trailing fractional zero', () => {
    expect(parseCallback({ ...checkoutSuccess, amount: '2500.50' }).amount).toBe('2500.50');
    expect(parseCallback({ ...checkoutFailure, amount: '2500.50' }).amount).toBe('2500.50');
  });
});

describe('the event carries the reference as the sender wrote it', () => {
  it('a mobile-money failure keeps white space around its transaction_reference', () => {
    const event = parseCallback({ ...mobileMoneyFailure, transaction_reference: ' ORDER-1002 ' });
    expect(event.paid).toBe(false);
    expect(event).toMatchObject({ reference: ' ORDER-1002 ' });
  });

  it('a checkout keeps the case of its order_id', () => {
    expect(parseCallback({ ...checkoutSuccess, order_id: 'ord-1001' })).toMatchObject({
      reference: 'ord-1001',
    });
  });
});

describe('an amount that is not a plain decimal is refused', () => {
  it.each(['1500\n', '1500.00\n', '1500\r\n'])('%j, a number followed by a line break', (amount) => {
    const error = refusal({ ...cardSuccess, amount, 'amount captured': amount });
    expect(error.reason).toBe('invalid_amount');
  });
});

describe('a captured amount must be the amount, to the last digit', () => {
  it('a capture that differs beyond what a double holds is not paid in full', () => {
    const error = refusal({ ...cardSuccess, amount: '1500', 'amount captured': '1500.0000000000000001' });
    expect(error).toBeInstanceOf(CallbackParseError);
    expect(error.reason).toBe('contradictory_outcome');
    expect(error.message).toMatch(/amount captured is not its amount/);
  });

  it('a capture written with trailing zeros is the same amount', () => {
    expect(parseCallback({ ...cardSuccess, amount: '1500', 'amount captured': '1500.000' }).paid).toBe(true);
  });
});

describe('a JSON number in the body text is read as written', () => {
  // A 16-digit string anywhere in the body makes the parser look at how each number was written.
  const longId = '1234567890123456';

  it('1500.50 is the amount 1500.5, not a rounding', () => {
    const body = JSON.stringify({ ...mobileMoneySuccess, id: longId })
      .replace('"amount":1500', '"amount":1500.50')
      .replace('"amount_captured":1500', '"amount_captured":1500.50');
    expect(body).toContain('"amount":1500.50');
    const event = parseCallback(body);
    expect(event.paid).toBe(true);
    expect(event.amount).toBe('1500.5');
  });

  it.each([
    ['an array', '"extra":[1,2],'],
    ['an array of objects', '"extra":[{"a":1},{"b":[2]}],'],
    ['an object holding an array', '"extra":{"list":[1]},'],
  ])('an exponent amount after %s is still refused', (_label, extra) => {
    const body = JSON.stringify(mobileMoneySuccess)
      .replace('{', `{${extra}`)
      .replace('"amount":1500', '"amount":15e2')
      .replace('"amount_captured":1500', '"amount_captured":15e2');
    expect(body).toContain('"amount":15e2');
    const error = refusal(body);
    expect(error.issues.map((issue) => issue.message).join('\n')).toMatch(/exponent/);
  });
});
