import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createCallbackHandler } from '../../src/callbacks/handler.js';
import { toNodeListener } from '../../src/callbacks/node.js';
import { signCallbackUrl } from '../../src/callbacks/signing.js';
import type { CallbackEvent } from '../../src/callbacks/events.js';
import { run, type CliIo } from '../../src/cli/program.js';
import { buildPayoutRequest } from '../../src/index.js';
import { payoutTo } from '../sandbox/helpers.js';

const SECRET = 'cli-test-secret-0123456789';

function capture(extra: Partial<CliIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), ...extra };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

let webhook: Server | undefined;
afterEach(async () => {
  if (webhook) await new Promise((resolve) => webhook!.close(resolve));
  webhook = undefined;
});

async function startWebhook(secret: string) {
  const events: CallbackEvent[] = [];
  const onEvent = (event: CallbackEvent) => void events.push(event);
  const handler = createCallbackHandler(
    secret === undefined ? { verify: false, onEvent } : { secret, onEvent },
  );
  webhook = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => webhook!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hooks`, events };
}

describe('hosted-payments CLI', () => {
  it('--help lists both commands', async () => {
    const { io, out } = capture();
    expect(await run(['--help'], io)).toBe(0);
    expect(out()).toContain('sandbox');
    expect(out()).toContain('trigger');
  });

  it('sandbox --help documents its options', async () => {
    const { io, out } = capture();
    expect(await run(['sandbox', '--help'], io)).toBe(0);
    expect(out()).toMatch(/--port/);
    expect(out()).toMatch(/--host/);
    expect(out()).toMatch(/--callback-delay/);
  });

  it('an unknown command fails with usage on stderr', async () => {
    const { io, err } = capture();
    expect(await run(['nope'], io)).not.toBe(0);
    expect(err()).toContain('nope');
  });

  it('trigger posts a signed fixture callback that the merchant handler accepts', async () => {
    const { url, events } = await startWebhook(SECRET);
    const { io, out, err } = capture();
    const code = await run(
      ['trigger', 'payment.mobile_money.failed', '--url', url, '--secret', SECRET, '--reference', 'ORDER-9'],
      io,
    );
    expect(err()).toBe('');
    expect(code).toBe(0);
    expect(out()).toContain('HTTP 200');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'payment.mobile_money.failed', reference: 'ORDER-9' });
  });

  it.each([
    'payment.card.succeeded',
    'payment.card.failed',
    'payment.mobile_money.succeeded',
    'checkout.succeeded',
    'checkout.failed',
    'payout.succeeded',
    'payout.failed',
  ])('trigger %s is accepted', async (type) => {
    const { url, events } = await startWebhook(SECRET);
    const { io } = capture();
    expect(await run(['trigger', type, '--url', url, '--secret', SECRET], io)).toBe(0);
    expect(events.map((e) => e.type)).toEqual([type]);
  });

  it('trigger without the secret is refused by a signing handler: prints the status, exits 1', async () => {
    const { url } = await startWebhook(SECRET);
    const { io, out } = capture();
    expect(await run(['trigger', 'payout.succeeded', '--url', url], io)).toBe(1);
    expect(out()).toContain('HTTP 401');
  });

  it('trigger rejects an unknown event type, listing the valid ones', async () => {
    const { io, err } = capture();
    expect(await run(['trigger', 'payment.refunded', '--url', 'http://127.0.0.1:9/'], io)).toBe(2);
    expect(err()).toContain('payout.failed');
  });

  it('trigger to a port fetch refuses (6000) says so and what to do, not just "fetch failed"', async () => {
    const { io, err } = capture({ env: {} });
    const url = 'http://127.0.0.1:6000/hooks?tenant=shop-7';
    expect(await run(['trigger', 'payout.failed', '--url', url], io)).toBe(1);
    expect(err()).toContain('fetch refuses port 6000 (a port browsers block)');
    expect(err()).toContain('another port');
    expect(err()).not.toContain('tenant=shop-7');
  });

  it('trigger reports an unreachable URL', async () => {
    const { io, err } = capture();
    expect(await run(['trigger', 'payout.failed', '--url', 'http://127.0.0.1:9/hooks'], io)).toBe(1);
    expect(err()).toContain('could not reach');
  });

  it('sandbox runs in the foreground with a request/callback log that masks card numbers, until stopped', async () => {
    const { url } = await startWebhook(SECRET);
    const hookUrl = await signCallbackUrl(url, { secret: SECRET, reference: 'R-1' });
    const controller = new AbortController();
    let listening: (url: string) => void = () => undefined;
    const ready = new Promise<string>((resolve) => (listening = resolve));
    const { io, out } = capture({ signal: controller.signal, onListening: (url) => listening(url) });
    const running = run(['sandbox', '--port', '0', '--callback-delay', '0'], io);
    const base = await ready;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${base}/api/payment/payment-initiate-callback/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        customer_details: {
          payment_method: 'CARD',
          full_name: 'Jane',
          phone_number: '254712345678',
          email: 'jane@example.com',
        },
        amount: { delivery_fee: '100', discount_fee: '50', total: '1500', currency: 'KES' },
        card_details: { card_number: 5555555555554444, expiry_month: 12, expiry_year: 2099, cvc: 987 },
        callback_details: { transaction_reference: 'R-1', callback_url: hookUrl },
      }),
    });
    expect(response.status).toBe(200);
    await expect.poll(() => out(), { timeout: 5000 }).toContain('delivered');
    controller.abort();
    expect(await running).toBe(0);
    const log = out();
    expect(log).toContain(`listening on ${base}`);
    expect(log).toContain('POST /api/payment/payment-initiate-callback/ 200');
    expect(log).toContain('**** 4444');
    expect(log).toContain('payment.card.succeeded');
    expect(log).not.toContain('5555555555554444');
    expect(log.toLowerCase()).not.toContain('cvc');
    expect(log).toContain('sandbox stopped');
  });
});

describe('hosted-payments CLI, hardened', () => {
  it('trigger reads the secret from HOSTED_PAYMENTS_WEBHOOK_SECRET, so it stays out of ps and history', async () => {
    const { url, events } = await startWebhook(SECRET);
    const { io, out, err } = capture({ env: { HOSTED_PAYMENTS_WEBHOOK_SECRET: SECRET } });
    const code = await run(['trigger', 'payout.succeeded', '--url', url], io);
    expect(err()).toBe('');
    expect(out()).toContain('200');
    expect(code).toBe(0);
    expect(events).toHaveLength(1);
  });

  it('the sandbox banner shows the interface it really bound', async () => {
    const controller = new AbortController();
    let listening: (url: string) => void = () => undefined;
    const ready = new Promise<string>((resolve) => (listening = resolve));
    const { io, out } = capture({ signal: controller.signal, onListening: (url) => listening(url) });
    const running = run(['sandbox', '--port', '0', '--host', '0.0.0.0'], io);
    const base = await ready;
    controller.abort();
    expect(await running).toBe(0);
    const port = new URL(base).port;
    expect(out()).toContain(`0.0.0.0:${port}`);
  });
});

describe('hosted-payments CLI, for a merchant testing their route', () => {
  it('--version prints the package version', async () => {
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    const { io, out } = capture();
    expect(await run(['--version'], io)).toBe(0);
    expect(out()).toBe(`${version}\n`);
  });

  it('trigger --repeat 3 sends the same delivery three times: the route processes it once', async () => {
    const { url, events } = await startWebhook(SECRET);
    const { io, out, err } = capture({ env: { HOSTED_PAYMENTS_WEBHOOK_SECRET: SECRET } });
    const code = await run(['trigger', 'payout.succeeded', '--url', url, '--repeat', '3'], io);
    expect(err()).toBe('');
    expect(code).toBe(0);
    expect(events).toHaveLength(1);
    const lines = out()
      .split('\n')
      .filter((line) => line.startsWith('posted'));
    expect(lines).toEqual([
      expect.stringMatching(/^posted payout\.succeeded \[1\/3\] .* HTTP 200 OK$/),
      expect.stringMatching(/^posted payout\.succeeded \[2\/3\] .* HTTP 200 OK \(duplicate\)$/),
      expect.stringMatching(/^posted payout\.succeeded \[3\/3\] .* HTTP 200 OK \(duplicate\)$/),
    ]);
  });

  it('trigger --help states the default reference of each event type, which is what gets signed', async () => {
    const help = capture();
    expect(await run(['trigger', '--help'], help.io)).toBe(0);
    const text = help.out().replace(/\s+/g, ' ');
    expect(text).toContain('ORDER-1001 for payment.*');
    expect(text).toContain('1001 for checkout.*');
    expect(text).toContain('123456789012 for payout.*');
    expect(text).toContain('HOSTED_PAYMENTS_WEBHOOK_SECRET');

    const { url, events } = await startWebhook(SECRET);
    for (const type of ['payment.mobile_money.failed', 'checkout.failed', 'payout.failed'] as const) {
      expect(await run(['trigger', type, '--url', url, '--secret', SECRET], capture().io)).toBe(0);
    }
    expect(events.map((event) => event.reference)).toEqual(['ORDER-1001', '1001', '123456789012']);
  });

  it('trigger refuses a payout reference that is not a 12-digit reference_id instead of replacing it', async () => {
    const { url, events } = await startWebhook(SECRET);
    const { io, err } = capture();
    expect(
      await run(['trigger', 'payout.failed', '--url', url, '--secret', SECRET, '--reference', 'ORDER-1'], io),
    ).toBe(2);
    expect(err()).toContain('12-digit reference_id');
    expect(events).toHaveLength(0);
  });

  it('sandbox --log json writes one JSON object per line; --failure-rate must be a probability', async () => {
    const { url } = await startWebhook(SECRET);
    const hookUrl = await signCallbackUrl(url, { secret: SECRET, reference: '123456789012' });
    const controller = new AbortController();
    let listening: (url: string) => void = () => undefined;
    const ready = new Promise<string>((resolve) => (listening = resolve));
    const { io, out } = capture({ signal: controller.signal, onListening: (url) => listening(url) });
    const running = run(['sandbox', '--port', '0', '--callback-delay', '0', '--log', 'json'], io);
    const base = await ready;
    await fetch(`${base}/api/payout/mobile-money-payout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(buildPayoutRequest(payoutTo(hookUrl, 10))),
    });
    await expect.poll(() => out(), { timeout: 5000 }).toContain('"kind":"callback"');
    controller.abort();
    expect(await running).toBe(0);
    const events = out()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string });
    expect(events.map((event) => event.kind)).toEqual(['listening', 'request', 'callback']);

    const bad = capture();
    expect(await run(['sandbox', '--failure-rate', '2'], bad.io)).not.toBe(0);
    expect(bad.err()).toContain('probability from 0 to 1');
  });
});

