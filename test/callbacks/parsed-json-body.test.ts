// toNodeListener behind a JSON body parser. JSON.parse has already rounded the numbers and kept
// only the last of a repeated key, so the value in req.body is not what the sender wrote: the route
// refuses it (500 handler_failed, the sender retries), unless the request also carries the posted
// bytes as req.rawBody (NestJS's `rawBody: true`, or express.json() with a `verify` hook keeping
// them), which it then reads as the raw route does.
import http, { type IncomingMessage, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import express from 'express';
import { describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  signCallbackUrl,
  toNodeListener,
  type CallbackEvent,
  type CallbackHandlerOptions,
} from '../../src/callbacks/index.js';
import { PaymentsError } from '../../src/errors.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { listenForThisTest } from '../helpers/servers.js';

const secret = 'whsec_0123456789abcdef';
const reference = 'ORDER-1';
const good = JSON.stringify(callbackFixtures['payment.mobile_money.succeeded']);
/** More digits than JSON.parse keeps: it reads 1500, where the raw route refuses the amount. */
const longAmount = good
  .replace('"amount":1500', '"amount":1499.99999999999999999')
  .replace('"amount_captured":1500', '"amount_captured":1499.99999999999999999');
/** `paid` twice: JSON.parse keeps only the last. */
const repeatedKey = JSON.stringify(callbackFixtures['payment.card.failed']).replace(
  '"paid":"False"',
  '"paid":"False","amount captured":"1500","payment status":"Payment complete.","paid":"True"',
);

const listen = async (server: Server): Promise<string> =>
  `http://127.0.0.1:${await listenForThisTest(server)}`;

interface Refusal {
  status: number;
  reason: string;
  error: Error;
}

/** An Express app with `parsers` in front of the route, and what the route's handler heard. */
async function shop(parsers: express.RequestHandler[], options: Partial<CallbackHandlerOptions> = {}) {
  const events: CallbackEvent[] = [];
  const refusals: Refusal[] = [];
  const handler = createCallbackHandler({
    secret,
    onEvent: (event) => void events.push(event),
    onError: (error, { status, reason }) => void refusals.push({ status, reason, error }),
    ...options,
  });
  const app = express();
  for (const parser of parsers) app.use(parser);
  app.post('/webhooks/payments', toNodeListener(handler));
  const base = await listen(http.createServer(app));
  const post = async (
    body: string | Uint8Array<ArrayBuffer>,
    headers: Record<string, string> = {},
    { chunked = false }: { chunked?: boolean } = {},
  ) => {
    const url = await signCallbackUrl(`${base}/webhooks/payments`, { secret, reference });
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    // A stream body goes chunked: no Content-Length to hold what a parser left against.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      ...(chunked ? { body: stream, duplex: 'half' } : { body }),
    } as RequestInit);
    return { status: response.status, body: await response.text() };
  };
  return { post, events, refusals };
}

type WithRawBody = IncomingMessage & { rawBody?: unknown };
/** The usual recipe: express.json() keeping the bytes it read as req.rawBody (a Buffer). */
const keepingBuffer = express.json({
  verify: (req: WithRawBody, _res, buf) => {
    req.rawBody = buf;
  },
});
/** The other common recipe: the bytes kept as text. */
const keepingText = express.json({
  verify: (req: WithRawBody, _res, buf) => {
    req.rawBody = buf.toString('utf8');
  },
});

const howToFix =
  /JSON parser.*numbers and keys.*before express\.json\(\).*express\.raw\(\{ type: '\*\/\*' \}\).*rawBody/s;

