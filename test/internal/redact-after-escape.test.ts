// A URL-encoded echo (a proxy's error page quoting the request, a redirect's query string) puts a
// percent-escape right before the card number or the cvc: `card%3A%209999%209999…` is
// `card: 9999 9999…`. The escape's last hex digit is no digit of the text, so the card and the cvc
// after it are removed as they are after the character it stands for.
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/internal/redact.js';

const card = { cardNumber: '9999999999999995', cvc: '737' };

describe('a secret right after a percent-escape ending in a digit', () => {
  it.each([
    ['an encoded space', 'q=card%3A%209999%209999%209999%209995', 'q=card%3A%20**** 9995'],
    ['an encoded tab', 'pan%099999 9999 9999 9995', 'pan%09**** 9995'],
    ['an encoded no-break space (UTF-8)', 'a%C2%A09999-9999-9999-9995', 'a%C2%A0**** 9995'],
    ['an encoded dollar sign', 'x%249999.9999.9999.9995', 'x%24**** 9995'],
  ])('masks the card number after %s', (_name, text, masked) => {
    expect(redactText(text, card)).toBe(masked);
  });

  it.each([
    ['an encoded space', 'q=cvc%3A%20737', 'q=cvc%3A%20[redacted]'],
    ['an encoded space, another after it', 'q=cvc%20737%20ok', 'q=cvc%20[redacted]%20ok'],
    ['an encoded tab', 'cvc%09737', 'cvc%09[redacted]'],
  ])('removes the cvc after %s', (_name, text, redacted) => {
    expect(redactText(text, card)).toBe(redacted);
  });

  it('still leaves a number that only ends in the cvc, or runs on from an escape, alone', () => {
    // 1737 is a number of its own; `%2737` is `'37`: neither holds the cvc as a number.
    expect(redactText('id 1737 and %2737', card)).toBe('id 1737 and %2737');
  });
});
