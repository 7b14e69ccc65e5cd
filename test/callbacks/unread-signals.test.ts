// A success callback that says otherwise somewhere the verdict did not read: a failure flag under
// another key, a message under another spelling or in look-alike letters, a capture or currency
// under another key, the redirect card success's text negated. Each is refused, never paid.
import { describe, expect, it } from 'vitest';
import { parseCallback, safeParseCallback } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const cardSuccess = callbackFixtures['payment.card.succeeded'];
const mobileMoneySuccess = callbackFixtures['payment.mobile_money.succeeded'];
const checkoutCardSuccess = callbackFixtures['checkout.succeeded'];
const payoutSuccess = callbackFixtures['payout.succeeded'];

const refusal = (payload: object) => {
  const result = safeParseCallback(payload);
  expect(result.event, JSON.stringify(payload)).toBeUndefined();
  return result.error!;
};

describe('a success with a failure flag under a key the verdict does not document', () => {
  it.each([
    ['is_paid', 'False'],
    ['isPaid', false],
    ['success', false],
    ['successful', 'no'],
    ['state', 'failed'],
    ['transaction_status', 'FAILED'],
    ['payout_status', 'Failed'],
    ['result', 'Declined'],
    ['Message', 'Declined'],
    ['refunded', 'True'],
    ['reversed', true],
    ['chargeback', 'True'],
    ['error', 'Insufficient funds'],
    ['failure_reason', 'Stolen card'],
    ['error_code', 51],
  ])('is contradictory: %s %j', (key, value) => {
    for (const payload of [cardSuccess, mobileMoneySuccess, payoutSuccess]) {
      expect(refusal({ ...payload, [key]: value }).reason).toBe('contradictory_outcome');
    }
  });

  it('is contradictory one object down: data.paid False', () => {
    expect(
      refusal({ ...cardSuccess, data: { paid: 'False', 'payment status': 'Payment incomplete.' } }).reason,
    ).toBe('contradictory_outcome');
  });

  it.each([
    ['error', null],
    ['error', ''],
    ['refunded', 'False'],
    ['reversed', false],
    ['failure_reason', null],
    ['success', true],
    ['is_paid', 'True'],
    ['state', 'completed'],
    ['description', 'Refund for order 1001'],
    ['note', 'customer asked for a refund earlier'],
    ['prepaid', false],
    ['failed_url', 'https://shop.example/failed'],
    ['cancel_url', 'https://shop.example/cancelled'],
    ['fraud_score', 12],
    ['statement_descriptor', 'STOP AND SHOP'],
    ['error_count', 0],
  ])('leaves a flag that agrees, or a key that is no outcome, alone: %s %j', (key, value) => {
    for (const payload of [cardSuccess, mobileMoneySuccess, payoutSuccess]) {
      expect(parseCallback({ ...payload, [key]: value }).paid).toBe(true);
    }
  });
});

describe('a success whose key holds a character outside printable ASCII', () => {
  it.each([['paid\u200b'], ['PAİD'], ['ｐａｉｄ'], ['payment\u00a0status'], ['message\u0000']])(
    'is refused: %j could be a signal the verdict cannot read',
    (key) => {
      expect(refusal({ ...cardSuccess, [key]: 'False' }).reason).toBe('invalid_payload');
    },
  );
});

describe('a message or status under another key, in look-alike or invisible characters', () => {
  it.each([
    ['Message', 'F\u0430iled'],
    ['transaction_status', 'Fai\u00adled'],
    ['state', '\uff26\uff21\uff29\uff2c\uff25\uff24'],
  ])('is contradictory, as the message itself is: %s %j', (key, value) => {
    expect(refusal({ ...cardSuccess, [key]: value }).reason).toBe('contradictory_outcome');
    expect(refusal({ ...cardSuccess, data: { [key]: value } }).reason).toBe('contradictory_outcome');
  });
});

describe('a signal key spelt with another separator', () => {
  it.each([['payment.status'], ['payment/status'], ['Payment:Status']])(
    '%s is read as payment status',
    (key) => {
      expect(refusal({ ...cardSuccess, [key]: 'Payment incomplete.' }).reason).toBe('contradictory_outcome');
    },
  );
});

