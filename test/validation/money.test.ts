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

describe('an amount refused, in its message', () => {
  const message = (input: unknown) => {
    const result = checkWholeNumber(input, 1);
    if (result.ok) throw new Error('accepted');
    return result.message;
  };

  it.each([
    ['1500.00', '"1500.00"'],
    ['15.50', '"15.50"'],
    ['1,500', '"1,500"'],
    ['1 500', '"1 500"'],
    ['1e3', '"1e3"'],
    ['+1500', '"+1500"'],
    ['0100', '"0100"'],
  ])('is shown whole when it is an amount written another way: %s', (input, shown) => {
    expect(message(input)).toContain(`got ${shown}`);
  });

  it.each([
    ['a card number with a decimal', '4242424242424242.0', '"4242…"'],
    ['a card number with spaces', '4242 4242 4242 4242', '"4242…"'],
    ['an amount of 17 characters', '1000000000.000000', '"1000…"'],
    ['a word', 'sk_live_abc', '"sk_l…"'],
  ])('shows only its start when it is %s', (_what, input, shown) => {
    expect(message(input)).toContain(`got ${shown}`);
    expect(message(input)).not.toContain(input);
  });
});
