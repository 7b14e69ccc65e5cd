// What a differential fuzz of the verdict against an oracle written from the API reference found
// paid: a redirect card success whose text is no success text, a signal under a key named like an
// Object.prototype member, flags and codes under undocumented keys, other amount keys, success
// messages that say otherwise, two spellings of one key that disagree. Each is refused, never paid;
// the documented payloads and the harmless variations beside them are still paid.
import { describe, expect, it } from 'vitest';
import { parseCallback, safeParseCallback } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const cardSuccess = callbackFixtures['payment.card.succeeded'];
const mobileMoneySuccess = callbackFixtures['payment.mobile_money.succeeded'];
const checkoutCardSuccess = callbackFixtures['checkout.succeeded'];
const payoutSuccess = callbackFixtures['payout.succeeded'];
const checkoutMobileMoneySuccess = {
  ...checkoutCardSuccess,
  payment_method: 'MOBILE-MONEY',
  paid: 'True',
  message: 'MOBILE-MONEY Payment Successful',
};
const successes = [cardSuccess, mobileMoneySuccess, checkoutMobileMoneySuccess, payoutSuccess];

const refusal = (payload: object) => {
  const result = safeParseCallback(payload);
  expect(result.event, JSON.stringify(payload)).toBeUndefined();
  return result.error!;
};

describe("the redirect card success's text (paid 'False' overruled)", () => {
  it.each([
    "Isn't paid",
    "Wasn't successful",
    "Can't complete",
    'Couldnt complete',
    "Payment Successn't",
    'Un-successful',
    'In-complete',
    'Un-paid',
    'Partially paid',
    'Paid late',
    'Success: N',
    'Success: null',
    'Successful: nope',
    'Payment successful (reverted)',
    'Paid then returned',
    'Complete - customer abandoned',
    'Success (test mode)',
    'Test success',
    'Paid back to card',
    'Payment completed, funds returned',
    'Card Payment Successful. Lacks funds',
    'Success - retry later',
  ])('is refused when it says anything but success: %j', (message) => {
    expect(refusal({ ...checkoutCardSuccess, message }).reason).toBe('contradictory_outcome');
  });

  it.each([
    'Card Payment Successful',
    'CARD Payment Success',
    'Card payment successful.',
    'Payment complete',
    'Payment completed successfully',
    'Payment was successful',
    'Card payment succeeded',
    'CARD_PAYMENT_SUCCESSFUL',
  ])('is paid when it says success in the words of one: %j', (message) => {
    expect(parseCallback({ ...checkoutCardSuccess, message }).paid).toBe(true);
  });
});