describe('a success whose message reads as a failure once written as words', () => {
  it.each([
    'CARD_PAYMENT_FAILED',
    'PaymentDeclined',
    'insufficient_funds',
    'Payment initiated',
    'Payment processing',
    'Payment awaiting confirmation',
    'Authorization approved',
  ])('is contradictory: %j', (message) => {
    for (const payload of [cardSuccess, mobileMoneySuccess, payoutSuccess]) {
      expect(refusal({ ...payload, message }).reason).toBe('contradictory_outcome');
    }
  });

  it.each([
    'Payment Fai\u200bled',
    'Fai\u00adled',
    'F\u0430iled',
    'DECL\u0130NED',
    '\uff26\uff21\uff29\uff2c\uff25\uff24',
    'Paid\n',
  ])('is contradictory when it holds a character outside printable ASCII: %j', (message) => {
    expect(refusal({ ...cardSuccess, message }).reason).toBe('contradictory_outcome');
  });
});

describe("the redirect card success's text, negated", () => {
  it.each([
    'Paid: False',
    'success=false',
    'Completed: no',
    'Successful? No',
    'Approved',
    'Approved, awaiting capture',
    'Success: 0 captured',
    'Successful attempt 0 of 1',
  ])('is no success text: %j', (message) => {
    expect(refusal({ ...checkoutCardSuccess, message }).reason).toBe('contradictory_outcome');
  });

  it.each([
    'Card Payment Successful',
    'CARD Payment Success',
    'Payment complete',
    'Payment completed successfully',
  ])('still is one: %j', (message) => {
    expect(parseCallback({ ...checkoutCardSuccess, message }).paid).toBe(true);
  });
});

describe('a capture or an amount under another spelling', () => {
  it.each([
    ['Amount Captured', '15'],
    ['amount_captured', '15'],
    ['amountCaptured', '0'],
    ['captured_amount', '15'],
    ['Amount', '15'],
    ['amount_paid', '0'],
  ])('is contradictory when it is not the amount: %s %j', (key, value) => {
    expect(refusal({ ...cardSuccess, [key]: value }).reason).toBe('contradictory_outcome');
    expect(refusal({ ...mobileMoneySuccess, [key]: value }).reason).toBe('contradictory_outcome');
  });

  it('is accepted when it is the amount', () => {
    expect(parseCallback({ ...cardSuccess, amountCaptured: cardSuccess.amount }).paid).toBe(true);
  });
});

describe('a currency under another key', () => {
  it.each([['ccy'], ['currency_iso'], ['settlement_currency']])('%s is read as a currency', (key) => {
    expect(refusal({ ...cardSuccess, [key]: 'USD' }).reason).toBe('invalid_payload');
  });
});

describe('a success refused for a word of its message', () => {
  it('names the word, so a false alarm (a shop called Stop & Shop) can be traced', () => {
    const error = refusal({ ...cardSuccess, message: 'Paid to Stop & Shop Ltd' });
    expect(error.reason).toBe('contradictory_outcome');
    expect(error.message).toContain("a message that reads as a failure ('Stop')");
  });

  it('names no word that holds a digit or runs long: a card number could follow a failure word', () => {
    const digits = refusal({ ...cardSuccess, message: 'fail4242424242424242' });
    expect(digits.message).toContain('reads as a failure');
    expect(digits.message).not.toContain('4242');
    expect(refusal({ ...cardSuccess, message: `fail${'x'.repeat(40)}` }).message).not.toContain('xxxx');
  });

  it('names a joined word as written in the message', () => {
    expect(refusal({ ...cardSuccess, message: 'CARD_PAYMENT_FAILED' }).message).toContain("('FAILED')");
  });
});

describe("the redirect card success's text 'succeeded'", () => {
  it.each(['Card payment succeeded', 'Payment Succeeded'])('is a success text: %j', (message) => {
    expect(parseCallback({ ...checkoutCardSuccess, message }).paid).toBe(true);
  });
});
