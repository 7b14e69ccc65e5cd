// One webhook route, five doors: the Fetch handler called with a `Request`, and `toNodeListener`
// over a real socket on a node:http server, mounted in Express 5, mounted in Express 5 behind
// express.json(), and behind an express.json() that keeps the bytes it read as req.rawBody. The
// same bytes must get the same answer through each: status, `error` reason,
// the Retry-After, X-Callback-Duplicate and Allow headers, and the same onEvent calls (type, paid,
// reference). A door may answer otherwise only where ALLOWED_DIFFERENCES names it, with its reason
// and the answer it gives instead.
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import net from 'node:net';
import express from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  signCallbackUrl,
  toNodeListener,
  type CallbackHandler,
} from '../../src/callbacks/index.js';
import { callbackPayloadTypes } from '../../src/sandbox/payloads.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { anyValidPayload, garbageBody, mutatedPayload } from '../reliability/arbitraries/callbacks.js';
import { closeServer, listenOnLoopback } from '../helpers/servers.js';

const secret = 'whsec_route_parity_0123456789';
const publicOrigin = 'https://shop.example';
const host = 'shop.example';
const route = '/webhooks/payments';
const maxBodyBytes = 4096;
const encoder = new TextEncoder();
/** One `host[:port]`, as toNodeListener reads a Host header. */
const HOST = /^[A-Za-z0-9._-]+(?::[0-9]{1,5})?$/;

/** One request as it goes over the wire: the Host is always `shop.example`, unless `hosts` says otherwise. */
interface Delivery {
  readonly method: string;
  /** The request-target, origin-form (`/webhooks/payments?…`) or absolute-form. */
  readonly target: string;
  /** Header lines besides Host and the body's framing. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Uint8Array;
  /** `length`: a Content-Length; `chunked`: Transfer-Encoding: chunked (a stream with no length, to the Fetch door). */
  readonly framing: 'length' | 'chunked';
  /** The Host header lines the Node doors get (the Fetch door has no Host: it has the URL). */
  readonly hosts?: readonly string[];
}

/** What a door answered to one delivery, and what onEvent was called with because of it. */
interface Outcome {
  readonly status: number;
  readonly error: string | undefined;
  readonly retryAfter: string | undefined;
  readonly duplicate: string | undefined;
  readonly allow: string | undefined;
  readonly events: readonly string[];
}

type Door = 'fetch' | 'node:http' | 'express' | 'express.json()' | 'express.json() + rawBody';
const nodeDoors: readonly Door[] = ['node:http', 'express', 'express.json()', 'express.json() + rawBody'];
const jsonDoors: readonly Door[] = ['express.json()', 'express.json() + rawBody'];

/** The `error` of an answer Express wrote itself (its HTML error page), not the route. */
const EXPRESS_PAGE = '(express error page)';

/** The path of a request-target as written (origin-form or absolute-form). */
const pathOf = (target: string): string =>
  (target.startsWith('/') ? target : target.replace(/^https?:\/\/[^/?]*/i, '')).split('?', 1)[0]!;

const typeOf = (delivery: Delivery): string =>
  delivery.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
const encodingOf = (delivery: Delivery): string | undefined =>
  delivery.headers.find(([name]) => name.toLowerCase() === 'content-encoding')?.[1];
/** The delivery as a parser that decoded its body passes it on: without Content-Encoding. */
const withoutEncoding = (delivery: Delivery): Delivery => ({
  ...delivery,
  headers: delivery.headers.filter(([name]) => name.toLowerCase() !== 'content-encoding'),
});
/** Whether express.json() (its default `type`) reads this delivery's body. */
const parsedByExpressJson = (delivery: Delivery): boolean =>
  /^application\/json\s*(?:;|$)/i.test(typeOf(delivery)) && delivery.method !== 'GET';
/**
 * Differences that are not defects: what only one door can see. Each names the doors and
 * deliveries it covers, and what those doors answer instead of the Fetch handler's answer: a fixed
 * refusal, or the answer node:http gives to the delivery as the route receives it there.
 */