describe('a key named like an Object.prototype member', () => {
  it.each([['constructor'], ['toString'], ['valueOf'], ['hasOwnProperty'], ['__defineGetter__']])(
    '%s holding a failure is read like any other key',
    (key) => {
      for (const payload of successes) {
        expect(refusal({ ...payload, [key]: { paid: 'False' } }).reason).toBe('contradictory_outcome');
        expect(refusal({ ...payload, [key]: { status: 'failed' } }).reason).toBe('contradictory_outcome');
      }
    },
  );

  it('__proto__ as written in the JSON text is read too', () => {
    const body = JSON.stringify(cardSuccess).replace(/^\{/, '{"__proto__":{"paid":"False"},');
    expect(safeParseCallback(body).event).toBeUndefined();
  });
});

describe('a success with an outcome under an undocumented key', () => {
  it.each([
    ['success', 'failed'],
    ['success', null],
    ['success', []],
    ['is_successful', 'nope'],
    ['paid_status', 'False'],
    ['was_paid', false],
    ['captured', false],
    ['completed', 'no'],
    ['unpaid', true],
    ['not_paid', true],
    ['is_unpaid', 'True'],
    ['payment_failed', true],
    ['has_failed', true],
    ['decline_code', 'insufficient_funds'],
    ['voided', true],
    ['pending', true],
    ['refund_status', 'completed'],
    ['amount_refunded', '1500'],
    ['status_code', 406],
    ['http_status', 500],
    ['ResultCode', 1032],
    ['ResultDesc', 'Request cancelled by user'],
    ['ResponseCode', '1'],
    ['response_code', 1032],
    ['ResponseDescription', 'Insufficient funds'],
    ['return_code', '05'],
    ['transaction_status', 'No'],
  ])('is contradictory: %s %j', (key, value) => {
    for (const payload of successes) {
      expect(refusal({ ...payload, [key]: value }).reason).toBe('contradictory_outcome');
    }
  });

  it.each([
    ['success', 'true'],
    ['is_successful', 'Yes'],
    ['completed', 1],
    ['captured', true],
    ['unpaid', false],
    ['pending', 'False'],
    ['refund_status', 'none'],
    ['amount_refunded', '0'],
    ['refunds', []],
    ['status_code', 200],
    ['http_status', '201'],
    ['ResultCode', 0],
    ['ResultDesc', 'The service request is processed successfully.'],
    ['ResponseCode', '0'],
    ['response_code', '00'],
    ['ResponseDescription', 'Success'],
    ['response', { id: 'r-1' }],
    ['description', 'Refund policy: 30 days'],
    ['settled', false],
    ['items', [{ name: 'Mug', quantity: 2 }]],
  ])('leaves a value that agrees, or a key that is no outcome, alone: %s %j', (key, value) => {
    for (const payload of successes) {
      expect(parseCallback({ ...payload, [key]: value }).paid).toBe(true);
    }
  });
});

describe('an amount of the payment under another key', () => {
  it.each([
    ['amount_received', '1'],
    ['received_amount', '1'],
    ['amount_collected', '1'],
    ['amount_charged', '1'],
    ['capture_amount', '1'],
    ['amount_capture', '1'],
    ['captured', '1'],
    ['total', '1'],
    ['total_amount', '1'],
  ])('is contradictory when it is not the amount: %s %j', (key, value) => {
    for (const payload of [cardSuccess, mobileMoneySuccess, checkoutMobileMoneySuccess]) {
      expect(refusal({ ...payload, [key]: value }).reason).toBe('contradictory_outcome');
    }
  });

  it('is paid when it is the amount', () => {
    for (const payload of [cardSuccess, mobileMoneySuccess, checkoutMobileMoneySuccess]) {
      expect(parseCallback({ ...payload, total: payload.amount, amount_received: payload.amount }).paid).toBe(
        true,
      );
    }
  });

  it("leaves a payout's total alone: a payout's total may hold its fee", () => {
    expect(parseCallback({ ...payoutSuccess, total_amount: '999999' }).paid).toBe(true);
  });

  it.each([['net_amount'], ['settled_amount'], ['amount_authorized']])(
    '%s is left alone: it may differ from what was paid (fees, another currency, an authorisation)',
    (key) => {
      expect(parseCallback({ ...cardSuccess, [key]: '1' }).paid).toBe(true);
    },
  );
});

describe('a success message that says otherwise', () => {
  it.each([
    'Paid: False',
    'Successful? No',
    'Unpaid',
    "Payment didn't go through",
    'Payment did not go through',
    'Wrong PIN',
    'Insufficent funds',
    'PAYMENTFAILED',
    'Charge back',
    'Malipo yameshindwa',
    'Low balance',
    'No funds',
    'Time-out',
    'Payment Unconfirmed',
    'Payment unverified',
    'UNSETTLED',
    'Payment Success (unsent)',
    'Payout undelivered',
    'Payment Unprocessed',
    'Uncaptured payment',
  ])('is contradictory: %j', (message) => {
    for (const payload of successes) {
      expect(refusal({ ...payload, message }).reason).toBe('contradictory_outcome');
    }
  });

  it.each(['CARD Payment Success', 'M-PESA Payment Success', 'Payout Successful', 'Payment received'])(
    'is paid when it reads as no failure: %j',
    (message) => {
      for (const payload of successes) expect(parseCallback({ ...payload, message }).paid).toBe(true);
    },
  );
});

describe('two spellings of one key that disagree', () => {
  it("a card success's payment_method saying MOBILE-MONEY beside its payment method CARD is refused", () => {
    expect(refusal({ ...cardSuccess, payment_method: 'MOBILE-MONEY' }).reason).toBe('invalid_payload');
  });

  it('two spellings that agree are paid', () => {
    expect(
      parseCallback({
        ...cardSuccess,
        payment_method: 'CARD',
        'Transaction ID': cardSuccess['transaction id'],
      }).paid,
    ).toBe(true);
  });
});

describe('the second run of the fuzz: outcomes still unread', () => {
  it.each([
    ['status_text', 'Failed'],
    ['error_description', 'Insufficient funds'],
    ['failure_msg', 'Insufficient funds'],
    ['paid_flag', 'False'],
    ['payment_paid', 'False'],
    ['reason_code', 'DECLINED'],
    ['on_hold', true],
    ['approved', false],
    ['err', 'insufficient funds'],
    ['did_fail', true],
  ])('is contradictory: %s %j', (key, value) => {
    for (const payload of successes) {
      expect(refusal({ ...payload, [key]: value }).reason).toBe('contradictory_outcome');
    }
  });

  it.each([
    'Payment unsucessful',
    'In-complete',
    'Uncompleted',
    'Partially paid',
    'Underpaid',
    'Abandoned',
    'Limit exceeded',
    'Balance too low',
    'Restricted card',
    'Requires action',
    'Under review',
  ])('a success message %j is contradictory', (message) => {
    for (const payload of successes) {
      expect(refusal({ ...payload, message }).reason).toBe('contradictory_outcome');
    }
  });
});

describe('the second run of the fuzz: successes and failures refused that say nothing otherwise', () => {
  it.each([
    ['currency_symbol', 'KSh'],
    ['currency_name', 'Kenyan shilling'],
    ['currency_decimals', 2],
    ['settlement_status', 'pending'],
    ['delivery_status', 'pending'],
    ['metadata', { delivery_status: 'pending' }],
    ['items', [{ name: 'Mug', status: 'pending' }]],
    ['attempts', [{ status: 'failed' }, { status: 'success' }]],
    ['amount_refunded', '0.00'],
    ['refund_status', 'N/A'],
    ['error_code', '00'],
    ['error_message', 'Success'],
    ['fraud', 'low'],
    ['success', 'Success'],
    ['code', 1001],
  ])('a success with %s %j is paid', (key, value) => {
    for (const payload of successes) expect(parseCallback({ ...payload, [key]: value }).paid).toBe(true);
  });

  it('a boolean spelling of paid beside the documented one is read as the same signal, not two keys', () => {
    expect(parseCallback({ ...cardSuccess, PAID: true }).paid).toBe(true);
    const cardFailure = callbackFixtures['payment.card.failed'];
    expect(parseCallback({ ...cardFailure, Paid: false }).paid).toBe(false);
  });

  it.each(['Visa Payment Successful', 'Mastercard payment successful', 'Paid in full'])(
    "the redirect card success's text %j is a success text",
    (message) => {
      expect(parseCallback({ ...checkoutCardSuccess, message }).paid).toBe(true);
    },
  );
});
