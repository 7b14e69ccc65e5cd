// What leaks: the card number, the cvc and the API key must not reach any text a merchant's logs
// can print of an error — message, stack, String(), JSON, util.inspect with hidden properties at
// any depth, structuredClone, the cause chain — whatever a custom fetch puts in the error it throws.
import { createServer, type Socket } from 'node:net';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConnectionError, PaymentsClient, type ClientOptions } from '../../src/index.js';
import { cardPaymentInput, cvc } from '../helpers/inputs.js';
import { withoutSourceNoise } from '../helpers/source-noise.js';

const apiKey = 'sk_live_Zq9exposureKEY';

/** Every own property (hidden ones too) and every cause, as plain text. */
function walk(value: unknown, depth = 0): string {
  if (typeof value !== 'object' || value === null || depth > 16) return String(value);
  let out = '';
  for (const key of Reflect.ownKeys(value)) {
    const field: unknown = (value as Record<PropertyKey, unknown>)[key];
    out += ` ${String(key)}=${typeof field === 'object' ? walk(field, depth + 1) : String(field)}`;
  }
  return out;
}

/** Every text a log line may be made of. */
function dumps(error: unknown): string {
  return [
    String(error),
    JSON.stringify(error),
    inspect(error, { showHidden: true, depth: Infinity }),
    inspect(structuredClone(error), { showHidden: true, depth: Infinity }),
    String((error as Error).cause),
    walk(error),
  ].join('\n');
}

/** What of the card and the key a text shows, once what a machine writes by chance is out. */
function leaks(text: string): string[] {
  const plain = withoutSourceNoise(text);
  return [
    /9999\D{0,3}9999\D{0,3}9999\D{0,3}9995/.test(plain) && 'card number',
    new RegExp(`(?<!\\d)${cvc}(?!\\d)`).test(plain) && 'cvc',
    plain.includes('Zq9exposureKEY') && 'api key',
  ].filter((found) => found !== false);
}

/** A card payment through `fetch`, which gets the request as the client sends it. */
async function failWith(fetch: ClientOptions['fetch']): Promise<unknown> {
  const client = new PaymentsClient({ baseUrl: 'https://payments.example', apiKey, fetch });
  return client.initiateCardPayment(cardPaymentInput).then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

/** The request as a fetch wrapper might quote it: body and Authorization header. */
const quote = async (request: Request) =>
  `${await request.clone().text()} ${request.headers.get('authorization')}`;

describe('a custom fetch whose error carries the request', () => {
  it('never shows it through the name of the error (cause), whichever way it is printed', async () => {
    const error = await failWith(async (request) => {
      const failure = new TypeError('fetch failed');
      failure.name = `FetchError sending ${await quote(request)}`;
      throw failure;
    });
    expect(error).toBeInstanceOf(ConnectionError);
    expect(leaks(dumps(error))).toEqual([]);
  });

  it.each([
    ['a Request as its message', async (request: Request) => request],
    ['a number as its message', async () => 502],
    [
      'an object quoting the request as its message',
      async (request: Request) => ({ sent: await quote(request) }),
    ],
  ])('is a ConnectionError for an error with %s, quoting nothing', async (_name, message) => {
    const error = await failWith(async (request) => {
      const failure = new TypeError('fetch failed');
      Object.defineProperty(failure, 'message', { value: await message(request) });
      throw failure;
    });
    expect(error).toBeInstanceOf(ConnectionError);
    expect(leaks(dumps(error))).toEqual([]);
  });

  it('is a ConnectionError for an error whose message or code cannot be read', async () => {
    for (const property of ['message', 'code', 'stack']) {
      const error = await failWith(async () => {
        const failure = new TypeError('fetch failed');
        Object.defineProperty(failure, property, {
          get() {
            throw new Error('unreadable');
          },
        });
        throw failure;
      });
      expect(error).toBeInstanceOf(ConnectionError);
    }
  });
});

describe('every stage a card payment can fail at', () => {
  it.each([
    [
      'an AggregateError of errors quoting it',
      async (request: Request) => new AggregateError([new Error(await quote(request))], 'all failed'),
    ],
    ['a Request as cause', async (request: Request) => new TypeError('fetch failed', { cause: request })],
    [
      'its Headers as cause',
      async (request: Request) => new TypeError('fetch failed', { cause: request.headers }),
    ],
    [
      'a URL holding it as cause',
      async (request: Request) =>
        new TypeError('fetch failed', {
          cause: new URL(`https://log.example/?q=${encodeURIComponent(await quote(request))}`),
        }),
    ],
    [
      'a cause chain quoting it at depth 3',
      async (request: Request) =>
        new TypeError('a', { cause: new Error('b', { cause: new Error(await quote(request)) }) }),
    ],
    ['a string quoting it', async (request: Request) => quote(request)],
    ['a plain object holding it', async (request: Request) => ({ request, body: await quote(request) })],
    [
      'a DOMException quoting it',
      async (request: Request) => new DOMException(await quote(request), 'NetworkError'),
    ],
  ])('never shows the request when a custom fetch throws %s', async (_name, thrown) => {
    const error = await failWith(async (request) => {
      throw await thrown(request);
    });
    expect(error).toBeInstanceOf(ConnectionError);
    expect(leaks(dumps(error))).toEqual([]);
  });

  it('never shows it from a DNS failure, a TLS failure or the hook events', async () => {
    const events: unknown[] = [];
    const hooks: ClientOptions['hooks'] = {
      beforeRequest: (event) => void events.push(event),
      afterResponse: (event) => void events.push(event),
    };
    // Speaks plain HTTP where the client expects a TLS handshake.
    const sockets: Socket[] = [];
    const notTls = createServer((socket) => {
      sockets.push(socket);
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    });
    await new Promise<void>((resolve) => notTls.listen(0, '127.0.0.1', resolve));
    const tlsUrl = `https://127.0.0.1:${(notTls.address() as { port: number }).port}`;
    try {
      for (const baseUrl of ['http://payments.invalid', tlsUrl]) {
        const error = await new PaymentsClient({ baseUrl, apiKey, hooks })
          .initiateCardPayment(cardPaymentInput)
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ConnectionError);
        expect(leaks(dumps(error))).toEqual([]);
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => notTls.close(resolve));
    }
    expect(events).toHaveLength(2);
    expect(
      leaks(`${JSON.stringify(events)}\n${inspect(events, { depth: Infinity, showHidden: true })}`),
    ).toEqual([]);
  });

  it('shows no API key or callback secret in util.inspect(client) or JSON.stringify(client)', async () => {
    const { createTransactionTracker } = await import('../../src/transactions/index.js');
    const client = new PaymentsClient({
      baseUrl: 'https://payments.example',
      apiKey,
      headers: { 'x-api-key': apiKey },
      transactions: { tracker: createTransactionTracker(), secret: 'whsec_Zq9exposureKEY_callbacks' },
    });
    const text = [
      inspect(client, { showHidden: true, depth: Infinity, getters: true }),
      JSON.stringify(client),
      String(client),
      walk(client),
    ].join('\n');
    expect(leaks(text)).toEqual([]);
    expect(text).not.toContain('whsec_');
  });
});