interface AllowedDifference {
  readonly name: string;
  readonly reason: string;
  readonly doors: readonly Door[];
  /** `expected` is what the Fetch handler answered to the same delivery. */
  readonly covers: (delivery: Delivery, outcome: Outcome, expected: Outcome) => boolean;
  readonly answer: Partial<Outcome> | ((delivery: Delivery) => Delivery);
}

const ALLOWED_DIFFERENCES: readonly AllowedDifference[] = [
  {
    name: 'express.json() answers before the route',
    reason:
      'a body express.json() cannot parse (not JSON, a charset other than UTF-8, a Content-Encoding it cannot inflate) is refused by the parser with Express’s own 4xx page; the route never runs',
    doors: jsonDoors,
    covers: (delivery, outcome) => parsedByExpressJson(delivery) && outcome.error === EXPRESS_PAGE,
    answer: { error: EXPRESS_PAGE, events: [] },
  },
  {
    name: 'the Node doors check the Host header',
    reason:
      'a Fetch handler gets a URL, never the Host lines; toNodeListener refuses a Host that is missing, repeated or not host[:port], and an absolute-form target naming another host (400 invalid_request), even with publicOrigin set',
    doors: nodeDoors,
    covers: (delivery) =>
      (delivery.hosts !== undefined && (delivery.hosts.length !== 1 || !HOST.test(delivery.hosts[0]!))) ||
      (/^https?:\/\//i.test(delivery.target) &&
        new URL(delivery.target).host !== (delivery.hosts?.[0] ?? host).toLowerCase()),
    answer: { status: 400, error: 'invalid_request', events: [] },
  },
  {
    name: 'the Node doors check the request-target as written',
    reason:
      'a Fetch runtime hands the handler a URL already parsed (dot segments removed, a backslash read as /, a fragment cut off), so the path routed and the path verified are one; toNodeListener sees the raw target, which Express routes as written, and refuses a path the URL parser would rewrite (400 invalid_request)',
    doors: nodeDoors,
    covers: (delivery) =>
      delivery.target.includes('#') ||
      new URL(`${publicOrigin}${pathOf(delivery.target)}`).pathname !== pathOf(delivery.target),
    answer: { status: 400, error: 'invalid_request', events: [] },
  },
  {
    name: 'a HEAD answer has no body',
    reason:
      'node:http writes no body in an answer to HEAD, so the reason cannot be read there; the status and Allow header still say 405 POST',
    doors: nodeDoors,
    covers: (delivery) => delivery.method === 'HEAD',
    answer: { status: 405, error: undefined, allow: 'POST', events: [] },
  },
  {
    name: 'express.json() leaves the route a parsed value, not the posted bytes',
    reason:
      'JSON.parse has rounded any number with more digits than it keeps and kept only the last of a repeated key, so the route cannot read the body as sent: once it has checked the method and signature (which need no body), it refuses the value (500 handler_failed, the sender retries) whatever the bytes were',
    doors: ['express.json()'],
    covers: (delivery, _outcome, expected) =>
      parsedByExpressJson(delivery) && expected.status !== 401 && expected.status !== 405,
    answer: { status: 500, error: 'handler_failed', events: [] },
  },
  {
    name: 'express.json() decodes Content-Encoding before the route',
    reason:
      'the parser inflates the body (and reads an empty Content-Encoding as identity) and keeps the inflated bytes as req.rawBody, so the route takes the body as decoded; it answers as node:http does to the same body sent without Content-Encoding',
    doors: ['express.json() + rawBody'],
    covers: (delivery) => parsedByExpressJson(delivery) && encodingOf(delivery) !== undefined,
    answer: withoutEncoding,
  },
];

const allowanceFor = (door: Door, delivery: Delivery, outcome: Outcome, expected: Outcome) =>
  ALLOWED_DIFFERENCES.find(
    (entry) => entry.doors.includes(door) && entry.covers(delivery, outcome, expected),
  );

