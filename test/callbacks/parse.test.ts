import { describe, expect, it } from 'vitest';
import {
  CallbackParseError,
  callbackSchemas,
  type CallbackParseReason,
  cardPaymentSuccessCallbackSchema,
  parseCallback,
  payoutSuccessCallbackSchema,
  safeParseCallback,
  type CallbackEvent,
} from '../../src/callbacks/index.js';
import {
  callbackFixtures,
  checkoutFailurePayload,
  checkoutSuccessPayload,
  mobileMoneyPaymentSuccessPayload,
} from '../../src/testing/index.js';
import { checkoutMobileMoneySuccess, describedPayloads } from '../fixtures/described-payloads.js';

const cardSuccess = callbackFixtures['payment.card.succeeded'];
const cardFailure = callbackFixtures['payment.card.failed'];
const mobileMoneySuccess = callbackFixtures['payment.mobile_money.succeeded'];
const mobileMoneyFailure = callbackFixtures['payment.mobile_money.failed'];
const checkoutCardSuccess = callbackFixtures['checkout.succeeded'];
const checkoutFailure = callbackFixtures['checkout.failed'];
const payoutSuccess = callbackFixtures['payout.succeeded'];
const payoutFailure = callbackFixtures['payout.failed'];
const TIMESTAMP = cardSuccess.timestamp;
// The brand word the API reference neutralises as MOBILE-MONEY, e.g. M-PESA.
const mobileMoneySuccessMpesa = mobileMoneyPaymentSuccessPayload(
  { amount: 1500, timestamp: TIMESTAMP },
  'M-PESA',
);
const checkoutMpesaSuccess = checkoutSuccessPayload(
  { method: 'mobile_money', orderId: 1002, amount: '2500' },
  'M-PESA',
);
const checkoutMpesaFailure = checkoutFailurePayload(
  { method: 'mobile_money', orderId: 1002, amount: '2500' },
  'M-PESA',
);

const occurredAt = new Date(TIMESTAMP * 1000);

const parseError = (input: unknown): CallbackParseError => {
  const result = safeParseCallback(input);
  if (result.success) throw new Error(`expected a failure, got ${result.event.type}`);
  expect(result.error).toBeInstanceOf(CallbackParseError);
  expect(() => parseCallback(input)).toThrow(CallbackParseError);
  return result.error;
};

describe('schemas', () => {
  it.each(describedPayloads)('the %s fixture passes its own schema', (type, payload) => {
    expect(callbackSchemas[type].safeParse(payload).success).toBe(true);
  });

  it('keeps unknown extra keys', () => {
    const data = cardPaymentSuccessCallbackSchema.parse({ ...cardSuccess, extra: { nested: 1 } });
    expect(data.extra).toEqual({ nested: 1 });
  });

  it('requires payout_fee in a payout success', () => {
    const { payout_fee: _fee, ...withoutFee } = payoutSuccess;
    expect(payoutSuccessCallbackSchema.safeParse(withoutFee).success).toBe(false);
  });

  it('uses the keys with spaces exactly', () => {
    expect(Object.keys(cardPaymentSuccessCallbackSchema.shape)).toEqual(
      expect.arrayContaining(['payment method', 'amount captured', 'payment status', 'transaction id']),
    );
    const { 'amount captured': captured, ...rest } = cardSuccess;
    expect(cardPaymentSuccessCallbackSchema.safeParse({ ...rest, amount_captured: captured }).success).toBe(
      false,
    );
  });
});

