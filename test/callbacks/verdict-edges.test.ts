// Edges of the verdict a merchant could misread: a currency that is no currency code, an amount a
// JSON number does not carry exactly, a timestamp in the wrong unit, Unicode blanks around status
// words, and a payment method word that only contains CARD.
import { describe, expect, it } from 'vitest';
import { callbackSchemas, parseCallback, safeParseCallback } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { checkoutMobileMoneySuccess } from '../fixtures/described-payloads.js';

type Payload = Record<string, unknown>;

const cardSuccess = callbackFixtures['payment.card.succeeded'];
const cardFailure = callbackFixtures['payment.card.failed'];
const mobileMoneySuccess = callbackFixtures['payment.mobile_money.succeeded'];
const mobileMoneyFailure = callbackFixtures['payment.mobile_money.failed'];
const checkoutCardSuccess = callbackFixtures['checkout.succeeded'];
const checkoutFailure = callbackFixtures['checkout.failed'];
const payoutSuccess = callbackFixtures['payout.succeeded'];
const payoutFailure = callbackFixtures['payout.failed'];

/** The JSON text of a payload with `"amount": <text>` (and the same captured amount) written verbatim. */
const withNumberText = (payload: Payload, keys: readonly string[], text: string): string => {
  let json = JSON.stringify(payload);
  for (const key of keys) json = json.replace(`"${key}":${JSON.stringify(payload[key])}`, `"${key}":${text}`);
  expect(json.split(text).length - 1).toBe(keys.length);
  return json;
};

describe('currency', () => {
  const carrying = [
    ['card success', cardSuccess],
    ['card failure', cardFailure],
    ['payout success', payoutSuccess],
    ['payout failure', payoutFailure],
  ] as const;

  it.each(['', 'KE', 'ABCDE', 'K S', ' KES', 'KES\n', '404', 'K3S', 'ＫＥＳ', 'KÉS', 404])(
    'refuses %j as invalid_payload naming currency',
    (currency) => {
      for (const [, payload] of carrying) {
        const error = safeParseCallback({ ...payload, currency }).error;
        expect(error?.reason).toBe('invalid_payload');
        expect(error?.message).toContain('currency: expected a 3-letter currency code such as KES');
        expect(error?.issues).toEqual([
          {
            path: ['currency'],
            message: 'expected a 3-letter currency code such as KES',
            code: 'invalid_currency',
          },
        ]);
      }
    },
  );

  it('accepts three ASCII letters in either case, as the request builders do, and reports them as sent', () => {
    for (const [, payload] of carrying) {
      expect(parseCallback({ ...payload, currency: 'kes' }).currency).toBe('kes');
      expect(parseCallback({ ...payload, currency: 'Ugx' }).currency).toBe('Ugx');
    }
  });

  it('is part of the schemas', () => {
    expect(callbackSchemas['payout.failed'].safeParse({ ...payoutFailure, currency: 'K S' }).success).toBe(
      false,
    );
  });
});

describe('amounts', () => {
  it.each([
    ['beyond 2^53 - 1', '9007199254740993'],
    ['2^53', '9007199254740992'],
    ['with more digits than a double holds', '100000000000000.01'],
    ['1e20 written out', '100000000000000000001'],
  ])('refuses a JSON number %s: JSON.parse may already have changed it', (_name, text) => {
    for (const body of [
      withNumberText(mobileMoneySuccess, ['amount', 'amount_captured'], text),
      withNumberText(cardSuccess, ['amount', 'amount captured'], text),
      withNumberText(mobileMoneyFailure, ['amount'], text),
    ]) {
      const error = safeParseCallback(body).error;
      expect(error?.reason).toBe('invalid_amount');
      expect(error?.message).toContain('amount: expected a plain decimal number');
      expect(error?.message).toContain('got a number that does not print as an exact plain decimal');
      expect(error?.message).not.toContain(text.slice(0, 10));
    }
  });

  it('accepts the largest exact JSON numbers', () => {
    const body = withNumberText(mobileMoneySuccess, ['amount', 'amount_captured'], '9007199254740991');
    expect(parseCallback(body).amount).toBe('9007199254740991');
    const fraction = withNumberText(mobileMoneySuccess, ['amount', 'amount_captured'], '12345678901234.5');
    expect(parseCallback(fraction).amount).toBe('12345678901234.5');
  });
});

