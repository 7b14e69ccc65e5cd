// Secrets a server echoes in the spellings servers use, through the whole client over a real socket:
// a cvc ending a sentence, the API key JSON-escaped, PHP-escaped, URL-encoded or HTML-escaped, a
// session cookie the service sets, and a key the merchant passes through the `headers` option under
// a credential header name. None of them may
// reach ApiError (message, body, headers, JSON, util.inspect) or the hooks' events.
import type { IncomingHttpHeaders } from 'node:http';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  PaymentsClient,
  type ClientOptions,
  type RequestLogEvent,
  type ResponseLogEvent,
} from '../../src/index.js';
import { cardPaymentInput, cvc } from '../helpers/inputs.js';
import { startServer, type TestServer } from '../helpers/servers.js';
import { withoutSourceNoise } from '../helpers/source-noise.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A service that answers `status` with the body and an `x-echo` header made from the request's headers. */
async function echoing(status: number, body: (headers: IncomingHttpHeaders) => string) {
  server = await startServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const text = body(request.headers);
      response.writeHead(status, { 'content-type': 'application/json', 'x-echo': text });
      response.end(text);
    });
  });
  return server.url;
}

/** Calls the client (with `input`) and returns its ApiError with every text it and the hooks expose. */
async function failedCall(
  options: ClientOptions,
  call: Parameters<PaymentsClient['initiateCardPayment']>[1] = {},
  input: Parameters<PaymentsClient['initiateCardPayment']>[0] = cardPaymentInput,
) {
  const events: (RequestLogEvent | ResponseLogEvent)[] = [];
  const client = new PaymentsClient({
    ...options,
    hooks: {
      beforeRequest: (event) => void events.push(event),
      afterResponse: (event) => void events.push(event),
    },
  });
  const error = await client.initiateCardPayment(input, call).then(
    () => {
      throw new Error('expected a rejection');
    },
    (caught: unknown) => caught as ApiError,
  );
  expect(error).toBeInstanceOf(ApiError);
  const shown = [
    error.message,
    error.body,
    JSON.stringify(error.headers),
    JSON.stringify(error),
    inspect(error, { depth: 20, showHidden: true }),
    JSON.stringify(events),
    inspect(events, { depth: 20 }),
  ].join('\n');
  // Source positions in stack traces (`http.ts:737:50`), with their paths, are no cvc.
  const dump = withoutSourceNoise(shown);
  return { error, events, dump };
}

describe('an echoed cvc', () => {
  it('is redacted before a full stop, in ApiError.body, ApiError.headers and afterResponse', async () => {
    const baseUrl = await echoing(402, () => `{"error":"Invalid cvc ${cvc}."}`);
    const { error, events, dump } = await failedCall({ baseUrl });
    expect(error.body).toBe('{"error":"Invalid cvc [redacted]."}');
    expect(error.headers['x-echo']).toBe('{"error":"Invalid cvc [redacted]."}');
    expect((events[1] as ResponseLogEvent).responseBody).toBe('{"error":"Invalid cvc [redacted]."}');
    expect(dump).not.toMatch(new RegExp(`(?<!\\d)${cvc}(?!\\d)`));
  });

  // A service that read the cvc into a double (Java, Python) echoes it as one in its refusal.
  it.each([
    ['a JSON double', `${cvc}.0`],
    ['a double with two decimals', `${cvc}.00`],
    ['a double in scientific notation', `${cvc[0]}.${cvc.slice(1)}E+2`],
  ])('is redacted as %s, the echoed JSON left valid', async (_name, echoed) => {
    const baseUrl = await echoing(
      422,
      () =>
        `{"error":"card declined","request":{"card_details":{"card_number":"**** 9995","cvc":${echoed},"expiry_month":7}}}`,
    );
    const { error, events, dump } = await failedCall({ baseUrl });
    for (const text of [error.body, error.headers['x-echo'], (events[1] as ResponseLogEvent).responseBody]) {
      expect(JSON.parse(text!)).toEqual({
        error: 'card declined',
        request: { card_details: { card_number: '**** 9995', cvc: '[redacted]', expiry_month: 7 } },
      });
    }
    expect(dump).not.toContain(echoed);
  });

  it('is left alone inside a decimal or a larger number', async () => {
    const text = `{"fee":"${cvc}.45","id":"1${cvc}"}`;
    const baseUrl = await echoing(402, () => text);
    const { error } = await failedCall({ baseUrl });
    expect(error.body).toBe(text);
  });
});

