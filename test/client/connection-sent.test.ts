// Whether a failed call may have reached the service is what decides if it may be sent again (the
// service has no idempotency key). A ConnectionError says it: sent: false when no request of the
// call left this process — the connection was refused, or fetch refused the port — and true when
// one may have arrived (a reset after sending). With the transactions option, a call that sent
// nothing leaves nothing pending: its record is expired, as after a refusal.
import { describe, expect, it } from 'vitest';
import { ConnectionError, PaymentsClient } from '../../src/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';
import { refusedUrl, resetting, startServer } from '../helpers/servers.js';

const secret = 'whsec_connection_sent_0123456789';

async function failure(baseUrl: string, retry?: number): Promise<ConnectionError> {
  const client = new PaymentsClient({
    baseUrl,
    ...(retry === undefined ? {} : { retry: { limit: retry, backoffLimit: 10 } }),
  });
  const error = await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConnectionError);
  return error as ConnectionError;
}

describe('ConnectionError.sent', () => {
  it('is false when the connection was refused, and the message says nothing was sent', async () => {
    const error = await failure(await refusedUrl());
    expect(error.sent).toBe(false);
    expect(error.message).toMatch(/nothing was sent/);
  });

  it('is false for a port fetch refuses before connecting', async () => {
    expect((await failure('http://127.0.0.1:6000')).sent).toBe(false);
  });

  it('is false when every retry was refused too', async () => {
    expect((await failure(await refusedUrl(), 2)).sent).toBe(false);
  });

  it('is true when the connection was reset after the request went out', async () => {
    const server = await startServer(resetting);
    try {
      const error = await failure(server.url);
      expect(error.sent).toBe(true);
      expect(error.message).toMatch(/may have received/);
    } finally {
      await server.close();
    }
  });
});

describe('with the transactions option', () => {
  it('a call that sent nothing expires its record; one that may have arrived leaves it pending', async () => {
    const tracker = createTransactionTracker();
    const input = (reference: string) => ({
      ...mobileMoneyPaymentInput,
      callback_details: { ...mobileMoneyPaymentInput.callback_details, transaction_reference: reference },
    });
    const refused = new PaymentsClient({ baseUrl: await refusedUrl(), transactions: { tracker, secret } });
    await expect(refused.initiateMobileMoneyPayment(input('ORD-REFUSED'))).rejects.toMatchObject({
      sent: false,
    });
    expect((await tracker.get('ORD-REFUSED'))?.state).toBe('expired');

    const server = await startServer(resetting);
    try {
      const reset = new PaymentsClient({ baseUrl: server.url, transactions: { tracker, secret } });
      await expect(reset.initiateMobileMoneyPayment(input('ORD-RESET'))).rejects.toMatchObject({
        sent: true,
      });
      expect((await tracker.get('ORD-RESET'))?.state).toBe('pending');
    } finally {
      await server.close();
    }
  });
});

describe('with the retry option', () => {
  // A retry of a request the service may have received can charge twice: a network failure is
  // retried only when the request provably never left this process (what makes sent false).
  it.each([
    ['{ limit: 1, statusCodes: [503] }', { limit: 1, statusCodes: [503], backoffLimit: 10 }],
    ['a limit of 2', 2],
  ])('never sends again after a reset that followed the whole request (%s)', async (_name, retry) => {
    let received = 0;
    const server = await startServer((request) => {
      request.resume();
      request.on('end', () => {
        received++;
        request.socket.destroy();
      });
    });
    try {
      const client = new PaymentsClient({ baseUrl: server.url, retry });
      const error = await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).sent).toBe(true);
      expect(received).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('still retries a refused connection: nothing was sent', async () => {
    const attempts: number[] = [];
    const client = new PaymentsClient({
      baseUrl: await refusedUrl(),
      retry: { limit: 2, backoffLimit: 10 },
      hooks: { beforeRequest: (event) => void attempts.push(event.attempt) },
    });
    const error = await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).sent).toBe(false);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it("never retries a custom fetch's failure, a refused connection included: it may follow an attempt of its own", async () => {
    let calls = 0;
    const client = new PaymentsClient({
      baseUrl: 'https://payments.example.com',
      retry: { limit: 2, backoffLimit: 10 },
      fetch: async () => {
        calls++;
        throw Object.assign(new TypeError('fetch failed'), {
          cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }),
        });
      },
    });
    const error = await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).sent).toBe(true);
    expect(calls).toBe(1);
  });
});

describe('a custom fetch', () => {
  it('is never taken at its word: its ECONNREFUSED may follow an attempt of its own that went out (a retrying wrapper)', async () => {
    let calls = 0;
    const client = new PaymentsClient({
      baseUrl: 'https://payments.example.com',
      fetch: async () => {
        calls++;
        throw Object.assign(new TypeError('fetch failed'), {
          cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }),
        });
      },
    });
    const error = await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).sent).toBe(true);
  });
});

describe('a globalThis.fetch replaced after the SDK loaded', () => {
  // An APM or retry wrapper installed as the global fetch is a custom fetch the SDK was not told
  // about: its ECONNREFUSED may follow an attempt of its own that reached the service.
  it('is not taken at its word either: sent once, retried by itself, then refused is sent: true', async () => {
    let received = 0;
    const server = await startServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received++;
        response.writeHead(503, { 'content-type': 'application/json' });
        response.end('{"error":"busy"}');
      });
    });
    const refused = await refusedUrl();
    const original = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      await original(input, init); // the first try reaches the service
      return original(String(input).replace(server.url, refused), init); // its own retry is refused
    };
    try {
      const attempts: number[] = [];
      const client = new PaymentsClient({
        baseUrl: server.url,
        retry: { limit: 2, backoffLimit: 10 },
        hooks: { beforeRequest: (event) => void attempts.push(event.attempt) },
      });
      const error = await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch((e: unknown) => e);
      expect(received).toBe(1);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).sent).toBe(true);
      expect((error as ConnectionError).message).toMatch(/may have received/);
      // Not provably unsent, so not retried either.
      expect(attempts).toEqual([1]);
    } finally {
      globalThis.fetch = original;
      await server.close();
    }
  });

  it('the global fetch put back as it was: a refused connection is sent: false again', async () => {
    const original = globalThis.fetch;
    globalThis.fetch = async (input, init) => original(input, init);
    globalThis.fetch = original;
    expect((await failure(await refusedUrl())).sent).toBe(false);
  });
});

describe('an attempt still in flight', () => {
  it('counts as sent: a custom fetch that ignores the signal, the call aborted while it runs', async () => {
    let received = false;
    const controller = new AbortController();
    const server = await startServer((request) => {
      request.resume();
      request.on('end', () => {
        received = true;
        controller.abort(); // once the service has it; it never answers
      });
    });
    try {
      const client = new PaymentsClient({
        baseUrl: server.url,
        timeout: 2_000,
        // Drops the signal: the request goes on after the call gives up.
        fetch: (request) =>
          fetch(request.url, {
            method: request.method,
            headers: request.headers,
            body: request.body,
            duplex: 'half',
          } as RequestInit),
      });
      const error = await client
        .initiateMobileMoneyPayment(mobileMoneyPaymentInput, { signal: controller.signal })
        .catch((e: unknown) => e);
      expect(received).toBe(true);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).sent).toBe(true);
    } finally {
      await server.close();
    }
  });
});
