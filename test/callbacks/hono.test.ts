// The Fetch handler as a Hono route on @hono/node-server, over real sockets: what a merchant on
// Hono (or any framework that hands the handler its Request) runs in production.
import { once } from 'node:events';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createCallbackHandler, signCallbackUrl, type CallbackEvent } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { closeServer } from '../helpers/servers.js';

const checkoutFailure = callbackFixtures['checkout.failed']; // order_id '1003'
const payoutSuccess = callbackFixtures['payout.succeeded']; // reference_id '123456789012'
const secret = 'whsec_0123456789abcdef';

async function honoRoute(options: { maxBodyBytes?: number; bodyTimeoutMs?: number } = {}) {
  const events: CallbackEvent[] = [];
  const handler = createCallbackHandler({ secret, ...options, onEvent: (event) => void events.push(event) });
  const app = new Hono();
  app.post('/hooks', (c) => handler(c.req.raw));
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  onTestFinished(() => closeServer(server));
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, events };
}

/** A POST written by hand: headers and as much of the body as given, the socket left open. */
async function rawRequest(base: string, url: string, headers: Record<string, string>, body: string) {
  const { port } = new URL(base);
  const socket = net.connect(Number(port), '127.0.0.1');
  await once(socket, 'connect');
  const { pathname, search } = new URL(url);
  const head = Object.entries({ host: new URL(url).host, ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST ${pathname}${search} HTTP/1.1\r\n${head}\r\n${body}`);
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (answer += chunk));
  return {
    socket,
    answer: async (text: string) => {
      while (!answer.includes(text)) await once(socket, 'data');
      return answer;
    },
  };
}

describe('createCallbackHandler as a Hono route on @hono/node-server', () => {
  it('reads bodies with and without Content-Length, and answers a duplicate 200 without a second event', async () => {
    const { base, events } = await honoRoute();
    const checkout = await signCallbackUrl(`${base}/hooks`, { secret, reference: '1003' });
    const payout = await signCallbackUrl(`${base}/hooks`, { secret, reference: '123456789012' });
    const declared = await fetch(checkout, { method: 'POST', body: JSON.stringify(checkoutFailure) });
    expect(declared.status).toBe(200);
    // A streamed body: chunked, no Content-Length.
    const text = JSON.stringify(payoutSuccess);
    const chunked = await fetch(payout, {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          for (const piece of text.match(/.{1,9}/gs) ?? [])
            controller.enqueue(new TextEncoder().encode(piece));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(200);
    const again = await fetch(payout, { method: 'POST', body: text });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-callback-duplicate')).toBe('true');
    expect(events.map((event) => [event.type, event.reference])).toEqual([
      ['checkout.failed', '1003'],
      ['payout.succeeded', '123456789012'],
    ]);
  });

  it('answers 413 from Content-Length, and to a chunked body over the cap', async () => {
    const { base, events } = await honoRoute({ maxBodyBytes: 1024 });
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: 'R' });
    const big = ' '.repeat(4096);
    expect((await fetch(url, { method: 'POST', body: big })).status).toBe(413);
    const chunked = await fetch(url, {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode(' '.repeat(512)));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(events).toEqual([]);
  });

  it('answers 408 when a body with a declared Content-Length stalls, and goes on serving', async () => {
    const { base, events } = await honoRoute({ bodyTimeoutMs: 100 });
    const url = await signCallbackUrl(`${base}/hooks`, { secret, reference: '1003' });
    const text = JSON.stringify(checkoutFailure);
    const started = Date.now();
    const stalled = await rawRequest(
      base,
      url,
      { 'content-type': 'application/json', 'content-length': String(text.length) },
      text.slice(0, 10),
    );
    const answer = await stalled.answer('body_timeout');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(2_000);
    stalled.socket.destroy();
    expect((await fetch(url, { method: 'POST', body: text })).status).toBe(200);
    expect(events).toHaveLength(1);
  });
});