describe('toNodeListener behind express.json(), without the posted bytes', () => {
  it.each([
    ['an amount JSON.parse rounded', longAmount],
    ['a key given twice', repeatedKey],
    ['a good delivery', good],
  ])(
    'answers %s 500 handler_failed, and onError says why and how to mount the route',
    async (_name, body) => {
      const { post, events, refusals } = await shop([express.json()]);
      expect(await post(body)).toEqual({ status: 500, body: '{"error":"handler_failed"}' });
      expect(events).toEqual([]);
      expect(refusals).toHaveLength(1);
      expect(refusals[0]!.status).toBe(500);
      expect(refusals[0]!.reason).toBe('handler_failed');
      expect(refusals[0]!.error).toBeInstanceOf(PaymentsError);
      expect(refusals[0]!.error.message).toMatch(/^toNodeListener: /);
      expect(refusals[0]!.error.message).toMatch(howToFix);
    },
  );

  it.each([
    ['a number', '1500'],
    ['true', 'true'],
    ['null', 'null'],
    ['an array', '[1500]'],
  ])('refuses %s express.json({ strict: false }) parsed the same way', async (_name, body) => {
    const { post, events, refusals } = await shop([express.json({ strict: false })]);
    expect((await post(body)).status).toBe(500);
    expect(events).toEqual([]);
    expect(refusals.map(({ error }) => error.message)).toEqual([expect.stringMatching(howToFix)]);
  });

  it('refuses an application/…+json body express.json({ type }) parsed', async () => {
    const { post, events, refusals } = await shop([express.json({ type: '*/*' })]);
    expect((await post(good, { 'content-type': 'application/vnd.payments+json' })).status).toBe(500);
    expect(events).toEqual([]);
    expect(refusals.map(({ error }) => error.message)).toEqual([expect.stringMatching(howToFix)]);
  });
});