// --- the doors -------------------------------------------------------------------------

/** A fresh handler (its own dedupe store) recording onEvent as `type paid reference`. */
function freshRoute(): { handler: CallbackHandler; events: string[] } {
  const events: string[] = [];
  const handler = createCallbackHandler({
    secret,
    publicOrigin,
    maxBodyBytes,
    onEvent: (event, { reference }) => void events.push(`${event.type} ${event.paid} ${reference}`),
  });
  return { handler, events };
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;
/** The listener each Node door's server runs: set to a fresh route's before each case. */
const listeners: Partial<Record<Door, Listener>> = {};
const servers: Server[] = [];
const ports: Partial<Record<Door, number>> = {};

async function listen(server: Server): Promise<number> {
  servers.push(server);
  return listenOnLoopback(server);
}

beforeAll(async () => {
  ports['node:http'] = await listen(http.createServer((req, res) => listeners['node:http']!(req, res)));
  // Mounted under a prefix: the adapter must verify originalUrl, not the url Express strips.
  const app = express();
  app.use('/webhooks', (req, res) => listeners.express!(req, res));
  ports.express = await listen(http.createServer(app));
  const parsing = express();
  parsing.use(express.json());
  parsing.use('/webhooks', (req, res) => listeners['express.json()']!(req, res));
  ports['express.json()'] = await listen(http.createServer(parsing));
  const keeping = express();
  keeping.use(
    express.json({
      verify: (req: IncomingMessage & { rawBody?: Buffer }, _res, buf) => {
        req.rawBody = buf;
      },
    }),
  );
  keeping.use('/webhooks', (req, res) => listeners['express.json() + rawBody']!(req, res));
  ports['express.json() + rawBody'] = await listen(http.createServer(keeping));
});

afterAll(() => Promise.all(servers.splice(0).map(closeServer)));

const headerOf = (value: string | null | undefined): string | undefined => value ?? undefined;

async function throughFetch(handler: CallbackHandler, delivery: Delivery): Promise<Omit<Outcome, 'events'>> {
  const url = delivery.target.startsWith('/') ? `${publicOrigin}${delivery.target}` : delivery.target;
  const headers = new Headers();
  for (const [name, value] of delivery.headers) headers.append(name, value);
  const bodiless = delivery.method === 'GET' || delivery.method === 'HEAD';
  let body: BodyInit | undefined;
  if (!bodiless && delivery.framing === 'length') {
    headers.set('content-length', String(delivery.body.byteLength));
    body = new Uint8Array(delivery.body);
  } else if (!bodiless) {
    const chunks = chunksOf(delivery.body);
    body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(next);
      },
    });
  }
  const init: RequestInit & { duplex?: 'half' } = { method: delivery.method, headers, body, duplex: 'half' };
  const response = await handler(new Request(url, init));
  const text = await response.text();
  return {
    status: response.status,
    error: text === '' ? undefined : (JSON.parse(text) as { error?: string }).error,
    retryAfter: headerOf(response.headers.get('retry-after')),
    duplicate: headerOf(response.headers.get('x-callback-duplicate')),
    allow: headerOf(response.headers.get('allow')),
  };
}

const chunksOf = (bytes: Uint8Array): Uint8Array[] => {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.byteLength; at += 700) chunks.push(bytes.slice(at, at + 700));
  return chunks;
};

