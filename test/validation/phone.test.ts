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