describe('parseCallback: every spec payload to its event', () => {
  it('card success', () => {
    expect(parseCallback(cardSuccess)).toEqual({
      type: 'payment.card.succeeded',
      paid: true,
      amount: '1500',
      currency: 'KES',
      transactionId: 'TXNCARD000001',
      message: 'CARD Payment Success',
      occurredAt,
      paymentMethod: 'card',
      paymentMethodLabel: 'CARD',
      warnings: [],
      data: cardSuccess,
    });
  });

  it('card failure', () => {
    expect(parseCallback(cardFailure)).toEqual({
      type: 'payment.card.failed',
      paid: false,
      amount: '1500',
      currency: 'KES',
      transactionId: 'TXNCARD000002',
      message: 'CARD Payment Failed',
      occurredAt,
      paymentMethod: 'card',
      paymentMethodLabel: 'CARD',
      warnings: [],
      data: cardFailure,
    });
  });

  it('card failure with status 400 instead of the documented 200: no documented callback', () => {
    expect(parseError({ ...cardFailure, status: 400 }).reason).toBe('unrecognised_status');
  });

  it('mobile-money success, with the amount as a string', () => {
    expect(parseCallback(mobileMoneySuccess)).toEqual({
      type: 'payment.mobile_money.succeeded',
      paid: true,
      amount: '1500',
      transactionId: 'TXNMOMO000001',
      message: 'MOBILE-MONEY Payment Success',
      occurredAt,
      paymentMethod: 'mobile_money',
      paymentMethodLabel: 'MOBILE-MONEY',
      warnings: [],
      data: mobileMoneySuccess,
    });
  });

  it('mobile-money failure, with the merchant reference', () => {
    expect(parseCallback(mobileMoneyFailure)).toEqual({
      type: 'payment.mobile_money.failed',
      paid: false,
      amount: '1500',
      reference: 'ORDER-1002',
      message: 'Insufficient funds',
      occurredAt,
      paymentMethod: 'mobile_money',
      paymentMethodLabel: '',
      warnings: [],
      data: mobileMoneyFailure,
    });
  });

  it('redirect checkout success by mobile money', () => {
    expect(parseCallback(checkoutMobileMoneySuccess)).toEqual({
      type: 'checkout.succeeded',
      paid: true,
      amount: '2500',
      reference: '1002',
      message: 'MOBILE-MONEY Payment Successful',
      paymentMethod: 'mobile_money',
      paymentMethodLabel: 'MOBILE-MONEY',
      warnings: [],
      data: checkoutMobileMoneySuccess,
    });
  });

  it('redirect checkout failure', () => {
    expect(parseCallback(checkoutFailure)).toEqual({
      type: 'checkout.failed',
      paid: false,
      amount: '2500',
      reference: '1003',
      message: 'Insufficient funds',
      paymentMethod: 'card',
      paymentMethodLabel: 'CARD',
      warnings: [],
      data: checkoutFailure,
    });
  });

  it('payout success', () => {
    expect(parseCallback(payoutSuccess)).toEqual({
      type: 'payout.succeeded',
      paid: true,
      amount: '1000',
      currency: 'KES',
      reference: '123456789012',
      transactionId: 'PYT0000000001',
      message: 'Payout Successful',
      warnings: [],
      data: payoutSuccess,
    });
  });

  it('payout failure', () => {
    expect(parseCallback(payoutFailure)).toEqual({
      type: 'payout.failed',
      paid: false,
      amount: '250000',
      currency: 'KES',
      reference: '123456789013',
      transactionId: 'PYT0000000002',
      message: 'Payout Failed',
      warnings: [],
      data: payoutFailure,
    });
  });

  it.each(describedPayloads)(
    'reads %s from an object, a JSON string, bytes and an ArrayBuffer alike',
    (type, payload) => {
      const text = JSON.stringify(payload);
      const bytes = new TextEncoder().encode(text);
      for (const input of [
        payload,
        text,
        bytes,
        bytes.buffer,
        Buffer.from(text),
        new DataView(bytes.buffer),
      ]) {
        const event = parseCallback(input);
        expect(event.type).toBe(type);
        expect(event.data).toEqual(payload);
      }
    },
  );

  it('does not mutate or copy a caller object that needs no conversion', () => {
    const payload = { ...cardSuccess };
    expect(parseCallback(payload).data).toBe(payload);
  });
});

