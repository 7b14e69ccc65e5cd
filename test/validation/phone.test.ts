import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { normalizePhoneNumber } from '../../src/validation/phone.js';

describe('normalizePhoneNumber', () => {
  it.each([
    '0712345678',
    '+254 712 345 678',
    '712345678',
    '254712345678',
    '+254-712-345-678',
    '(0712) 345678',
  ])('normalises %s to 254712345678', (input) => {
    expect(normalizePhoneNumber(input)).toBe('254712345678');
  });

  it.each([
    ['+254 (0) 712 345 678', 'a 0 kept after the country code, in brackets'],
    ['+2540712345678', 'a 0 kept after the country code'],
    ['2540712345678', 'a 0 kept after the country code, no +'],
    ['0712/345/678', 'slashes'],
    ['0712\u2013345\u2014678', 'en and em dashes'],
    ['0712\u2012345\u2011678', 'figure dash and non-breaking hyphen'],
    ['+254\u2212712\u2010345\u2015678', 'minus sign, hyphen and horizontal bar'],
    ['+254\u00a0712\u202f345\u2009678', 'no-break, narrow no-break and thin spaces'],
    ['0712\u3000345\u3000678', 'ideographic spaces'],
    ['\uff10\uff17\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18', 'fullwidth digits'],
    [
      '\uff0b\uff12\uff15\uff14\u3000\uff17\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18',
      'fullwidth + and digits',
    ],
    ['\u0660\u0667\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668', 'Arabic-Indic digits'],
    [
      '\u06f0\u06f7\u06f1\u06f2\u06f3\u06f4\u06f5\u06f6\u06f7\u06f8',
      'extended Arabic-Indic (Persian) digits',
    ],
    [
      '\u200f\u0660\u0667\u0661\u0662 \u0663\u0664\u0665 \u0666\u0667\u0668',
      'Arabic-Indic digits after a right-to-left mark',
    ],
    ['\u0966\u096d\u0967\u0968\u0969\u096a\u096b\u096c\u096d\u096e', 'Devanagari digits'],
    ['07\uff11\u0662345678', 'digits of several scripts'],
    ['00254712345678', 'the international prefix 00 for +'],
    ['00254 (0) 712 345 678', 'the prefix 00 and a 0 kept after the country code'],
  ])('normalises %j (%s) to 254712345678', (input) => {
    expect(normalizePhoneNumber(input)).toBe('254712345678');
    expect(normalizePhoneNumber(input, { purpose: 'payout' })).toBe('254712345678');
  });

  it('keeps a 2541 number kept with its 0 after the country code for payments only', () => {
    expect(normalizePhoneNumber('+254 (0) 112 345 678')).toBe('254112345678');
    expect(() => normalizePhoneNumber('+254 (0) 112 345 678', { purpose: 'payout' })).toThrow(
      /payments only/,
    );
  });

  it.each([
    ['+254 (0) 812 345 678', 'not a mobile prefix'],
    ['+25400712345678', 'two zeros after the country code'],
    ['+254 (1) 712 345 678', 'a digit other than 0 in brackets'],
    ['+2540712345', 'too short'],
    ['07123456789', 'too long'],
    ['0712_345_678', 'underscores'],
    ['0712,345,678', 'commas'],
    ['0712+345678', 'a + inside the number'],
    ['++254712345678', 'two + signs'],
    ['254+712345678', 'a + after the country code'],
    ['\u2460\u2466\u2461\u2462\u2463\u2464\u2465\u2466\u2467', 'circled digits (not decimal digits)'],
    ['0\u00b2712345678', 'a superscript digit'],
    ['07123456７８a', 'a letter'],
    ['(0712) 345 678 ext 1', 'an extension'],
    ['0712 345 678\n0798 765 432', 'two numbers'],
    ['+1 712 345 678', 'another country'],
  ])('rejects %j (%s)', (input) => {
    expect(() => normalizePhoneNumber(input)).toThrow(ValidationError);
  });

  it('accepts a 2541 number for payments', () => {
    expect(normalizePhoneNumber('0112345678')).toBe('254112345678');
  });

  it('rejects a 2541 number for payouts, saying why', () => {
    const run = () => normalizePhoneNumber('0112345678', { purpose: 'payout' });
    expect(run).toThrow(ValidationError);
    expect(run).toThrow(/2547XXXXXXXX.*payments only/);
  });

  it.each(['0812345678', '+255712345678', '07123456', '2547123456789', 'abc', '', '25471234567x'])(
    'rejects %j',
    (input) => {
      expect(() => normalizePhoneNumber(input)).toThrow(ValidationError);
    },
  );

  it('teaches the expected format and shows only the start of the input', () => {
    try {
      normalizePhoneNumber('0812345678');
      expect.unreachable();
    } catch (error) {
      const issue = (error as ValidationError).issues[0]!;
      expect(issue.code).toBe('invalid_phone_number');
      expect(issue.message).toBe(
        'expected 2547XXXXXXXX or 2541XXXXXXXX, got "0812…" (10 digits)'.replace(' (10 digits)', ''),
      );
    }
  });
});

describe('options of normalizePhoneNumber', () => {
  it.each([
    ['an unknown purpose', { purpose: 'bogus' }, 'purpose'],
    ['a purpose in another case', { purpose: 'Payout' }, 'purpose'],
    ['null options', null, ''],
    ['options that are not an object', 'payout', ''],
  ])(
    'refuses %s with a ValidationError naming the option, rather than reading it as a payment',
    (_name, options, option) => {
      let error: unknown;
      try {
        normalizePhoneNumber('0112345678', options as never);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toEqual([
        expect.objectContaining({ path: option === '' ? [] : [option], code: 'invalid_option' }),
      ]);
      expect((error as Error).message).toMatch(/^Invalid phone number options: /);
    },
  );

  it('accepts both purposes, and no options or an undefined purpose as a payment', () => {
    expect(normalizePhoneNumber('0712345678', { purpose: 'payout' })).toBe('254712345678');
    expect(normalizePhoneNumber('0112345678', { purpose: 'payment' })).toBe('254112345678');
    expect(normalizePhoneNumber('0112345678', {})).toBe('254112345678');
    expect(normalizePhoneNumber('0112345678', { purpose: undefined })).toBe('254112345678');
    expect(normalizePhoneNumber('0112345678', undefined)).toBe('254112345678');
  });
});