describe('an echoed card number', () => {
  // A proxy's refusal page quoting the request URL-encoded: a percent-escape ending in a digit
  // (`%20`, a space) right before the number and the cvc.
  it('is redacted with the cvc after a URL-encoded space', async () => {
    const echoed = `pan%3A%209999%209999%209999%209995%20cvc%3A%20${cvc}`;
    const baseUrl = await echoing(403, () => `{"error":"blocked","request":"${echoed}"}`);
    const { error, dump } = await failedCall({ baseUrl });
    expect(error.body).toBe('{"error":"blocked","request":"pan%3A%20**** 9995%20cvc%3A%20[redacted]"}');
    expect(dump).not.toMatch(/9999%209999/);
    expect(dump).not.toMatch(new RegExp(`%20${cvc}`));
  });

  // The card number goes out as a bare JSON integer above 2^53: a service that parses it into a
  // double echoes 9999999999999996, which with the Luhn digit gives the card back.
  it('is redacted as a service that parsed it into a double echoes it', async () => {
    const rounded = String(Number(cardPaymentInput.card_details.card_number.replaceAll(' ', '')));
    expect(rounded).toBe('9999999999999996');
    const baseUrl = await echoing(402, () => `{"error":"card declined","card_number":${rounded}}`);
    const { error, dump } = await failedCall({ baseUrl });
    expect(error.body).toBe('{"error":"card declined","card_number":"**** 9995"}');
    expect(dump).not.toContain(rounded);
  });

  // A merchant's error handler reads the echo with JSON.parse: a card number or cvc the service
  // echoes as the bare JSON integer it was sent as must leave valid JSON behind, a string in its place.
  it.each([
    ['the request body as sent', (sent: string) => sent],
    [
      'the request body pretty-printed',
      (sent: string) =>
        JSON.stringify(JSON.parse(sent.replace(/(\d{16})/, '"$1"')), null, 2).replace(/"(\d{16})"/, '$1'),
    ],
    [
      'a card number read into a double (9999999999999996.0) and the cvc as a number',
      () => `{"card_details":{"card_number":9999999999999996.0,"cvc":${cvc}},"error":"declined"}`,
    ],
  ])('leaves the echoed JSON valid when the service echoes %s', async (_name, echo) => {
    server = await startServer((request, response) => {
      let sent = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (sent += chunk));
      request.on('end', () => {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(echo(sent));
      });
    });
    const { error, events, dump } = await failedCall({ baseUrl: server.url });
    for (const text of [error.body, (events[1] as ResponseLogEvent).responseBody]) {
      const echoed = JSON.parse(text) as { card_details: { card_number: unknown; cvc: unknown } };
      expect(echoed.card_details.card_number).toMatch(/^\*\*\*\* 9995(?:\.0)?$/);
      expect(echoed.card_details.cvc).toBe('[redacted]');
    }
    expect(dump).not.toMatch(/9999\D{0,3}9999\D{0,3}9999\D{0,3}999[56]/);
    expect(dump).not.toMatch(new RegExp(`(?<![\\d.])${cvc}(?!\\d)`));
  });

  it.each([
    ['as JSON \\u escapes', (d: string) => `\\u003${d}`],
    ['in fullwidth digits', (d: string) => String.fromCodePoint(0xff10 + Number(d))],
  ])('is redacted with its digits spelled %s, the cvc too', async (_name, spell) => {
    const respell = (digits: string) => [...digits].map(spell).join('');
    // In the body only: a header holds no fullwidth character.
    server = await startServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(402, { 'content-type': 'application/json; charset=utf-8' });
        response.end(`{"error":"card ${respell('9999999999999995')} cvc ${respell(cvc)}"}`);
      });
    });
    const { error, dump } = await failedCall({ baseUrl: server.url });
    expect(error.body).toBe('{"error":"card **** 9995 cvc [redacted]"}');
    expect(dump).not.toContain(respell('9999999999999995'));
    expect(dump).not.toContain(respell(cvc));
  });

  it('is redacted run together with the expiry (a PAN and expiry field)', async () => {
    const baseUrl = await echoing(402, () => '{"error":"declined","pan_exp":"99999999999999950731"}');
    const { error, events, dump } = await failedCall({ baseUrl });
    expect(error.body).toBe('{"error":"declined","pan_exp":"**** 99950731"}');
    expect((events[1] as ResponseLogEvent).responseBody).toBe(error.body);
    expect(dump).not.toContain('9999999999999995');
  });

  it('is redacted from an HTML error page that puts each group in its own cell', async () => {
    const baseUrl = await echoing(
      402,
      () => '<table><tr><td>9999</td><td>9999</td><td>9999</td><td>9995</td></tr></table>',
    );
    const { error, dump } = await failedCall({ baseUrl });
    expect(error.body).toBe('<table><tr><td>**** 9995</td></tr></table>');
    expect(dump).not.toMatch(/9999\D*9999\D*9999\D*9995/);
  });
});