describe('classification never depends on the brand word or message text', () => {
  it('classifies M-PESA like MOBILE-MONEY', () => {
    expect(parseCallback(mobileMoneySuccessMpesa).type).toBe('payment.mobile_money.succeeded');
    const event = parseCallback(checkoutMpesaSuccess);
    expect(event).toMatchObject({
      type: 'checkout.succeeded',
      paymentMethod: 'mobile_money',
      paymentMethodLabel: 'M-PESA',
    });
    expect(parseCallback(checkoutMpesaFailure).type).toBe('checkout.failed');
  });

  it("refuses a success whose message is a failure's text", () => {
    expect(parseError({ ...cardSuccess, message: 'CARD Payment Failed' }).reason).toBe(
      'contradictory_outcome',
    );
    expect(parseError({ ...payoutSuccess, message: 'Payout Failed' }).reason).toBe('contradictory_outcome');
  });

  it('reads the checkout payment status regardless of case and the final dot', () => {
    expect(parseCallback({ ...checkoutFailure, payment_status: 'payment incomplete' }).type).toBe(
      'checkout.failed',
    );
    expect(parseCallback({ ...checkoutMobileMoneySuccess, payment_status: 'PAYMENT COMPLETE.' }).type).toBe(
      'checkout.succeeded',
    );
  });

  it('refuses an unrecognised checkout payment status instead of falling back to paid', () => {
    const error = parseError({ ...checkoutMobileMoneySuccess, payment_status: 'Done' });
    expect(error.reason).toBe('unrecognised_status');
    expect(error.message).toMatch(
      /payment_status 'Done', expected 'Payment complete.' or 'Payment incomplete.'/,
    );
  });
});