describe('timestamp (Unix time in seconds)', () => {
  it.each([
    ['in milliseconds', 1_732_363_200_000],
    ['after the year 9999', 253_402_300_800],
    ['before 1970', -1],
  ])('leaves occurredAt absent, with a warning, for a timestamp %s', (_name, timestamp) => {
    const event = parseCallback({ ...cardSuccess, timestamp });
    expect('occurredAt' in event).toBe(false);
    expect(event.warnings).toEqual([
      {
        code: 'timestamp_out_of_range',
        path: ['timestamp'],
        message: 'timestamp: not Unix seconds between 1970 and 9999; occurredAt is absent',
      },
    ]);
  });

  it('reads the first and the last second of that range', () => {
    expect(parseCallback({ ...cardSuccess, timestamp: 0 }).occurredAt).toEqual(new Date(0));
    expect(parseCallback({ ...mobileMoneyFailure, timestamp: 253_402_300_799 }).occurredAt).toEqual(
      new Date('9999-12-31T23:59:59Z'),
    );
  });
});

describe('status words: only ASCII blanks around them are ignored', () => {
  it.each([
    'Payment complete.\u00a0',
    '\u2028Payment complete.',
    '\ufeffPayment complete.',
    '\u3000Payment complete.',
  ])('refuses %j as unrecognised', (status) => {
    const error = safeParseCallback({ ...cardSuccess, 'payment status': status }).error;
    expect(error?.reason).toBe('unrecognised_status');
    expect(safeParseCallback({ ...checkoutMobileMoneySuccess, payment_status: status }).error?.reason).toBe(
      'unrecognised_status',
    );
  });

  it('still reads a status word with spaces, tabs or line breaks around it', () => {
    expect(parseCallback({ ...cardSuccess, 'payment status': ' \t\r\nPayment complete.\n ' }).paid).toBe(
      true,
    );
    expect(parseCallback({ ...checkoutFailure, payment_status: '\tPayment Incomplete. ' }).paid).toBe(false);
  });

  it('refuses a paid flag with any blank around it', () => {
    expect(safeParseCallback({ ...cardSuccess, paid: '\u2028True' }).error?.reason).toBe(
      'unrecognised_status',
    );
    expect(safeParseCallback({ ...cardSuccess, paid: 'True ' }).error?.reason).toBe('unrecognised_status');
  });
});

describe('checkout payment_method: only the word CARD is card', () => {
  it.each(['NOT_CARD', 'CARDANO', 'DISCARD', 'Credit card', 'card-present'])(
    'reads %j as the mobile-money brand word, not as card',
    (method) => {
      const event = parseCallback({ ...checkoutMobileMoneySuccess, payment_method: method });
      expect(event).toMatchObject({ type: 'checkout.succeeded', paymentMethod: 'mobile_money' });
    },
  );

  it.each(['NOT_CARD', 'CARDANO', '\u00a0CARD', 'CARD\u2028'])(
    'refuses the paid False + Payment complete. contradiction when payment_method is %j',
    (method) => {
      const error = safeParseCallback({ ...checkoutCardSuccess, payment_method: method }).error;
      expect(error?.reason).toBe('contradictory_outcome');
    },
  );

  it('reads CARD ignoring ASCII letter case and blanks', () => {
    for (const method of ['CARD', 'card', ' Card\t']) {
      expect(parseCallback({ ...checkoutMobileMoneySuccess, payment_method: method })).toMatchObject({
        paymentMethod: 'card',
      });
      expect(parseCallback({ ...checkoutCardSuccess, payment_method: method }).warnings).toEqual([
        expect.objectContaining({ code: 'paid_flag_contradicts_payment_status' }),
      ]);
    }
  });
});

describe('payment status: only the two documented phrases', () => {
  it.each([
    'Payment not complete.',
    'Payment is incomplete.',
    'Payment never complete',
    'Payment was complete.',
  ])('refuses %j as unrecognised: a card success shape with it and paid True is not paid', (status) => {
    const result = safeParseCallback({ ...cardSuccess, 'payment status': status });
    expect(result.event).toBeUndefined();
    expect(result.error?.reason).toBe('unrecognised_status');
    expect(
      safeParseCallback({ ...checkoutMobileMoneySuccess, payment_status: status }).event,
    ).toBeUndefined();
  });
});

describe("the paid False exception belongs to the redirect checkout's card success alone", () => {
  it.each([
    ['card', cardSuccess],
    ['mobile-money', mobileMoneySuccess],
  ] as const)(
    "a %s success with paid 'False' is refused even when it also carries payment_method CARD",
    (_name, payload) => {
      const result = safeParseCallback({ ...payload, payment_method: 'CARD', paid: 'False' });
      expect(result.event).toBeUndefined();
      expect(result.error?.reason).toBe('contradictory_outcome');
    },
  );
});