/** Writes the delivery on a socket, byte for byte, and reads the answer until the server closes. */
function throughSocket(port: number, delivery: Delivery): Promise<Omit<Outcome, 'events'>> {
  const bodiless = delivery.method === 'GET' || delivery.method === 'HEAD';
  const lines = [`${delivery.method} ${delivery.target} HTTP/1.1`];
  for (const value of delivery.hosts ?? [host]) lines.push(`Host: ${value}`);
  for (const [name, value] of delivery.headers) lines.push(`${name}: ${value}`);
  const parts: Buffer[] = [];
  if (!bodiless && delivery.framing === 'length') {
    lines.push(`Content-Length: ${delivery.body.byteLength}`);
    parts.push(Buffer.from(delivery.body));
  } else if (!bodiless) {
    lines.push('Transfer-Encoding: chunked');
    for (const chunk of chunksOf(delivery.body)) {
      parts.push(
        Buffer.from(`${chunk.byteLength.toString(16)}\r\n`),
        Buffer.from(chunk),
        Buffer.from('\r\n'),
      );
    }
    parts.push(Buffer.from('0\r\n\r\n'));
  }
  lines.push('Connection: close');
  const request = Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), ...parts]);
  return new Promise((resolve, reject) => {
    const received: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const finish = (error?: Error) => {
      const text = Buffer.concat(received).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(error ?? new Error(`no answer: ${JSON.stringify(text)}`));
        return;
      }
      const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
      const headers = new Map<string, string>();
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      const body = text.slice(split + 4);
      const type = headers.get('content-type') ?? '';
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0),
        error: type.startsWith('text/html')
          ? EXPRESS_PAGE
          : type.startsWith('application/json') && body !== ''
            ? (JSON.parse(body) as { error?: string }).error
            : undefined,
        retryAfter: headers.get('retry-after'),
        duplicate: headers.get('x-callback-duplicate'),
        allow: headers.get('allow'),
      });
    };
    socket.on('close', () => finish());
    socket.on('error', (error) => finish(error));
  });
}

/** Sends the deliveries, in order, through one door, on a fresh route. */
async function throughDoor(door: Door, deliveries: readonly Delivery[]): Promise<Outcome[]> {
  const { handler, events } = freshRoute();
  if (door !== 'fetch') listeners[door] = toNodeListener(handler);
  const outcomes: Outcome[] = [];
  for (const delivery of deliveries) {
    const seen = events.length;
    const answer =
      door === 'fetch' ? await throughFetch(handler, delivery) : await throughSocket(ports[door]!, delivery);
    outcomes.push({ ...answer, events: events.slice(seen) });
  }
  return outcomes;
}

/**
 * Sends the deliveries through every door and expects each Node door to answer each delivery as
 * the Fetch handler does, unless an allowed difference covers it: then as that entry says.
 */
async function expectOneAnswer(deliveries: readonly Delivery[]): Promise<void> {
  const expected = await throughDoor('fetch', deliveries);
  for (const door of nodeDoors) {
    const outcomes = await throughDoor(door, deliveries);
    for (const [index, delivery] of deliveries.entries()) {
      const outcome = outcomes[index]!;
      const allowance = allowanceFor(door, delivery, outcome, expected[index]!);
      if (allowance === undefined) {
        expect(outcome, `${door} and the Fetch handler, delivery ${index}`).toEqual(expected[index]);
      } else if (typeof allowance.answer === 'function') {
        const received = deliveries.map((each, at) =>
          allowanceFor(door, each, outcome, expected[at]!) === allowance
            ? (allowance.answer as (d: Delivery) => Delivery)(each)
            : each,
        );
        const instead = await throughDoor('node:http', received);
        expect(outcome, `${door}: ${allowance.name}, delivery ${index}`).toEqual(instead[index]);
      } else {
        expect(outcome, `${door}: ${allowance.name}, delivery ${index}`).toMatchObject(allowance.answer);
        expect(outcome.status, `${door}: ${allowance.name} is a refusal`).toBeGreaterThanOrEqual(400);
      }
    }
  }
}

// --- the deliveries ----------------------------------------------------------------------------

const json = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));

async function signedTarget(reference: string, path = route, query = ''): Promise<string> {
  const url = new URL(await signCallbackUrl(`${publicOrigin}${path}${query}`, { secret, reference }));
  return `${url.pathname}${url.search}`;
}

const post = (target: string, body: Uint8Array, more: Partial<Delivery> = {}): Delivery => ({
  method: 'POST',
  target,
  headers: [['Content-Type', 'application/json']],
  body,
  framing: 'length',
  ...more,
});

