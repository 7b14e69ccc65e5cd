// Outcome signals a payload carries that the verdict did not read, each found by a red team as a
// success the spec does not describe:
// - a key written twice (`"paid":"False", … "paid":"True"`): `JSON.parse` keeps the last, so
//   which outcome the sender meant cannot be known;
// - the card `status` and the checkout `response_status`, 200 in every documented callback: any
//   other code is no documented callback;
// - a success whose `message` is a failure's text (`CARD Payment Failed`, `Payout Failed`,
//   `Insufficient funds`).
// None of them may be reported paid; each is refused with a reason naming the field.
import { describe, expect, it } from 'vitest';
import { createCallbackHandler, safeParseCallback } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const fixtures = callbackFixtures;
const cardFailure = fixtures['payment.card.failed'];
const cardSuccess = fixtures['payment.card.succeeded'];
const checkoutSuccess = fixtures['checkout.succeeded'];

/** The JSON text of `payload` with `extra` written after it, a key of it written again. */
const withRepeated = (payload: object, extra: string) => `${JSON.stringify(payload).slice(0, -1)},${extra}}`;

describe('a key written twice', () => {
  it.each([
    [
      'a card failure, then the success keys again',
      withRepeated(
        cardFailure,
        '"payment status":"Payment complete.","paid":"True","message":"CARD Payment Success","amount captured":"1500"',
      ),
    ],
    [
      'a payout failure, then its status as Success',
      withRepeated(fixtures['payout.failed'], '"status":"Success"'),
    ],
    [
      'a mobile-money success with paid written False first',
      `{"paid":"False",${JSON.stringify(fixtures['payment.mobile_money.succeeded']).slice(1)}`,
    ],
    [
      'a key that is not a signal (the amount)',
      withRepeated(cardSuccess, `"amount":${JSON.stringify(cardSuccess.amount)}`),
    ],
    ['a key spelt with an escape the second time', withRepeated(cardSuccess, '"p\\u0061id":"True"')],
  ])('is refused: %s', (_name, body) => {
    const result = safeParseCallback(body);
    expect(result.success).toBe(false);
    expect(result.error?.reason).toBe('invalid_json');
    expect(result.error?.message).toMatch(/repeats a key/);
  });

  it('never shows the values', () => {
    const result = safeParseCallback(withRepeated(cardFailure, '"paid":"True"'));
    expect(result.error?.message).not.toMatch(/True|False/);
  });

  it('is refused at the webhook route before onEvent runs (400, not paid)', async () => {
    const handler = createCallbackHandler({
      verify: false,
      onEvent: () => {
        throw new Error('a repeated key must never reach onEvent');
      },
    });
    const response = await handler(
      new Request('https://shop.example/hooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: withRepeated(
          cardFailure,
          '"payment status":"Payment complete.","paid":"True","amount captured":"1500"',
        ),
      }),
    );
    expect(response.status).toBe(400);
  });

  it.each([
    ['the same key in two nested objects', '{"a":{"x":1},"b":{"x":2}}'],
    ['a key name inside a string value', JSON.stringify({ ...cardSuccess, message: '"paid":"False"' })],
  ])('leaves alone %s', (_name, body) => {
    const result = safeParseCallback(body);
    expect(result.error?.message ?? '').not.toMatch(/repeats a key/);
  });
});

describe('the card status and the checkout response_status', () => {
  it.each([
    ['a card success with status 406', { ...cardSuccess, status: 406 }],
    ['a card success with status "500"', { ...cardSuccess, status: '500' }],
    ['a card failure with status 406', { ...cardFailure, status: 406 }],
    ['a checkout success with response_status 406', { ...checkoutSuccess, response_status: 406 }],
    [
      'the documented card checkout success with response_status 406',
      { ...checkoutSuccess, payment_method: 'CARD', paid: 'False', response_status: 406 },
    ],
    ['a checkout failure with response_status 500', { ...fixtures['checkout.failed'], response_status: 500 }],
  ])('other than 200 is no documented callback: %s', (_name, payload) => {
    const result = safeParseCallback(payload);
    expect(result.success).toBe(false);
    expect(result.error?.reason).toBe('unrecognised_status');
  });

  it.each([
    ['a card success', cardSuccess],
    ['a checkout success', checkoutSuccess],
  ])('200 is read as before: %s', (_name, payload) => {
    expect(safeParseCallback(payload).event?.paid).toBe(true);
  });
});

describe("a success whose message is a failure's", () => {
  it.each([
    ['a card success saying CARD Payment Failed', { ...cardSuccess, message: 'CARD Payment Failed' }],
    ['a payout success saying Payout Failed', { ...fixtures['payout.succeeded'], message: 'Payout Failed' }],
    [
      'a mobile-money success saying Insufficient funds',
      { ...fixtures['payment.mobile_money.succeeded'], message: 'Insufficient funds' },
    ],
    [
      'a checkout success saying Payment Unsuccessful',
      { ...checkoutSuccess, message: 'MOBILE-MONEY Payment Unsuccessful' },
    ],
    [
      'the documented card checkout success saying Insufficient funds',
      { ...checkoutSuccess, payment_method: 'CARD', paid: 'False', message: 'Insufficient funds' },
    ],
    ['a card success saying the card was declined', { ...cardSuccess, message: 'Card declined by issuer' }],
  ])('is refused: %s', (_name, payload) => {
    const result = safeParseCallback(payload);
    expect(result.success).toBe(false);
    expect(result.error?.reason).toBe('contradictory_outcome');
    expect(result.error?.issues).toContainEqual(expect.objectContaining({ path: ['message'] }));
  });

  it.each([
    ['CARD Payment Success', cardSuccess],
    [
      'M-PESA Payment Success',
      { ...fixtures['payment.mobile_money.succeeded'], message: 'M-PESA Payment Success' },
    ],
    [
      'Card Payment Successful',
      { ...checkoutSuccess, payment_method: 'CARD', paid: 'False', message: 'Card Payment Successful' },
    ],
    ['Payout Successful', fixtures['payout.succeeded']],
  ])('a success text is read as before: %s', (_name, payload) => {
    expect(safeParseCallback(payload).event?.paid).toBe(true);
  });

  it('a failure whose message reads as a success is still a failure (never paid)', () => {
    const result = safeParseCallback({ ...cardFailure, message: 'CARD Payment Success' });
    expect(result.event?.paid ?? false).toBe(false);
  });
});
