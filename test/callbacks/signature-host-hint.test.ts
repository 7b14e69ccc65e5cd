// A 401 invalid_signature tells the merchant which host the signature was checked against and,
// when that host came from the request, that a proxy may have changed it: behind nginx's default
// `proxy_pass` every genuine callback is refused with 401, which the sender does not retry.
import { describe, expect, it } from 'vitest';
import {
  CallbackVerificationError,
  createCallbackHandler,
  signCallbackUrl,
  verifyCallbackUrl,
  type CallbackHandlerError,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { caught } from '../helpers/caught.js';

const secret = 'whsec_0123456789abcdef';
const payload = callbackFixtures['payment.card.succeeded'];

/** The signed public URL as the app behind the proxy sees it: same path and query, another host. */
const behindProxy = (signed: string, host: string) => {
  const url = new URL(signed);
  return `http://${host}${url.pathname}${url.search}`;
};
const post = (url: string) =>
  new Request(url, {
    method: 'POST',
    body: JSON.stringify(payload),
    headers: { 'content-type': 'application/json' },
  });

describe('the message of a signature that does not match', () => {
  it('reads as one sentence, each parenthesis closed once', async () => {
    const signed = await signCallbackUrl('https://shop.example/webhooks/payments', {
      secret: 'another-secret-0123456789',
      reference: 'ORD-1',
    });
    const unpinned = await caught(() => verifyCallbackUrl(signed, { secret }));
    expect((unpinned as Error).message).toBe(
      "Callback URL signature does not match for host shop.example and path /webhooks/payments: a wrong secret, or the reference, path or query was changed; the host was taken from the request: behind a proxy that changes it, set publicOrigin (verifyCallbackUrl's origin)",
    );
    const pinned = await caught(() => verifyCallbackUrl(signed, { secret, origin: 'https://shop.example' }));
    expect((pinned as Error).message).toBe(
      'Callback URL signature does not match for host shop.example and path /webhooks/payments: a wrong secret, or the reference, path or query was changed; the host is the origin given: a URL signed for another host does not verify',
    );
  });

  it('without publicOrigin: names the host taken from the request and says to set publicOrigin', async () => {
    const signed = await signCallbackUrl('https://shop.example/webhooks/payments', {
      secret,
      reference: 'ORD-1',
    });
    const errors: CallbackHandlerError[] = [];
    const handler = createCallbackHandler({
      secret,
      onEvent: () => undefined,
      onError: (error) => void errors.push(error),
    });
    const response = await handler(post(behindProxy(signed, '127.0.0.1:3000')));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'invalid_signature' });
    expect(errors[0]).toBeInstanceOf(CallbackVerificationError);
    expect(errors[0]!.message).toContain('127.0.0.1:3000');
    expect(errors[0]!.message).toMatch(/from the request/);
    expect(errors[0]!.message).toMatch(/publicOrigin/);
  });

  it('with the origin pinned: names the pinned host, and a wrong secret is not blamed on a proxy', async () => {
    const signed = await signCallbackUrl('https://shop.example/webhooks/payments', {
      secret: 'another-secret-0123456789',
      reference: 'ORD-1',
    });
    const error = await caught(() => verifyCallbackUrl(signed, { secret, origin: 'https://shop.example' }));
    expect(error).toMatchObject({ reason: 'bad_signature' });
    expect((error as Error).message).toContain('shop.example');
    expect((error as Error).message).not.toMatch(/publicOrigin|proxy/);
  });

  it('with the origin pinned: says a URL signed for another host does not verify against it', async () => {
    const signed = await signCallbackUrl('http://127.0.0.1:3000/webhooks/payments', {
      secret,
      reference: 'ORD-1',
    });
    const errors: CallbackHandlerError[] = [];
    const handler = createCallbackHandler({
      secret,
      publicOrigin: 'http://localhost:3000',
      onEvent: () => undefined,
      onError: (error) => void errors.push(error),
    });
    expect((await handler(post(signed))).status).toBe(401);
    expect(errors[0]!.message).toContain('localhost:3000');
    expect(errors[0]!.message).toMatch(/signed for another host/);
  });

  it("cuts a long host in the message (the Host is the sender's to choose)", async () => {
    const errors: CallbackHandlerError[] = [];
    const handler = createCallbackHandler({
      secret,
      onEvent: () => undefined,
      onError: (e) => void errors.push(e),
    });
    const signed = await signCallbackUrl('https://shop.example/webhooks/payments', {
      secret,
      reference: 'ORD-1',
    });
    const response = await handler(post(behindProxy(signed, `${'a'.repeat(12_000)}.example`)));
    expect(response.status).toBe(401);
    expect(errors[0]!.message.length).toBeLessThan(400);
  });

  // Behind a proxy that strips or adds a path prefix the host is right and the path is not: the
  // message named the host only, and an operator had to log the path to see it. (With publicOrigin
  // set it does not mention a proxy: a wrong secret is not blamed on one.)
  it('names the path it checked', async () => {
    const signed = await signCallbackUrl('https://shop.example/shop/webhooks/payments', {
      secret,
      reference: 'ORD-1',
    });
    const errors: CallbackHandlerError[] = [];
    const handler = createCallbackHandler({
      secret,
      publicOrigin: 'https://shop.example',
      onEvent: () => undefined,
      onError: (error) => void errors.push(error),
    });
    const stripped = new URL(signed);
    stripped.pathname = '/webhooks/payments';
    expect((await handler(post(stripped.href))).status).toBe(401);
    expect(errors[0]!.message).toContain('path /webhooks/payments');
    expect(errors[0]!.message).not.toContain(new URL(signed).searchParams.get('hp_sig')!);
  });
});