describe('an echoed API key', () => {
  const key = 'sk_live/abc+def="q';
  const lowerHex = (encoded: string) => encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
  it.each([
    ['JSON-escaped', JSON.stringify({ error: `invalid key ${key}` })],
    [
      'JSON-escaped with every / escaped (PHP)',
      JSON.stringify({ error: `invalid key ${key}` }).replaceAll('/', '\\/'),
    ],
    ['URL-encoded', JSON.stringify({ error: 'invalid', retry: `/login?key=${encodeURIComponent(key)}` })],
    [
      'URL-encoded with lower-case hex (.NET HttpUtility.UrlEncode)',
      JSON.stringify({ error: 'invalid', retry: `/login?key=${lowerHex(encodeURIComponent(key))}` }),
    ],
  ])('is redacted when %s', async (_name, body) => {
    const baseUrl = await echoing(401, () => body);
    const { error, dump } = await failedCall({ baseUrl, apiKey: key });
    expect(error.body).toContain('[redacted]');
    for (const form of [
      key,
      JSON.stringify(key).slice(1, -1),
      JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/'),
      encodeURIComponent(key),
      lowerHex(encodeURIComponent(key)),
    ]) {
      expect(error.body).not.toContain(form);
      expect(error.headers['x-echo']).not.toContain(form);
      expect(dump).not.toContain(form);
    }
  });
});

describe('an API key echoed JSON-escaped as \\uXXXX', () => {
  // .NET's System.Text.Json escapes `+`, `"` and `'` as \u002B, \u0022, \u0027 (upper-case hex);
  // Go's encoding/json escapes `<`, `>` and `&` as \u003c, \u003e, \u0026 (lower-case hex).
  const escapeEach = (text: string, chars: RegExp, upper: boolean) =>
    text.replace(chars, (char) => {
      const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    });
  it.each([
    ['.NET', 'q7Vd+3kLp9Zs+Wm2"Xr8Tn4Yb', /[+"']/g, true],
    ['Go', 'q7Vd<3kLp9Zs>Wm2&Xr8Tn4Yb', /[<>&]/g, false],
  ] as const)('is redacted when a %s service echoes it', async (_name, key, chars, upper) => {
    const baseUrl = await echoing(401, () => `{"received":"Bearer ${escapeEach(key, chars, upper)}"}`);
    const { error, dump } = await failedCall({ baseUrl, apiKey: key });
    expect(error.body).toContain('[redacted]');
    expect(JSON.stringify(JSON.parse(error.body))).not.toContain(key.slice(4, 12));
    expect(dump).not.toContain(escapeEach(key, chars, upper));
    expect(dump).not.toContain('3kLp9Zs');
  });
});

describe('an Authorization header echoed URL-encoded with lower-case hex', () => {
  it('is redacted from ApiError (body, headers, JSON, util.inspect) and afterResponse', async () => {
    const key = 'sk_live_ab+cd/ef=gh12345678';
    // Bearer%20sk_live_ab%2bcd%2fef%3dgh12345678
    const baseUrl = await echoing(401, (headers) => {
      const echoed = encodeURIComponent(String(headers.authorization)).replace(/%[0-9A-F]{2}/g, (escape) =>
        escape.toLowerCase(),
      );
      return JSON.stringify({ error: 'unauthorized', request: `authorization=${echoed}` });
    });
    const { error, events, dump } = await failedCall({ baseUrl, apiKey: key });
    expect(JSON.parse(error.body)).toEqual({ error: 'unauthorized', request: 'authorization=[redacted]' });
    expect((events[1] as ResponseLogEvent).responseBody).toBe(error.body);
    expect(dump).not.toMatch(/sk_live_ab%2bcd/i);
  });
});

describe('an API key echoed HTML-escaped in an error page', () => {
  it('is redacted from ApiError and afterResponse', async () => {
    const key = 'sk_live/abc+def=&x';
    const escaped = 'sk_live&#x2F;abc&#43;def&#x3D;&amp;x';
    server = await startServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(401, { 'content-type': 'text/html' });
        response.end(`<p>Invalid key ${escaped}</p>`);
      });
    });
    const { error, events, dump } = await failedCall({ baseUrl: server.url, apiKey: key });
    expect(error.body).toBe('<p>Invalid key [redacted]</p>');
    expect((events[1] as ResponseLogEvent).responseBody).toBe('<p>Invalid key [redacted]</p>');
    expect(dump).not.toContain(escaped);
  });
});

