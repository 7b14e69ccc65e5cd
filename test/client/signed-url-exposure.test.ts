// A signed callback URL is a bearer token for its reference: whoever reads its hp_sig can post a
// callback the webhook handler accepts (a "paid" for a payment that failed). So the hp_sig value
// must reach nothing the SDK hands the merchant — hook events, ApiError (message, body, headers),
// ConnectionError and TimeoutError (cause chain included), however they are printed — whether the
// client signed the URL (`transactions`) or the merchant passed it signed. hp_ref and the rest of
// the URL stay visible, so a log line still says which order a call was for.
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  ConnectionError,
  PaymentsClient,
  TimeoutError,
  signCallbackUrl,
  type ClientOptions,
  type RequestLogEvent,
  type ResponseLogEvent,
} from '../../src/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import {
  cardPaymentInput,
  checkoutSessionInput,
  mobileMoneyPaymentInput,
  payoutInput,
} from '../helpers/inputs.js';
import { silent, startServer, type TestServer } from '../helpers/servers.js';

const secret = 'whsec_signed-url-exposure-0123456789';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Loose = Record<string, Record<string, unknown>>;

/** Each operation, the reference its URL is signed with and where its body carries the URL. */
const operations = [
  {
    operation: 'initiateCardPayment',
    input: cardPaymentInput,
    reference: 'order-1001',
    place: ['callback_details', 'callback_url'],
    reply: { message: 'Card Payment Initiated', status: 200 },
  },
  {
    operation: 'initiateMobileMoneyPayment',
    input: mobileMoneyPaymentInput,
    reference: 'order-1002',
    place: ['callback_details', 'callback_url'],
    reply: { message: 'MOBILE-MONEY Payment Initiated', status: 200 },
  },
  {
    operation: 'createCheckoutSession',
    input: checkoutSessionInput,
    reference: '1003',
    place: ['redirect_urls', 'callback_url'],
    reply: { checkout_link: 'https://pay.example/c/1003', status: true, order_id: '1003' },
  },
  {
    operation: 'initiatePayout',
    input: payoutInput,
    reference: '483920175561',
    place: ['webhook_endpoint', 'webhook_url'],
    reply: { message: 'Mobile Payout Initiated', status: 200 },
  },
] as const;
type Case = (typeof operations)[number];

/**
 * The URL signed as the client (or a merchant) signs it, and its hp_sig. The client gives a
 * checkout's URL a random hp_try of its own before signing it: these tests make its random bytes
 * zeros (see beforeEach), so the URL is known in advance.
 */
async function signed(op: Case, tracked = false): Promise<{ url: string; sig: string }> {
  const [object, field] = op.place;
  const given = (op.input as unknown as Loose)[object]![field] as string;
  const plain =
    tracked && op.operation === 'createCheckoutSession' ? `${given}?hp_try=${'0'.repeat(24)}` : given;
  const url = await signCallbackUrl(plain, { secret, reference: op.reference });
  const sig = new URL(url).searchParams.get('hp_sig')!;
  expect(sig).toMatch(/^[\w-]{43}$/);
  return { url, sig };
}

/** The operation's input with its callback URL replaced by `url`. */
function withUrl(op: Case, url: string): unknown {
  const [object, field] = op.place;
  const input = op.input as unknown as Loose;
  return { ...input, [object]: { ...input[object], [field]: url } };
}

/** Calls the operation; resolves with what it resolved or rejected with. */
function call(client: PaymentsClient, op: Case, input: unknown): Promise<unknown> {
  const method = client[op.operation].bind(client) as (input: unknown) => Promise<unknown>;
  return method(input).catch((error: unknown) => error);
}

/** Every text a merchant's log line may be made of: the errors and the hooks' events. */
function dump(...values: unknown[]): string {
  const texts: string[] = [];
  for (const value of values) {
    texts.push(JSON.stringify(value) ?? '', inspect(value, { depth: Infinity, showHidden: true }));
    if (value instanceof Error) {
      texts.push(String(value), value.message, value.stack ?? '');
      for (let cause = value.cause; cause !== undefined; cause = (cause as Error).cause) {
        texts.push(String(cause), inspect(cause, { depth: Infinity, showHidden: true }));
        if (!(cause instanceof Error)) break;
      }
    }
    if (value instanceof ApiError) texts.push(value.body, JSON.stringify(value.headers));
  }
  return texts.join('\n');
}

/** A service that answers every request with what `answer` makes of the body text it received. */
async function service(
  answer: (body: string) => { status: number; body: string; type?: string; headers?: Record<string, string> },
): Promise<{ baseUrl: string; received: string[] }> {
  const received: string[] = [];
  server = await startServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      received.push(text);
      const reply = answer(text);
      response.writeHead(reply.status, {
        'content-type': reply.type ?? 'application/json',
        ...reply.headers,
      });
      response.end(reply.body);
    });
  });
  return { baseUrl: server.url, received };
}

/** A client that records every hook event, signing URLs itself when `tracked`. */
function client(options: ClientOptions, tracked: boolean) {
  const events: (RequestLogEvent | ResponseLogEvent)[] = [];
  const tracker = createTransactionTracker();
  const instance = new PaymentsClient({
    ...options,
    ...(tracked ? { transactions: { tracker, secret } } : {}),
    hooks: {
      beforeRequest: (event) => void events.push(event),
      afterResponse: (event) => void events.push(event),
    },
  });
  return { client: instance, events, tracker };
}

const ways = [
  ['signed by the client (transactions)', true],
  ['signed by the merchant', false],
] as const;