/** The reference each fixture is about (the card and mobile-money successes carry none: any will do). */
const fixtureReference: Record<(typeof callbackPayloadTypes)[number], string> = {
  'payment.card.succeeded': 'ORDER-1000',
  'payment.card.failed': 'ORDER-1001',
  'payment.mobile_money.succeeded': 'ORDER-1000',
  'payment.mobile_money.failed': 'ORDER-1002',
  'checkout.succeeded': '1001',
  'checkout.failed': '1003',
  'payout.succeeded': '123456789012',
  'payout.failed': '123456789013',
};

const payout = callbackFixtures['payout.succeeded'];
const payoutBody = json(payout);
const payoutReference = '123456789012';

/** Named edge deliveries: each one or more deliveries to one route. */
async function edgeCases(): Promise<[string, Delivery[]][]> {
  const signed = await signedTarget(payoutReference);
  const [path, query] = signed.split('?') as [string, string];
  const signature = new URLSearchParams(query).get('hp_sig')!;
  const otherSignature = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
  const cases: [string, Delivery[]][] = [];
  const add = (name: string, ...deliveries: Delivery[]) => cases.push([name, deliveries]);

  for (const type of callbackPayloadTypes) {
    add(
      `the documented ${type} payload`,
      post(await signedTarget(fixtureReference[type]), json(callbackFixtures[type])),
    );
  }
  add('a payout delivered twice', post(signed, payoutBody), post(signed, payoutBody));

  // signatures and queries
  add('a URL without hp_sig', post(`${path}?hp_ref=${payoutReference}`, payoutBody));
  add('a URL without hp_ref', post(`${path}?hp_sig=${signature}`, payoutBody));
  add('a wrong hp_sig', post(`${path}?hp_ref=${payoutReference}&hp_sig=${otherSignature}`, payoutBody));
  add('an empty hp_sig', post(`${path}?hp_ref=${payoutReference}&hp_sig=`, payoutBody));
  add('hp_sig given twice, alike', post(`${signed}&hp_sig=${signature}`, payoutBody));
  add(
    'hp_sig given twice, the first wrong',
    post(`${path}?hp_ref=${payoutReference}&hp_sig=${otherSignature}&hp_sig=${signature}`, payoutBody),
  );
  add('hp_ref given twice', post(`${signed}&hp_ref=${payoutReference}`, payoutBody));
  add('hp_sig before hp_ref', post(`${path}?hp_sig=${signature}&hp_ref=${payoutReference}`, payoutBody));
  add('hp_ref percent-encoded', post(`${path}?hp_ref=%31%323456789012&hp_sig=${signature}`, payoutBody));
  add('a query parameter added after signing', post(`${signed}&debug=1`, payoutBody));
  add(
    'a signed query parameter spelled with + instead of %20',
    post((await signedTarget(payoutReference, route, '?note=a%20b')).replace('a%20b', 'a+b'), payoutBody),
  );
  add(
    'a signed query parameter dropped',
    post(
      `${path}?hp_ref=${payoutReference}&hp_sig=${new URLSearchParams((await signedTarget(payoutReference, route, '?shop=1')).split('?')[1]).get('hp_sig')!}`,
      payoutBody,
    ),
  );
  add('an empty query parameter', post(`${signed}&`, payoutBody));
  add('a query of ? alone', post(`${path}?`, payoutBody));

  // paths
  add('a trailing slash', post(signed.replace(route, `${route}/`), payoutBody));
  add(
    'a URL signed with a trailing slash',
    post(await signedTarget(payoutReference, `${route}/`), payoutBody),
  );
  add('a percent-encoded letter in the path', post(signed.replace('payments', 'p%61yments'), payoutBody));
  add(
    'a URL signed with a percent-encoded letter',
    post(await signedTarget(payoutReference, '/webhooks/p%61yments'), payoutBody),
  );
  add(
    'a lower-case percent-escape of a signed upper-case one',
    post((await signedTarget(payoutReference, '/webhooks/a%2Fb')).replace('%2F', '%2f'), payoutBody),
  );
  add(
    'a percent-encoded space in a signed path',
    post(await signedTarget(payoutReference, '/webhooks/pay%20ments'), payoutBody),
  );
  add('a doubled slash', post(signed.replace('/payments', '//payments'), payoutBody));
  add('a path in upper case', post(signed.replace('payments', 'PAYMENTS'), payoutBody));
  add('a dot segment', post(signed.replace('/payments', '/./payments'), payoutBody));
  add(
    'a dot-dot segment back onto the route',
    post(signed.replace('/payments', '/x/../payments'), payoutBody),
  );
  add(
    'a percent-encoded dot-dot segment',
    post(signed.replace('/payments', '/x/%2e%2e/payments'), payoutBody),
  );
  add('an absolute-form target naming the public host', post(`${publicOrigin}${signed}`, payoutBody));
  add('an absolute-form target in upper case', post(`HTTPS://SHOP.EXAMPLE${signed}`, payoutBody));
  add('an absolute-form target naming another host', post(`https://other.example${signed}`, payoutBody));
  add('a fragment in the request-target', post(`${signed}#frag`, payoutBody));

  // the Host the Node doors see
  add('Host given twice', post(signed, payoutBody, { hosts: [host, host] }));
  add('a Host that is not host[:port]', post(signed, payoutBody, { hosts: ['shop.example/other'] }));
  add('another valid Host (publicOrigin decides)', post(signed, payoutBody, { hosts: ['10.0.0.5:3000'] }));

  // methods
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    add(`a ${method}`, post(signed, method === 'GET' ? new Uint8Array(0) : payoutBody, { method }));
  }
  add('a HEAD', post(signed, new Uint8Array(0), { method: 'HEAD' }));
  add('a GET without a signature', post(route, new Uint8Array(0), { method: 'GET' }));

  // bodies
  const padded = (size: number) => encoder.encode(JSON.stringify(payout).padEnd(size, ' '));
  add('a body of exactly maxBodyBytes', post(signed, padded(maxBodyBytes)));
  add('a body over maxBodyBytes, declared', post(signed, padded(maxBodyBytes + 1)));
  add('a body over maxBodyBytes, chunked', post(signed, padded(maxBodyBytes + 1), { framing: 'chunked' }));
  add('a body of exactly maxBodyBytes, chunked', post(signed, padded(maxBodyBytes), { framing: 'chunked' }));
  add('a body over maxBodyBytes without a signature', post(route, padded(maxBodyBytes * 2)));
  add('a payout, chunked', post(signed, payoutBody, { framing: 'chunked' }));
  add('an empty body', post(signed, new Uint8Array(0)));
  add('an empty body, chunked', post(signed, new Uint8Array(0), { framing: 'chunked' }));
  add('bad JSON', post(signed, encoder.encode('{"amount": "1000",')));
  add('JSON that is not an object', post(signed, encoder.encode('[1,2,3]')));
  add('a payout after a UTF-8 BOM', post(signed, new Uint8Array([0xef, 0xbb, 0xbf, ...payoutBody])));
  add(
    'a payout in UTF-16',
    post(signed, new Uint8Array(Buffer.from(`\ufeff${JSON.stringify(payout)}`, 'utf16le'))),
  );
  add(
    'a payout whose message holds bytes that are not UTF-8',
    post(
      signed,
      encoder
        .encode(JSON.stringify({ ...payout, message: '@@' }))
        .map((byte) => (byte === 0x40 ? 0xff : byte)),
    ),
  );
  add('a payout with trailing garbage', post(signed, encoder.encode(`${JSON.stringify(payout)}x`)));
  add('a payout followed by a NUL byte', post(signed, new Uint8Array([...payoutBody, 0])));

  // outcomes and references
  add('a payout whose status is unrecognised', post(signed, json({ ...payout, status: 'Pending' })));
  add('a payout without its status', post(signed, json({ ...payout, status: undefined })));
  add(
    'a card failure that also carries amount captured',
    post(
      await signedTarget('ORDER-7'),
      json({ ...callbackFixtures['payment.card.failed'], 'amount captured': '0' }),
    ),
  );
  add('a payout signed for another reference', post(await signedTarget('123456789099'), payoutBody));
  add(
    'a checkout failure signed for another order',
    post(await signedTarget('1004'), json(callbackFixtures['checkout.failed'])),
  );

  // content-encoding and content-type
  for (const encoding of [
    'gzip',
    'br',
    'identity',
    'IDENTITY',
    ' identity ',
    'identity, gzip',
    'x-unknown',
  ]) {
    add(
      `Content-Encoding ${JSON.stringify(encoding)}`,
      post(signed, payoutBody, {
        headers: [
          ['Content-Type', 'application/json'],
          ['Content-Encoding', encoding],
        ],
      }),
    );
  }
  add(
    'Content-Encoding given twice as identity',
    post(signed, payoutBody, {
      headers: [
        ['Content-Encoding', 'identity'],
        ['Content-Encoding', 'identity'],
      ],
    }),
  );
  add(
    'Content-Encoding gzip on a bad signature',
    post(`${path}?hp_ref=${payoutReference}&hp_sig=${otherSignature}`, payoutBody, {
      headers: [['Content-Encoding', 'gzip']],
    }),
  );
  for (const type of [
    undefined,
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; charset=latin1',
    'application/vnd.api+json',
    'multipart/form-data; boundary=x',
    'application/json, text/plain',
  ]) {
    add(
      `Content-Type ${JSON.stringify(type)}`,
      post(signed, payoutBody, { headers: type === undefined ? [] : [['Content-Type', type]] }),
    );
  }
  return cases;
}

