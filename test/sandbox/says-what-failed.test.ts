// A merchant integrating offline breaks the integration the ways merchants do; the sandbox's
// answer, its log line and its delivery report each say what failed, and never mislead.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SandboxLogEvent } from '../../src/sandbox/index.js';

let sandbox: Sandbox | undefined;
let logs: SandboxLogEvent[] = [];
const servers: Server[] = [];

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  logs = [];
  sandbox = await startSandbox({
    callbackDelayMs: 0,
    retryDelayMs: 5,
    log: (event) => logs.push(event),
    ...options,
  });
  return sandbox;
}

/** A merchant's own HTTP server on 127.0.0.1; resolves with its origin. */
async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${sandbox!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

const mobileMoneyPayment = (callbackUrl: string) =>
  JSON.stringify({
    customer_details: {
      full_name: 'Jane Doe',
      phone_number: '254712345678',
      email: 'jane@example.com',
      payment_method: 'MOBILE-MONEY',
    },
    amount: { delivery_fee: '0', discount_fee: '0', total: '1500', currency: 'KES' },
    callback_details: { transaction_reference: 'ORDER-1', callback_url: callbackUrl },
  });

describe('a callback route that answers with a redirect', () => {
  it.each([301, 302, 307, 308])(
    'is not followed on %i: the callback counts as failed, and the log and report name where it pointed',
    async (status) => {
      const reached: string[] = [];
      const origin = await listen((request, response) => {
        reached.push(`${request.method} ${request.url}`);
        request.resume();
        if (request.url === '/hooks') response.writeHead(status, { location: '/hooks/' }).end();
        else response.writeHead(200).end('{"received":true}');
      });
      await start({ deliveryRetries: 1 });
      expect(
        (await post('/api/payment/payment-initiate-callback/', mobileMoneyPayment(`${origin}/hooks`))).status,
      ).toBe(200);
      const report = await sandbox!.waitForIdle();
      expect(reached).toEqual(['POST /hooks', 'POST /hooks']);
      expect(report.ok).toBe(false);
      expect(report.failures).toMatchObject([
        { state: 'failed', attempts: 2, lastAnswer: `${status} redirect to ${origin}/hooks/ (not followed)` },
      ]);
      const attempts = logs.filter((event) => event.kind === 'callback');
      expect(attempts.map((event) => (event.kind === 'callback' ? event.outcome : ''))).toEqual([
        'retrying',
        'gave_up',
      ]);
      expect(attempts[0]).toMatchObject({ status, reason: `redirect to ${origin}/hooks/ (not followed)` });
    },
  );
});

const endpoints = {
  payment: '/api/payment/payment-initiate-callback/',
  checkoutSession: '/checkout.sessions/hosted/redirect/session',
  payout: '/api/payout/mobile-money-payout',
} as const;

describe('a body that is JSON but not an object', () => {
  it.each(
    Object.values(endpoints).flatMap((path) =>
      (
        [
          ['[]', 'array'],
          ['null', 'null'],
          ['"text"', 'string'],
          ['42', 'number'],
        ] as const
      ).map(([body, kind]) => [path, body, kind] as const),
    ),
  )(
    'is refused by %s for %s with 400 saying a JSON object was expected and what came',
    async (path, body, kind) => {
      await start();
      const response = await post(path, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: 'invalid_request',
        issues: [
          { field: '(root)', path: [], code: 'invalid_type', message: `expected a JSON object, got ${kind}` },
        ],
      });
    },
  );
});