describe.each(ways)('a callback URL %s', (_way, tracked) => {
  beforeEach(() => {
    vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation((array) => array);
    return () => vi.restoreAllMocks();
  });
  /** The call's input: the plain URL when the client signs it, else the signed one. */
  const inputFor = (op: Case, url: string) => (tracked ? op.input : withUrl(op, url));

  it.each(operations)(
    'reaches the service whole but shows in $operation hook events only with hp_sig redacted',
    async (op) => {
      const { url, sig } = await signed(op, tracked);
      const { baseUrl, received } = await service(() => ({ status: 200, body: JSON.stringify(op.reply) }));
      const { client: payments, events, tracker } = client({ baseUrl }, tracked);
      const result = await call(payments, op, inputFor(op, url));
      expect(result).not.toBeInstanceOf(Error);
      // The service got the signed URL: the callback it posts verifies.
      const [object, field] = op.place;
      expect((JSON.parse(received[0]!) as Loose)[object]![field]).toBe(url);
      expect(events).toHaveLength(2);
      for (const event of events) {
        expect((event.body as Loose)[object]![field]).toBe(url.replace(sig, '[redacted]'));
        expect(url.replace(sig, '[redacted]')).toMatch(/[?&]hp_ref=[^&]+&hp_sig=\[redacted\]$/);
      }
      const record = tracked ? await tracker.get(op.reference) : undefined;
      expect(dump(events, result, record)).not.toContain(sig);
    },
  );

  const echoes: [string, (body: string, url: string) => string, string?][] = [
    ['the JSON body as sent', (body) => body],
    [
      'the body inside a JSON string, & and = escaped as \\u0026 and \\u003d',
      (body) =>
        JSON.stringify({ error: 'bad request', request: body })
          .replaceAll('&', '\\u0026')
          .replaceAll('=', '\\u003d'),
    ],
    [
      'the body form-encoded (hp_sig%3D…)',
      (body) => `error=bad+request&request=${encodeURIComponent(body)}`,
      'application/x-www-form-urlencoded',
    ],
    [
      'the URL percent-encoded twice (hp_sig%253D…)',
      (_body, url) =>
        JSON.stringify({ error: `bad callback ${encodeURIComponent(encodeURIComponent(url))}` }),
    ],
    [
      'the URL HTML-escaped in an error page',
      (_body, url) => `<p>Bad callback <a href="${url.replaceAll('&', '&amp;')}">here</a></p>`,
      'text/html',
    ],
  ];

  it.each(echoes)(
    'is redacted from ApiError and afterResponse when the service echoes %s',
    async (_name, echo, type) => {
      for (const op of operations) {
        const { url, sig } = await signed(op, tracked);
        const { baseUrl } = await service((body) => ({
          status: 400,
          body: echo(body, url),
          ...(type === undefined ? {} : { type }),
          headers: { 'x-echo': encodeURIComponent(url) },
        }));
        const { client: payments, events } = client({ baseUrl }, tracked);
        const error = await call(payments, op, inputFor(op, url));
        expect(error).toBeInstanceOf(ApiError);
        const { body, headers } = error as ApiError;
        // The reference stays readable, only the signature is gone.
        expect(body).toContain('[redacted]');
        expect(body).toMatch(/hp_ref/);
        expect(headers['x-echo']).toContain('hp_ref%3D');
        expect((events[1] as ResponseLogEvent).responseBody).toBe(body);
        expect(dump(error, events)).not.toContain(sig);
        await server?.close();
        server = undefined;
      }
    },
  );

  it('leaves an echoed JSON body JSON, the URL in it with hp_ref and hp_sig=[redacted]', async () => {
    const op = operations[1];
    const { url, sig } = await signed(op, tracked);
    const { baseUrl } = await service((body) => ({ status: 422, body }));
    const { client: payments } = client({ baseUrl }, tracked);
    const error = (await call(payments, op, inputFor(op, url))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    const echoed = JSON.parse(error.body) as Loose;
    expect(echoed.callback_details!.callback_url).toBe(url.replace(sig, '[redacted]'));
  });

  it('is redacted from the message when the service puts it in its status text', async () => {
    const op = operations[1];
    const { url, sig } = await signed(op, tracked);
    server = await startServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(400, `Bad callback ${url}`, { 'content-type': 'application/json' });
        response.end('{}');
      });
    });
    const { client: payments } = client({ baseUrl: server.url }, tracked);
    const error = await call(payments, op, inputFor(op, url));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toContain('hp_sig=[redacted]');
    expect(dump(error)).not.toContain(sig);
  });

  it('never shows it through a ConnectionError whose custom fetch quotes the request', async () => {
    for (const op of operations) {
      const { url, sig } = await signed(op, tracked);
      const { client: payments, events } = client(
        {
          baseUrl: 'https://payments.example',
          fetch: async (request) => {
            const sent = await request.clone().text();
            throw new TypeError(`fetch failed sending ${sent}`, {
              cause: Object.assign(new Error(`could not post ${sent}`), { request, code: 'ECONNRESET' }),
            });
          },
        },
        tracked,
      );
      const error = await call(payments, op, inputFor(op, url));
      expect(error).toBeInstanceOf(ConnectionError);
      expect(dump(error, events)).not.toContain(sig);
      // The body text is still there, its signature redacted: the cause says what was sent.
      expect(String((error as ConnectionError).cause)).toContain('hp_sig=[redacted]');
    }
  });

  it('never shows it through a TimeoutError or the events of the call that timed out', async () => {
    const op = operations[3];
    const { url, sig } = await signed(op, tracked);
    server = await startServer(silent);
    const { client: payments, events } = client({ baseUrl: server.url, timeout: 200 }, tracked);
    const error = await call(payments, op, inputFor(op, url));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(events).toHaveLength(1);
    expect(dump(error, events)).not.toContain(sig);
  });
});
