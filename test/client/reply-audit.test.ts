// What comes back: every reply the API reference does not document is refused with a typed error,
// never resolved as an initiation, and never waited on past the timeout. Real sockets only: a raw
// TCP server writes the exact bytes (duplicate headers, odd statuses, cut bodies) node:http would
// tidy up.
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, PaymentsClient } from '../../src/index.js';
import { bigCardNumber, cardPaymentInput, mobileMoneyPaymentInput, payoutInput } from '../helpers/inputs.js';
import { startServer } from '../helpers/servers.js';

const documented = '{"message":"Mobile Payout Initiated","status":200}';

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

/**
 * A service on 127.0.0.1 that reads each whole request, then writes `reply` (raw HTTP bytes) and
 * closes the connection, or hands the socket to `reply`. Returns its base URL.
 */
async function rawService(reply: string | ((socket: Socket) => void)): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(received)?.[1] ?? 0);
      if (received.length - end - 4 < length) return;
      received = '';
      if (typeof reply === 'string') socket.end(reply);
      else reply(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeServer = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** A raw HTTP/1.1 reply with the given status line, header lines and body. */
const http = (status: string, headers: string[], body = '') =>
  `HTTP/1.1 ${status}\r\n${[...headers, `content-length: ${Buffer.byteLength(body)}`].join('\r\n')}\r\n\r\n${body}`;

/** What the call settled with: the resolved value, or the error. */
const settle = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ resolved: value }),
    (error: unknown) => ({ error }),
  );

describe('a 2xx whose content-type does not say JSON', () => {
  it.each([
    ['text/html', ['content-type: text/html']],
    ['text/plain', ['content-type: text/plain; charset=utf-8']],
    ['no content-type at all', []],
    [
      'JSON and HTML in two content-type headers',
      ['content-type: application/json', 'content-type: text/html'],
    ],
    ['JSON in a charset the body is not written in', ['content-type: application/json; charset=utf-16']],
  ])('is an ApiError naming content-type, not an initiation (%s)', async (_name, headers) => {
    const baseUrl = await rawService(http('200 OK', headers, documented));
    const outcome = await settle(new PaymentsClient({ baseUrl }).initiatePayout(payoutInput));
    expect(outcome).toEqual({ error: expect.any(ApiError) });
    const error = (outcome as { error: ApiError }).error;
    expect(error.status).toBe(200);
    expect(error.body).toBe(documented);
    expect(error.issues).toEqual([expect.objectContaining({ path: [], code: 'invalid_content_type' })]);
    expect(error.message).toMatch(/content-type/);
  });

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'Application/JSON; charset="utf-8"',
    'application/problem+json',
  ])('resolves a documented body sent as %s', async (type) => {
    const baseUrl = await rawService(http('200 OK', [`content-type: ${type}`], documented));
    await expect(new PaymentsClient({ baseUrl }).initiatePayout(payoutInput)).resolves.toEqual(
      JSON.parse(documented),
    );
  });
});

