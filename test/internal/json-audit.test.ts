// The wire serialiser writes only card_details.card_number as a bare integer, and only when it is
// a digit string: every other value, and any body it was not built for, goes out as JSON.stringify
// would write it, so the text sent is always valid JSON. repeatsAKey, which refuses a reply or
// callback that writes a key twice, counts keys only, in any JSON layout.
import { describe, expect, it } from 'vitest';
import { repeatsAKey, stringifyWireBody } from '../../src/internal/json.js';

const card = (extra: Record<string, unknown> = {}) => ({
  card_details: { card_number: '4242424242424242', expiry_month: 7, expiry_year: 2031, cvc: 737, ...extra },
  callback_details: { transaction_reference: 'r' },
});

describe('stringifyWireBody, beyond the card number', () => {
  it('leaves out undefined values, in the body and in card_details, and writes valid JSON', () => {
    const text = stringifyWireBody({ ...card({ cvc: undefined }), metadata: undefined });
    expect(text).toBe(
      '{"card_details":{"card_number":4242424242424242,"expiry_month":7,"expiry_year":2031},"callback_details":{"transaction_reference":"r"}}',
    );
    expect(() => JSON.parse(text) as unknown).not.toThrow();
  });

  it('writes a digit-string card field other than card_number as a string', () => {
    const text = stringifyWireBody(card({ cvc: '737' }), { cardFieldEncoding: 'integer' });
    expect(text).toContain('"cvc":"737"');
    expect(text).toContain('"card_number":4242424242424242');
  });

  it('writes a card_number that is a number as that number', () => {
    expect(stringifyWireBody(card({ card_number: 4242424242424242 }))).toContain(
      '"card_number":4242424242424242,',
    );
  });

  it('writes a card_number that is not only digits as a JSON string, never bare', () => {
    const text = stringifyWireBody(card({ card_number: '4242 4242 4242 4242' }));
    expect(text).toContain('"card_number":"4242 4242 4242 4242"');
    expect(() => JSON.parse(text) as unknown).not.toThrow();
  });

  it('writes card_number as a bare integer only inside card_details', () => {
    const body = { ...card(), card_holder: { card_number: '4242424242424242' } };
    expect(stringifyWireBody(body)).toContain('"card_holder":{"card_number":"4242424242424242"}');
  });

  it('writes a body whose card_details is not an object as JSON.stringify does', () => {
    const body = { card_details: 'tok_123', callback_details: { transaction_reference: 'r' } };
    expect(stringifyWireBody(body)).toBe(JSON.stringify(body));
  });
});

describe('repeatsAKey, the check that refuses a reply or callback writing a key twice', () => {
  const check = (text: string) => repeatsAKey(text, JSON.parse(text) as object);

  it('does not count array items as keys', () => {
    expect(check('{"status":"ok","items":[1,2,{"id":3}]}')).toBe(false);
  });

  it('finds a key written twice with a line break or tab before its colon, and none in a clean body', () => {
    expect(check('{\n  "status"\n: "ok",\r\n  "status"\t: "failed"\n}')).toBe(true);
    expect(check('{\n  "status"\r\n: "ok",\n  "amount"\t: 1\n}')).toBe(false);
  });
});
