// redactText with the secrets echoed in forms other than as sent: a literal value (an API key, a
// signed URL's hp_sig) in another ASCII case, and the card number and cvc in any script's decimal
// digits (every \p{Nd} block, its value the code point minus the block's zero).
import { describe, expect, it } from 'vitest';
import { redactHeaders, redactText } from '../../src/internal/redact.js';

const apiKey = 'sk_live_SuperSecretKey_9f8e7d6c5b4a';
const sig = 'Xq3vK9_-abcDEFghiJKLmnoPQRstuVWXyz0123456';
const cardNumber = '4917385127649357';
const secrets = { cardNumber, cvc: '737', values: [apiKey, `Bearer ${apiKey}`, sig] };

describe('a literal value in another case', () => {
  it.each([
    ['upper-cased', apiKey.toUpperCase()],
    ['lower-cased', apiKey.toLowerCase()],
    ['URL-encoded and upper-cased', encodeURIComponent(`Bearer ${apiKey}`).toUpperCase()],
    ['as the hp_sig of a URL, upper-cased', sig.toUpperCase()],
  ])('is removed %s', (_name, echoed) => {
    expect(redactText(`HTTP/1.1 500 ${echoed} refused`, secrets)).toBe('HTTP/1.1 500 [redacted] refused');
  });

  it('is removed from a header name, which fetch lower-cases', () => {
    expect(Object.keys(redactHeaders({ [`x-${apiKey.toLowerCase()}`]: '1' }, secrets))).toEqual([
      'x-[redacted]',
    ]);
  });
});

/** The zeros of some \p{Nd} blocks: the BMP's, an astral one, the mathematical run of 50. */
const zeros = [
  ['Arabic-Indic', 0x660],
  ['Extended Arabic-Indic', 0x6f0],
  ['NKo', 0x7c0],
  ['Devanagari', 0x966],
  ['Bengali', 0x9e6],
  ['Thai', 0xe50],
  ['Myanmar', 0x1040],
  ['fullwidth', 0xff10],
  ['Osmanya (astral)', 0x104a0],
  ['mathematical bold, the first of five blocks in a row', 0x1d7ce],
  ['mathematical monospace, the last of five blocks in a row', 0x1d7f6],
  ['segmented', 0x1fbf0],
] as const;
const spell = (digits: string, zero: number) =>
  [...digits].map((digit) => String.fromCodePoint(zero + Number(digit))).join('');

describe('the card number and cvc in any decimal digits', () => {
  it.each(zeros)('are masked in %s digits, with separators or mixed with ASCII', (_script, zero) => {
    const groups = cardNumber.match(/.{4}/g)!;
    expect(redactText(`card ${spell(cardNumber, zero)}, cvc ${spell('737', zero)}.`, secrets)).toBe(
      'card **** 9357, cvc [redacted].',
    );
    expect(redactText(`card ${groups.map((group) => spell(group, zero)).join(' - ')}`, secrets)).toBe(
      'card **** 9357',
    );
    expect(redactText(`card ${groups[0]}${spell(groups.slice(1).join(''), zero)}`, secrets)).toBe(
      'card **** 9357',
    );
  });

  it.each(zeros)('leave other numbers in %s digits alone', (_script, zero) => {
    const text = `order ${spell('1234', zero)}, phone ${spell('254712345678', zero)}, ${spell('1737', zero)}`;
    expect(redactText(text, secrets)).toBe(text);
  });

  it('are not read across a digit of another script that is no separator', () => {
    const text = `${spell('4917385', 0x660)}${spell('5', 0x966)}`;
    expect(redactText(text, { cardNumber: '4917385127649357' })).toBe(text);
  });

  it('are read in linear time in a long near match', () => {
    const text = spell('1', 0x966).repeat(4_000);
    expect(redactText(text, { cardNumber: '1111111111111112' })).toBe(text);
  });
});

// The escapes the API key is read in (C's and Python's `\x34`, ES2015's `\u{34}`, a percent-escape
// `%34`), for the card number's and the cvc's digits: each digit escaped, or one of them.
const escapedDigits: readonly (readonly [string, (digit: string) => string])[] = [
  ['\\x34', (digit) => `\\x3${digit}`],
  ['\\u{34}', (digit) => `\\u{3${digit}}`],
  ['%34', (digit) => `%3${digit}`],
];

describe('the card number and cvc with their digits in another escape', () => {
  it.each(escapedDigits)('are masked with every digit written as %s', (_name, escape) => {
    const every = (digits: string) => [...digits].map(escape).join('');
    expect(redactText(`card ${every(cardNumber)}, cvc ${every('737')}.`, secrets)).toBe(
      'card **** 9357, cvc [redacted].',
    );
  });

  it.each(escapedDigits)('are masked with one digit written as %s', (_name, escape) => {
    expect(redactText(`cvc ${escape('7')}37, cvc 7${escape('3')}7`, secrets)).toBe(
      'cvc [redacted], cvc [redacted]',
    );
    expect(
      redactText(`card ${cardNumber.slice(0, 8)}${escape(cardNumber[8]!)}${cardNumber.slice(9)}`, secrets),
    ).toBe('card **** 9357');
  });

  it.each(escapedDigits)('leave other numbers written as %s alone', (_name, escape) => {
    const text = `order ${[...'1737'].map(escape).join('')}, phone ${[...'254712345678'].map(escape).join('')}`;
    expect(redactText(text, secrets)).toBe(text);
  });
});

// More escapes a server's encoder or a log line may write one character of the key in: C's and
// Python's `\x6c`, ES2015's `\u{6c}`, a character reference without its `;` (HTML reads `&#108`
// as `l`), the names `&lowbar;` and `&UnderBar;` for `_`, a percent-escape percent-encoded again
// (`%256C`: a URL put into a query), and a character reference whose `&` an HTML page quoting the
// text escaped again (`&amp;#108;`, `&amp;lowbar;`).
describe('a literal value with a character in another escape', () => {
  it.each([
    ['\\x6c', 'sk_\\x6cive_SuperSecretKey_9f8e7d6c5b4a'],
    ['\\u{6c}', 'sk_\\u{6c}ive_SuperSecretKey_9f8e7d6c5b4a'],
    ['&#108 without ;', 'sk_&#108ive_SuperSecretKey_9f8e7d6c5b4a'],
    ['&#x6c without ;', 'sk_&#x6cive_SuperSecretKey_9f8e7d6c5b4a'],
    ['&lowbar;', 'sk&lowbar;live_SuperSecretKey_9f8e7d6c5b4a'],
    ['%256C', 'sk_%256Cive_SuperSecretKey_9f8e7d6c5b4a'],
    ['%255F', 'sk%255Flive%255FSuperSecretKey%255F9f8e7d6c5b4a'],
    ['&UnderBar;', 'sk&UnderBar;live&UnderBar;SuperSecretKey&UnderBar;9f8e7d6c5b4a'],
    ['&amp;#108;', 'sk_&amp;#108;ive_SuperSecretKey_9f8e7d6c5b4a'],
    ['&amp;#x6c;', 'sk_&amp;#x6c;ive_SuperSecretKey_9f8e7d6c5b4a'],
    ['&amp;lowbar;', 'sk&amp;lowbar;live_SuperSecretKey_9f8e7d6c5b4a'],
  ])('is removed with %s', (_name, echoed) => {
    expect(redactText(`HTTP/1.1 500 ${echoed} refused`, secrets)).toBe('HTTP/1.1 500 [redacted] refused');
  });
});
