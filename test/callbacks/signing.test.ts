import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CallbackVerificationError,
  callbackSignatureParams,
  signCallbackUrl,
  verifyCallbackUrl,
} from '../../src/callbacks/index.js';

const secret = 'whsec_0123456789abcdef';
const other = 'whsec_fedcba9876543210';
const base = 'https://shop.example/webhooks/payments';

const reason = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CallbackVerificationError);
    return (error as CallbackVerificationError).reason;
  }
  throw new Error('expected a CallbackVerificationError');
};

describe('signCallbackUrl / verifyCallbackUrl', () => {
  it('round-trips the reference', async () => {
    const signed = await signCallbackUrl(base, { secret, reference: 'ORDER-1001' });
    const url = new URL(signed);
    expect(url.searchParams.get('hp_ref')).toBe('ORDER-1001');
    expect(url.searchParams.get('hp_sig')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(callbackSignatureParams).toEqual({ reference: 'hp_ref', signature: 'hp_sig' });
    await expect(verifyCallbackUrl(signed, { secret })).resolves.toEqual({ reference: 'ORDER-1001' });
    await expect(verifyCallbackUrl(url, { secret })).resolves.toEqual({ reference: 'ORDER-1001' });
  });

  it('keeps the existing query and replaces an earlier signature', async () => {
    const once = await signCallbackUrl(`${base}?tenant=7&a=b`, { secret, reference: 'R1' });
    const twice = await signCallbackUrl(once, { secret, reference: 'R2' });
    const url = new URL(twice);
    expect(url.searchParams.get('tenant')).toBe('7');
    expect(url.searchParams.get('a')).toBe('b');
    expect(url.searchParams.getAll('hp_ref')).toEqual(['R2']);
    await expect(verifyCallbackUrl(twice, { secret })).resolves.toEqual({ reference: 'R2' });
  });

  it('handles references that need escaping', async () => {
    const reference = 'ref with spaces & = ü/?';
    const signed = await signCallbackUrl(base, { secret, reference });
    await expect(verifyCallbackUrl(signed, { secret })).resolves.toEqual({ reference });
  });

  it('round-trips a reference with white space or a plus sign at its ends, as given', async () => {
    for (const reference of [' ORDER-1 ', '\tORDER-2\n', '+ORDER-3+']) {
      const signed = await signCallbackUrl(base, { secret, reference });
      expect(new URL(signed).searchParams.get('hp_ref')).toBe(reference);
      await expect(verifyCallbackUrl(signed, { secret })).resolves.toEqual({ reference });
    }
  });

  it('refuses a changed reference', async () => {
    const url = new URL(await signCallbackUrl(base, { secret, reference: 'ORDER-1001' }));
    url.searchParams.set('hp_ref', 'ORDER-1002');
    expect(await reason(verifyCallbackUrl(url, { secret }))).toBe('bad_signature');
  });

  it('refuses a changed signature', async () => {
    const url = new URL(await signCallbackUrl(base, { secret, reference: 'ORDER-1001' }));
    const sig = url.searchParams.get('hp_sig')!;
    url.searchParams.set('hp_sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    expect(await reason(verifyCallbackUrl(url, { secret }))).toBe('bad_signature');
    url.searchParams.set('hp_sig', 'not base64!');
    expect(await reason(verifyCallbackUrl(url, { secret }))).toBe('bad_signature');
  });

  it('refuses the signature moved to another path or host', async () => {
    const signed = new URL(await signCallbackUrl(base, { secret, reference: 'ORDER-1001' }));
    const otherPath = new URL(signed);
    otherPath.pathname = '/webhooks/other';
    expect(await reason(verifyCallbackUrl(otherPath, { secret }))).toBe('bad_signature');
    const otherHost = new URL(signed);
    otherHost.host = 'evil.example';
    expect(await reason(verifyCallbackUrl(otherHost, { secret }))).toBe('bad_signature');
  });

  it('does not bind the scheme (TLS terminated by a proxy)', async () => {
    const signed = new URL(await signCallbackUrl(base, { secret, reference: 'R' }));
    signed.protocol = 'http:';
    await expect(verifyCallbackUrl(signed, { secret })).resolves.toEqual({ reference: 'R' });
  });

  it('verifies against a public origin when a proxy rewrites the host', async () => {
    const signed = new URL(await signCallbackUrl(base, { secret, reference: 'R' }));
    signed.host = 'internal:8080';
    expect(await reason(verifyCallbackUrl(signed, { secret }))).toBe('bad_signature');
    await expect(verifyCallbackUrl(signed, { secret, origin: 'https://shop.example' })).resolves.toEqual({
      reference: 'R',
    });
  });

  it('refuses a wrong secret', async () => {
    const signed = await signCallbackUrl(base, { secret, reference: 'R' });
    expect(await reason(verifyCallbackUrl(signed, { secret: other }))).toBe('bad_signature');
  });

  it('accepts any of several secrets during a rotation', async () => {
    const oldUrl = await signCallbackUrl(base, { secret: other, reference: 'R-old' });
    const newUrl = await signCallbackUrl(base, { secret, reference: 'R-new' });
    await expect(verifyCallbackUrl(oldUrl, { secret: [secret, other] })).resolves.toEqual({
      reference: 'R-old',
    });
    await expect(verifyCallbackUrl(newUrl, { secret: [secret, other] })).resolves.toEqual({
      reference: 'R-new',
    });
    expect(await reason(verifyCallbackUrl(oldUrl, { secret: [secret] }))).toBe('bad_signature');
  });

  it('verifies a URL object as it is, without changing it, and refuses one that is not http(s)', async () => {
    const signed = new URL(await signCallbackUrl(base, { secret, reference: 'ORDER-1001' }));
    const before = signed.href;
    await expect(verifyCallbackUrl(signed, { secret })).resolves.toEqual({ reference: 'ORDER-1001' });
    expect(signed.href).toBe(before);
    const ftp = new URL(signed.href.replace(/^https:/, 'ftp:'));
    expect(await reason(verifyCallbackUrl(ftp, { secret }))).toBe('invalid_url');
  });

  it('names what is missing', async () => {
    expect(await reason(verifyCallbackUrl(base, { secret }))).toBe('missing_reference');
    expect(await reason(verifyCallbackUrl(`${base}?hp_ref=R`, { secret }))).toBe('missing_signature');
    expect(await reason(verifyCallbackUrl('not a url', { secret }))).toBe('invalid_url');
    expect(await reason(verifyCallbackUrl(base, { secret: [] }))).toBe('no_secret');
    expect(await reason(verifyCallbackUrl(base, { secret: '' }))).toBe('no_secret');
  });

  it('refuses an empty reference, even under a valid signature of it', async () => {
    // signCallbackUrl never signs an empty reference; a URL whose hp_ref is empty names no order,
    // whatever its hp_sig: it must not verify as the reference ''.
    const mac = createHmac('sha256', secret)
      .update('hosted-payments/v1\nshop.example/webhooks/payments\n')
      .digest('base64url');
    expect(await reason(verifyCallbackUrl(`${base}?hp_ref=&hp_sig=${mac}`, { secret }))).toBe(
      'missing_reference',
    );
  });

  it('skips an unset entry of a rotation list, and refuses one that is not a string', async () => {
    // secret: [process.env.WEBHOOK_SECRET, process.env.WEBHOOK_SECRET_PREVIOUS] once the previous
    // one is removed from the environment.
    const signed = await signCallbackUrl(base, { secret, reference: 'R' });
    const unset = undefined as unknown as string;
    await expect(verifyCallbackUrl(signed, { secret: [secret, unset] })).resolves.toEqual({ reference: 'R' });
    await expect(verifyCallbackUrl(signed, { secret: [unset, '', secret] })).resolves.toEqual({
      reference: 'R',
    });
    expect(await reason(verifyCallbackUrl(signed, { secret: unset }))).toBe('no_secret');
    expect(await reason(verifyCallbackUrl(signed, { secret: [unset, ''] }))).toBe('no_secret');
    // null is no unset environment variable: a configuration fault, never skipped.
    const notString = null as unknown as string;
    expect(await reason(verifyCallbackUrl(signed, { secret: [secret, notString] }))).toBe('weak_secret');
  });

  it('refuses a duplicated reference parameter', async () => {
    const signed = await signCallbackUrl(base, { secret, reference: 'R' });
    expect(await reason(verifyCallbackUrl(`${signed}&hp_ref=R2`, { secret }))).toBe('missing_reference');
  });

  it('rejects bad signing input with a TypeError', async () => {
    await expect(signCallbackUrl('/relative', { secret, reference: 'R' })).rejects.toThrow(TypeError);
    await expect(signCallbackUrl(base, { secret, reference: '' })).rejects.toThrow(TypeError);
    await expect(signCallbackUrl(base, { secret: 'short', reference: 'R' })).rejects.toThrow(TypeError);
  });

  it('never puts the secret into an error', async () => {
    expect.assertions(3);
    const signed = await signCallbackUrl(base, { secret, reference: 'R' });
    const error: unknown = await verifyCallbackUrl(signed, { secret: other }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CallbackVerificationError);
    expect(String(error)).not.toContain(other);
    expect(JSON.stringify(error)).not.toContain(other);
  });

  it('accepts only the canonical spelling of a signature', async () => {
    const url = new URL(await signCallbackUrl(base, { secret, reference: 'R' }));
    const sig = url.searchParams.get('hp_sig')!;
    // 32 bytes take 43 base64url characters; the low two bits of the last one carry nothing, so
    // four characters decode to the same bytes. Only the one with those bits zero is the signature.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(sig.at(-1)!);
    expect(last % 4).toBe(0);
    for (const low of [1, 2, 3]) {
      url.searchParams.set('hp_sig', sig.slice(0, -1) + alphabet[last + low]!);
      expect(await reason(verifyCallbackUrl(url, { secret }))).toBe('bad_signature');
    }
    url.searchParams.set('hp_sig', `${sig}=`);
    expect(await reason(verifyCallbackUrl(url, { secret }))).toBe('bad_signature');
  });

  it('refuses a secret shorter than 16 characters, also in a rotation list', async () => {
    const signed = await signCallbackUrl(base, { secret, reference: 'R' });
    expect(await reason(verifyCallbackUrl(signed, { secret: 'short-secret' }))).toBe('weak_secret');
    expect(await reason(verifyCallbackUrl(signed, { secret: [secret, 'short-secret'] }))).toBe('weak_secret');
    const error: unknown = await verifyCallbackUrl(signed, { secret: 'short-secret' }).catch(
      (e: unknown) => e,
    );
    expect(String(error)).not.toContain('short-secret');
  });

  it('binds the other query parameters, in order', async () => {
    const signed = new URL(await signCallbackUrl(`${base}?tenant=7&tag=a`, { secret, reference: 'R' }));
    await expect(verifyCallbackUrl(signed, { secret })).resolves.toEqual({ reference: 'R' });
    const changed = new URL(signed);
    changed.searchParams.set('tenant', '8');
    expect(await reason(verifyCallbackUrl(changed, { secret }))).toBe('bad_signature');
    const added = new URL(signed);
    added.searchParams.append('extra', '1');
    expect(await reason(verifyCallbackUrl(added, { secret }))).toBe('bad_signature');
    const removed = new URL(signed);
    removed.searchParams.delete('tag');
    expect(await reason(verifyCallbackUrl(removed, { secret }))).toBe('bad_signature');
  });

  it('reads the other query parameters by value, not by spelling', async () => {
    const signed = await signCallbackUrl(`${base}?note=a%20b&x=~`, { secret, reference: 'R' });
    const respelled = signed.replace('note=a+b', 'note=a%20b').replace('x=%7E', 'x=~');
    expect(respelled).not.toBe(signed);
    await expect(verifyCallbackUrl(respelled, { secret })).resolves.toEqual({ reference: 'R' });
  });

  it('signs only http and https URLs', async () => {
    await expect(signCallbackUrl('ftp://shop.example/hooks', { secret, reference: 'R' })).rejects.toThrow(
      /http or https/,
    );
    expect(await reason(verifyCallbackUrl('mailto:shop@example.com?hp_ref=R&hp_sig=x', { secret }))).toBe(
      'invalid_url',
    );
  });

  it('refuses a reference that is not well-formed Unicode', async () => {
    await expect(signCallbackUrl(base, { secret, reference: 'ORDER-\uD800' })).rejects.toThrow(TypeError);
  });

  // `%C3` alone reads as U+FFFD, and runtimes write such a query back differently (Node, Bun and
  // Deno as `%EF%BF%BD`, workerd as `%C3`): the URL returned would depend on where it was signed.
  it.each(['?w=%C3', '?x=%ED%A0%80', '?discount=50%', '?q=%zz', '?a=1&b=%E2%82'])(
    'refuses a url whose query %j holds a percent-escape that is no UTF-8 character, naming the query',
    async (query) => {
      await expect(signCallbackUrl(`${base}${query}`, { secret, reference: 'R' })).rejects.toThrow(
        /signCallbackUrl: url's query must be percent-encoded UTF-8/,
      );
    },
  );

  it('signs a query of percent-encoded UTF-8 as written', async () => {
    const signed = await signCallbackUrl(`${base}?name=caf%C3%A9&sym=%E2%82%AC`, { secret, reference: 'R' });
    expect(new URL(signed).searchParams.get('name')).toBe('café');
    expect(signed).toContain('?name=caf%C3%A9&sym=%E2%82%AC&hp_ref=R&hp_sig=');
    await expect(verifyCallbackUrl(signed, { secret })).resolves.toEqual({ reference: 'R' });
  });
});

describe("verifyCallbackUrl's origin is read exactly like the handler's publicOrigin", () => {
  it.each([
    'shop.example',
    'https://shop.example/webhooks?x=1',
    'https://shop.example/webhooks',
    'https://evil@shop.example',
    'ftp://shop.example',
    'https://shop.example#x',
    ' https://shop.example',
    '',
  ])('refuses %j with a TypeError naming origin, whatever the URL', async (origin) => {
    const signed = await signCallbackUrl(base, { secret, reference: 'R' });
    for (const url of [signed, 'not a url']) {
      const error = await verifyCallbackUrl(url, { secret, origin }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(/^verifyCallbackUrl: origin must be an http\(s\) origin/);
    }
  });

  it.each([
    'https://shop.example',
    'https://shop.example/',
    'https://SHOP.example:443',
    'http://shop.example',
  ])('accepts the origin %j and verifies against its host', async (origin) => {
    const signed = new URL(await signCallbackUrl(base, { secret, reference: 'R' }));
    signed.host = 'internal:8080';
    await expect(verifyCallbackUrl(signed, { secret, origin })).resolves.toEqual({ reference: 'R' });
  });
});