describe('tolerances, each recorded as a warning', () => {
  it('accepts a number where a string is documented', () => {
    const event = parseCallback({ ...cardSuccess, amount: 1500, 'amount captured': 1500 });
    expect(event.amount).toBe('1500');
    expect(event.data).toMatchObject({ amount: '1500', 'amount captured': '1500' });
    expect(event.warnings).toEqual([
      { code: 'value_converted', path: ['amount'], message: 'amount: number converted to string' },
      {
        code: 'value_converted',
        path: ['amount captured'],
        message: 'amount captured: number converted to string',
      },
    ]);
  });

  it('accepts a numeric string where a number is documented', () => {
    const event = parseCallback({ ...mobileMoneySuccess, amount: '250.50', amount_captured: '250.50' });
    expect(event.data).toMatchObject({ amount: 250.5, amount_captured: 250.5 });
    expect(event.amount).toBe('250.5');
    expect(event.warnings).toEqual([
      { code: 'value_converted', path: ['amount'], message: 'amount: numeric string converted to number' },
      {
        code: 'value_converted',
        path: ['amount_captured'],
        message: 'amount_captured: numeric string converted to number',
      },
    ]);
  });

  it('accepts a numeric string where an integer is documented', () => {
    const event = parseCallback({ ...cardSuccess, status: '200', timestamp: String(TIMESTAMP) });
    expect(event.data).toMatchObject({ status: 200, timestamp: TIMESTAMP });
    expect(event.occurredAt).toEqual(occurredAt);
    expect(event.warnings).toEqual([
      { code: 'value_converted', path: ['status'], message: 'status: numeric string converted to number' },
      {
        code: 'value_converted',
        path: ['timestamp'],
        message: 'timestamp: numeric string converted to number',
      },
    ]);
  });

  it.each([
    ['a fraction', 1.5],
    ['an integer beyond the safe range', 2 ** 53],
    ['a negative one beyond it', -(2 ** 53)],
  ])('refuses %s where an integer is documented', (_name, value) => {
    for (const key of ['status', 'timestamp'] as const) {
      expect(cardPaymentSuccessCallbackSchema.safeParse({ ...cardSuccess, [key]: value }).success).toBe(
        false,
      );
    }
    const error = parseError({ ...cardSuccess, timestamp: value });
    expect(error.reason).toBe('invalid_payload');
    expect(error.issues).toEqual([
      { path: ['timestamp'], message: 'expected integer, got number', code: 'invalid_type' },
    ]);
    expect(error.message).toContain('timestamp: expected integer, got number');
    // The card status and the checkout response_status are 200 in every documented callback.
    expect(parseError({ ...cardSuccess, status: value }).reason).toBe('unrecognised_status');
    expect(parseError({ ...checkoutFailure, response_status: value }).reason).toBe('unrecognised_status');
  });

  it('accepts booleans for True/False', () => {
    const success = parseCallback({ ...cardSuccess, paid: true });
    expect(success.data.paid).toBe('True');
    expect(success.warnings).toEqual([
      { code: 'value_converted', path: ['paid'], message: "paid: boolean converted to 'True'" },
    ]);
    const failure = parseCallback({ ...mobileMoneyFailure, paid: false });
    expect(failure.data.paid).toBe('False');
    expect(failure.warnings).toEqual([
      { code: 'value_converted', path: ['paid'], message: "paid: boolean converted to 'False'" },
    ]);
  });

  it('accepts a numeric order_id and reference_id (the request sends them as integers)', () => {
    const checkout = parseCallback({ ...checkoutMobileMoneySuccess, order_id: 1002 });
    expect(checkout.reference).toBe('1002');
    expect(checkout.warnings).toEqual([
      { code: 'value_converted', path: ['order_id'], message: 'order_id: number converted to string' },
    ]);
    const payout = parseCallback({ ...payoutSuccess, reference_id: 123456789012 });
    expect(payout.reference).toBe('123456789012');
  });

  // JSON.parse rounds a long number to the nearest double: 1234567890123456789 arrives as
  // 1234567890123456800, which would name another order. A number becomes a documented string
  // only when it prints as an exact plain decimal, as amounts do.
  it.each([
    [
      'an integer beyond the safe range',
      // What JSON.parse makes of 1234567890123456789.
      JSON.parse('1234567890123456789') as number,
      'a number that does not print as an exact plain decimal',
    ],
    ['2^53 + 2', 2 ** 53 + 2, 'a number that does not print as an exact plain decimal'],
    ['one that prints with an exponent', 1e21, 'a number that does not print as an exact plain decimal'],
    ['a negative one', -7, 'a negative number'],
    ['negative zero', -0, 'a negative number'],
  ])('refuses %s where an identifier string is documented', (_name, value, got) => {
    for (const [payload, key] of [
      [checkoutMobileMoneySuccess, 'order_id'],
      [payoutSuccess, 'reference_id'],
      [mobileMoneyFailure, 'transaction_reference'],
      [cardSuccess, 'transaction id'],
    ] as const) {
      const error = parseError({ ...payload, [key]: value });
      expect(error.reason).toBe('invalid_payload');
      expect(error.issues).toEqual([
        { path: [key], message: `expected string, got ${got}`, code: 'invalid_type' },
      ]);
    }
  });

  // An empty reference names no order: a merchant calling parseCallback alone got reference ''.
  it.each(['', ' ', '\t'])('refuses the merchant reference %j as naming no order', (value) => {
    for (const [payload, key] of [
      [checkoutMobileMoneySuccess, 'order_id'],
      [payoutSuccess, 'reference_id'],
      [mobileMoneyFailure, 'transaction_reference'],
    ] as const) {
      const error = parseError({ ...payload, [key]: value });
      expect(error.reason).toBe('invalid_payload');
      expect(error.issues).toEqual([
        {
          path: [key],
          message: 'expected a reference that is not empty or blank',
          code: 'invalid_reference',
        },
      ]);
    }
  });

  it('refuses a long numeric order_id in a body given as text', () => {
    const text = JSON.stringify({ ...checkoutMobileMoneySuccess, order_id: 0 }).replace(
      '"order_id":0',
      '"order_id":1234567890123456789',
    );
    const error = parseError(text);
    expect(error.reason).toBe('invalid_payload');
    expect(error.issues.map((issue) => issue.path)).toEqual([['order_id']]);
  });

  it('refuses negative zero as an amount: a signed number', () => {
    const error = parseError({ ...mobileMoneySuccess, amount: -0, amount_captured: -0 });
    expect(error.reason).toBe('invalid_amount');
    expect(error.issues.map((issue) => issue.message)).toEqual([
      'expected a plain decimal number such as 1500 or 1500.50, got a negative number',
      'expected a plain decimal number such as 1500 or 1500.50, got a negative number',
    ]);
  });

  it('converts a copy of a caller object, never the object itself', () => {
    const payload = { ...cardSuccess, amount: 1500 };
    const event = parseCallback(payload);
    expect(payload.amount).toBe(1500);
    expect(event.data).not.toBe(payload);
    expect(event.data.amount).toBe('1500');
  });

  it('converted data still passes the strict schema of its variant', () => {
    const event = parseCallback({
      ...mobileMoneyFailure,
      amount: '250',
      paid: false,
      response_status: '406',
    });
    expect(callbackSchemas[event.type].safeParse(event.data).success).toBe(true);
  });
});

