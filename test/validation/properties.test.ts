// Property tests: every accepted phone/amount/card normalises to the wire format; the check
// never throws on any input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCardNumber, isValidCardNumber } from '../../src/validation/card.js';
import { checkWholeNumber } from '../../src/validation/money.js';
import { checkPhoneNumber } from '../../src/validation/phone.js';

const luhnDigit = (body: string): string => {
  for (let digit = 0; digit < 10; digit += 1) if (isValidCardNumber(`${body}${digit}`)) return String(digit);
  throw new Error('unreachable');
};

describe('properties', () => {
  it('normalises every 9-digit 7/1 number, in every accepted format, to the same 254 form', () => {
    fc.assert(
      fc.property(fc.constantFrom('7', '1'), fc.stringMatching(/^\d{8}$/), (first, rest) => {
        const local = `${first}${rest}`;
        for (const input of [`0${local}`, `+254 ${local}`, local, `254${local}`]) {
          expect(checkPhoneNumber(input, 'payment')).toEqual({ ok: true, value: `254${local}` });
        }
        expect(checkPhoneNumber(`0${local}`, 'payout').ok).toBe(first === '7');
      }),
    );
  });

  it('never throws on arbitrary phone input', () => {
    fc.assert(fc.property(fc.anything(), (input) => void checkPhoneNumber(input)));
  });

  it('writes every non-negative bigint as its digits, and rejects every non-integer number', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n }), (value) => {
        expect(checkWholeNumber(value, 1)).toEqual({ ok: true, value: value.toString() });
      }),
    );
    fc.assert(
      fc.property(fc.double({ noInteger: true }), (value) => {
        expect(checkWholeNumber(value, 0).ok).toBe(false);
      }),
    );
  });

  it('accepts every Luhn-completed 16-digit string and rejects every one-digit change', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{15}$/),
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 1, max: 9 }),
        (body, position, delta) => {
          const valid = `${body}${luhnDigit(body)}`;
          expect(checkCardNumber(valid)).toEqual({ ok: true, value: valid });
          const changed = `${valid.slice(0, position)}${(Number(valid[position]) + delta) % 10}${valid.slice(position + 1)}`;
          expect(checkCardNumber(changed).ok).toBe(false);
        },
      ),
    );
  });
});
