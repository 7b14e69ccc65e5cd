// Under toNodeListener, onError's context.request is built from the node:http request on first
// read. The Fetch API refuses to build a Request for TRACE (and CONNECT, TRACK), so for a TRACE the
// getter threw inside onError and the log line webhooks.md recommends
// (`new URL(context.request.url).pathname`) was lost. It is a Request with the URL and headers
// received, and its method says TRACE.
import http from 'node:http';
import { expect, it } from 'vitest';
import { createCallbackHandler, toNodeListener } from '../../src/callbacks/index.js';
import { listenForThisTest, statusOfRawRequest } from '../helpers/servers.js';

const secret = 'whsec_node_trace_request_0123456789';

async function route() {
  const logged: string[] = [];
  const handler = createCallbackHandler({
    secret,
    onEvent: () => undefined,
    onError: (_error, { request, status, reason }) => {
      try {
        const { pathname } = new URL(request.url);
        logged.push(
          `${status} ${reason} ${request.method} ${pathname} ${request.headers.get('x-request-id')}`,
        );
      } catch (error) {
        logged.push(`onError threw: ${String(error)}`);
      }
    },
  });
  const port = await listenForThisTest(http.createServer(toNodeListener(handler)));
  return { port, logged };
}

it('a TRACE: 405, and onError reads context.request (method, URL path, headers)', async () => {
  const { port, logged } = await route();
  const status = await statusOfRawRequest(
    port,
    `TRACE /webhooks/payments?hp_ref=ORD-1&hp_sig=abc HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Request-Id: r-1\r\nConnection: close\r\n\r\n`,
  );
  expect(status).toBe(405);
  expect(logged).toEqual(['405 method_not_allowed TRACE /webhooks/payments r-1']);
});

it('a TRACE with a Host that is not one host[:port]: 400, and onError reads context.request', async () => {
  const { port, logged } = await route();
  const status = await statusOfRawRequest(
    port,
    'TRACE /webhooks/payments HTTP/1.1\r\nHost: not a host\r\nX-Request-Id: r-2\r\nConnection: close\r\n\r\n',
  );
  expect(status).toBe(400);
  expect(logged).toEqual(['400 invalid_request TRACE / r-2']);
});

it('a GET is unchanged: its Request says GET', async () => {
  const { port, logged } = await route();
  const status = await statusOfRawRequest(
    port,
    `GET /webhooks/payments HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Request-Id: r-3\r\nConnection: close\r\n\r\n`,
  );
  expect(status).toBe(405);
  expect(logged).toEqual(['405 method_not_allowed GET /webhooks/payments r-3']);
});