describe('hosted-payments sandbox --failure-rate and the test phone that never gets a callback', () => {
  it('--failure-rate 1 --duplicates 2: 254700000000 is accepted and its callback dropped, never a failure', async () => {
    const { url, events } = await startWebhook(SECRET);
    const hookUrl = await signCallbackUrl(url, { secret: SECRET, reference: 'ORDER-LOST' });
    const controller = new AbortController();
    let listening: (url: string) => void = () => undefined;
    const ready = new Promise<string>((resolve) => (listening = resolve));
    const { io, out } = capture({ signal: controller.signal, onListening: (url) => listening(url) });
    const running = run(
      ['sandbox', '--port', '0', '--callback-delay', '0', '--failure-rate', '1', '--duplicates', '2'],
      io,
    );
    const base = await ready;
    const pay = (phone: string, reference: string, callbackUrl: string) =>
      fetch(`${base}/api/payment/payment-initiate-callback/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          customer_details: {
            payment_method: 'MOBILE-MONEY',
            full_name: 'Jane',
            phone_number: phone,
            email: 'jane@example.com',
          },
          amount: { delivery_fee: '100', discount_fee: '50', total: '1500', currency: 'KES' },
          callback_details: { transaction_reference: reference, callback_url: callbackUrl },
        }),
      });
    expect((await pay('254700000000', 'ORDER-LOST', hookUrl)).status).toBe(200);
    // Another phone fails, so the failure rate is in effect; its callback comes after the drop.
    const otherUrl = await signCallbackUrl(url, { secret: SECRET, reference: 'ORDER-2' });
    expect((await pay('254712345678', 'ORDER-2', otherUrl)).status).toBe(200);
    await expect.poll(() => events.length, { timeout: 5000 }).toBeGreaterThan(0);
    controller.abort();
    expect(await running).toBe(0);
    const lostLines = out()
      .split('\n')
      .filter((line) => line.includes('ORDER-LOST') || line.includes('dropped'));
    expect(lostLines.join('\n')).toContain('ORDER-LOST → no callback (test value)');
    expect(lostLines.join('\n')).toContain('dropped');
    expect(lostLines.join('\n')).not.toContain('fails (406)');
    expect(events.map((event) => event.reference)).not.toContain('ORDER-LOST');
    expect(events[0]).toMatchObject({ type: 'payment.mobile_money.failed', reference: 'ORDER-2' });
  });
});

describe('hosted-payments trigger says what to do when the route refuses it', () => {
  it('masks a card number the route quoted in its answer', async () => {
    webhook = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(500).end('card 4242 4242 4242 4242 declined'));
    });
    await new Promise<void>((resolve) => webhook!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hooks`;
    const { io, out } = capture({ env: { HOSTED_PAYMENTS_WEBHOOK_SECRET: SECRET } });
    expect(await run(['trigger', 'payout.succeeded', '--url', url], io)).toBe(1);
    expect(out()).toContain('card **** 4242 declined');
    expect(out()).not.toContain('4242 4242 4242 4242');
  });

  it("answered 500 handler_failed: says the route's onError has the cause", async () => {
    const handler = createCallbackHandler({
      secret: SECRET,
      onEvent: () => {
        throw new Error('orders table locked');
      },
      onError: () => undefined,
    });
    webhook = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => webhook!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hooks`;
    const { io, out, err } = capture({ env: { HOSTED_PAYMENTS_WEBHOOK_SECRET: SECRET } });
    expect(await run(['trigger', 'payout.succeeded', '--url', url], io)).toBe(1);
    expect(out()).toContain('HTTP 500');
    expect(err()).toContain(
      'hint: the route failed on the callback (500 handler_failed): its onError has the cause (onEvent threw, or a body parser such as express.json() read the body before the route)',
    );
  });

  it('posted unsigned and answered 200: warns that the route took a callback it could not have verified', async () => {
    // A route that accepts an unsigned callback verifies nothing: anyone could post it a "paid".
    webhook = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end('ok'));
    });
    await new Promise<void>((resolve) => webhook!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hooks`;
    const { io, out, err } = capture({ env: {} });
    expect(await run(['trigger', 'payment.card.succeeded', '--url', url], io)).toBe(0);
    expect(out()).toContain('HTTP 200');
    expect(err()).toContain('hint: the URL was posted unsigned');
    expect(err()).toContain('accepted');
  });

  it('posted unsigned (no --secret, no $HOSTED_PAYMENTS_WEBHOOK_SECRET) and answered 401: says so and how to give the secret', async () => {
    const { url, events } = await startWebhook(SECRET);
    const { io, out, err } = capture({ env: {} });
    expect(await run(['trigger', 'payout.succeeded', '--url', url], io)).toBe(1);
    expect(out()).toContain('HTTP 401');
    const hint = err();
    expect(hint).toContain('unsigned');
    expect(hint).toContain('HOSTED_PAYMENTS_WEBHOOK_SECRET');
    expect(hint).toContain('--secret');
    expect(events).toEqual([]);
  });

  it.each([
    ['--secret', (secret: string) => ({ args: ['--secret', secret], env: {} })],
    [
      '$HOSTED_PAYMENTS_WEBHOOK_SECRET',
      (secret: string) => ({ args: [], env: { HOSTED_PAYMENTS_WEBHOOK_SECRET: secret } }),
    ],
  ] as const)(
    "a secret from %s that the route refuses (401 invalid_signature): says it may not be the route's, never printing it or the query",
    async (source, given) => {
      const { url, events } = await startWebhook(SECRET);
      const wrong = 'not-the-routes-secret-0123456789';
      const { args, env } = given(wrong);
      const { io, out, err } = capture({ env });
      const target = `${url}?tenant=shop-7`;
      expect(await run(['trigger', 'payout.succeeded', '--url', target, ...args], io)).toBe(1);
      expect(out()).toContain('HTTP 401');
      const hint = err();
      expect(hint).toContain(source);
      expect(hint).toMatch(/may not be the (route's|one the route)/);
      const printed = out() + hint;
      expect(printed).not.toContain(wrong);
      expect(printed).not.toContain('tenant=shop-7');
      expect(printed).not.toContain('hp_sig');
      expect(events).toEqual([]);
    },
  );
});

describe('trigger against a route that echoes what it was sent', () => {
  it.each([
    ['--secret', (secret: string) => ({ args: ['--secret', secret], env: {} })],
    [
      '$HOSTED_PAYMENTS_WEBHOOK_SECRET',
      (secret: string) => ({ args: [], env: { HOSTED_PAYMENTS_WEBHOOK_SECRET: secret } }),
    ],
  ] as const)(
    'never prints the webhook secret from %s in the answer excerpt (red team)',
    async (_, given) => {
      const secret = 'echoed-webhook-secret-0123456789';
      webhook = createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          response.writeHead(400, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: 'bad', config: { secret }, url: request.url }));
        });
      });
      await new Promise<void>((resolve) => webhook!.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hooks`;
      const { args, env } = given(secret);
      const { io, out, err } = capture({ env });
      expect(await run(['trigger', 'payout.succeeded', '--url', url, ...args], io)).toBe(1);
      expect(out()).toContain('HTTP 400');
      expect(out()).toContain('[redacted]');
      expect(out() + err()).not.toContain(secret);
    },
  );
});

describe('hosted-payments sandbox --retries, --retry-delay and --delivery-timeout', () => {
  /** Runs the CLI sandbox with `flags`, posts one payout whose callback goes to `callbackUrl`, returns its log. */
  async function deliverOnce(flags: string[], callbackUrl: string, lines: number) {
    const controller = new AbortController();
    let listening: (url: string) => void = () => undefined;
    const ready = new Promise<string>((resolve) => (listening = resolve));
    const { io, out } = capture({ signal: controller.signal, onListening: (url) => listening(url) });
    const running = run(['sandbox', '--port', '0', '--callback-delay', '0', '--log', 'json', ...flags], io);
    const base = await Promise.race([
      ready,
      running.then((code) => expect.fail(`the sandbox exited (${code}) before listening`)),
    ]);
    const response = await fetch(`${base}/api/payout/mobile-money-payout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(buildPayoutRequest(payoutTo(callbackUrl, 100, 700000000999))),
    });
    expect(response.status).toBe(200);
    const attempts = () =>
      out()
        .trim()
        .split('\n')
        .map(
          (line) => JSON.parse(line) as { kind: string; attempt?: number; outcome?: string; error?: string },
        )
        .filter((event) => event.kind === 'callback');
    await expect.poll(() => attempts().length, { timeout: 5000 }).toBe(lines);
    controller.abort();
    expect(await running).toBe(0);
    return attempts();
  }

  it('--retries 1 --retry-delay 0: a refused callback is tried twice, then given up', async () => {
    const { url } = await startWebhook(SECRET); // the URL is unsigned: every attempt is refused 401
    const attempts = await deliverOnce(['--retries', '1', '--retry-delay', '0'], url, 2);
    expect(attempts.map((event) => [event.attempt, event.outcome])).toEqual([
      [1, 'retrying'],
      [2, 'gave_up'],
    ]);
  });

  it('--delivery-timeout 100: a route that never answers ends as timeout', async () => {
    webhook = createServer(() => undefined);
    await new Promise<void>((resolve) => webhook!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hooks`;
    const attempts = await deliverOnce(['--retries', '0', '--delivery-timeout', '100'], url, 1);
    expect(attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: 'gave_up', error: 'timeout' })]);
    webhook.closeAllConnections();
  });

  it.each([
    ['--retries', '-1'],
    ['--retry-delay', 'soon'],
    ['--delivery-timeout', '0'],
  ])('refuses %s %s, naming the flag', async (flag, value) => {
    const { io, err } = capture();
    expect(await run(['sandbox', flag, value], io)).not.toBe(0);
    expect(err()).toContain(flag);
    expect(err()).not.toContain('unknown option');
  });
});
