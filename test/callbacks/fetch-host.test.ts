// Deno.serve and workerd build `request.url` as "http://" + Host + request-target, so a Host
// header holding a path, query or fragment chooses the path and query the signature is checked
// against: `POST /admin/other` with `Host: shop.example/webhooks/payments?hp_ref=…&hp_sig=…#`
// becomes http://shop.example/webhooks/payments?hp_ref=…&hp_sig=…#/admin/other. The request-target
// alone names the signed path (as toNodeListener reads it): a Host that is not one host[:port], or
// a URL with a fragment (no request-target has one), is refused 400 invalid_request, unverified.
// Those Requests are built here as those runtimes build them (red team, Deno 2.9 and workerd).
import { describe, expect, it } from 'vitest';
import { createCallbackHandler, signCallbackUrl } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const secret = 'whsec_fetch_host_0123456789';
const body = JSON.stringify(callbackFixtures['checkout.succeeded']);
const reference = '1001'; // the fixture's order_id

function route(publicOrigin?: string) {
  const seen: string[] = [];
  const handler = createCallbackHandler({
    secret,
    ...(publicOrigin === undefined ? {} : { publicOrigin }),
    onEvent: (event) => void seen.push(`${event.type} paid=${event.paid}`),
    onError: (_error, { status, reason }) => void seen.push(`${status} ${reason}`),
  });
  return { handler, seen };
}

/** The Request Deno.serve and workerd hand the route for this Host header and request-target. */
const asDenoBuildsIt = (host: string, target: string): Request =>
  new Request(`http://${host}${target}`, {
    method: 'POST',
    headers: { host, 'content-type': 'application/json' },
    body,
  });

describe('the Fetch handler and a Host header that is not one host[:port]', () => {
  it.each([undefined, 'https://shop.example'])(
    'refuses a Host holding the signed path and query (publicOrigin %s): 400 invalid_request, no event',
    async (publicOrigin) => {
      const signed = new URL(
        await signCallbackUrl('https://shop.example/webhooks/payments', { secret, reference }),
      );
      const { handler, seen } = route(publicOrigin);
      const response = await handler(
        asDenoBuildsIt(`shop.example${signed.pathname}${signed.search}#`, '/admin/other'),
      );
      expect({ status: response.status, seen }).toEqual({ status: 400, seen: ['400 invalid_request'] });
    },
  );

  it.each([
    ['a path with dot segments', 'shop.example/x/..'],
    ['userinfo', 'user@shop.example'],
    ['a backslash', 'shop.example\\x'],
  ])('refuses a Host holding %s: 400 invalid_request', async (_name, host) => {
    const signed = new URL(
      await signCallbackUrl('https://shop.example/webhooks/payments', { secret, reference }),
    );
    const { handler, seen } = route('https://shop.example');
    const response = await handler(
      new Request(`https://shop.example${signed.pathname}${signed.search}`, {
        method: 'POST',
        headers: { host, 'content-type': 'application/json' },
        body,
      }),
    );
    expect({ status: response.status, seen }).toEqual({ status: 400, seen: ['400 invalid_request'] });
  });

  it('refuses a request URL with a fragment: 400 invalid_request', async () => {
    const signed = await signCallbackUrl('https://shop.example/webhooks/payments', { secret, reference });
    const { handler, seen } = route();
    const response = await handler(
      new Request(`${signed}#x`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
    );
    expect({ status: response.status, seen }).toEqual({ status: 400, seen: ['400 invalid_request'] });
  });

  it.each(['shop.example', 'SHOP.example:443', 'shop.example.', '[::1]:8443', '127.0.0.1:3000'])(
    'processes a genuine delivery whose Host is %s (publicOrigin pinned): 200',
    async (host) => {
      const signed = new URL(
        await signCallbackUrl('https://shop.example/webhooks/payments', { secret, reference }),
      );
      const { handler, seen } = route('https://shop.example');
      const response = await handler(asDenoBuildsIt(host, `${signed.pathname}${signed.search}`));
      expect({ status: response.status, seen }).toEqual({
        status: 200,
        seen: ['checkout.succeeded paid=true'],
      });
    },
  );
});
