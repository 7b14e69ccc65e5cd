// A middleware that listens to the request stream and calls next() before it ends (the
// "req.rawBody += chunk; next()" snippet, a byte counter, a body logger) takes bytes the route can
// no longer read. Sent in one TCP segment, as a small callback usually is, the body has flowed to
// that listener before the route reads: the route must answer 500 handler_failed (the sender
// retries), never parse what is left as the body and answer a 400 the sender gives up on.
import http from 'node:http';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { createCallbackHandler, signCallbackUrl, toNodeListener } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { listenForThisTest as listen, statusOfRawRequest } from '../helpers/servers.js';

const secret = 'whsec_tapped_body_0123456789';
const body = JSON.stringify(callbackFixtures['payout.succeeded']);
const reference = String(callbackFixtures['payout.succeeded'].reference_id);
/** Request line, headers and body in one write: one TCP segment on loopback. */
const postInOneWrite = (port: number, target: string): Promise<number> =>
  statusOfRawRequest(
    port,
    `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );

function route() {
  const events: string[] = [];
  const errors: { status: number; reason: string; message: string }[] = [];
  const handler = createCallbackHandler({
    secret,
    onEvent: (event) => void events.push(event.type),
    onError: (error, { status, reason }) => void errors.push({ status, reason, message: error.message }),
  });
  return { events, errors, listener: toNodeListener(handler) };
}

const target = async (port: number, path: string): Promise<string> => {
  const url = new URL(await signCallbackUrl(`http://127.0.0.1:${port}${path}`, { secret, reference }));
  return url.pathname + url.search;
};

describe('toNodeListener behind a middleware that taps the body stream and calls next() at once', () => {
  it('Express 5 with the "req.rawBody += chunk; next()" snippet: 500 handler_failed, so the sender retries', async () => {
    const { events, errors, listener } = route();
    const app = express();
    app.use((req, _res, next) => {
      let tapped = '';
      req.on('data', (chunk: Buffer) => (tapped += chunk.toString()));
      next();
    });
    app.post('/webhooks/payouts', listener);
    const port = await listen(http.createServer(app));
    expect(await postInOneWrite(port, await target(port, '/webhooks/payouts'))).toBe(500);
    expect(events).toEqual([]);
    expect(errors).toEqual([
      expect.objectContaining({
        status: 500,
        reason: 'handler_failed',
        message: expect.stringMatching(/already read/),
      }),
    ]);
  });

  it('node:http with a byte counter on the request before the listener: 500 handler_failed', async () => {
    const { events, errors, listener } = route();
    let bytes = 0;
    const port = await listen(
      http.createServer((req, res) => {
        req.on('data', (chunk: Buffer) => (bytes += chunk.length));
        void listener(req, res);
      }),
    );
    expect(await postInOneWrite(port, await target(port, '/hooks'))).toBe(500);
    expect(bytes).toBe(Buffer.byteLength(body));
    expect(events).toEqual([]);
    expect(errors.map(({ status, reason }) => [status, reason])).toEqual([[500, 'handler_failed']]);
  });

  it('with no other listener, reads the whole body sent in one write and answers 200', async () => {
    const { events, errors, listener } = route();
    const port = await listen(http.createServer((req, res) => void listener(req, res)));
    expect(await postInOneWrite(port, await target(port, '/hooks'))).toBe(200);
    expect(events).toEqual(['payout.succeeded']);
    expect(errors).toEqual([]);
  });

  it('a middleware that peeks at the first chunk and puts it back (unshift) leaves the whole body to read: 200', async () => {
    const { events, errors, listener } = route();
    const port = await listen(
      http.createServer((req, res) => {
        req.once('data', (chunk: Buffer) => {
          req.pause();
          req.unshift(chunk);
          setImmediate(() => void listener(req, res));
        });
      }),
    );
    expect(await postInOneWrite(port, await target(port, '/hooks'))).toBe(200);
    expect(events).toEqual(['payout.succeeded']);
    expect(errors).toEqual([]);
  });
});
