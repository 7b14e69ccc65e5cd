// What comes back: every reply the API reference does not document is refused with a typed error,
// never resolved as an initiation, and never waited on past the timeout. Real sockets only: a raw
// TCP server writes the exact bytes (duplicate headers, odd statuses, cut bodies) node:http would
// tidy up.
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, PaymentsClient } from '../../src/index.js';
import { mobileMoneyPaymentInput, payoutInput } from '../helpers/inputs.js';

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

describe('a mobile-money initiation answered as a card payment', () => {
  // Card and mobile-money payments share one path, and the service tells them apart by the body:
  // "Card Payment Initiated" says it took the request for a card payment, so no STK push went out.
  it.each(['Card Payment Initiated', 'CARD Payment Initiated'])(
    'is an ApiError naming message, not a mobile-money initiation (%s)',
    async (message) => {
      const reply = JSON.stringify({ message, status: 200 });
      const baseUrl = await rawService(http('200 OK', ['content-type: application/json'], reply));
      const outcome = await settle(
        new PaymentsClient({ baseUrl }).initiateMobileMoneyPayment(mobileMoneyPaymentInput),
      );
      expect(outcome).toEqual({ error: expect.any(ApiError) });
      expect((outcome as { error: ApiError }).error.issues).toEqual([
        expect.objectContaining({ path: ['message'] }),
      ]);
    },
  );

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
