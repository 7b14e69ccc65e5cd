// A sender may pipeline: write its next request on a keep-alive connection before the answer to
// the one before has arrived. node:http parses and hands the listener every request it has read,
// but writes the answers in order and none after one that closes the connection. A request behind
// a refusal that closes the connection is never answered, so it must not be processed either: its
// sender delivers it again, and only that delivery's answer tells it the event was taken.
import http, { type RequestListener } from 'node:http';
import net from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  signCallbackUrl,
  toNodeListener,
  type CallbackHandlerOptions,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { listenForThisTest } from '../helpers/servers.js';

const secret = 'whsec_0123456789abcdef';
const HOST = 'shop.example';
const PATH = '/hooks';
const MAX_BODY_BYTES = 1024;

/** A genuine delivery's payload for `reference`. */
const payload = (reference: string): string =>
  JSON.stringify({ ...callbackFixtures['payment.mobile_money.failed'], transaction_reference: reference });

/** The signed path and query for `reference`. */
const signedTarget = async (reference: string): Promise<string> =>
  (await signCallbackUrl(`http://${HOST}${PATH}`, { secret, reference })).slice(`http://${HOST}`.length);

/**
 * One request's bytes, named by an `X-Delivery` header so that `onEvent` can say which request it
 * was called for.
 */
function request(line: string, name: string, body: string, headers: string[] = []): string {
  return [
    line,
    `Host: ${HOST}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Delivery: ${name}`,
    ...headers,
    '',
    body,
  ].join('\r\n');
}

/** A genuine delivery of `reference`, signed and whole. */
const genuine = async (name: string, reference: string, headers?: string[]): Promise<string> =>
  request(`POST ${await signedTarget(reference)} HTTP/1.1`, name, payload(reference), headers);

/** A server running the listener for a handler that records the `X-Delivery` of every event. */
async function serve(
  wrap: (listener: RequestListener) => RequestListener = (listener) => listener,
  options: Partial<Pick<CallbackHandlerOptions, 'dedupe' | 'bodyTimeoutMs'>> & {
    onEvent?: () => unknown;
  } = {},
) {
  const processed: string[] = [];
  const { onEvent, ...rest } = options;
  const handler = createCallbackHandler({
    secret,
    maxBodyBytes: MAX_BODY_BYTES,
    ...rest,
    onEvent: async (_event, context) => {
      processed.push(context.request.headers.get('x-delivery') ?? '?');
      await onEvent?.();
    },
  });
  const port = await listenForThisTest(http.createServer(wrap(toNodeListener(handler))));
  return { port, processed };
}

interface Exchange {
  /** The status of every answer read, in order. */
  readonly statuses: number[];
  /** Whether the server closed the connection (else `count` answers were read). */
  readonly closed: boolean;
}

/**
 * Connects to `port`, writes each of `writes` in turn (a string in one write; a function is
 * awaited between writes), and reads answers until the server closes the connection or `count`
 * answers have arrived.
 */
function exchange(port: number, count: number, ...writes: (string | (() => Promise<unknown>))[]) {
  return new Promise<Exchange>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const statuses = (): number[] => [...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (statuses().length >= count) {
        socket.destroy();
        resolve({ statuses: statuses(), closed: false });
      }
    });
    socket.on('close', () => resolve({ statuses: statuses(), closed: true }));
    socket.on('error', reject);
    const write = async (): Promise<void> => {
      for (const step of writes) {
        if (typeof step === 'string') socket.write(step, 'latin1');
        else await step();
      }
    };
    socket.on('connect', () => void write().catch(reject));
  });
}

/** Resolves once `check()` holds (polling), or rejects after two seconds. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Refused requests whose answer closes the connection, each with its status. */
const refusals: [string, number, () => Promise<string>][] = [
  [
    'a forged signature',
    401,
    async () =>
      request(
        `POST ${(await signedTarget('R')).replace(/hp_sig=[^&]*/, `hp_sig=${'A'.repeat(43)}`)} HTTP/1.1`,
        'refused',
        payload('R'),
      ),
  ],
  ['no signature', 401, async () => request(`POST ${PATH} HTTP/1.1`, 'refused', payload('R'))],
  [
    'a body over maxBodyBytes, sent whole',
    413,
    async () =>
      request(
        `POST ${await signedTarget('R')} HTTP/1.1`,
        'refused',
        payload('R') + ' '.repeat(MAX_BODY_BYTES),
      ),
  ],
  [
    'a gzip Content-Encoding',
    415,
    async () =>
      request(`POST ${await signedTarget('R')} HTTP/1.1`, 'refused', payload('R'), [
        'Content-Encoding: gzip',
      ]),
  ],
  ['a GET', 405, async () => request(`GET ${await signedTarget('R')} HTTP/1.1`, 'refused', '')],
];