const cases = await edgeCases();

describe('one route, five doors: hand-picked deliveries', () => {
  it('names a reason for every allowed difference, and what the doors it covers answer instead', () => {
    for (const entry of ALLOWED_DIFFERENCES) {
      expect(entry.reason.length).toBeGreaterThan(40);
      expect(entry.doors).not.toContain('fetch');
      if (typeof entry.answer !== 'function') expect(entry.answer.events).toEqual([]);
    }
  });

  it.each(cases)(
    'answers the same to %s through the Fetch handler, node:http, Express, express.json() and express.json() keeping rawBody',
    async (_name, deliveries) => {
      await expectOneAnswer(deliveries);
    },
  );
});

// --- generated deliveries ------------------------------------------------------------------------

/** Any body: a documented payload, a mutated one, or no payload at all, as bytes. */
const bodyBytes: fc.Arbitrary<Uint8Array> = fc
  .oneof(
    { arbitrary: anyValidPayload.map(({ payload }) => payload as unknown), weight: 4 },
    { arbitrary: mutatedPayload.map(({ input }) => input), weight: 4 },
    { arbitrary: garbageBody, weight: 2 },
  )
  .map((input): Uint8Array => {
    if (input instanceof Uint8Array) return input;
    if (typeof input === 'string') return encoder.encode(input);
    try {
      return encoder.encode(
        JSON.stringify(input, (_key, value: unknown) =>
          typeof value === 'bigint' ? String(value) : value,
        ) ?? 'undefined',
      );
    } catch {
      return encoder.encode(String(input));
    }
  })
  .filter((bytes) => bytes.byteLength <= 2 * maxBodyBytes);