describe("the paid False exception needs the documented card success's success text", () => {
  // With paid 'False', only payment_status says paid: the message must say so too, as the API
  // reference's card success does ('Card Payment Successful').
  it.each([
    'Stolen card',
    'Card restricted',
    'Suspected fraud',
    'Withdrawal limit exceeded',
    'Payment pending',
    'Awaiting 3-D Secure authentication',
    '',
  ])('refuses it as contradictory when the message is %j', (message) => {
    const result = safeParseCallback({ ...checkoutCardSuccess, message });
    expect(result.event).toBeUndefined();
    expect(result.error?.reason).toBe('contradictory_outcome');
    expect(result.error?.issues).toContainEqual(expect.objectContaining({ path: ['message'] }));
  });

  it.each(['Card Payment Successful', 'CARD Payment Success', 'payment successful', 'Payment complete'])(
    'accepts it with the warning when the message is %j',
    (message) => {
      const event = parseCallback({ ...checkoutCardSuccess, message });
      expect(event.type).toBe('checkout.succeeded');
      expect(event.warnings).toEqual([
        expect.objectContaining({ code: 'paid_flag_contradicts_payment_status' }),
      ]);
    },
  );

  it.each([
    'Refunded successfully',
    'Refund complete',
    'Chargeback completed',
    'Charged back successfully',
    'Payment disputed successfully',
    'Fraud check completed: fraudulent',
    'Voided successfully',
    'Payment on hold: success',
    'Lost card: payment complete',
  ])('refuses it as contradictory when a success text names money going back or held: %j', (message) => {
    const result = safeParseCallback({ ...checkoutCardSuccess, message });
    expect(result.event).toBeUndefined();
    expect(result.error?.reason).toBe('contradictory_outcome');
  });

  it.each([
    ['a mobile-money success', mobileMoneySuccess],
    ['a payout success', payoutSuccess],
  ])('and so does %s whose message says the money went back', (_what, payload) => {
    for (const message of ['Refunded', 'Chargeback', 'Payment reversed', 'Held for review', 'Voided']) {
      expect(safeParseCallback({ ...payload, message }).error?.reason).toBe('contradictory_outcome');
    }
  });

  it("leaves a card checkout with paid 'True' to the other checks: any message that reads as no failure", () => {
    expect(parseCallback({ ...checkoutCardSuccess, paid: 'True', message: 'Thank you' }).type).toBe(
      'checkout.succeeded',
    );
  });
});

describe('response_status: a whole number from 0 with at most nine digits', () => {
  it.each([-1, '-1', '0200', '00', '200 OK', '406 Not Acceptable', '1000000000', ' 406'])(
    'refuses %j as unrecognised, in a success as in a failure',
    (code) => {
      for (const payload of [mobileMoneySuccess, mobileMoneyFailure]) {
        const result = safeParseCallback({ ...payload, response_status: code });
        expect(result.event).toBeUndefined();
        expect(result.error?.reason).toBe('unrecognised_status');
      }
    },
  );

  it.each([0, '0', 999_999_999, '999999999'])('reads %j as a failure code', (code) => {
    expect(parseCallback({ ...mobileMoneyFailure, response_status: code })).toMatchObject({
      type: 'payment.mobile_money.failed',
      paid: false,
    });
    expect(safeParseCallback({ ...mobileMoneySuccess, response_status: code }).error?.reason).toBe(
      'contradictory_outcome',
    );
  });
});

describe("a payout's second status key is read as a payout status", () => {
  it.each([
    ['Status', 200],
    ['STATUS', '200'],
    [' status', 406],
  ])('%s %j is not a payout status word: refused, never a payout success', (key, value) => {
    for (const payload of [payoutSuccess, payoutFailure]) {
      const result = safeParseCallback({ ...payload, [key]: value });
      expect(result.event).toBeUndefined();
      expect(result.error?.reason).toBe('unrecognised_status');
    }
  });
});

