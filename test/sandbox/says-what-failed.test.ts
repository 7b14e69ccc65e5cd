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
    amount: { delivery_fee: '100', discount_fee: '50', total: '1500', currency: 'KES' },
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

describe('a callback route that refuses without a JSON error word', () => {
  it.each([
    {
      what: "Express's 404 page for a route mounted at another path",
      status: 404,
      type: 'text/html; charset=utf-8',
      body: '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot POST /hooks</pre>\n</body>\n</html>\n',
      shown: '404 "Cannot POST /hooks"',
    },
    {
      what: "a framework's JSON error without an error word",
      status: 500,
      type: 'application/json',
      body: '{"statusCode":500,"message":"Internal server error"}',
      shown: '500 "{"statusCode":500,"message":"Internal server error"}"',
    },
    {
      what: 'a plain-text stack trace that quotes the signed URL',
      status: 500,
      type: 'text/plain',
      body: 'TypeError: cannot read orders of undefined\n    at POST /hooks?hp_ref=ORDER-1&hp_sig=SIGNATURE\n',
      shown:
        '500 "TypeError: cannot read orders of undefined at POST /hooks?hp_ref=ORDER-1&hp_sig=[redacted]"',
    },
  ])('shows what the route said, as one short line: $what', async ({ status, type, body, shown }) => {
    const origin = await listen((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(status, { 'content-type': type }).end(body));
    });
    await start({ deliveryRetries: 0 });
    expect(
      (await post('/api/payment/payment-initiate-callback/', mobileMoneyPayment(`${origin}/hooks`))).status,
    ).toBe(200);
    const report = await sandbox!.waitForIdle();
    expect(report.failures).toMatchObject([{ state: 'failed', attempts: 1, lastAnswer: shown }]);
    expect(report.summary).toContain(`failed after 1 attempt: ${shown}`);
    const [attempt] = logs.filter((event) => event.kind === 'callback');
    expect(attempt).toMatchObject({ status, reason: shown.slice(4) });
  });

  it('masks a card number the route quoted, in the report as in the log', async () => {
    const origin = await listen((request, response) => {
      request.resume();
      request.on('end', () =>
        response
          .writeHead(500, { 'content-type': 'text/plain' })
          .end('card 4242 4242 4242 4242 declined by our fraud rules'),
      );
    });
    await start({ deliveryRetries: 0 });
    await post('/api/payment/payment-initiate-callback/', mobileMoneyPayment(`${origin}/hooks`));
    const report = await sandbox!.waitForIdle();
    expect(report.summary).not.toMatch(/4242 4242 4242 4242|4242424242424242/);
    expect(report.failures[0]?.lastAnswer).toBe('500 "card **** 4242 declined by our fraud rules"');
    expect(JSON.stringify(sandbox!.deliveries)).not.toContain('4242 4242 4242 4242');
  });

  it("masks a card number in a JSON refusal's free-text error too (shown as the answer's excerpt)", async () => {
    const origin = await listen((request, response) => {
      request.resume();
      request.on('end', () =>
        response
          .writeHead(402, { 'content-type': 'application/json' })
          .end('{"error":"card 4242424242424242 refused"}'),
      );
    });
    await start({ deliveryRetries: 0 });
    await post('/api/payment/payment-initiate-callback/', mobileMoneyPayment(`${origin}/hooks`));
    const report = await sandbox!.waitForIdle();
    expect(report.failures[0]?.lastAnswer).toBe('402 "{"error":"card **** 4242 refused"}"');
  });

  it('keeps a long answer to 200 characters, and an empty one to its status', async () => {
    const bodies = ['x'.repeat(5000), ''];
    const origin = await listen((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(500, { 'content-type': 'text/plain' }).end(bodies.shift()));
    });
    await start({ deliveryRetries: 1, retryDelayMs: 1 });
    await post('/api/payment/payment-initiate-callback/', mobileMoneyPayment(`${origin}/hooks`));
    await sandbox!.waitForIdle();
    const [first, second] = sandbox!.deliveries[0]!.attempts;
    expect(first).toMatchObject({ status: 500, reason: `"${'x'.repeat(200)}…"` });
    expect(second).toEqual({ at: expect.any(Date), status: 500 });
  });
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