/** The reference a body is about (its order_id / reference_id / transaction_reference), else a made-up one. */
function referenceIn(body: Uint8Array): string {
  try {
    const value = JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>;
    for (const key of ['order_id', 'reference_id', 'transaction_reference']) {
      const found = value?.[key];
      if ((typeof found === 'string' && found !== '') || typeof found === 'number') return String(found);
    }
  } catch {
    // not JSON: any reference will do
  }
  return 'ORDER-1';
}

const generatedDelivery = fc.record({
  body: bodyBytes,
  otherReference: fc.option(fc.constantFrom('ORDER-2', '999999999999', '1004'), { freq: 8 }),
  signature: fc.constantFrom(
    'valid',
    'valid',
    'valid',
    'valid',
    'missing',
    'wrong',
    'twice',
    'reference twice',
    'empty',
  ),
  query: fc.constantFrom('none', 'none', 'signed', 'added after signing'),
  path: fc.constantFrom(
    'as signed',
    'as signed',
    'as signed',
    'trailing slash',
    'encoded letter',
    'dot segment',
    'double slash',
    'upper case',
  ),
  method: fc.constantFrom(
    'POST',
    'POST',
    'POST',
    'POST',
    'POST',
    'POST',
    'GET',
    'PUT',
    'PATCH',
    'DELETE',
    'OPTIONS',
  ),
  framing: fc.constantFrom<Delivery['framing']>('length', 'length', 'chunked'),
  contentEncoding: fc.constantFrom(
    undefined,
    undefined,
    undefined,
    undefined,
    'identity',
    'IDENTITY',
    'gzip',
    '',
  ),
  contentType: fc.constantFrom(
    undefined,
    'application/json',
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/cloudevents+json',
  ),
  times: fc.constantFrom(1, 1, 2),
  padding: fc.constantFrom(0, 0, 0, 0, maxBodyBytes),
});

