// Edges of the field checks that nothing else pins down: input a merchant may well pass (a typo, a
// stray letter, a number from a spreadsheet, a foreign phone number) that must be refused before
// anything is sent, and valid input that must not be refused.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { buildCardPaymentRequest } from '../../src/index.js';
import {
  checkCardNumber,
  checkCvc,
  checkExpiryYear,
  checkNotExpired,
  isValidCardNumber,
} from '../../src/validation/card.js';
import { checkWholeNumber } from '../../src/validation/money.js';
import { normalizePhoneNumber } from '../../src/validation/phone.js';
import { checkCardUnitPrice, checkQuantity, checkUnitPrice } from '../../src/validation/product.js';
import { checkHttpUrl } from '../../src/validation/url.js';
import { cardPaymentInput } from '../helpers/inputs.js';

describe('card number', () => {
  it('isValidCardNumber refuses a letter before the digits and a 17th digit', () => {
    // Both pass the Luhn sum when the extra character is counted.
    expect(isValidCardNumber('X4242424242424242')).toBe(false);
    expect(isValidCardNumber('42424242424242426')).toBe(false);
  });

  it('checkCardNumber refuses 17 Luhn-valid digits', () => {
    expect(checkCardNumber('42424242424242426')).toMatchObject({ ok: false, code: 'invalid_card_number' });
  });

  it.each(['424242424242a423', '424242424242.426'])(
    'checkCardNumber refuses %s (a letter or a dot among 16 characters), not reading it as digits',
    (input) => {
      expect(checkCardNumber(input)).toMatchObject({ ok: false, code: 'invalid_card_number' });
    },
  );

  it('checkCardNumber refuses a negative JS number rather than sending its minus sign', () => {
    expect(checkCardNumber(-424242424242420)).toMatchObject({ ok: false, code: 'unsafe_card_number' });
  });
});

describe('expiry year and cvc', () => {
  it.each<[string | number, string]>([
    ['x2029', 'a letter before the year'],
    ['02029', 'five digits'],
    [999, 'three digits'],
  ])('refuses the expiry year %s (%s)', (input) => {
    expect(checkExpiryYear(input)).toMatchObject({ ok: false, code: 'invalid_expiry_year' });
  });

  it('hints at a 2-digit year only when the year has 2 digits', () => {
    expect(checkExpiryYear(202)).toMatchObject({
      ok: false,
      message: expect.not.stringContaining('2-digit'),
    });
    expect(checkExpiryYear(29)).toMatchObject({ ok: false, message: expect.stringContaining('2-digit') });
  });

  it('refuses a cvc that is a fraction', () => {
    expect(checkCvc(123.5)).toMatchObject({ ok: false, code: 'invalid_cvc' });
  });

  it('reads the current month in UTC, whatever the time zone of the process', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Pacific/Honolulu';
    try {
      // 03:00 UTC on 1 February 2031 is still 31 January in Honolulu: a 01/2031 card has expired.
      expect(checkNotExpired(1, 2031, new Date('2031-02-01T03:00:00Z'))).toMatchObject({
        ok: false,
        code: 'card_expired',
      });
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe('phone numbers', () => {
  it.each([
    ['+0712345678', 'a + that is not +254'],
    ['255712345678', '12 digits of another country code (Tanzania)'],
    ['9712345678', '10 digits not starting with 0'],
    ['71234567891', '11 digits'],
    ['012345678', '9 digits starting with 0'],
    ['07a2345678', 'a letter among the digits'],
  ])('refuses %s (%s)', (input) => {
    expect(() => normalizePhoneNumber(input)).toThrow(ValidationError);
  });

  it('reads mathematical monospace digits, whose block holds several runs of 0–9, by their value', () => {
    expect(normalizePhoneNumber('𝟶𝟽𝟷𝟸𝟹𝟺𝟻𝟼𝟽𝟾')).toBe('254712345678');
  });
});

describe('amounts', () => {
  it('says a fraction has decimals, not that it is above 2^53', () => {
    const result = checkWholeNumber(12.5, 1);
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining('no decimals') });
    expect(result).toMatchObject({ message: expect.not.stringContaining('2^53') });
  });

  it('refuses a signed string as not written with digits only', () => {
    expect(checkWholeNumber('-5', 0)).toMatchObject({ ok: false, code: 'invalid_amount' });
  });
});

describe('products', () => {
  it('refuses a quantity written with an exponent', () => {
    expect(checkQuantity('1e3')).toMatchObject({ ok: false, code: 'invalid_quantity' });
  });

  it.each(['12.', '1000000000000000'])('refuses the unit price %s', (input) => {
    expect(checkUnitPrice(input)).toMatchObject({ ok: false, code: 'invalid_unit_price' });
  });

  it.each([1500, '2500'])('accepts the whole card unit price %s and sends it as a number', (price) => {
    expect(checkCardUnitPrice(price)).toMatchObject({ ok: true, value: { number: Number(price) } });
    const input = {
      ...cardPaymentInput,
      products: [{ product_id: 7, product_name: 'Coffee', quantity: 1, unit_price: price }],
    };
    expect(buildCardPaymentRequest(input).products?.[0]?.unit_price).toBe(Number(price));
  });
});

describe('URLs', () => {
  it.each(['https://shop.example?order=1', 'https://shop.example:/cb'])(
    'accepts %s (a query right after the host; an empty port)',
    (url) => {
      expect(checkHttpUrl(url)).toEqual({ ok: true, value: url });
    },
  );

  it.each([
    ['https:shop.example/r?to=https://shop.example', 'no // after the scheme, a URL later on'],
    ['http://10.0/callback', 'a shortened IPv4 address, read as 10.0.0.0'],
    ['https://shö%70.example/', 'an internationalised label with a percent-escape'],
  ])('refuses %s (%s)', (url) => {
    expect(checkHttpUrl(url)).toMatchObject({ ok: false, code: 'invalid_url' });
  });

  it('names the scheme it refuses', () => {
    expect(checkHttpUrl('ftp://files.example/x')).toMatchObject({
      ok: false,
      message: expect.stringContaining('ftp:'),
    });
  });
});