describe('the redirect card success contradiction (paid False + Payment complete.)', () => {
  it('is checkout.succeeded with a warning by default', () => {
    const event = parseCallback(checkoutCardSuccess);
    expect(event).toMatchObject({ type: 'checkout.succeeded', paid: true, paymentMethod: 'card' });
    expect(event.warnings.map((warning) => warning.code)).toEqual(['paid_flag_contradicts_payment_status']);
    expect(event.warnings[0]).toMatchObject({ path: ['paid'] });
    expect(event.data.paid).toBe('False');
  });

  it("is a CallbackParseError with onContradiction: 'reject'", () => {
    expect(() => parseCallback(checkoutCardSuccess, { onContradiction: 'reject' })).toThrow(
      /onContradiction: 'reject'.*payment_status 'Payment complete.' says success; paid 'False' says failure/,
    );
    const result = safeParseCallback(checkoutCardSuccess, { onContradiction: 'reject' });
    expect(result.success).toBe(false);
    expect(result.error?.reason).toBe('contradictory_outcome');
    expect(result.error?.closestVariant).toBe('checkout.succeeded');
  });

  it('is the only exception: paid True + Payment Incomplete. is refused either way', () => {
    expect(parseError({ ...checkoutFailure, paid: 'True' }).reason).toBe('contradictory_outcome');
    const rejected = safeParseCallback({ ...checkoutFailure, paid: 'True' }, { onContradiction: 'reject' });
    expect(rejected.error?.reason).toBe('contradictory_outcome');
  });

  it('is the only exception: the same values by mobile money are refused', () => {
    const error = parseError({ ...checkoutMobileMoneySuccess, paid: 'False' });
    expect(error.reason).toBe('contradictory_outcome');
    expect(error.closestVariant).toBeUndefined();
  });

  it('leaves consistent payloads alone under reject', () => {
    for (const [, payload] of describedPayloads.filter(([, p]) => p !== checkoutCardSuccess)) {
      expect(safeParseCallback(payload, { onContradiction: 'reject' }).success).toBe(true);
    }
  });
});

describe('a byte order mark before the JSON', () => {
  const json = JSON.stringify(cardSuccess);

  it('is read the same in a string as in bytes: one leading BOM is skipped', () => {
    const bytes = new TextEncoder().encode(`\uFEFF${json}`);
    expect(parseCallback(bytes).type).toBe('payment.card.succeeded');
    expect(parseCallback(`\uFEFF${json}`).type).toBe('payment.card.succeeded');
  });

  it('two are not JSON, in a string as in bytes', () => {
    const text = `\uFEFF\uFEFF${json}`;
    expect(safeParseCallback(new TextEncoder().encode(text)).error?.reason).toBe('invalid_json');
    expect(safeParseCallback(text).error?.reason).toBe('invalid_json');
  });
});