describe('a session cookie the service sets', () => {
  it('is shown as [redacted] in ApiError.headers and afterResponse', async () => {
    server = await startServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(401, {
          'content-type': 'application/json',
          'set-cookie': 'sid=sess_abc123; HttpOnly',
        });
        response.end('{"error":"unauthorised"}');
      });
    });
    const { error, events, dump } = await failedCall({ baseUrl: server.url });
    expect(error.headers['set-cookie']).toBe('[redacted]');
    expect((events[1] as ResponseLogEvent).responseHeaders['set-cookie']).toBe('[redacted]');
    expect(dump).not.toContain('sess_abc123');
  });
});

describe('a key passed through the headers option under a credential header name', () => {
  const credentialHeaders = [
    ['x-api-key', 'sk_live_customhdr123', '[redacted]'],
    ['api-key', 'sk_live_customhdr123', '[redacted]'],
    ['cookie', 'session=sk_live_customhdr123', '[redacted]'],
    ['authorization', 'Token sk_live_customhdr123', 'Token [redacted]'],
    ['proxy-authorization', 'Basic sk_live_customhdr123', 'Basic [redacted]'],
    ['x-auth-token', 'sk_live_customhdr123', '[redacted]'],
    ['x-access-token', 'sk_live_customhdr123', '[redacted]'],
  ] as const;

  it.each(credentialHeaders)(
    'is redacted as %s from the client headers in beforeRequest, and from an echoing reply',
    async (name, value, shown) => {
      const baseUrl = await echoing(401, (headers) =>
        JSON.stringify({ error: `invalid ${String(headers[name])}` }),
      );
      const { error, events, dump } = await failedCall({ baseUrl, headers: { [name]: value } });
      expect(events[0]!.headers[name]).toBe(shown);
      expect(error.body).toContain('[redacted]');
      expect(dump).not.toContain('sk_live_customhdr123');
    },
  );

  it.each(credentialHeaders)(
    'is redacted as %s from per-call and function headers too',
    async (name, value, shown) => {
      const baseUrl = await echoing(401, (headers) =>
        JSON.stringify({ error: `invalid ${String(headers[name])}` }),
      );
      const perCall = await failedCall({ baseUrl }, { headers: { [name]: value } });
      const fromFunction = await failedCall({ baseUrl, headers: async () => ({ [name]: value }) });
      for (const { events, dump } of [perCall, fromFunction]) {
        expect(events[0]!.headers[name]).toBe(shown);
        expect(dump).not.toContain('sk_live_customhdr123');
      }
    },
  );
});

