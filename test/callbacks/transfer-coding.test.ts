// node:http undoes only the chunked transfer coding: a body sent with `Transfer-Encoding: gzip,
// chunked` reaches the route still gzipped. Like a Content-Encoding, it is refused 415 before it
// is read, never read as the posted JSON and refused 400 (which the sender does not retry).
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createCallbackHandler, signCallbackUrl, toNodeListener } from '../../src/callbacks/index.js';
import { callbackFixtures, createCallbackRequest } from '../../src/testing/index.js';
import { listenForThisTest, statusOfRawRequest } from '../helpers/servers.js';

const secret = 'whsec_transfer_coding_0123456789';
const fixture = callbackFixtures['payout.succeeded'];
const reference = String(fixture.reference_id);

function route() {
  const events: string[] = [];
  const errors: [number, string][] = [];
  const handler = createCallbackHandler({
    secret,
    onEvent: (event) => void events.push(event.type),
    onError: (_error, { status, reason }) => void errors.push([status, reason]),
  });
  return { events, errors, handler };
}

/**
 * Posts the fixture to a fresh toNodeListener route with `Transfer-Encoding: <coding>`, framed
 * chunked as one chunk of `body` (the fixture's JSON unless given), on a raw socket, head and body
 * in one write; answers the status and what the route saw.
 */
async function postCoded(coding: string, body: Uint8Array = Buffer.from(JSON.stringify(fixture))) {
  const { events, errors, handler } = route();
  const port = await listenForThisTest(http.createServer(toNodeListener(handler)));
  const url = new URL(await signCallbackUrl(`http://127.0.0.1:${port}/hooks`, { secret, reference }));
  const head =
    `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
    `Content-Type: application/json\r\nTransfer-Encoding: ${coding}\r\n\r\n` +
    `${body.byteLength.toString(16)}\r\n`;
  const status = await statusOfRawRequest(
    port,
    Buffer.concat([Buffer.from(head), body, Buffer.from('\r\n0\r\n\r\n')]),
  );
  return { status, events, errors };
}

describe('a body with a transfer coding other than chunked', () => {
  it.each(['gzip, chunked', 'deflate,chunked', 'x-custom, chunked'])(
    'toNodeListener answers %s with 415 unsupported_encoding, unread',
    async (coding) => {
      const { status, events, errors } = await postCoded(coding, gzipSync(JSON.stringify(fixture)));
      expect(status).toBe(415);
      expect(events).toEqual([]);
      expect(errors).toEqual([[415, 'unsupported_encoding']]);
    },
  );

  it('the Fetch handler answers a Request carrying Transfer-Encoding: gzip, chunked with 415', async () => {
    const { events, errors, handler } = route();
    const signed = await createCallbackRequest('payout.succeeded', { secret });
    const headers = new Headers(signed.headers);
    headers.set('transfer-encoding', 'gzip, chunked');
    headers.delete('content-length');
    const response = await handler(
      new Request(signed.url, { method: 'POST', headers, body: gzipSync(await signed.text()) }),
    );
    expect(response.status).toBe(415);
    expect(events).toEqual([]);
    expect(errors).toEqual([[415, 'unsupported_encoding']]);
  });

  it.each([', chunked', 'identity, chunked', 'Chunked'])(
    'toNodeListener reads a body sent Transfer-Encoding: %s (empty items and identity code nothing): 200',
    async (coding) => {
      const { status, events, errors } = await postCoded(coding);
      expect({ status, events, errors }).toEqual({ status: 200, events: ['payout.succeeded'], errors: [] });
    },
  );

  it('chunked alone is read as the body (200)', async () => {
    const { events, handler } = route();
    const port = await listenForThisTest(http.createServer(toNodeListener(handler)));
    const url = await signCallbackUrl(`http://127.0.0.1:${port}/hooks`, { secret, reference });
    const body = JSON.stringify(fixture);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([body]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(200);
    expect(events).toEqual(['payout.succeeded']);
  });
});