describe('rejections name the closest variant and the keys, never a value', () => {
  const without = <T extends object>(payload: T, key: keyof T) => {
    const copy: Record<string, unknown> = { ...(payload as Record<string, unknown>) };
    delete copy[key as string];
    return copy;
  };

  const cases: [string, unknown, CallbackParseReason, string | undefined, RegExp][] = [
    ['null', null, 'not_an_object', undefined, /must be a JSON object, got null/],
    ['undefined', undefined, 'not_an_object', undefined, /got a undefined/],
    ['a number', 42, 'not_an_object', undefined, /got a number/],
    ['a boolean', true, 'not_an_object', undefined, /got a boolean/],
    ['an array', [cardSuccess], 'not_an_object', undefined, /got an array/],
    ['a JSON array', '[1,2]', 'not_an_object', undefined, /got an array/],
    ['a JSON string literal', '"hello"', 'not_an_object', undefined, /got a string/],
    ['broken JSON', '{"id": ', 'invalid_json', undefined, /not valid JSON/],
    ['an empty string', '', 'invalid_json', undefined, /not valid JSON/],
    ['truncated JSON', JSON.stringify(cardSuccess).slice(0, -3), 'invalid_json', undefined, /not valid JSON/],
    [
      'invalid UTF-8 bytes',
      new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      'invalid_json',
      undefined,
      /not valid UTF-8/,
    ],
    ['an empty object', {}, 'unknown_callback', undefined, /none of their keys/],
    ['unrelated keys', { foo: 1, bar: 'x' }, 'unknown_callback', undefined, /none of their keys/],
    [
      'card success without transaction id',
      without(cardSuccess, 'transaction id'),
      'invalid_payload',
      'payment.card.succeeded',
      /\["transaction id"\]: required key is missing/,
    ],
    [
      'card with status as text',
      { ...cardSuccess, status: 'OK' },
      'unrecognised_status',
      undefined,
      /status 'OK', expected 200 \(in every documented callback\)/,
    ],
    [
      'card with paid "yes"',
      { ...cardSuccess, paid: 'yes' },
      'unrecognised_status',
      undefined,
      /paid 'yes', expected 'True' or 'False'/,
    ],
    [
      'card failure without currency',
      without(cardFailure, 'currency'),
      'invalid_payload',
      'payment.card.failed',
      /currency: required/,
    ],
    [
      'mobile-money success with amount as an object',
      { ...mobileMoneySuccess, amount: { value: 1 } },
      'invalid_amount',
      'payment.mobile_money.succeeded',
      /amount: expected a plain decimal number such as 1500 or 1500.50, got object/,
    ],
    [
      'mobile-money success with a non-numeric amount string',
      { ...mobileMoneySuccess, amount: 'ten' },
      'invalid_amount',
      'payment.mobile_money.succeeded',
      /amount: expected a plain decimal number .*, got text that is not a number/,
    ],
    [
      'mobile-money success with a numeric string too large for a double',
      { ...mobileMoneySuccess, amount: '1' + '0'.repeat(400) },
      'invalid_amount',
      'payment.mobile_money.succeeded',
      /amount: .*got a number too large to be finite/,
    ],
    [
      'mobile-money failure without the payment status',
      without(mobileMoneyFailure, 'payment status'),
      'missing_status',
      undefined,
      /has no payment status/,
    ],
    [
      'mobile-money failure with a fractional response_status',
      { ...mobileMoneyFailure, response_status: 406.5 },
      'unrecognised_status',
      undefined,
      /response_status \(number\), expected an integer/,
    ],
    [
      'checkout with neither a readable status nor paid',
      { ...checkoutFailure, payment_status: '?', paid: 'maybe' },
      'unrecognised_status',
      undefined,
      /payment_status \(string\), expected 'Payment complete.' or 'Payment incomplete.'; paid 'maybe'/,
    ],
    [
      'checkout without order_id',
      without(checkoutFailure, 'order_id'),
      'unknown_callback',
      'checkout.failed',
      /closest is redirect checkout failure \(checkout.failed\): order_id: required key is missing/,
    ],
    [
      'payout success without payout_fee (the failure shape)',
      without(payoutSuccess, 'payout_fee'),
      'contradictory_outcome',
      undefined,
      /payout_fee absent says failure; status 'Success' says success/,
    ],
    [
      'payout with status "Pending"',
      { ...payoutFailure, status: 'Pending' },
      'unrecognised_status',
      undefined,
      /status 'Pending', expected 'Success' or 'Failed'/,
    ],
    [
      'payout with a null amount',
      { ...payoutSuccess, amount: null },
      'invalid_amount',
      'payout.succeeded',
      /amount: expected a plain decimal number .*, got null/,
    ],
    [
      'payout with an array message',
      { ...payoutSuccess, message: ['x'] },
      'invalid_payload',
      'payout.succeeded',
      /message: expected string, got array/,
    ],
    [
      'card success with an infinite amount',
      { ...cardSuccess, amount: Number.POSITIVE_INFINITY },
      'invalid_amount',
      'payment.card.succeeded',
      /amount: .*got a non-finite number/,
    ],
    [
      'a card payload with snake_case keys instead of spaces',
      {
        id: 'x',
        status: 200,
        payment_method: 'CARD',
        amount_captured: '1',
        payment_status: 'Payment complete.',
        transaction_id: 'T',
        paid: 'True',
      },
      'missing_status',
      undefined,
      /mobile-money payment callback has no response_status/,
    ],
    [
      'a payload with only a message and an amount',
      { message: 'hello', amount: '1' },
      'unknown_callback',
      'checkout.failed',
      /closest is redirect checkout failure/,
    ],
  ];

  it.each(cases)('rejects %s', (_name, input, reason, closest, message) => {
    const error = parseError(input);
    expect(error.reason).toBe(reason);
    expect(error.closestVariant).toBe(closest);
    expect(error.message).toMatch(message);
    expect(error.name).toBe('CallbackParseError');
  });

  it('has at least 20 kinds of bad input', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it('never puts a payload value into the message or the issues', () => {
    const secretish = 'SENSITIVE-4242424242424242';
    const inputs = [
      { ...cardSuccess, id: 123, status: secretish },
      { ...payoutSuccess, status: secretish, amount: { secretish } },
      { ...checkoutFailure, payment_status: secretish, paid: secretish },
      `{"message":"${secretish}","amount":`,
      { message: secretish, amount: secretish },
    ];
    for (const input of inputs) {
      const error = parseError(input);
      expect(error.message).not.toContain(secretish);
      expect(JSON.stringify(error)).not.toContain(secretish);
    }
  });

  it('lists each issue with its key path', () => {
    const error = parseError({ ...cardSuccess, timestamp: 'x', currency: undefined });
    expect(error.issues).toEqual([
      { path: ['currency'], message: 'required key is missing', code: 'missing_key' },
      { path: ['timestamp'], message: 'expected number, got string', code: 'invalid_type' },
    ]);
  });
});

describe('safeParseCallback never throws', () => {
  it('survives hostile objects', () => {
    const throwing = Object.defineProperty({ order_id: 'x' }, 'payment_status', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    for (const input of [throwing, proxy]) {
      const result = safeParseCallback(input);
      expect(result.success).toBe(false);
    }
  });

  it('survives huge and deeply nested JSON', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(safeParseCallback(deep).success).toBe(false);
    const deepObject = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000);
    expect(safeParseCallback(deepObject).success).toBe(false);
    const huge = JSON.stringify({ ...payoutSuccess, message: 'x'.repeat(5_000_000) });
    expect(safeParseCallback(huge).success).toBe(true);
  });

  it('does not let __proto__ keys pollute Object.prototype', () => {
    const inputs = [
      '{"__proto__": {"polluted": 1, "paid": "True"}, "order_id": "1"}',
      JSON.stringify({ ...payoutSuccess, amount: 5000 }).replace('{', '{"__proto__":{"polluted":1},'),
      JSON.parse(
        JSON.stringify({ ...payoutSuccess, amount: 5000 }).replace('{', '{"__proto__":{"polluted":1},'),
      ),
      '{"constructor": {"prototype": {"polluted": 1}}, "reference_id": "1"}',
    ];
    for (const input of inputs) {
      const result = safeParseCallback(input);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      if (result.success) {
        expect(Object.getPrototypeOf(result.event.data)).toBe(Object.prototype);
        expect(Object.keys(result.event.data)).toContain('__proto__');
      }
    }
  });
});

describe('exhaustive handling', () => {
  it('covers every event type in a switch', () => {
    const describeEvent = (event: CallbackEvent): string => {
      switch (event.type) {
        case 'payment.card.succeeded':
        case 'payment.card.failed':
          return event.data['payment status'];
        case 'payment.mobile_money.succeeded':
          return event.data.payment_status;
        case 'payment.mobile_money.failed':
          return event.data['payment status'];
        case 'checkout.succeeded':
        case 'checkout.failed':
          return event.data.payment_status;
        case 'payout.succeeded':
        case 'payout.failed':
          return event.data.status;
        default: {
          const unhandled: never = event;
          return unhandled;
        }
      }
    };
    expect(describedPayloads.map(([, payload]) => describeEvent(parseCallback(payload)))).toEqual([
      'Payment complete.',
      'Payment incomplete.',
      'Payment complete.',
      'Payment Incomplete.',
      'Payment complete.',
      'Payment Incomplete.',
      'Success',
      'Failed',
      'Payment complete.',
    ]);
  });
});
