import { describe, expect, it } from 'vitest';
import { checkHttpUrl } from '../../src/validation/url.js';

describe('checkHttpUrl', () => {
  it.each([
    'https://shop.example/hooks',
    'http://localhost:3000/cb?x=1',
    'https://shop.example/callback?x=1',
    'https://shop.example/cb?email=jane@example.com',
    'https://shop.example:8443/hooks/payments?order=1&x=%20y#top',
    'https://[2001:db8::1]:8443/cb',
    'http://[::1]:3000/cb',
    'http://127.0.0.1:4010/hooks',
    'https://bücher.example/rückruf',
    'https://xn--bcher-kva.example/cb',
    'HTTPS://Shop.Example/cb',
  ])('accepts %s as it is', (url) => {
    expect(checkHttpUrl(url)).toEqual({ ok: true, value: url });
  });

  it.each(['/hooks', 'shop.example/hooks', 'ftp://shop.example', 'javascript:alert(1)', ' https://x.y', ''])(
    'rejects %j',
    (url) => {
      expect(checkHttpUrl(url)).toMatchObject({ ok: false, code: 'invalid_url' });
    },
  );

  // Each of these parses (the WHATWG parser repairs it) to a URL other than the text that would be
  // sent: the service, reading the text with its own parser, may go somewhere else.
  it.each([
    ['no // after the scheme', 'http:shop.example/cb', '//'],
    ['one slash after the scheme', 'https:/shop.example/cb', '//'],
    ['backslashes', 'https:\\\\shop.example\\cb', 'backslash'],
    ['a backslash in the path', 'https://shop.example/a\\b', 'backslash'],
    ['an embedded newline', 'https://shop.\nexample/cb', 'whitespace or control'],
    ['an embedded tab', 'https://shop.example/c\tb', 'whitespace or control'],
    ['a space in the path', 'https://shop.example/a b', 'whitespace or control'],
    ['a NUL', 'https://shop.example/cb\u0000', 'whitespace or control'],
    ['a DEL', 'https://shop.example/cb\u007f', 'whitespace or control'],
    ['a trailing newline', 'https://shop.example/cb\n', 'whitespace or control'],
    ['an empty host before the path', 'https:///shop.example', 'host'],
    ['userinfo', 'https://user:pass@shop.example/cb', 'user name or password'],
    ['a user name only', 'https://user@shop.example/cb', 'user name or password'],
    ['an empty userinfo', 'https://@shop.example/cb', 'user name or password'],
  ])('rejects a URL with %s, saying why', (_name, url, why) => {
    const result = checkHttpUrl(url);
    expect(result).toMatchObject({ ok: false, code: 'invalid_url' });
    expect(result.ok ? '' : result.message).toContain(why);
  });

  it('never quotes a URL that may carry a password', () => {
    const result = checkHttpUrl('https://user:hunter2pass@shop.example/cb');
    expect(JSON.stringify(result)).not.toContain('hunter2pass');
  });
});
