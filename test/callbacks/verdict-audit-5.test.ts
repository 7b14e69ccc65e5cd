// What an audit of the verdict found reading payloads the API reference never shows, each refused:
// an outcome key whose value is a bare `false` or an object (`result: { code: 1032, text: … }`) on
// a success, and `true` on a failure; a look-alike letter in a key one object down, as at the top
// level; and a key that is no name (it could hold a card number) kept out of the error's text.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { safeParseCallback } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const successes = {
  'payment.card.succeeded': callbackFixtures['payment.card.succeeded'],
  'payment.mobile_money.succeeded': callbackFixtures['payment.mobile_money.succeeded'],
  'payout.succeeded': callbackFixtures['payout.succeeded'],
} as const;
// Every failure: a card's, a mobile-money payment's, a checkout's and a payout's.
const failures = Object.fromEntries(
  Object.entries(callbackFixtures).filter(([type]) => type.endsWith('.failed')),
);

const verdict = (payload: object) => {
  const result = safeParseCallback(payload);
  return result.event?.type ?? result.error!.reason;
};

describe('a success whose outcome key is a bare no or an object that says otherwise', () => {
  it.each([
    ['transaction_status', false],
    ['ResultCode', false],
    ['data', { status: false }],
    ['result', { code: 1032, text: 'Request cancelled by user' }],
    ['transaction_status', { code: '51', description: 'Insufficient funds' }],
    ['data', { result: { code: 1032 } }],
  ])('is contradictory: %s %j', (key, value) => {
    for (const [type, payload] of Object.entries(successes)) {
      expect(verdict({ ...payload, [key]: value }), type).toBe('contradictory_outcome');
    }
  });

  it.each([
    ['transaction_status', true],
    ['result', { code: 0, text: 'Success' }],
    ['status_detail', { code: 200, message: 'OK' }],
    ['result', { ResultCode: 0, ResultDesc: 'The service request is processed successfully.' }],
    ['result', {}],
  ])('stays a success: %s %j', (key, value) => {
    for (const [type, payload] of Object.entries(successes)) {
      expect(verdict({ ...payload, [key]: value }), type).toBe(type);
    }
  });
});

describe('a failure whose outcome key says yes', () => {
  it.each([
    ['payout_status', true],
    ['transfer_state', 'True'],
    ['payout_result', { code: 0, text: 'Success' }],
  ])('is contradictory: %s %j', (key, value) => {
    for (const [type, payload] of Object.entries(failures)) {
      expect(verdict({ ...payload, [key]: value }), type).toBe('contradictory_outcome');
    }
  });

  it.each([
    ['payout_status', false],
    ['transfer_state', 'Failed'],
    ['payout_result', { code: 1, text: 'Insufficient balance' }],
  ])('stays a failure: %s %j', (key, value) => {
    for (const [type, payload] of Object.entries(failures)) {
      expect(verdict({ ...payload, [key]: value }), type).toBe(type);
    }
  });
});

describe('a key in look-alike letters one or two objects down', () => {
  it.each([
    { data: { 'p\u0430id': 'False' } },
    { data: { '\u0455tatus': 'Failed' } },
    { data: { ＰＡＩＤ: 'False' } },
    { data: { result: { 'err\u043er': 'Declined' } } },
  ])('is refused as at the top level: %j', (extra) => {
    for (const [type, payload] of Object.entries(successes)) {
      expect(verdict({ ...payload, ...extra }), type).toBe('invalid_payload');
    }
  });

  it('is refused in a failure too', () => {
    expect(verdict({ ...callbackFixtures['payout.failed'], data: { '\u0455uccess': true } })).toBe(
      'invalid_payload',
    );
  });

  it('stays unread in an array, which the verdict does not read', () => {
    const payload = successes['payment.card.succeeded'];
    expect(verdict({ ...payload, items: [{ 'n\u0430me': 'Tee' }] })).toBe('payment.card.succeeded');
  });
});

describe('a key that is no name, in a refusal', () => {
  it.each([
    { 'card 4242424242424242 cvc 123 currency': 'USD' },
    { 'card 4242424242424242': 'a', card_4242424242424242: 'b' },
  ])('is not quoted in the message, the issues or a dump: %j', (extra) => {
    const payload = callbackFixtures['payment.card.succeeded'];
    const error = safeParseCallback({ ...payload, ...extra }).error!;
    expect(error.reason).toBe('invalid_payload');
    const shown = [error.message, JSON.stringify(error), inspect(error, { depth: 10 })].join('\n');
    expect(shown).not.toMatch(/4242/);
    expect(shown).not.toMatch(/cvc 123/);
    expect(error.message).toMatch(/characters \(not shown\)/);
  });
});

describe('a success whose message negates with a separate un-', () => {
  it.each(['CARD Payment Un-successful', 'Payment un successful', 'Un-paid'])(
    'is contradictory: %j',
    (message) => {
      for (const [type, payload] of Object.entries(successes)) {
        expect(verdict({ ...payload, message }), type).toBe('contradictory_outcome');
      }
    },
  );
});

describe("a signal key under another family's or another spelling, written as a number JSON.parse rounds", () => {
  it.each(['"responseStatus":199.99999999999999999', '"Response Status":2e2'])(
    'is refused, as the documented key is: %s',
    (extra) => {
      for (const [type, payload] of Object.entries(successes)) {
        const text = `${JSON.stringify(payload).slice(0, -1)},${extra}}`;
        expect(verdict(JSON.parse(text) as object), type).toBe(type); // read as a value, it agrees
        expect(safeParseCallback(text).error?.reason, type).toBe('invalid_payload');
      }
    },
  );
});