describe('a field of the wrong JSON type', () => {
  const payout = (transfer: Record<string, unknown>) =>
    JSON.stringify({
      customer_details: { full_name: 'John Doe', phone_number: '254712345678', email: 'john@example.com' },
      destination: {
        type: 'mobile_wallet',
        country_code: 'KE',
        mobile_number: '254712345678',
        wallet_name: 'M',
      },
      transfer: {
        amount: '100',
        currency: 'KES',
        reference_id: 123456789012,
        description: 'refund',
        ...transfer,
      },
      webhook_endpoint: { webhook_url: 'http://127.0.0.1:9/hooks' },
    });
  const checkout = (order_id: unknown) =>
    JSON.stringify({
      customer_details: { full_name: 'Jane Doe', phone_number: '254712345678', email: 'jane@example.com' },
      amount: { order_id, delivery_fee: '100', discount_fee: '50', total: '1500', currency: 'KES' },
      redirect_urls: {
        success_url: 'https://shop.example/ok',
        failed_url: 'https://shop.example/failed',
        callback_url: 'http://127.0.0.1:9/hooks',
      },
    });
  const cardPayment = (product: Record<string, unknown>) =>
    JSON.stringify({
      customer_details: {
        full_name: 'Jane Doe',
        phone_number: '254712345678',
        email: 'jane@example.com',
        payment_method: 'CARD',
      },
      products: [{ product_name: 'Tea', quantity: 1, unit_price: 10, ...product }],
      card_details: { card_number: 4242424242424242, expiry_month: 12, expiry_year: 2099, cvc: 123 },
      callback_details: { transaction_reference: 'ORDER-1', callback_url: 'http://127.0.0.1:9/hooks' },
    });

  it.each([
    [
      'a payout reference_id as a string',
      endpoints.payout,
      payout({ reference_id: '123456789012' }),
      'transfer.reference_id',
      'expected 12 digits, the first not 0, got string',
    ],
    [
      'a checkout order_id as a string',
      endpoints.checkoutSession,
      checkout('1001'),
      'amount.order_id',
      'expected a whole number of at least 0, got string',
    ],
    [
      'a checkout order_id with a fraction',
      endpoints.checkoutSession,
      checkout(10.5),
      'amount.order_id',
      'expected a whole number of at least 0, got a number with a fraction',
    ],
    [
      'a card product quantity as a string',
      endpoints.payment,
      cardPayment({ quantity: '2' }),
      'products[0].quantity',
      'expected a whole number of at least 1, got string',
    ],
    [
      'a card expiry_month as a boolean',
      endpoints.payment,
      cardPayment({}).replace('"expiry_month":12', '"expiry_month":true'),
      'card_details.expiry_month',
      'expected a month from 1 to 12, got boolean',
    ],
  ])('names the type that came, not only the rule: %s', async (_, path, body, field, message) => {
    await start();
    const response = await post(path, body);
    expect(response.status).toBe(400);
    const { issues } = (await response.json()) as { issues: { field: string; message: string }[] };
    expect(issues.map((issue) => [issue.field, issue.message])).toEqual([[field, message]]);
  });
});

