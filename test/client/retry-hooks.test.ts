// With opted-in retries several requests may go out for one call, and each may charge: the
// beforeRequest hook fires for every attempt, numbered, so a log shows every request sent; the
// afterResponse event says which attempt its response answered.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  PaymentsClient,
  TimeoutError,
  type RequestLogEvent,
  type ResponseLogEvent,
} from '../../src/index.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';
import { startServer } from '../helpers/servers.js';

const initiated = JSON.stringify({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });

describe('hooks under opted-in retries', () => {
  it('beforeRequest for each attempt (1, 2, 3), afterResponse once with the attempt it answered', async () => {
    let requests = 0;
    const server = await startServer((request, response) => {
      request.resume();
      request.on('end', () => {
        requests++;
        const ok = requests === 3;
        response.writeHead(ok ? 200 : 503, { 'content-type': 'application/json', 'retry-after': '0' });
        response.end(ok ? initiated : '{"error":"busy"}');
      });
    });
    try {
      const before: RequestLogEvent[] = [];
      const after: ResponseLogEvent[] = [];
      const client = new PaymentsClient({
        baseUrl: server.url,
        retry: { limit: 2, backoffLimit: 10 },
        hooks: { beforeRequest: (e) => void before.push(e), afterResponse: (e) => void after.push(e) },
      });
      await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput);
      expect(requests).toBe(3);
      expect(before.map((event) => event.attempt)).toEqual([1, 2, 3]);
      expect(after.map((event) => [event.attempt, event.status])).toEqual([[3, 200]]);
    } finally {
      await server.close();
    }
  });

  // A drop after the request went out may follow a request the service received: not retried
  // (a refused connection is: connection-sent.test.ts).
  it('a connection dropped after the request: one attempt logged, none retried, before the ConnectionError', async () => {
    let requests = 0;
    const server = await startServer((request) => {
      request.resume();
      request.on('end', () => {
        requests++;
        request.socket.destroy();
      });
    });
    try {
      const before: RequestLogEvent[] = [];
      const client = new PaymentsClient({
        baseUrl: server.url,
        retry: { limit: 2, backoffLimit: 10 },
        hooks: { beforeRequest: (e) => void before.push(e) },
      });
      const error = await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(requests).toBe(1);
      expect(before.map((event) => event.attempt)).toEqual([1]);
    } finally {
      await server.close();
    }
  });
});

/** A service answering every request 503 with `Retry-After: 0`; `requests()` counts them. */
async function busyService() {
  let received = 0;
  const server = await startServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
      response.end('{"error":"busy"}');
    });
  });
  return { server, requests: () => received };
}

describe('a beforeRequest hook that throws before a retry', () => {
  it('fails the call with a ConnectionError saying an earlier attempt was sent, its cause the hook error', async () => {
    const { server, requests } = await busyService();
    try {
      // A hook's error may quote what the hook saw unredacted (its own copy of the request).
      const sink = new Error(
        `log sink down: ${JSON.stringify(mobileMoneyPaymentInput.customer_details)} Bearer sk_live_retry_hook_0123456789`,
      );
      const client = new PaymentsClient({
        baseUrl: server.url,
        apiKey: 'sk_live_retry_hook_0123456789',
        retry: { limit: 2, backoffLimit: 10 },
        hooks: {
          beforeRequest: (event) => {
            if (event.attempt > 1) throw sink;
          },
        },
      });
      const error = await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch((e: unknown) => e);
      expect(requests()).toBe(1);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toMatch(/beforeRequest hook threw before attempt 2/);
      expect((error as Error).message).toMatch(/may have received/);
      expect((error as Error).cause).toMatchObject({
        name: 'Error',
        message: expect.stringContaining('log sink down'),
      });
      expect(inspect(error, { depth: 20, showHidden: true })).not.toContain('sk_live_retry_hook_0123456789');
    } finally {
      await server.close();
    }
  });

  it('still ends at totalTimeout while the hook runs, not when it returns, nothing more sent', async () => {
    const { server, requests } = await busyService();
    try {
      const client = new PaymentsClient({
        baseUrl: server.url,
        totalTimeout: 300,
        retry: { limit: 2, backoffLimit: 10 },
        hooks: {
          beforeRequest: (event) =>
            event.attempt > 1
              ? new Promise<void>((resolve) => setTimeout(resolve, 1500)).then(
                  () => void (hookReturned = true),
                )
              : undefined,
        },
      });
      let hookReturned = false;
      const error = await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch((e: unknown) => e);
      expect(hookReturned).toBe(false);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ timeout: 300, sent: true });
      expect(requests()).toBe(1);
    } finally {
      await server.close();
    }
  });
});