async function toDeliveries(
  drawn: typeof generatedDelivery extends fc.Arbitrary<infer T> ? T : never,
): Promise<Delivery[]> {
  const reference = drawn.otherReference ?? referenceIn(drawn.body);
  const query = drawn.query === 'signed' ? '?shop=main&note=a%20b' : '';
  let target = await signedTarget(reference, route, query);
  const [path, search] = target.split('?') as [string, string];
  const params = new URLSearchParams(search);
  const sig = params.get('hp_sig')!;
  const ref = params.get('hp_ref')!;
  const refPart = `hp_ref=${encodeURIComponent(ref)}`;
  if (drawn.signature === 'missing') target = `${path}?${refPart}`;
  if (drawn.signature === 'wrong') target = `${path}?${refPart}&hp_sig=${sig.slice(1)}A`;
  if (drawn.signature === 'twice') target = `${target}&hp_sig=${sig}`;
  if (drawn.signature === 'reference twice') target = `${target}&${refPart}`;
  if (drawn.signature === 'empty') target = `${path}?${refPart}&hp_sig=`;
  if (drawn.query === 'added after signing') target = `${target}&extra=1`;
  const paths: Record<typeof drawn.path, string> = {
    'as signed': route,
    'trailing slash': `${route}/`,
    'encoded letter': '/webhooks/p%61yments',
    'dot segment': '/webhooks/x/../payments',
    'double slash': '/webhooks//payments',
    'upper case': '/webhooks/PAYMENTS',
  };
  target = target.replace(route, paths[drawn.path]);
  const headers: [string, string][] = [];
  if (drawn.contentType !== undefined) headers.push(['Content-Type', drawn.contentType]);
  if (drawn.contentEncoding !== undefined) headers.push(['Content-Encoding', drawn.contentEncoding]);
  const padded = new Uint8Array(drawn.body.byteLength + drawn.padding).fill(0x20);
  padded.set(drawn.body);
  const body = drawn.method === 'GET' ? new Uint8Array(0) : padded;
  const delivery: Delivery = { method: drawn.method, target, headers, body, framing: drawn.framing };
  return Array.from({ length: drawn.times }, () => delivery);
}

describe('one route, five doors: generated deliveries', () => {
  it('answers the same to generated deliveries through the Fetch handler, node:http, Express, express.json() and express.json() keeping rawBody', async () => {
    await fc.assert(
      fc.asyncProperty(generatedDelivery, async (drawn) => {
        await expectOneAnswer(await toDeliveries(drawn));
      }),
      { seed: 20_250_301, numRuns: 1_000 },
    );
  });
});
