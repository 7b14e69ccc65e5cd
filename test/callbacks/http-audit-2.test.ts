// HTTP-level audit of toNodeListener: a body that starts with a byte order mark, behind
// express.text() (documented as supported). The Fetch handler and the route reading the stream skip
// one leading BOM; express.text() decodes the body and drops it, so the text it leaves is 3 bytes
// shorter than the Content-Length.
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import express, { type RequestHandler } from 'express';
import { describe, expect, it } from 'vitest';
import { createCallbackHandler, signCallbackUrl, toNodeListener } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { listenForThisTest } from '../helpers/servers.js';

const secret = 'whsec_http_audit_2_0123456789';
const body = JSON.stringify(callbackFixtures['payout.succeeded']); // reference_id '123456789012'
const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]);

function route() {
  const events: string[] = [];
  const errors: string[] = [];
  const handler = createCallbackHandler({
    secret,
    onEvent: (event) => void events.push(event.type),
    onError: (error, { status, reason }) => void errors.push(`${status} ${reason}: ${error.message}`),
  });
  return { handler, events, errors };
}

/** Posts `payload` with a Content-Length on a raw socket; resolves with the status line's code. */
async function post(port: number, target: string, host: string, contentType: string, payload: Buffer) {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(
    `POST ${target} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: ${contentType}\r\nContent-Length: ${payload.byteLength}\r\nConnection: close\r\n\r\n`,
  );
  socket.end(payload);
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (text += chunk));
  await once(socket, 'close');
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
}

describe('toNodeListener behind express.text(): a body that starts with a byte order mark', () => {
  const parsers: [string, RequestHandler, string][] = [
    ['express.text()', express.text(), 'text/plain'],
    ['express.text()', express.text(), 'text/plain; charset=utf-8'],
    ["express.text({ type: '*/*' })", express.text({ type: '*/*' }), 'application/json'],
  ];

  it('the Fetch handler processes it (one leading BOM is skipped)', async () => {
    const { handler, events } = route();
    const url = await signCallbackUrl('https://shop.example/hooks', { secret, reference: '123456789012' });
    const response = await handler(
      new Request(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: withBom }),
    );
    expect(response.status).toBe(200);
    expect(events).toEqual(['payout.succeeded']);
  });

  for (const [name, parser, contentType] of parsers) {
    it(`${name}, Content-Type ${contentType}: processed as the Fetch handler does (today 500 handler_failed on every delivery)`, async () => {
      const { handler, events, errors } = route();
      const app = express();
      app.use(parser);
      app.post('/hooks', toNodeListener(handler));
      const port = await listenForThisTest(http.createServer(app));
      const url = new URL(
        await signCallbackUrl(`http://127.0.0.1:${port}/hooks`, { secret, reference: '123456789012' }),
      );
      const status = await post(port, `${url.pathname}${url.search}`, url.host, contentType, withBom);
      expect(errors).toEqual([]);
      expect(status).toBe(200);
      expect(events).toEqual(['payout.succeeded']);
    });
  }
});
