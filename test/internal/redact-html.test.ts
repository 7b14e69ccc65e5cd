// Echoes redactText must also find: an API key a server HTML-escaped (an error page, an HTML-safe
// JSON encoder), a cvc with a space or dash between its digits; and the header names whose values
// are credentials in a response (set-cookie) or a request (x-auth-token, x-access-token).
import { describe, expect, it } from 'vitest';
import { credentialValuesOf, redactHeaders, redactText } from '../../src/internal/redact.js';

const card = { cardNumber: '9999999999999995', cvc: '737' };

describe('an API key echoed HTML-escaped', () => {
  const key = 'sk_live/ab+cd=&x';
  it.each([
    ['with hex references', 'sk_live&#x2F;ab&#x2B;cd&#x3D;&amp;x'],
    ['with lower-case hex references', 'sk_live&#x2f;ab&#x2b;cd&#x3d;&amp;x'],
    ['with decimal references', 'sk_live&#47;ab&#43;cd&#61;&#38;x'],
    ['with padded references', 'sk_live&#x002F;ab&#0043;cd&#X3D;&#x26;x'],
    ['with named references', 'sk_live&sol;ab&plus;cd&equals;&amp;x'],
    ['with only & escaped', 'sk_live/ab+cd=&amp;x'],
  ])('is removed %s', (_name, echoed) => {
    expect(redactText(`<p>invalid key ${echoed}</p>`, { values: [key] })).toBe(
      '<p>invalid key [redacted]</p>',
    );
  });

  it('is removed when the JSON-escaped spelling was HTML-escaped', () => {
    expect(redactText('key: sk\\&quot;x\\&#x2F;y and sk&#92;&#34;x&#92;/y', { values: ['sk"x/y'] })).toBe(
      'key: [redacted] and [redacted]',
    );
  });

  it('leaves a reference to another character alone', () => {
    const text = 'sk_live&#x2E;ab&#43;cd&#61;&amp;x';
    expect(redactText(text, { values: [key] })).toBe(text);
  });
});

describe('a cvc with separators between its digits', () => {
  it.each([
    ['spaces', 'cvc 7 3 7 refused', 'cvc [redacted] refused'],
    ['dashes', 'cvc 7-3-7 refused', 'cvc [redacted] refused'],
    ['after a masked card number', '**** 9995 7 3 7', '**** 9995 [redacted]'],
  ])('is removed with %s', (_name, text, redacted) => {
    expect(redactText(text, card)).toBe(redacted);
  });

  it.each([
    ['with two different separators', 'items 7 3-7'],
    ['inside a longer number', 'ref 17 3 7 and 7 3 71'],
    ['as a version', 'v7.3.7'],
    ['in a list', '[7, 3, 7]'],
  ])('is left alone %s', (_name, text) => {
    expect(redactText(text, card)).toBe(text);
  });
});

describe('more credential headers', () => {
  it('shows set-cookie, x-auth-token and x-access-token as [redacted]', () => {
    expect(
      redactHeaders({
        'set-cookie': 'session=abc123; Path=/; HttpOnly',
        'X-Auth-Token': 'tok_auth_1',
        'x-access-token': 'tok_access_1',
        'x-request-id': 'req-1',
      }),
    ).toEqual({
      'set-cookie': '[redacted]',
      'X-Auth-Token': '[redacted]',
      'x-access-token': '[redacted]',
      'x-request-id': 'req-1',
    });
  });

  it('takes their values sent as secrets, removed where the service echoes them', () => {
    const values = credentialValuesOf({ 'x-auth-token': 'tok_auth_1', 'x-access-token': 'tok_access_1' });
    expect(redactText('tokens tok_auth_1 and tok_access_1', { values })).toBe(
      'tokens [redacted] and [redacted]',
    );
  });
});
