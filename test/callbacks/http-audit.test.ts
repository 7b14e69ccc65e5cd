// HTTP-level audit of toNodeListener: what the route does with a client that goes away before it
// has read the body, and with a body parser the docs list as supported.
import { once } from 'node:events';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import express from 'express';
import { describe, expect, it, vi } from 'vitest';
import {
  createCallbackHandler,
  signCallbackUrl,
  toNodeListener,
  type CallbackHandlerError,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { listenForThisTest as listen } from '../helpers/servers.js';

const secret = 'whsec_http_audit_0123456789';
const payout = callbackFixtures['payout.succeeded']; // reference_id '123456789012'
const body = JSON.stringify(payout);

function route() {
  const events: string[] = [];
  const errors: { status: number; reason: string; error: CallbackHandlerError }[] = [];
  const handler = createCallbackHandler({
    secret,
    onEvent: (event) => void events.push(event.type),
    onError: (error, { status, reason }) => void errors.push({ status, reason, error }),
  });
  return { handler, events, errors, listener: toNodeListener(handler) };
}

const signed = async (port: number) =>
  new URL(await signCallbackUrl(`http://127.0.0.1:${port}/hooks`, { secret, reference: '123456789012' }));

/** Writes `data` on a raw socket and destroys it at once: the client is gone. */
async function sendAndVanish(port: number, data: string): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  socket.write(data);
  socket.destroy();
}

describe('toNodeListener: a client that goes away before the route reads its body', () => {
  type Listener = (req: IncomingMessage, res: ServerResponse) => void;
  // The route starts only once the client has gone, as behind a middleware that awaits something
  // (or under load, while the signature is being checked).
  const mounts: Record<string, (listener: Listener) => Server> = {
    'node:http': (listener) => http.createServer((req, res) => req.once('close', () => listener(req, res))),
    'Express 5': (listener) => {
      const app = express();
      app.use((req, _res, next) => void req.once('close', () => next()));
      app.post('/hooks', listener);
      return http.createServer(app);
    },
  };
  const requests: Record<string, (target: string, host: string) => string> = {
    'a whole body (Content-Length)': (target, host) =>
      `POST ${target} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    'a whole chunked body': (target, host) =>
      `POST ${target} HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    'half a body': (target, host) =>
      `POST ${target} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 40)}`,
  };

  for (const [mount, serverFor] of Object.entries(mounts)) {
    for (const [what, request] of Object.entries(requests)) {
      it(`${mount}, ${what}: answers at once (onError told the body could not be read), never waits for ever or for bodyTimeoutMs`, async () => {
        const { listener, events, errors } = route(); // bodyTimeoutMs: the default 5 s
        const port = await listen(serverFor(listener as Listener));
        const url = await signed(port);
        await sendAndVanish(port, request(`${url.pathname}${url.search}`, url.host));
        // Today a message already whole in memory arms no timer and its stream never ends: the
        // route's promise (and the request and response it holds) stays pending for ever.
        await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 2_000, interval: 20 });
        expect(errors.map(({ status, reason }) => [status, reason])).toEqual([[400, 'invalid_payload']]);
        expect(errors[0]!.error.message).toBe('The callback body could not be read');
        expect(events).toEqual([]);
      });
    }
  }
});

describe('toNodeListener under node:http2: a stream the client resets', () => {
  async function h2Route(delayed: boolean) {
    const { listener, events, errors } = route();
    const server = http2.createServer((req, res) => {
      if (delayed) req.once('close', () => listener(req, res));
      else listener(req, res);
    });
    const port = await listen(server);
    const url = await signed(port);
    const client = http2.connect(`http://127.0.0.1:${port}`);
    client.on('error', () => undefined);
    const stream = client.request({
      ':method': 'POST',
      ':path': `${url.pathname}${url.search}`,
      'content-length': String(Buffer.byteLength(body)),
    });
    stream.on('error', () => undefined);
    return { client, stream, events, errors };
  }

  it('before the route reads it: reported as a body that could not be read, not blamed on a middleware (500 handler_failed)', async () => {
    const { client, stream, events, errors } = await h2Route(true);
    try {
      stream.write(body);
      await new Promise((resolve) => setTimeout(resolve, 50));
      stream.close(http2.constants.NGHTTP2_CANCEL);
      await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 2_000, interval: 20 });
      expect(errors.map(({ status, reason }) => [status, reason])).toEqual([[400, 'invalid_payload']]);
      expect(errors[0]!.error.message).toBe('The callback body could not be read');
      expect(events).toEqual([]);
    } finally {
      client.destroy();
    }
  });

  it('mid-body: the part received is never parsed as if it were the whole body', async () => {
    const { client, stream, events, errors } = await h2Route(false);
    try {
      stream.write(body.slice(0, 40));
      await new Promise((resolve) => setTimeout(resolve, 50));
      stream.close(http2.constants.NGHTTP2_CANCEL);
      await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 2_000, interval: 20 });
      // Today: 'Callback body is not valid JSON' — the 40 bytes were parsed as the body.
      expect(errors.map(({ status, reason }) => [status, reason])).toEqual([[400, 'invalid_payload']]);
      expect(errors[0]!.error.message).toBe('The callback body could not be read');
      expect(events).toEqual([]);
    } finally {
      client.destroy();
    }
  });
});
