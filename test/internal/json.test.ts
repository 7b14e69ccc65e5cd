import { describe, expect, it } from 'vitest';
import { parseJsonExact, stringifyWireBody } from '../../src/internal/json.js';

const card = (extra: Record<string, unknown> = {}) => ({
  customer_details: { full_name: 'Jane "card_number":"1"' },
  card_details: { card_number: '9999999999999995', expiry_month: 7, expiry_year: 2031, cvc: 737, ...extra },
  callback_details: { transaction_reference: 'r' },
});

describe('stringifyWireBody', () => {
  it('writes card_number as a bare JSON integer with its exact digits', () => {
    const text = stringifyWireBody(card());
    expect(text).toContain('"card_number":9999999999999995,');
    expect(text).toBe(JSON.stringify(card()).replace('"9999999999999995"', '9999999999999995'));
  });

  it('writes digit strings when the card fields are strings', () => {
    const body = card({ expiry_month: '07', expiry_year: '2031', cvc: '042' });
    expect(stringifyWireBody(body)).toContain(
      '"card_details":{"card_number":"9999999999999995","expiry_month":"07","expiry_year":"2031","cvc":"042"}',
    );
  });

  it('never writes a card number starting with 0 as an integer (that would not be JSON)', () => {
    expect(() => stringifyWireBody(card({ card_number: '0000000000000000' }))).toThrow(RangeError);
    expect(
      stringifyWireBody(card({ card_number: '0000000000000000' }), { cardFieldEncoding: 'string' }),
    ).toContain('"card_number":"0000000000000000"');
  });

  it('follows an explicit encoding and leaves bodies without a card untouched', () => {
    expect(stringifyWireBody(card(), { cardFieldEncoding: 'string' })).toContain(
      '"card_number":"9999999999999995"',
    );
    const payout = { transfer: { reference_id: 483920175561, amount: '10' }, skipped: undefined };
    expect(stringifyWireBody(payout)).toBe(JSON.stringify(payout));
  });
});

describe('parseJsonExact', () => {
  it('keeps integers of more than 15 digits as exact digit strings', () => {
    expect(parseJsonExact('{"card_number":9999999999999995,"n":-12345678901234567}')).toEqual({
      card_number: '9999999999999995',
      n: '-12345678901234567',
    });
  });

  it('leaves short integers, decimals, exponents and strings alone', () => {
    const text =
      '{"a":123456789012345,"b":1.2345678901234567,"c":1e21,"d":"12345678901234567890","e":[4242424242424242.5]}';
    expect(parseJsonExact(text)).toEqual(JSON.parse(text));
  });

  it('handles escaped quotes inside strings', () => {
    expect(parseJsonExact('{"s":"a\\"1234567890123456\\"","n":1234567890123456}')).toEqual({
      s: 'a"1234567890123456"',
      n: '1234567890123456',
    });
  });

  it('round-trips stringifyWireBody', () => {
    expect(parseJsonExact(stringifyWireBody(card()))).toEqual(card());
  });

  it('throws a SyntaxError on invalid JSON', () => {
    expect(() => parseJsonExact('{"n":12345678901234567')).toThrow(SyntaxError);
    expect(() => parseJsonExact('<html>')).toThrow(SyntaxError);
  });
});
