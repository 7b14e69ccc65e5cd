import { describe, expect, it } from 'vitest';
import {
  checkCardNumber,
  checkCvc,
  checkExpiryMonth,
  checkExpiryYear,
  checkLeadingZero,
  checkNotExpired,
  isValidCardNumber,
} from '../../src/validation/card.js';

describe('isValidCardNumber', () => {
  it('accepts 16 Luhn-valid digits, with or without separators', () => {
    expect(isValidCardNumber('4242424242424242')).toBe(true);
    expect(isValidCardNumber('4242 4242 4242 4242')).toBe(true);
    expect(isValidCardNumber('4000-0000-0000-0002')).toBe(true);
    expect(isValidCardNumber('9999999999999995')).toBe(true);
  });

  it('rejects a Luhn failure, a wrong length and non-digits', () => {
    expect(isValidCardNumber('4242424242424241')).toBe(false);
    expect(isValidCardNumber('424242424242424')).toBe(false);
    expect(isValidCardNumber('42424242424242420')).toBe(false);
    expect(isValidCardNumber('4242x42424242424')).toBe(false);
    expect(isValidCardNumber(4242424242424242 as unknown as string)).toBe(false);
  });
});

describe('checkCardNumber', () => {
  it('keeps a string as exact digits, above 2^53 too', () => {
    expect(checkCardNumber('9999 9999 9999 9995')).toEqual({ ok: true, value: '9999999999999995' });
  });

  it('accepts a safe JS number', () => {
    expect(checkCardNumber(4242424242424242)).toEqual({ ok: true, value: '4242424242424242' });
  });

  it('rejects a JS number above 2^53, asking for a string', () => {
    const result = checkCardNumber(Number('9999999999999995'));
    expect(result).toMatchObject({ ok: false, code: 'unsafe_card_number' });
    expect(!result.ok && result.message).toMatch(/pass it as a string/);
  });

  it('never puts the card number in a message', () => {
    for (const input of ['4242424242424241', '424242424242', '4242-4242-abcd', 1234567812345678]) {
      const result = checkCardNumber(input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).not.toMatch(/\d{4}/);
    }
  });
});

describe('expiry and cvc', () => {
  it('takes months 1-12 as numbers or strings', () => {
    expect(checkExpiryMonth('07')).toEqual({ ok: true, value: 7 });
    expect(checkExpiryMonth(12)).toEqual({ ok: true, value: 12 });
    for (const bad of [0, 13, 1.5, '13', 'july', '007']) expect(checkExpiryMonth(bad).ok).toBe(false);
  });

  it('takes 4-digit years and explains a 2-digit one', () => {
    expect(checkExpiryYear('2030')).toEqual({ ok: true, value: 2030 });
    const result = checkExpiryYear(30);
    expect(!result.ok && result.message).toMatch(/2-digit year/);
    expect(checkExpiryYear(20301).ok).toBe(false);
  });

  it('accepts the current month and rejects the one before', () => {
    const now = new Date(Date.UTC(2030, 6, 15));
    expect(checkNotExpired(7, 2030, now).ok).toBe(true);
    expect(checkNotExpired(6, 2030, now).ok).toBe(false);
    expect(checkNotExpired(12, 2029, now).ok).toBe(false);
    expect(checkNotExpired(1, 2031, now).ok).toBe(true);
  });

  it('takes a 3-digit cvc as a string (leading zero kept) or a number', () => {
    expect(checkCvc('042')).toEqual({ ok: true, value: '042' });
    expect(checkCvc(737)).toEqual({ ok: true, value: '737' });
    for (const bad of ['1234', '12', 42, 1000, 'abc', 73.7]) {
      const result = checkCvc(bad);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).not.toMatch(/\d{2}/);
    }
  });
});

describe('checkLeadingZero', () => {
  it("refuses a card number or cvc with a leading 0 only under 'integer', and points to 'string'", () => {
    const refused = checkLeadingZero('card_number', '0000000000000000', 'integer');
    expect(refused).toMatchObject({ ok: false, code: 'card_number_leading_zero' });
    expect(!refused.ok && refused.message).toContain("cardFieldEncoding: 'string'");
    expect(checkLeadingZero('cvc', '042', 'integer')).toMatchObject({ ok: false, code: 'cvc_leading_zero' });
    expect(checkLeadingZero('card_number', '0000000000000000', 'string')).toEqual({
      ok: true,
      value: '0000000000000000',
    });
    expect(checkLeadingZero('card_number', '4242424242424242', 'integer')).toEqual({
      ok: true,
      value: '4242424242424242',
    });
  });
});