describe('a request to the wrong path or with the wrong method', () => {
  const send = (method: string, path: string) =>
    fetch(`${sandbox!.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }),
    });

  it.each([
    [
      'the payment path without its trailing slash',
      '/api/payment/payment-initiate-callback',
      'No sandbox endpoint at POST /api/payment/payment-initiate-callback: the payment endpoint is POST /api/payment/payment-initiate-callback/, with a trailing slash.',
    ],
    [
      'the payout path with a trailing slash',
      '/api/payout/mobile-money-payout/',
      'No sandbox endpoint at POST /api/payout/mobile-money-payout/: the payout endpoint is POST /api/payout/mobile-money-payout, without a trailing slash.',
    ],
    [
      'a /v1 prefix',
      '/v1/checkout.sessions/hosted/redirect/session',
      "No sandbox endpoint at POST /v1/checkout.sessions/hosted/redirect/session: the checkout session endpoint is POST /checkout.sessions/hosted/redirect/session, at the root of the sandbox; drop /v1 from the client's baseUrl.",
    ],
    [
      'a typo',
      '/api/payments/payment-initiate-callback/',
      'No sandbox endpoint at POST /api/payments/payment-initiate-callback/: the endpoints are POST /api/payment/payment-initiate-callback/ (card and mobile-money payments), POST /checkout.sessions/hosted/redirect/session (checkout sessions) and POST /api/payout/mobile-money-payout (payouts).',
    ],
  ])('answers 404 for %s, naming the endpoint meant', async (_, path, message) => {
    await start();
    const response = await send('POST', path);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not_found', message, issues: [] });
    expect(logs.find((event) => event.kind === 'request')).toMatchObject({ status: 404, summary: message });
  });

  it.each([
    ['GET', endpoints.payment, 'POST'],
    ['PUT', endpoints.payout, 'POST'],
    ['GET', endpoints.checkoutSession, 'POST'],
    ['DELETE', '/checkout/cs_ANY', 'GET, POST'],
  ])('answers %s %s with 405 and the methods it takes', async (method, path, allow) => {
    await start();
    const response = await send(method, path);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await response.json()).toEqual({
      error: 'method_not_allowed',
      message: `${path} takes ${allow.replace(', ', ' or ')}, not ${method}.`,
      issues: [],
    });
  });
});

describe('a payout with the recipient under both customer_details and client_details', () => {
  it('is refused saying to send it under one of the two, not to check the spelling', async () => {
    await start();
    const recipient = { full_name: 'John Doe', phone_number: '254712345678', email: 'john@example.com' };
    const response = await post(
      endpoints.payout,
      JSON.stringify({
        customer_details: recipient,
        client_details: recipient,
        destination: {
          type: 'mobile_wallet',
          country_code: 'KE',
          mobile_number: '254712345678',
          wallet_name: 'M',
        },
        transfer: { amount: '100', currency: 'KES', reference_id: 123456789012, description: 'refund' },
        webhook_endpoint: { webhook_url: 'http://127.0.0.1:9/hooks' },
      }),
    );
    expect(response.status).toBe(400);
    const { issues } = (await response.json()) as { issues: { field: string; message: string }[] };
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toBe(
      'unknown key "client_details": the payout recipient goes under customer_details or client_details, not both',
    );
  });
});

describe('a body that cannot be read as JSON', () => {
  it.each([
    [
      'no content-type header',
      undefined,
      '{}',
      415,
      'unsupported_media_type',
      'Send the body as JSON with the header content-type: application/json (no content-type header was sent).',
    ],
    [
      'a text/plain body',
      'text/plain;charset=UTF-8',
      '{}',
      415,
      'unsupported_media_type',
      'Send the body as JSON with the header content-type: application/json (got text/plain).',
    ],
    [
      'an empty body',
      'application/json',
      '',
      400,
      'invalid_json',
      'The request body is empty: send the request as a JSON object.',
    ],
    [
      'an object sent without JSON.stringify',
      'application/json',
      '[object Object]',
      400,
      'invalid_json',
      'The request body is the text "[object Object]": an object was sent without JSON.stringify.',
    ],
    [
      'JSON cut short',
      'application/json',
      '{"customer_details": {',
      400,
      'invalid_json',
      'The request body is not valid JSON.',
    ],
  ])('says what came for %s', async (_, type, body, status, error, message) => {
    await start();
    const response = await fetch(`${sandbox!.url}${endpoints.payment}`, {
      method: 'POST',
      headers: type === undefined ? {} : { 'content-type': type },
      body: type === undefined ? new Uint8Array(Buffer.from(body)) : body,
    });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error, message, issues: [] });
  });
});

/** A checkout session of order `orderId` on the sandbox, its callback to a closed port; its link. */
const checkoutLink = async (orderId = 1001): Promise<string> => {
  const response = await post(
    endpoints.checkoutSession,
    JSON.stringify({
      customer_details: { full_name: 'Jane Doe', phone_number: '254712345678', email: 'jane@example.com' },
      amount: { order_id: orderId, delivery_fee: '100', discount_fee: '50', total: '1500', currency: 'KES' },
      redirect_urls: {
        success_url: 'https://shop.example/ok',
        failed_url: 'https://shop.example/failed',
        callback_url: 'http://127.0.0.1:9/hooks',
      },
    }),
  );
  return ((await response.json()) as { checkout_link: string }).checkout_link;
};

describe('completeCheckout on a link it cannot pay', () => {
  it('says the link was already paid, or already failed', async () => {
    await start({ callbackDelayMs: 60_000 });
    const paid = await checkoutLink();
    const failed = await checkoutLink();
    await sandbox!.completeCheckout(paid, { method: 'card' });
    await sandbox!.completeCheckout(failed, { method: 'card', outcome: 'failure' });
    await expect(sandbox!.completeCheckout(paid, { method: 'card' })).rejects.toThrow(
      `Could not complete the checkout ${paid}: it was already paid (a checkout is completed once; create another session).`,
    );
    await expect(sandbox!.completeCheckout(failed, { method: 'mobile_money' })).rejects.toThrow(
      `Could not complete the checkout ${failed}: it has already failed (a checkout is completed once; create another session).`,
    );
  });

  it('says a link the sandbox does not know is unknown to it, and a sandbox URL that is no checkout page is not one', async () => {
    await start();
    const unknown = `${sandbox!.url}/checkout/cs_UNKNOWN`;
    await expect(sandbox!.completeCheckout(unknown, { method: 'card' })).rejects.toThrow(
      `Could not complete the checkout ${unknown}: the sandbox does not know this link (404); a sandbox forgets its sessions when it restarts.`,
    );
    await expect(sandbox!.completeCheckout(`${sandbox!.url}/`, { method: 'card' })).rejects.toThrow(
      `Could not complete the checkout ${sandbox!.url}/: it is not a sandbox checkout page (pass the checkout_link of a session).`,
    );
  });
});

describe('completeCheckout with a value the page refuses', () => {
  it('says which field the page refused and why, and leaves the checkout open', async () => {
    await start({ callbackDelayMs: 60_000 });
    const link = await checkoutLink(1002);
    const error = await sandbox!.completeCheckout(link, { method: 'mobile_money', phoneNumber: '0712' }).then(
      () => expect.fail('a phone of four digits paid'),
      (reason: unknown) => reason as Error,
    );
    expect(error.message).toMatch(
      new RegExp(
        `^Could not complete the checkout ${link.replace(/[.?]/g, '\\$&')}: the page refused the form \\(422\\): Phone number: .+\\.$`,
      ),
    );
    // Still open: the customer corrects the field and pays.
    await expect(sandbox!.completeCheckout(link, { method: 'mobile_money' })).resolves.toMatchObject({
      paid: true,
    });
  });

  it.each([['abc'], ['/checkout/cs_1'], [''], [undefined]])(
    'names the link that is no URL, before loading anything: %j',
    async (link) => {
      await start();
      await expect(sandbox!.completeCheckout(link as string, { method: 'card' })).rejects.toThrow(
        /^completeCheckout: pass the checkout_link a session returned \(an absolute http\(s\) URL\), got /,
      );
    },
  );

  it('says a link with a trailing slash is no checkout link', async () => {
    await start({ callbackDelayMs: 60_000 });
    const link = `${await checkoutLink(1003)}/`;
    await expect(sandbox!.completeCheckout(link, { method: 'card' })).rejects.toThrow(
      `Could not complete the checkout ${link}: no checkout link ends with '/'; pass checkout_link as the session gave it.`,
    );
  });
});

describe('a callback URL on a port fetch refuses to connect to', () => {
  it('is reported as that port being refused by fetch, not as "bad port"', async () => {
    await start({ deliveryRetries: 0 });
    const response = await post(endpoints.payment, mobileMoneyPayment('http://127.0.0.1:6000/hooks'));
    expect(response.status).toBe(200);
    const report = await sandbox!.waitForIdle();
    expect(report.failures).toMatchObject([
      {
        attempts: 1,
        lastAnswer: 'fetch refuses port 6000 (a port browsers block); give your route another port',
      },
    ]);
  });
});

describe('a sandbox that cannot listen says which option to change', () => {
  it('names the port when it is in use, keeping the system code', async () => {
    const taken = new URL(await listen(() => undefined)).port;
    const error = await startSandbox({ port: Number(taken), log: false }).then(
      () => expect.fail('the sandbox started on a port in use'),
      (reason: unknown) => reason as Error & { code?: unknown },
    );
    expect(error.message).toBe(
      `startSandbox: port ${taken} is in use on 127.0.0.1 (EADDRINUSE); give another port, or 0 for a free one`,
    );
    expect(error.code).toBe('EADDRINUSE');
  });

  it('names the host when it is not an address of this machine', async () => {
    const error = await startSandbox({ host: 'nonexistent.invalid', log: false }).then(
      () => expect.fail('the sandbox started'),
      (reason: unknown) => reason as Error,
    );
    expect(error.message).toMatch(
      /^startSandbox: cannot listen on host nonexistent\.invalid \([A-Z_]+\); give an address of this machine, such as 127\.0\.0\.1$/,
    );
  });
});