describe('which refusal: a malformed payload (400) is not an undecided outcome (422)', () => {
  const without = (payload: Payload, key: string): Payload =>
    Object.fromEntries(Object.entries(payload).filter(([name]) => name !== key));

  it('a card callback without its status (200 in every documented one) is missing a key, not an unknown outcome', () => {
    const error = safeParseCallback(without(cardSuccess, 'status')).error;
    expect(error?.reason).toBe('invalid_payload');
    expect(error?.issues).toEqual([
      { path: ['status'], message: 'required key is missing', code: 'missing_key' },
    ]);
  });

  it("a card callback spelling its payment status 'payment_status' is missing 'payment status'", () => {
    const payload = { ...without(cardSuccess, 'payment status'), payment_status: 'Payment complete.' };
    const error = safeParseCallback(payload).error;
    expect(error?.reason).toBe('invalid_payload');
    expect(error?.issues).toEqual([
      { path: ['payment status'], message: 'required key is missing', code: 'missing_key' },
    ]);
  });

  it('a success without its amount names the amount as missing', () => {
    for (const payload of [cardSuccess, mobileMoneySuccess, payoutSuccess]) {
      const error = safeParseCallback(without(payload, 'amount')).error;
      expect(error?.reason).toBe('invalid_payload');
      expect(error?.issues).toEqual([
        { path: ['amount'], message: 'required key is missing', code: 'missing_key' },
      ]);
    }
  });

  it('paid: null is a value the table does not know (unrecognised), not an absent signal', () => {
    expect(safeParseCallback({ ...cardSuccess, paid: null }).error?.reason).toBe('unrecognised_status');
    expect(safeParseCallback({ ...payoutSuccess, status: null }).error?.reason).toBe('unrecognised_status');
  });

  it('a contradiction names each signal once', () => {
    const error = safeParseCallback({ ...cardFailure, 'payment status': 'Payment complete.' }).error;
    expect(error?.reason).toBe('contradictory_outcome');
    expect(error?.issues.map((issue) => issue.path[0])).toEqual([
      'amount captured',
      'payment status',
      'paid',
    ]);
  });
});

describe('currencies named twice', () => {
  it('differ beyond ASCII letter case: the Kelvin sign K is not K', () => {
    for (const payload of [mobileMoneySuccess, cardSuccess]) {
      const error = safeParseCallback({ ...payload, currency: 'KES', Currency: '\u212aES' }).error;
      expect(error?.reason).toBe('invalid_payload');
      expect(error?.issues.map((issue) => issue.path[0])).toEqual(['Currency']);
    }
  });

  it('differ when one is not a string (null, a number): invalid_payload naming it', () => {
    for (const other of [null, 404, { code: 'KES' }]) {
      const error = safeParseCallback({ ...mobileMoneySuccess, currency: 'KES', currency_code: other }).error;
      expect(error?.reason).toBe('invalid_payload');
      expect(error?.issues.map((issue) => issue.path[0])).toEqual(['currency_code']);
    }
  });

  it('a currency key holding undefined (an object built in code) is absent, as every key is', () => {
    expect(parseCallback({ ...cardSuccess, Currency: undefined }).paid).toBe(true);
  });
});

describe('a numeric string where a number is documented is converted only when exact', () => {
  it.each([
    ['an exponent', '1.7172e9'],
    ['hexadecimal', '0x6659C680'],
    ['beyond what a double holds exactly', '1000000000000000000000'],
    ['a word', 'yesterday'],
  ])('refuses a timestamp written as a string with %s, naming the timestamp', (_name, timestamp) => {
    for (const payload of [mobileMoneySuccess, mobileMoneyFailure, cardSuccess]) {
      const error = safeParseCallback({ ...payload, timestamp }).error;
      expect(error?.reason).toBe('invalid_payload');
      expect(error?.issues.map((issue) => issue.path[0])).toEqual(['timestamp']);
    }
  });

  it('a timestamp a payout does not document is ignored, whatever it holds', () => {
    const event = parseCallback({ ...payoutSuccess, timestamp: 'yesterday' });
    expect(event.warnings).toEqual([]);
    expect('occurredAt' in event).toBe(false);
  });
});

describe('a payload that is not a plain object', () => {
  it('is read from its own keys, and event.data is a plain copy, not the caller’s object', () => {
    class Delivery {
      constructor(fields: Payload) {
        Object.assign(this, fields);
      }
    }
    const delivery = new Delivery({ ...cardSuccess });
    const event = parseCallback(delivery as unknown as Payload);
    expect(event.paid).toBe(true);
    expect(event.data).not.toBe(delivery);
    expect(Object.getPrototypeOf(event.data)).toBe(Object.prototype);
  });
});

describe('a JSON number fraction is exact by its significant digits, not its leading zeros', () => {
  it('accepts 0.000123456789012 (12 significant digits)', () => {
    const amount = 0.000123456789012;
    const event = parseCallback({ ...mobileMoneySuccess, amount, amount_captured: amount });
    expect(event.amount).toBe('0.000123456789012');
    expect(event.paid).toBe(true);
  });
});

describe('a lone surrogate in a documented string', () => {
  it('is refused when another value of the payload needed converting too (paid as a JSON boolean)', () => {
    for (const payload of [
      { ...cardSuccess, paid: true, message: 'CARD Payment Success \ud800' },
      { ...mobileMoneyFailure, paid: false, transaction_reference: 'ORDER-\udc00' },
    ]) {
      const error = safeParseCallback(payload).error;
      expect(error?.reason).toBe('invalid_payload');
      expect(error?.issues).toEqual([
        expect.objectContaining({ message: 'expected Unicode text, got a string with a lone surrogate' }),
      ]);
    }
  });
});