describe('a key passed under a header name of its own (the API reference names no scheme)', () => {
  const named = [
    'x-api-token',
    'x-merchant-key',
    'x-client-secret',
    'x-session',
    'x-partner-password',
    'x-signature',
    'x-provider-credentials',
    'apikey',
    'x-passphrase',
    'x-merchant-pass',
    'x-hmac',
    'x-api-sig',
    'x-jwt',
    'x-merchant-pwd',
    'x-api-pin',
  ] as const;

  it.each(named)(
    '%s: redacted in beforeRequest, and from a reply that echoes it in its body and headers',
    async (name) => {
      const value = 'TOKEN-abcdef-987654';
      const baseUrl = await echoing(401, (headers) =>
        JSON.stringify({ error: `invalid ${String(headers[name])}` }),
      );
      const { error, events, dump } = await failedCall({ baseUrl, headers: { [name]: value } });
      expect(events[0]!.headers[name]).toBe('[redacted]');
      expect(error.body).toContain('[redacted]');
      expect(dump).not.toContain(value);
    },
  );

  // fetch strips the blanks around a header value before it is sent, so the service sees, and
  // echoes, the key without the trailing space the merchant's value has.
  it('is redacted as x-api-key given with a trailing space, as the service echoes it', async () => {
    const baseUrl = await echoing(401, (headers) =>
      JSON.stringify({ error: `invalid ${String(headers['x-api-key'])}` }),
    );
    const { dump } = await failedCall({ baseUrl, headers: { 'x-api-key': 'sk_live_customhdr123 ' } });
    expect(dump).not.toContain('sk_live_customhdr123');
  });

  it('is redacted as authorization given with blanks around it, as the service echoes it', async () => {
    const baseUrl = await echoing(401, (headers) =>
      JSON.stringify({ error: `invalid ${String(headers.authorization)}` }),
    );
    const { dump } = await failedCall({
      baseUrl,
      headers: { authorization: '\tBearer sk_live_blanks4567 ' },
    });
    expect(dump).not.toContain('sk_live_blanks4567');
  });

  it('leaves the value of a header that names no credential, and a short one, where a body shows them', async () => {
    const baseUrl = await echoing(
      401,
      (headers) =>
        `{"error":"bad request ${String(headers['x-request-id'])}","amount":7,"tenant":"${String(headers['x-session'])}"}`,
    );
    const { error, events } = await failedCall({
      baseUrl,
      headers: { 'x-request-id': 'req-0042', 'x-session': '7' },
    });
    expect(events[0]!.headers['x-request-id']).toBe('req-0042');
    expect(events[0]!.headers['x-session']).toBe('[redacted]');
    expect(error.body).toContain('req-0042');
    expect(error.body).toContain('"amount":7');
  });
});

describe('secrets echoed in a response header name', () => {
  // fetch hands header names over lower-cased: a key or signature in one is seen in that case.
  const key = 'sk_live_Ab12Cd34Ef56Gh78';
  const signature = 'Zx9_Yw8-Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7Zy6';
  it.each([
    ['the card number', 'x-9999999999999995'],
    ['the card number after a letter', 'x-c9999999999999995'],
    ['the cvc', `x-cvc-${cvc}`],
    ['the API key, lower-cased', `x-k-${key.toLowerCase()}`],
    ["the callback URL's hp_sig, lower-cased", `x-s-${signature.toLowerCase()}`],
  ])('%s is redacted from ApiError.headers, its JSON and afterResponse', async (_name, header) => {
    server = await startServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(500, { 'content-type': 'application/json', [header]: '1' });
        response.end('{}');
      });
    });
    const { error, dump } = await failedCall(
      { baseUrl: server.url, apiKey: key },
      {},
      {
        ...cardPaymentInput,
        callback_details: {
          ...cardPaymentInput.callback_details,
          callback_url: `https://shop.example/hooks/payments?hp_ref=order-1001&hp_sig=${signature}`,
        },
      },
    );
    expect(Object.keys(error.headers)).not.toContain(header);
    expect(Object.keys(error.headers)).toContainEqual(
      expect.stringMatching(/^x-.*(?:\[redacted\]|\*\*\*\* 9995)/),
    );
    for (const secret of ['9999999999999995', key.toLowerCase(), signature.toLowerCase()]) {
      expect(dump.toLowerCase()).not.toContain(secret.toLowerCase());
    }
    expect(Object.keys(error.headers).join()).not.toMatch(new RegExp(`(?<!\\d)${cvc}(?!\\d)`));
  });
});