describe('toNodeListener: a delivery pipelined behind a refusal that closes the connection', () => {
  it.each(refusals)(
    'is not processed behind %s (%i), and is processed once when delivered again',
    async (_name, status, refused) => {
      const { port, processed } = await serve();
      const pipelined = await exchange(port, 2, (await refused()) + (await genuine('pipelined', 'R')));
      expect(pipelined).toEqual({ statuses: [status], closed: true });
      expect(processed).toEqual([]);

      const again = await exchange(port, 1, await genuine('again', 'R', ['Connection: close']));
      expect(again.statuses).toEqual([200]);
      expect(processed).toEqual(['again']);
    },
  );

  it('is not processed twice with dedupe: false', async () => {
    const { port, processed } = await serve(undefined, { dedupe: false });
    const [, , forged] = refusals[0]!;
    const pipelined = await exchange(port, 2, (await forged()) + (await genuine('pipelined', 'R')));
    expect(pipelined).toEqual({ statuses: [401], closed: true });
    const again = await exchange(port, 1, await genuine('again', 'R', ['Connection: close']));
    expect(again.statuses).toEqual([200]);
    expect(processed).toEqual(['again']);
  });

  it('is not processed behind a refusal that itself follows a processed delivery', async () => {
    const { port, processed } = await serve();
    const [, , forged] = refusals[0]!;
    const bytes = (await genuine('first', 'S')) + (await forged()) + (await genuine('pipelined', 'R'));
    expect(await exchange(port, 3, bytes)).toEqual({ statuses: [200, 401], closed: true });
    expect(processed).toEqual(['first']);
  });

  it.each([
    ['its sender said Connection: close', ['Connection: close'], 'HTTP/1.1'],
    ['it came over HTTP/1.0 without keep-alive', [], 'HTTP/1.0'],
  ])('is not processed behind a processed delivery after which %s', async (_name, headers, version) => {
    // RFC 9112 §9.6: a server must not process further requests on a connection whose request
    // said "close". node:http's parser refuses the bytes after such a request itself (it writes
    // a 400 and closes, which may cut off the first answer: its sender delivers it again).
    const { port, processed } = await serve();
    const first = (await genuine('first', 'S', headers)).replace(' HTTP/1.1\r\n', ` ${version}\r\n`);
    const result = await exchange(port, 2, first + (await genuine('pipelined', 'R')));
    expect(result.closed).toBe(true);
    await sleep(50);
    expect(processed).toEqual(['first']);
  });

  it('is processed, and answered, behind a delivery answered on a kept-alive connection', async () => {
    const { port, processed } = await serve();
    const bytes = (await genuine('first', 'S')) + (await genuine('second', 'R'));
    expect(await exchange(port, 2, bytes)).toEqual({ statuses: [200, 200], closed: false });
    expect(processed.sort()).toEqual(['first', 'second']);
  });

  it('is processed only if answered when it arrives after a refusal was decided (a body that timed out)', async () => {
    // A slow first delivery holds the connection; the second's body stalls past bodyTimeoutMs;
    // then the rest of that body and a third delivery arrive before the first is answered.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { port, processed } = await serve(undefined, {
      bodyTimeoutMs: 50,
      onEvent: () => (processed.length === 1 ? held : undefined),
    });
    const stalled = await genuine('stalled', 'S');
    const cut = stalled.length - 10;
    const result = await exchange(
      port,
      3,
      await genuine('first', 'T'),
      async () => until(() => processed.length === 1),
      stalled.slice(0, cut),
      () => sleep(200),
      stalled.slice(cut) + (await genuine('third', 'R')),
      async () => {
        await sleep(50);
        release();
      },
    );
    // Which requests are processed may differ; every one processed is answered 200 there.
    const answered = ['first', 'stalled', 'third'].filter((_, i) => result.statuses[i] === 200);
    expect(result.statuses[0]).toBe(200);
    await sleep(50);
    expect([...processed].sort()).toEqual(answered.sort());
  });
});

describe('toNodeListener behind express 5: a delivery pipelined behind a refusal', () => {
  it('is not processed behind a forged signature, and is processed once when delivered again', async () => {
    const app = express();
    const { port, processed } = await serve((listener) => {
      app.post(PATH, listener);
      return app;
    });
    const [, , forged] = refusals[0]!;
    const pipelined = await exchange(port, 2, (await forged()) + (await genuine('pipelined', 'R')));
    expect(pipelined).toEqual({ statuses: [401], closed: true });
    expect(processed).toEqual([]);
    const again = await exchange(port, 1, await genuine('again', 'R', ['Connection: close']));
    expect(again.statuses).toEqual([200]);
    expect(processed).toEqual(['again']);
  });
});
