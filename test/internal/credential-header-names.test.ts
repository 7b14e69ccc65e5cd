// Headers of the merchant's own naming that hold a credential (the API reference names no scheme,
// so a service may want `x-merchant-key` or `x-api-token`): a header dump shows none of their
// value, and a value of 8 characters or more is removed from every text the server echoes. The
// listed credential headers (`api-key`, `set-cookie`, …) give their value however short it is, and
// an auth scheme followed by more than one space still gives the bare credential.
import { describe, expect, it } from 'vitest';
import { credentialValuesOf, redactHeaders, redactText } from '../../src/internal/redact.js';

const credential = 'merchant-credential-1';

describe('a header whose name names a credential', () => {
  it.each([
    'x-auth',
    'x-merchant-token',
    'x-merchant-key',
    'x-client-secret',
    'x-passphrase',
    'x-session-id',
    'x-cookie-jar',
    'x-creds',
    'x-sig',
    'x-hmac',
    'x-jwt',
  ])('%s shows no value, and its value is removed from an echo', (name) => {
    const headers = { [name]: credential, 'x-request-id': 'req-1' };
    expect(redactHeaders(headers)).toEqual({ [name]: '[redacted]', 'x-request-id': 'req-1' });
    const secrets = { values: credentialValuesOf(headers) };
    expect(redactText(`{"echo":"${credential}"}`, secrets)).toBe('{"echo":"[redacted]"}');
  });

  it('is not one where pwd or pin only ends a longer word', () => {
    const headers = { 'x-tailspin': 'on', 'x-reqpwd': 'off' };
    expect(redactHeaders(headers)).toEqual(headers);
  });
});

describe('the values a request’s credential headers give', () => {
  it('include a listed credential header’s value however short, and a named one’s from 8 characters', () => {
    const headers = {
      'api-key': 'k1',
      'set-cookie': 'sid=9',
      'x-session': '1234567',
      'x-merchant-key': '12345678',
    };
    expect(credentialValuesOf(headers).sort()).toEqual(['k1', 'sid=9', '12345678'].sort());
  });

  it('include the bare credential after an auth scheme followed by several spaces', () => {
    const headers = { authorization: 'Bearer  sk_live_two_spaces' };
    expect(credentialValuesOf(headers)).toContain('sk_live_two_spaces');
    const secrets = { values: credentialValuesOf(headers) };
    expect(redactText('key sk_live_two_spaces refused', secrets)).toBe('key [redacted] refused');
  });
});
