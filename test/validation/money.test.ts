import { describe, expect, it } from 'vitest';
import { checkWholeNumber } from '../../src/validation/money.js';

describe('checkWholeNumber', () => {
  it.each([
    [1500, '1500'],
    [1500n, '1500'],
    ['1500', '1500'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
  ])('turns %s into %j', (input, expected) => {
    expect(checkWholeNumber(input, 1)).toEqual({ ok: true, value: expected });
  });

  it.each([
    12.5,
    -1,
    Number.NaN,
    Infinity,
    '1e3',
    ' 10',
    '10 ',
    '-1',
    '12.5',
    '010',
    '',
    2 ** 60,
    -1n,
    true,
    null,
  ])('rejects %s', (input) => {
    expect(checkWholeNumber(input, 0).ok).toBe(false);
  });

  it('allows a zero fee but not a zero total', () => {
    expect(checkWholeNumber(0, 0)).toEqual({ ok: true, value: '0' });
    expect(checkWholeNumber('0', 1)).toMatchObject({ ok: false, code: 'too_small' });
    expect(checkWholeNumber(0n, 1).ok).toBe(false);
  });
});
