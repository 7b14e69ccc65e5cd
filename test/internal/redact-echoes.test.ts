// How redactText finds the secrets a server echoes in the spellings servers use: a cvc at the end of
// a sentence, an API key escaped in JSON (PHP's json_encode also escapes '/') or URL-encoded, and the
// values of every credential header, not the Authorization header alone.
import { describe, expect, it } from 'vitest';
import { credentialValuesOf, redactHeaders, redactText } from '../../src/internal/redact.js';

const card = { cardNumber: '9999999999999995', cvc: '737' };

describe('the cvc', () => {
  it.each([
    ['before a full stop', '{"error":"Invalid cvc 737."}', '{"error":"Invalid cvc [redacted]."}'],
    ['after a full stop', 'cvc.737 refused', 'cvc.[redacted] refused'],
    ['between full stops', 'cvc.737.', 'cvc.[redacted].'],
  ])('is removed %s', (_name, text, redacted) => {
    expect(redactText(text, card)).toBe(redacted);
  });

  // A service that reads the cvc into a double echoes it as one: Java and Python print 737.0, a
  // fixed format 737.00, C's %e 7.370000e+02, Java's BigDecimal 7.37E+2.
  it.each([
    ['as a JSON double', '{"cvc":737.0}', '{"cvc":"[redacted]"}'],
    [
      'as a double with two decimals',
      '{"card_details":{"cvc":737.00}}',
      '{"card_details":{"cvc":"[redacted]"}}',
    ],
    ['in scientific notation', '{"cvc":7.37e2}', '{"cvc":"[redacted]"}'],
    ['in scientific notation, a signed exponent', '{"cvc":7.37E+2}', '{"cvc":"[redacted]"}'],
    ["as C's %e prints it", 'cvc 7.370000e+02 refused', 'cvc [redacted] refused'],
    ['as a double in a sentence', 'Invalid cvc 737.0.', 'Invalid cvc [redacted].'],
    ['as a double in a list', '{"ids":[737.0,1]}', '{"ids":["[redacted]",1]}'],
  ])('is removed %s', (_name, text, redacted) => {
    expect(redactText(text, card)).toBe(redacted);
  });

  it('is removed as 7E+2 when it is 700, not inside an id or a word', () => {
    const round = { cvc: '700' };
    expect(redactText('cvc 7E+2 or 7.00e2 or 700.0', round)).toBe(
      'cvc [redacted] or [redacted] or [redacted]',
    );
    expect(redactText('request 3f7e2c, 7e2x, 7e20', round)).toBe('request 3f7e2c, 7e2x, 7e20');
  });

  it('is removed as 1E+2 when it is 100, the smallest cvc without a leading zero', () => {
    expect(redactText('cvc 1E+2 or 1.00e2', { cvc: '100' })).toBe('cvc [redacted] or [redacted]');
  });

  it('is left alone at the end of a word that reads as its value in scientific notation', () => {
    const round = { cvc: '700' };
    expect(redactText('build x7e2 and v7e2', round)).toBe('build x7e2 and v7e2');
  });

  it.each([
    ['the whole part of a decimal', 'fee 737.45 KES'],
    ['the whole part of a decimal ending in 0', 'fee 737.50 KES'],
    ['a decimal with a zero after its point', 'fee 737.05 KES'],
    ['another number in scientific notation', 'limits 7.37e3 and 7.371e2 and 7.37e-2'],
    ['a version with a zero in it', 'v737.0.1 and v1.737.0'],
    ['the fraction of a decimal', 'rate 0.737'],
    ['inside a larger number', 'id 1737 and 7370'],
    ['a part of a version number', 'v1.737.2'],
    ['the mantissa of another number', '{"amount":737.0e5,"fee":737e2,"tax":737.00E-3}'],
  ])('is left alone as %s', (_name, text) => {
    expect(redactText(text, card)).toBe(text);
  });
});

