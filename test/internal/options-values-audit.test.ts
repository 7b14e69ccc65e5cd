// Options and values audit: a misspelt option is refused by name (never dropped in silence), an
// options value that is not an object is refused, and a key in a secret's place (a card number,
// an API key) never reaches a message; what a message may say of a value is its type only.
import { describe, expect, it } from 'vitest';
import { refuseUnknownOptions } from '../../src/internal/known-options.js';
import { concatBytes, encoder } from '../../src/internal/bytes.js';
import {
  asciiLower,
  isNameLike,
  isPlainObject,
  keyShown,
  shown,
  typeName,
} from '../../src/internal/values.js';

const known = { publicOrigin: true, onContradiction: true } as const;

describe('refuseUnknownOptions audit', () => {
  it('passes no options, and known ones', () => {
    expect(() => refuseUnknownOptions('verifyCallbackUrl', undefined, known)).not.toThrow();
    expect(() => refuseUnknownOptions('verifyCallbackUrl', { publicOrigin: 'x' }, known)).not.toThrow();
  });

  it.each([null, 'reject', 42, true])('refuses %j as the options', (options) => {
    expect(() => refuseUnknownOptions('parseCallback', options, known)).toThrow(
      new TypeError('parseCallback: options must be an object'),
    );
  });

  it('names a misspelt option and lists the known ones', () => {
    expect(() =>
      refuseUnknownOptions('parseCallback', { publicOrign: 'https://shop.example' }, known),
    ).toThrow(
      new TypeError(
        'parseCallback: unknown option "publicOrign"; the options are publicOrigin, onContradiction',
      ),
    );
  });

  it('refuses a misspelt option that comes after a known one', () => {
    expect(() =>
      refuseUnknownOptions('parseCallback', { publicOrigin: 'x', onContradictions: 'accept' }, known),
    ).toThrow(/unknown option "onContradictions"/);
  });

  it('does not take an inherited name such as toString for a known option', () => {
    expect(() => refuseUnknownOptions('parseCallback', { toString: 'x' }, known)).toThrow(
      /unknown option "toString"/,
    );
  });

  it('never shows a card number or an API key given as an option name', () => {
    const attempt = () => refuseUnknownOptions('parseCallback', { '4111111111111111': true }, known);
    expect(attempt).toThrow('unknown option of 16 characters (not shown)');
    expect(attempt).not.toThrow(/4111/);
  });
});

describe('values audit', () => {
  it('names the type of a value, never the value', () => {
    expect(typeName(null)).toBe('null');
    expect(typeName([1])).toBe('array');
    expect(typeName('4111111111111111')).toBe('string');
  });

  it('takes an object literal or one without a prototype as plain, and nothing else', () => {
    expect(isPlainObject({ a: 1 })).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject(new Map())).toBe(false);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(null)).toBe(false);
  });

  it('cuts a long value to 24 characters', () => {
    expect(shown('x'.repeat(24))).toBe('x'.repeat(24));
    expect(shown('x'.repeat(25))).toBe(`${'x'.repeat(24)}…`);
  });

  it('quotes only a name-like key, never digits or a long token', () => {
    expect(isNameLike('publicOrign')).toBe(true);
    expect(isNameLike('a'.repeat(32))).toBe(true);
    expect(isNameLike('a'.repeat(33))).toBe(false);
    expect(isNameLike('4111111111111111')).toBe(false);
    expect(isNameLike('x4111111111111111')).toBe(false);
    expect(isNameLike('sk_live_4eC39HqLyjWDarjtT1zdp7dc')).toBe(false);
    expect(isNameLike('9 key')).toBe(false);
    expect(keyShown('sk_live_4eC39HqLyjWDarjtT1zdp7dc')).toBe('of 32 characters (not shown)');
  });

  it('lower-cases every ASCII capital and nothing else', () => {
    expect(asciiLower('X-API-KEY')).toBe('x-api-key');
    expect(asciiLower('İSTANBUL')).toBe('İstanbul');
  });
});

describe('concatBytes audit', () => {
  it('joins the chunks of a body in order', () => {
    const body = concatBytes([encoder.encode('{"a":'), encoder.encode('1'), encoder.encode('}')], 7);
    expect(new TextDecoder().decode(body)).toBe('{"a":1}');
  });
});
