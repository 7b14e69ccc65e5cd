// What a merchant relies on when the handler trusts a callback URL, beyond the published vectors:
// only the exact hp_sig that was issued verifies (no re-spelt copy slips past the dedupe key),
// every query parameter is signed as docs/signing.md writes it (so other languages agree), the Web
// Crypto path gives the same signatures as node:crypto and keeps a bounded key cache, and an
// `origin` with hidden characters is refused rather than read as another one.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as SigningModule from '../../src/callbacks/signing.js';
import { signCallbackUrl, verifyCallbackUrl } from '../../src/callbacks/signing.js';
import { CallbackVerificationError } from '../../src/errors.js';

const secret = 'whsec_0123456789abcdef';
const base = 'https://shop.example/webhooks/payments';

const reasonOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'verified',
    (error: unknown) => (error instanceof CallbackVerificationError ? error.reason : error),
  );

/** A fresh copy of the signing module that cannot reach node:crypto (the Web Crypto path). */
async function loadWebCryptoSigning(): Promise<typeof SigningModule> {
  vi.resetModules();
  vi.spyOn(process, 'getBuiltinModule').mockImplementation(() => undefined as never);
  return import('../../src/callbacks/signing.js');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('only the hp_sig that was issued verifies', () => {
  it.each([
    ['with a trailing space', (sig: string) => `${sig}%20`],
    ['with a trailing plus (a space in a form)', (sig: string) => `${sig}+`],
    ['with a leading space', (sig: string) => `%20${sig}`],
    ['with its letters in another case', (sig: string) => sig.replace(/[a-z]/, (c) => c.toUpperCase())],
    ['in upper case throughout', (sig: string) => sig.toUpperCase()],
  ])('a signature %s is refused as bad_signature', async (_label, respell) => {
    const signed = new URL(await signCallbackUrl(base, { secret, reference: 'ORDER-1' }));
    const sig = signed.searchParams.get('hp_sig')!;
    expect(sig).toMatch(/[a-z]/);
    const respelt = signed.href.replace(`hp_sig=${sig}`, `hp_sig=${respell(sig)}`);
    expect(respelt).not.toBe(signed.href);
    await expect(reasonOf(verifyCallbackUrl(respelt, { secret }))).resolves.toBe('bad_signature');
  });
});

describe('every query parameter is signed as the published scheme writes it', () => {
  it('percent-encodes reserved characters in names and values (RFC 3986, upper-case hex)', async () => {
    // Form-decoded: next = "/a?b=c&d", "n a+me" = "€!*".
    const url = `${base}?next=%2Fa%3Fb%3Dc%26d&n+a%2Bme=%E2%82%AC!*`;
    const signed = new URL(await signCallbackUrl(url, { secret, reference: 'ORDER-1' }));
    const message =
      'hosted-payments/v1\nshop.example/webhooks/payments?next=%2Fa%3Fb%3Dc%26d&n%20a%2Bme=%E2%82%AC%21%2A\nORDER-1';
    expect(signed.searchParams.get('hp_sig')).toBe(
      createHmac('sha256', secret).update(message).digest('base64url'),
    );
    await expect(verifyCallbackUrl(signed, { secret })).resolves.toEqual({ reference: 'ORDER-1' });
  });

  it('signs a parameter with an empty name, so one added later breaks the signature', async () => {
    const withEmptyName = await signCallbackUrl(`${base}?=x`, { secret, reference: 'ORDER-1' });
    const message = 'hosted-payments/v1\nshop.example/webhooks/payments?=x\nORDER-1';
    expect(new URL(withEmptyName).searchParams.get('hp_sig')).toBe(
      createHmac('sha256', secret).update(message).digest('base64url'),
    );
    await expect(verifyCallbackUrl(withEmptyName, { secret })).resolves.toEqual({ reference: 'ORDER-1' });

    const signed = await signCallbackUrl(base, { secret, reference: 'ORDER-1' });
    await expect(reasonOf(verifyCallbackUrl(`${signed}&=injected`, { secret }))).resolves.toBe(
      'bad_signature',
    );
  });
});

describe('the Web Crypto path', () => {
  it('gives the same signature as node:crypto for every reference, whatever base64url characters it holds', async () => {
    const web = await loadWebCryptoSigning();
    const sigs: string[] = [];
    for (let i = 0; i < 200; i++) {
      const reference = `ORDER-${i}`;
      const signed = new URL(await web.signCallbackUrl(base, { secret, reference }));
      const message = `hosted-payments/v1\nshop.example/webhooks/payments\n${reference}`;
      const sig = signed.searchParams.get('hp_sig')!;
      expect(sig, reference).toBe(createHmac('sha256', secret).update(message).digest('base64url'));
      sigs.push(sig);
    }
    // The sample holds signatures with several of each character standard base64 spells otherwise.
    expect(sigs.some((sig) => sig.split('_').length > 2)).toBe(true);
    expect(sigs.some((sig) => sig.split('-').length > 2)).toBe(true);
  });

  it('imports each secret once, and keeps at most 16 keys', async () => {
    const web = await loadWebCryptoSigning();
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const signed = await web.signCallbackUrl(base, { secret, reference: 'ORDER-1' });
    for (let i = 0; i < 3; i++) {
      await expect(web.verifyCallbackUrl(signed, { secret })).resolves.toEqual({ reference: 'ORDER-1' });
    }
    expect(importKey).toHaveBeenCalledTimes(1);

    for (let i = 0; i < 16; i++) {
      await web.signCallbackUrl(base, { secret: `${secret}-other-${i}`, reference: 'ORDER-1' });
    }
    expect(importKey).toHaveBeenCalledTimes(17);
    // The first secret was the oldest of 17: it was dropped, and is imported again (and still verifies).
    await expect(web.verifyCallbackUrl(signed, { secret })).resolves.toEqual({ reference: 'ORDER-1' });
    expect(importKey).toHaveBeenCalledTimes(18);
  });
});

describe('origin', () => {
  it.each([
    ['a trailing newline', 'https://shop.example\n'],
    ['a tab inside', 'https://shop.\texample'],
    ['a leading control character', '\u0001https://shop.example'],
  ])('with %s is refused, not read as the origin the URL parser would leave', async (_label, origin) => {
    const signed = await signCallbackUrl(base, { secret, reference: 'R' });
    const error = await verifyCallbackUrl(signed, { secret, origin }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^verifyCallbackUrl: origin must be an http\(s\) origin/);
  });

  it('with a non-default port pins that port too', async () => {
    const signed = new URL(
      await signCallbackUrl('https://shop.example:8443/webhooks', { secret, reference: 'R' }),
    );
    signed.host = 'internal:8080';
    await expect(verifyCallbackUrl(signed, { secret, origin: 'https://shop.example:8443' })).resolves.toEqual(
      {
        reference: 'R',
      },
    );
    await expect(
      reasonOf(verifyCallbackUrl(signed, { secret, origin: 'https://shop.example' })),
    ).resolves.toBe('bad_signature');
    await expect(
      reasonOf(verifyCallbackUrl(signed, { secret, origin: 'https://shop.example:9443' })),
    ).resolves.toBe('bad_signature');
  });

  it('that is a URL object, not a string, is refused', async () => {
    const signed = await signCallbackUrl(base, { secret, reference: 'R' });
    const origin = new URL('https://shop.example') as unknown as string;
    await expect(verifyCallbackUrl(signed, { secret, origin })).rejects.toThrow(TypeError);
  });
});

describe('a missing secret', () => {
  it('is named as missing, not as a value of the wrong type', async () => {
    const options = { secret: undefined as unknown as string, reference: 'R' };
    await expect(signCallbackUrl(base, options)).rejects.toThrow(
      /^signCallbackUrl: secret is missing; it needs at least 16 characters$/,
    );
  });
});