describe('a literal value such as an API key', () => {
  it.each([
    ['JSON-escaped', 'sk_live"q\\x', '{"error":"bad key sk_live\\"q\\\\x"}'],
    [
      'with every / escaped, as PHP json_encode writes it',
      'sk_live/abc+def=',
      '{"error":"bad key sk_live\\/abc+def="}',
    ],
    ['JSON-escaped with every / escaped', 'sk/live"x', '{"error":"bad key sk\\/live\\"x"}'],
    ['URL-encoded', 'sk_live/abc+def=', '{"error":"invalid","key":"sk_live%2Fabc%2Bdef%3D"}'],
    ['URL-encoded, a space in it', 'sk live', 'next=/retry?key=sk%20live'],
  ])('is removed %s', (_name, key, text) => {
    const redacted = redactText(text, { values: [key] });
    expect(redacted).toContain('[redacted]');
    for (const form of [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key)]) {
      expect(redacted).not.toContain(form);
    }
    expect(redacted).not.toContain(JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/'));
  });

  // A percent-escape's hex digits are upper-case from encodeURIComponent, lower-case from .NET's
  // HttpUtility.UrlEncode; either decodes to the key.
  it.each([
    ['with lower-case hex (.NET HttpUtility.UrlEncode)', 'sk_live_ab%2bcd%2fef%3dgh12345678'],
    ['with hex of both cases', 'sk_live_ab%2Bcd%2fef%3Dgh12345678'],
    ['in a Bearer value with lower-case hex', 'Bearer%20sk_live_ab%2bcd%2fef%3dgh12345678'],
  ])('is removed URL-encoded %s', (_name, echoed) => {
    const key = 'sk_live_ab+cd/ef=gh12345678';
    expect(decodeURIComponent(echoed)).toContain(key);
    expect(redactText(`{"retry":"/login?authorization=${echoed}"}`, { values: [`Bearer ${key}`, key] })).toBe(
      '{"retry":"/login?authorization=[redacted]"}',
    );
  });

  it('is looked for in linear time in a 1 MiB reply of URL-encoded near matches', () => {
    const text = 'sk_live_ab%2bcd%2fef%3dgh1234567 '.repeat(Math.ceil((1 << 20) / 33));
    const start = performance.now();
    expect(redactText(text, { values: ['sk_live_ab+cd/ef=gh12345678'] })).toBe(text);
    expect(performance.now() - start).toBeLessThan(2_000);
  });

  it('is removed however short it is', () => {
    expect(redactText('{"error":"invalid key abc12"}', { values: ['abc12'] })).toBe(
      '{"error":"invalid key [redacted]"}',
    );
  });

  it('is removed once where its spellings overlap, leaving the text around it', () => {
    expect(
      redactText('a sk_live/x b sk_live\\/x c sk_live%2Fx d', { values: ['Bearer sk_live/x', 'sk_live/x'] }),
    ).toBe('a [redacted] b [redacted] c [redacted] d');
  });

  it('an empty value removes nothing', () => {
    expect(redactText('nothing to hide', { values: [''] })).toBe('nothing to hide');
  });
});

describe('credential headers', () => {
  const sent = {
    'content-type': 'application/json',
    authorization: 'Bearer sk_live_bearer1',
    'proxy-authorization': 'Basic cHJveHk6cHc=',
    'x-api-key': 'sk_live_xapikey1',
    'Api-Key': 'sk_live_apikey1',
    cookie: 'session=sk_live_cookie1',
    'x-request-id': 'req-1',
  };

  it('give their values, and the credentials after an auth scheme, as secrets', () => {
    expect(credentialValuesOf(sent).sort()).toEqual(
      [
        'Bearer sk_live_bearer1',
        'sk_live_bearer1',
        'Basic cHJveHk6cHc=',
        'cHJveHk6cHc=',
        'sk_live_xapikey1',
        'sk_live_apikey1',
        'session=sk_live_cookie1',
      ].sort(),
    );
  });

  it('are shown with only their auth scheme, or not at all', () => {
    expect(redactHeaders(sent)).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer [redacted]',
      'proxy-authorization': 'Basic [redacted]',
      'x-api-key': '[redacted]',
      'Api-Key': '[redacted]',
      cookie: '[redacted]',
      'x-request-id': 'req-1',
    });
  });

  it('include a name with pwd or pin as a whole part, not inside a longer word', () => {
    const named = {
      'x-merchant-pwd': 'hunter2hunter2hunter2',
      'x-api-pin': '98765432',
      'X-PIN': '4321',
      pwd: 'pw-1234567',
      x_user_pin_code: '12345678',
      'x-pinned-cert': 'sha256-abcdef',
      'x-spinner': 'on',
      'x-pwdless': 'true',
      'x-shipping': 'express',
    };
    expect(redactHeaders(named, { values: credentialValuesOf(named) })).toEqual({
      ...named,
      'x-merchant-pwd': '[redacted]',
      'x-api-pin': '[redacted]',
      'X-PIN': '[redacted]',
      pwd: '[redacted]',
      x_user_pin_code: '[redacted]',
    });
    // From 8 characters their values are removed wherever a body echoes them.
    expect(credentialValuesOf(named).sort()).toEqual(
      ['hunter2hunter2hunter2', '98765432', 'pw-1234567', '12345678'].sort(),
    );
  });

  it('are removed from a text echoing any of them', () => {
    const secrets = { values: credentialValuesOf(sent) };
    const echoed =
      'keys sk_live_bearer1, sk_live_xapikey1, sk_live_apikey1, session=sk_live_cookie1, cHJveHk6cHc=';
    expect(redactText(echoed, secrets)).toBe(
      'keys [redacted], [redacted], [redacted], [redacted], [redacted]',
    );
  });
});