describe('toNodeListener behind express.json(), with the posted bytes kept as req.rawBody', () => {
  it.each([
    ['a Buffer', keepingBuffer],
    ['a string', keepingText],
  ])('reads the bytes kept as %s: a good delivery is 200, once', async (_name, parser) => {
    const { post, events, refusals } = await shop([parser]);
    expect(await post(good)).toEqual({ status: 200, body: '' });
    expect(events.map((event) => [event.type, event.paid, event.amount])).toEqual([
      ['payment.mobile_money.succeeded', true, '1500'],
    ]);
    expect(refusals).toEqual([]);
  });

  it.each([
    ['a Buffer', keepingBuffer],
    ['a string', keepingText],
  ])(
    'refuses the amount JSON.parse would round 400 invalid_payload, as the raw route does (kept as %s)',
    async (_name, parser) => {
      const raw = await shop([]);
      const parsed = await shop([parser]);
      expect(await raw.post(longAmount)).toEqual({ status: 400, body: '{"error":"invalid_payload"}' });
      expect(await parsed.post(longAmount)).toEqual({ status: 400, body: '{"error":"invalid_payload"}' });
      expect(parsed.events).toEqual([]);
      expect(parsed.refusals.map(({ status, reason }) => `${status} ${reason}`)).toEqual([
        '400 invalid_payload',
      ]);
      expect(parsed.refusals[0]!.error.message).toMatch(/amount/);
    },
  );

  it('answers a key given twice as the raw route does: it reads the text, not what JSON.parse kept', async () => {
    const raw = await shop([]);
    const parsed = await shop([keepingBuffer]);
    const rawAnswer = await raw.post(repeatedKey);
    expect(await parsed.post(repeatedKey)).toEqual(rawAnswer);
    expect(parsed.events.map((event) => event.paid)).toEqual(raw.events.map((event) => event.paid));
  });

  it('reads the bytes express.json() inflated from gzip (its Content-Length is the compressed one)', async () => {
    const { post, events } = await shop([keepingBuffer]);
    const answer = await post(new Uint8Array(gzipSync(good)), { 'content-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('holds req.rawBody to maxBodyBytes: 413', async () => {
    const { post, events } = await shop([keepingBuffer], { maxBodyBytes: 100 });
    expect(await post(good)).toEqual({ status: 413, body: '{"error":"payload_too_large"}' });
    expect(events).toEqual([]);
  });

  it('refuses a req.rawBody whose length is not the Content-Length (500): it is not the posted body', async () => {
    const shortened: express.RequestHandler = (req, _res, next) => {
      (req as WithRawBody).rawBody = Buffer.from(good.slice(0, -1));
      next();
    };
    const { post, events, refusals } = await shop([keepingBuffer, shortened]);
    expect((await post(good)).status).toBe(500);
    expect(events).toEqual([]);
    expect(refusals.map(({ error }) => error.message)).toEqual([
      expect.stringMatching(/^toNodeListener: req\.rawBody .*Content-Length/),
    ]);
  });

  it('refuses a req.rawBody that is neither bytes nor text (500), whatever req.body holds', async () => {
    const odd: express.RequestHandler = (req, _res, next) => {
      (req as WithRawBody).rawBody = { ...callbackFixtures['payment.mobile_money.succeeded'] };
      next();
    };
    const { post, events, refusals } = await shop([express.raw({ type: '*/*' }), odd]);
    expect((await post(good)).status).toBe(500);
    expect(events).toEqual([]);
    expect(refusals.map(({ error }) => error.message)).toEqual([
      expect.stringMatching(/^toNodeListener: req\.rawBody /),
    ]);
  });

  it('reads the bytes a middleware kept as req.rawBody, though it left req.body unset', async () => {
    const readElsewhere: express.RequestHandler = (req, _res, next) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        (req as WithRawBody).rawBody = Buffer.concat(chunks);
        next();
      });
    };
    const { post, events } = await shop([readElsewhere]);
    expect((await post(good)).status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('reads the stream, not req.rawBody, while the stream is unread', async () => {
    const early: express.RequestHandler = (req, _res, next) => {
      (req as WithRawBody).rawBody = Buffer.from('{}');
      next();
    };
    const { post, events } = await shop([early]);
    expect((await post(good)).status).toBe(200);
    expect(events).toHaveLength(1);
  });
});

describe('toNodeListener: a body parser that is not JSON', () => {
  it('still takes the Buffer express.raw() left and the text express.text() left', async () => {
    const raw = await shop([express.raw({ type: '*/*' })]);
    const text = await shop([express.text({ type: '*/*' })]);
    expect((await raw.post(good)).status).toBe(200);
    expect((await text.post(good, { 'content-type': 'text/plain' })).status).toBe(200);
    expect([raw.events.length, text.events.length]).toEqual([1, 1]);
  });

  it('takes the text express.text() left from a chunked body (no Content-Length to hold it to)', async () => {
    const { post, events } = await shop([express.text({ type: '*/*' })]);
    expect((await post(good, { 'content-type': 'text/plain' }, { chunked: true })).status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('holds express.text() to maxBodyBytes by the Content-Length too: a byte order mark it dropped counts (413)', async () => {
    const { post, events } = await shop([express.text({ type: '*/*' })], { maxBodyBytes: good.length });
    const answer = await post(`\uFEFF${good}`, { 'content-type': 'text/plain' });
    expect(answer).toEqual({ status: 413, body: '{"error":"payload_too_large"}' });
    expect(events).toEqual([]);
  });
});

describe('toNodeListener: bytes that are not UTF-8, decoded by a parser', () => {
  /** `good` with a byte that is not UTF-8 inside a string value (the payment id). */
  const notUtf8 = (() => {
    const at = good.indexOf('PAYMOMO');
    return new Uint8Array(
      Buffer.concat([Buffer.from(good.slice(0, at)), Buffer.from([0xff]), Buffer.from(good.slice(at))]),
    );
  })();

  it('refuses the text express.text() decoded from a chunked body (500): it is not the posted body', async () => {
    const { post, events, refusals } = await shop([express.text({ type: '*/*' })]);
    expect((await post(notUtf8, { 'content-type': 'text/plain' }, { chunked: true })).status).toBe(500);
    expect(events).toEqual([]);
    expect(refusals.map(({ status, reason }) => `${status} ${reason}`)).toEqual(['500 handler_failed']);
  });

  it('refuses a req.rawBody kept as text decoded from a chunked body (500)', async () => {
    const { post, events, refusals } = await shop([keepingText]);
    expect((await post(notUtf8, {}, { chunked: true })).status).toBe(500);
    expect(events).toEqual([]);
    expect(refusals.map(({ status, reason }) => `${status} ${reason}`)).toEqual(['500 handler_failed']);
  });

  it('takes req.rawBody = null as no bytes kept: reads the Buffer express.raw() left', async () => {
    const cleared: express.RequestHandler = (req, _res, next) => {
      (req as WithRawBody).rawBody = null;
      next();
    };
    const { post, events } = await shop([express.raw({ type: '*/*' }), cleared]);
    expect((await post(good)).status).toBe(200);
    expect(events).toHaveLength(1);
  });
});