describe('a reply larger than any documented one', () => {
  const MiB = 1024 * 1024;

  it('is an ApiError after 1 MiB, not an initiation held in memory whole', async () => {
    const padded = `{"message":"Mobile Payout Initiated","status":200,"pad":"${'x'.repeat(8 * MiB)}"}`;
    const baseUrl = await rawService(http('200 OK', ['content-type: application/json'], padded));
    const outcome = await settle(new PaymentsClient({ baseUrl }).initiatePayout(payoutInput));
    expect(outcome).toEqual({ error: expect.any(ApiError) });
    const error = (outcome as { error: ApiError }).error;
    expect(error.status).toBe(200);
    expect(error.issues).toEqual([expect.objectContaining({ path: [], code: 'body_too_large' })]);
    expect(error.body.length).toBeLessThanOrEqual(MiB);
    expect(error.body.startsWith('{"message":"Mobile Payout Initiated"')).toBe(true);
  });

  it('keeps at most 1 MiB of a huge error page in ApiError.body, with its status', async () => {
    const page = `<html><body>${'<p>Bad gateway</p>'.repeat(MiB)}</body></html>`;
    const baseUrl = await rawService(http('502 Bad Gateway', ['content-type: text/html'], page));
    const error = (await settle(new PaymentsClient({ baseUrl }).initiatePayout(payoutInput))) as {
      error: ApiError;
    };
    expect(error.error).toBeInstanceOf(ApiError);
    expect(error.error.status).toBe(502);
    expect(error.error.body.length).toBeLessThanOrEqual(MiB);
  });

  it('stops reading a body that streams without end at 1 MiB, long before the timeout', async () => {
    const baseUrl = await rawService((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{"pad":"');
      const chunk = 'x'.repeat(64 * 1024);
      const pour = () => {
        while (!socket.destroyed && socket.write(chunk));
        if (!socket.destroyed) socket.once('drain', pour);
      };
      pour();
    });
    const started = Date.now();
    const outcome = await settle(
      new PaymentsClient({ baseUrl, timeout: 15_000 }).initiatePayout(payoutInput),
    );
    expect(outcome).toEqual({ error: expect.any(ApiError) });
    expect((outcome as { error: ApiError }).error.issues).toEqual([
      expect.objectContaining({ code: 'body_too_large' }),
    ]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('a 2xx that writes a key twice in one object', () => {
  // JSON.parse keeps the last value of a repeated key: which one the service meant cannot be known,
  // so the reply is refused like any other body that is not the documented JSON.
  const json = ['content-type: application/json'];
  it.each([
    [
      'a card reply saying 500, then 200',
      'card',
      '{"status":500,"message":"Card Payment Initiated","status":200}',
    ],
    [
      'a payout reply saying failed, then initiated',
      'payout',
      '{"message":"Payment Failed","status":200,"message":"Mobile Payout Initiated"}',
    ],
    [
      'a mobile-money reply repeating status under an escaped spelling',
      'mobileMoney',
      '{"message":"MOBILE-MONEY Payment Initiated","status":200,"st\\u0061tus":406}',
    ],
    [
      'a payout reply repeating a key of an extra object',
      'payout',
      '{"message":"Mobile Payout Initiated","status":200,"detail":{"code":"FAILED","code":"OK"}}',
    ],
  ])('is an ApiError (invalid_json), not an initiation: %s', async (_name, operation, body) => {
    const baseUrl = await rawService(http('200 OK', json, body));
    const client = new PaymentsClient({ baseUrl });
    const outcome = await settle(
      operation === 'card'
        ? client.initiateCardPayment(cardPaymentInput)
        : operation === 'payout'
          ? client.initiatePayout(payoutInput)
          : client.initiateMobileMoneyPayment(mobileMoneyPaymentInput),
    );
    expect(outcome).toEqual({ error: expect.any(ApiError) });
    const error = (outcome as { error: ApiError }).error;
    expect(error.status).toBe(200);
    expect(error.body).toBe(body);
    expect(error.issues).toEqual([expect.objectContaining({ path: [], code: 'invalid_json' })]);
    expect(error.message).toMatch(/repeats a key/);
  });

  it('keeps an echoed card number out of the error', async () => {
    const body = `{"message":"Card Payment Initiated","status":200,"card":"${bigCardNumber}","card":"${bigCardNumber}"}`;
    const baseUrl = await rawService(http('200 OK', json, body));
    const outcome = await settle(new PaymentsClient({ baseUrl }).initiateCardPayment(cardPaymentInput));
    const error = (outcome as { error: ApiError }).error;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.issues).toEqual([expect.objectContaining({ code: 'invalid_json' })]);
    expect(`${error.message} ${error.body} ${JSON.stringify(error)}`).not.toContain(bigCardNumber);
  });

  it('still resolves a reply that writes each key once, a key name inside a value included', async () => {
    const body = '{"message":"Mobile Payout Initiated","status":200,"note":"\\"status\\": 500"}';
    const baseUrl = await rawService(http('200 OK', json, body));
    await expect(new PaymentsClient({ baseUrl }).initiatePayout(payoutInput)).resolves.toEqual(
      JSON.parse(body),
    );
  });
});

describe('a mobile-money initiation answered as a card payment', () => {
  // Card and mobile-money payments share one path, and the service tells them apart by the body:
  // "Card Payment Initiated" says it took the request for a card payment, so no STK push went out.
  it.each([
    'Card Payment Initiated',
    'CARD Payment Initiated',
    'VISA Card Payment Initiated',
    'Cards Payment Initiated',
    'Debit card Payment Initiated',
    'Mastercard Payment Initiated',
    'VISA_CARD Payment Initiated',
    'CreditCard Payment Initiated',
  ])('is an ApiError naming message, not a mobile-money initiation (%s)', async (message) => {
    const reply = JSON.stringify({ message, status: 200 });
    const baseUrl = await rawService(http('200 OK', ['content-type: application/json'], reply));
    const outcome = await settle(
      new PaymentsClient({ baseUrl }).initiateMobileMoneyPayment(mobileMoneyPaymentInput),
    );
    expect(outcome).toEqual({ error: expect.any(ApiError) });
    expect((outcome as { error: ApiError }).error.issues).toEqual([
      expect.objectContaining({ path: ['message'] }),
    ]);
  });

  it.each(['MOBILE-MONEY Payment Initiated', 'M-PESA Payment Initiated', 'Airtel Money Payment Initiated'])(
    'still resolves the brand reply %s',
    async (message) => {
      const reply = JSON.stringify({ message, status: 200 });
      const baseUrl = await rawService(http('200 OK', ['content-type: application/json'], reply));
      await expect(
        new PaymentsClient({ baseUrl }).initiateMobileMoneyPayment(mobileMoneyPaymentInput),
      ).resolves.toEqual({ message, status: 200 });
    },
  );
});

describe('a mobile-money initiation whose brand part is no brand word', () => {
  const reply = (message: string) =>
    http('200 OK', ['content-type: application/json'], JSON.stringify({ message, status: 200 }));

  it.each([
    [undefined, 'No Payment Initiated'],
    [undefined, 'Failed: Payment Initiated'],
    [undefined, 'Duplicate request - no Payment Initiated'],
    ['M-PESA', 'No Payment Initiated'],
    ['M-PESA', 'Failed: Payment Initiated'],
    ['M-PESA', 'Duplicate request - no Payment Initiated'],
    ['M-PESA', 'M-PESA Payment Initiated.'],
  ])('with mobileMoneyBrand %s, %j is an ApiError naming message', async (brand, message) => {
    const baseUrl = await rawService(reply(message));
    const client = new PaymentsClient({
      baseUrl,
      ...(brand === undefined ? {} : { mobileMoneyBrand: brand }),
    });
    const outcome = await settle(client.initiateMobileMoneyPayment(mobileMoneyPaymentInput));
    expect(outcome).toEqual({ error: expect.any(ApiError) });
    const error = (outcome as { error: ApiError }).error;
    expect(error.status).toBe(200);
    expect(error.issues).toEqual([expect.objectContaining({ path: ['message'] })]);
  });

  it.each([
    ['M-PESA', 'M-PESA Payment Initiated'],
    ['M-PESA', 'M-Pesa Payment Initiated'],
    ['Airtel Money', 'AIRTEL MONEY Payment Initiated'],
    // The merchant's own word is taken as it is, also where it is no brand word the client would
    // take from an unconfigured reply.
    ['Airtel Money (UG)', 'Airtel Money (UG) Payment Initiated'],
    // The service's brand word varies (DESIGN: parsing never depends on mobileMoneyBrand): another
    // brand word still says a prompt reached the phone, and refusing it would report a payment
    // under way as failed.
    ['M-PESA', 'MOBILE-MONEY Payment Initiated'],
    ['M-PESA', 'Airtel Money Payment Initiated'],
    ['M-PESA', 'MPESA Payment Initiated'],
  ])(
    'with mobileMoneyBrand %s, %j resolves (its word, ASCII letter case ignored, or any brand word)',
    async (brand, message) => {
      const baseUrl = await rawService(reply(message));
      const client = new PaymentsClient({ baseUrl, mobileMoneyBrand: brand });
      await expect(client.initiateMobileMoneyPayment(mobileMoneyPaymentInput)).resolves.toEqual({
        message,
        status: 200,
      });
    },
  );
});

describe('replies the API reference never describes', () => {
  const json = ['content-type: application/json'];
  it.each([
    ['204 No Content', 'HTTP/1.1 204 No Content\r\n\r\n', 'ApiError'],
    ['205 Reset Content', http('205 Reset Content', json), 'ApiError'],
    ['304 Not Modified', 'HTTP/1.1 304 Not Modified\r\n\r\n', 'ApiError'],
    ['a 600', http('600 Odd', json, documented), 'ApiError'],
    [
      '101 without an upgrade asked for',
      'HTTP/1.1 101 Switching Protocols\r\nupgrade: x\r\n\r\n',
      'ConnectionError',
    ],
    ['an empty 200', http('200 OK', json), 'ApiError'],
    ['a 200 of JSON null', http('200 OK', json, 'null'), 'ApiError'],
    ['a 200 of a JSON array', http('200 OK', json, `[${documented}]`), 'ApiError'],
    ['a 200 of a JSON number', http('200 OK', json, '200'), 'ApiError'],
    [
      'a 200 cut before its content-length',
      `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n${documented}`,
      'ConnectionError',
    ],
    [
      'a chunked 200 cut mid-chunk',
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n40\r\n{"message":"Mobile',
      'ConnectionError',
    ],
    [
      'a 200 with two different content-lengths',
      `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${documented.length}\r\ncontent-length: 5\r\n\r\n${documented}`,
      'ConnectionError',
    ],
    ['a status line that is not HTTP', 'HTTP/1.1 OK\r\n\r\n', 'ConnectionError'],
  ])('%s is a typed error, never the initiation', async (_name, reply, name) => {
    const baseUrl = await rawService(reply);
    const outcome = await settle(new PaymentsClient({ baseUrl, timeout: 2_000 }).initiatePayout(payoutInput));
    expect(outcome).toEqual({ error: expect.objectContaining({ name }) });
  });
});

describe('a POST the service may have received', () => {
  it('is sent once, never again, when the connection is reset after its body was read (no retry option)', async () => {
    for (const retry of [undefined, 0, { limit: 0 }]) {
      let received = 0;
      const baseUrl = await rawService((socket) => {
        received += 1;
        socket.resetAndDestroy();
      });
      const client = new PaymentsClient({ baseUrl, ...(retry === undefined ? {} : { retry }) });
      const outcome = await settle(client.initiatePayout(payoutInput));
      expect(outcome).toEqual({ error: expect.objectContaining({ name: 'ConnectionError' }) });
      expect((outcome as { error: Error }).error.message).toMatch(/may have received the request/);
      expect(received).toBe(1);
      await closeServer?.();
    }
  });

  it('is sent once on a kept-alive connection the service resets after reading the second call', async () => {
    let received = 0;
    const baseUrl = await rawService((socket) => {
      received += 1;
      if (received === 1) socket.write(http('200 OK', ['content-type: application/json'], documented));
      else socket.resetAndDestroy();
    });
    const client = new PaymentsClient({ baseUrl });
    await expect(client.initiatePayout(payoutInput)).resolves.toEqual(JSON.parse(documented));
    await expect(client.initiatePayout(payoutInput)).rejects.toMatchObject({ name: 'ConnectionError' });
    expect(received).toBe(2);
  });
});

describe('a mobile-money reply that names the payment_method the call sent', () => {
  // MOBILE-MONEY stands for the brand in identifiers and message texts (spec): a service may
  // echo the method it was sent, also one that is no brand word.
  it.each([
    ['its own payment_method', {}, 'MPESA_KE'],
    [
      "the client's paymentMethods.mobileMoney",
      { paymentMethods: { mobileMoney: 'M-PESA (KE)' } },
      undefined,
    ],
    ['its own, with mobileMoneyBrand another', { mobileMoneyBrand: 'M-PESA' }, 'Orange Money CI.'],
  ])('is taken with %s as <brand> (ASCII letter case ignored)', async (_name, options, method) => {
    const server = await startServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        const sent = JSON.parse(text) as { customer_details: { payment_method: string } };
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            message: `${sent.customer_details.payment_method.toUpperCase()} Payment Initiated`,
            status: 200,
          }),
        );
      });
    });
    try {
      const client = new PaymentsClient({ baseUrl: server.url, ...options });
      const input = {
        ...mobileMoneyPaymentInput,
        customer_details: {
          ...mobileMoneyPaymentInput.customer_details,
          ...(method === undefined ? {} : { payment_method: method }),
        },
      };
      await expect(client.initiateMobileMoneyPayment(input)).resolves.toMatchObject({ status: 200 });
    } finally {
      await server.close();
    }
  });
});
