// What a merchant's offline tests read from the sandbox's callback delivery: the options
// waitForIdle() takes and refuses (and that it leaves no timer behind), what the delivery report
// says a webhook route answered (the refusal's `error` word, a redirect not followed and where it
// pointed, the last answer of a retried callback, a refused duplicate named as one; never a secret
// or a control character from the route's answer), the order a callback is about, what close()
// does to waiting, scheduled and in-flight deliveries, deliveryTimeoutMs, and the 1000-record cap.
import { rm, writeFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildPayoutRequest } from '../../src/index.js';
import { signCallbackUrl } from '../../src/callbacks/signing.js';
import { bundleForNode, closedAfterEach, payoutTo, runNodeScript } from './helpers.js';

const payoutRequest = (url: string, amount = 100, reference = 123456789012) =>
  new Request('http://sandbox.test/api/payout/mobile-money-payout', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(buildPayoutRequest(payoutTo(url, amount, reference))),
  });

const opened = closedAfterEach();

/** Sends one payout whose callback goes to a route answering with `listener`; resolves with the report. */
async function reportOf(listener: RequestListener) {
  const url = await opened.route(listener);
  const sandbox = await opened.sandbox({
    callbackDelayMs: 0,
    retryDelayMs: 1,
    deliveryRetries: 1,
    log: false,
  });
  const response = await fetch(new URL('/api/payout/mobile-money-payout', sandbox.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(buildPayoutRequest(payoutTo(url, 100))),
  });
  expect(response.status).toBe(200);
  return { report: await sandbox.waitForIdle(), url };
}

describe('waitForIdle options', () => {
  it('takes a timeout of 0 and of 2147483647 ms', async () => {
    const sandbox = opened.app({ log: false });
    await expect(sandbox.waitForIdle({ timeout: 0 })).resolves.toMatchObject({ ok: true });
    await expect(sandbox.waitForIdle({ timeout: 2147483647 })).resolves.toMatchObject({ ok: true });
  });

  it('refuses a timeout above 2147483647 ms, NaN, and a signal that is not an AbortSignal', async () => {
    const sandbox = opened.app({ log: false });
    await expect(sandbox.waitForIdle({ timeout: 2147483648 })).rejects.toThrow(
      'waitForIdle: timeout must be a number of ms from 0 to 2147483647, got 2147483648',
    );
    await expect(sandbox.waitForIdle({ timeout: Number.NaN })).rejects.toThrow(
      'waitForIdle: timeout must be a number of ms from 0 to 2147483647, got NaN',
    );
    await expect(sandbox.waitForIdle({ signal: 'soon' as unknown as AbortSignal })).rejects.toThrow(
      'waitForIdle: signal must be an AbortSignal',
    );
  });

  it('rejects at once, naming what is pending, when its signal has already aborted', async () => {
    const url = await opened.route((_req, res) => res.writeHead(200).end());
    const sandbox = await opened.sandbox({ callbackDelayMs: 60_000, log: false });
    const response = await fetch(new URL('/api/payout/mobile-money-payout', sandbox.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(buildPayoutRequest(payoutTo(url, 100))),
    });
    expect(response.status).toBe(200);
    const reason = new Error('test over');
    const waited = sandbox.waitForIdle({ signal: AbortSignal.abort(reason), timeout: 5000 });
    await expect(waited).rejects.toThrow(
      /^waitForIdle: callbacks still pending aborted\n1 callback: 1 pending/,
    );
    await expect(waited).rejects.toMatchObject({ cause: reason, report: { ok: false, pending: 1 } });
    await expect(waited).rejects.toThrow(
      /\n {2}… payout\.succeeded for 123456789012 to http:\/\/127\.0\.0\.1:\d+\/webhooks\/payments pending, not sent yet\n/,
    );
  });
});

describe('the order a callback is about', () => {
  it('is the hp_ref of its signed callback URL, even when the request names another reference', async () => {
    const route = await opened.route((_req, res) => res.writeHead(200).end());
    const signed = await signCallbackUrl(route, {
      secret: 'delivery-audit-secret-0123456789',
      reference: 'ORDER-77',
    });
    const sandbox = await opened.sandbox({ callbackDelayMs: 0, log: false });
    const response = await fetch(new URL('/api/payout/mobile-money-payout', sandbox.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // Built for the route, then given the URL signed for another order (the builder refuses
      // that URL; the service, and so the sandbox, does not know hp_ref).
      body: JSON.stringify({
        ...buildPayoutRequest(payoutTo(route, 100, 700000000123)),
        webhook_endpoint: { webhook_url: signed },
      }),
    });
    expect(response.status).toBe(200);
    const report = await sandbox.waitForIdle();
    expect(report.deliveries).toEqual([
      expect.objectContaining({ type: 'payout.succeeded', reference: 'ORDER-77', state: 'delivered' }),
    ]);
    expect(sandbox.deliveries[0]?.reference).toBe('ORDER-77');
  });
});

describe('the report of a callback the route refused', () => {
  it('names the error word of a long JSON refusal', async () => {
    const message = 'The signature of this callback URL does not match the secret of this route. '.repeat(3);
    const { report } = await reportOf((_req, res) => {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'invalid_signature', message }));
    });
    expect(report.failures).toEqual([
      expect.objectContaining({ state: 'failed', attempts: 2, lastAnswer: '401 invalid_signature' }),
    ]);
  });

  it('never carries a line break or escape from the error word into the summary', async () => {
    const { report } = await reportOf((_req, res) => {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'bad\n  ✗ payout.succeeded delivered\u001b[31m' }));
    });
    const [failure] = report.failures;
    // Free text, not a code: the answer's excerpt, in which JSON's own escapes stay escaped.
    expect(failure?.lastAnswer).toMatch(/^400 "\{"error":"bad\\n/);
    expect(failure?.lastAnswer).not.toContain('\n');
    expect(failure?.lastAnswer).not.toContain('\u001b');
    expect(report.summary.split('\n')).toHaveLength(2);
  });

  it('says a redirect was not followed and where it pointed, without its query', async () => {
    for (const status of [300, 302]) {
      const { report, url } = await reportOf((_req, res) => {
        res.writeHead(status, { location: '/elsewhere?hp_sig=secret-token' }).end();
      });
      const origin = new URL(url).origin;
      expect(report.failures).toEqual([
        expect.objectContaining({
          state: 'failed',
          lastAnswer: `${status} redirect to ${origin}/elsewhere?… (not followed)`,
        }),
      ]);
      expect(report.summary).not.toContain('secret-token');
    }
  });
});

describe('close()', () => {
  it('resolves a waitForIdle() that was waiting, with the callback reported cancelled', async () => {
    const sandbox = opened.app({ callbackDelayMs: 60_000, log: false, transport: async () => 200 });
    const response = await sandbox.app.fetch(payoutRequest('http://127.0.0.1:9/hooks'));
    expect(response.status).toBe(200);
    const waiting = sandbox.waitForIdle({ timeout: 5000 });
    sandbox.close();
    const report = await waiting;
    expect(report).toMatchObject({ ok: false, cancelled: 1, pending: 0 });
    expect(report.summary).toContain(
      'payout.succeeded for 123456789012 to http://127.0.0.1:9/hooks cancelled after 0 attempts',
    );
  });

  it('leaves no duplicate waiting: waitForIdle() resolves right after it', async () => {
    const sent: string[] = [];
    const sandbox = opened.app({
      callbackDelayMs: 1000,
      duplicateDeliveries: true,
      log: false,
      transport: async ({ type }) => {
        sent.push(type);
        return 200;
      },
    });
    await sandbox.app.fetch(payoutRequest('http://127.0.0.1:9/hooks'));
    await vi.waitFor(() => expect(sandbox.deliveries[0]?.state).toBe('delivered'), { timeout: 4000 });
    sandbox.close();
    const report = await sandbox.waitForIdle({ timeout: 5000 });
    expect(report).toMatchObject({ ok: true, delivered: 1, pending: 0 });
    expect(sent).toEqual(['payout.succeeded']);
  });

  it('ends an attempt the route has not answered yet: the route sees its request aborted', async () => {
    let arrived!: () => void;
    let aborted!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const ended = new Promise<void>((resolve) => (aborted = resolve));
    const url = await opened.route((_req, res) => {
      res.on('close', () => aborted());
      arrived(); // never answers
    });
    const sandbox = await opened.sandbox({
      callbackDelayMs: 0,
      deliveryRetries: 0,
      deliveryTimeoutMs: 60_000,
      log: false,
    });
    await fetch(new URL('/api/payout/mobile-money-payout', sandbox.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(buildPayoutRequest(payoutTo(url, 100))),
    });
    await inFlight;
    await sandbox.close();
    await ended;
    expect(sandbox.deliveries.map((d) => [d.state, d.attempts.length])).toEqual([['cancelled', 0]]);
  });
});

describe('deliveryTimeoutMs', () => {
  it('counts a route that answers later than it as timeout, and does not wait for the answer', async () => {
    const url = await opened.route((_req, res) => {
      setTimeout(() => res.writeHead(200).end(), 600);
    });
    const sandbox = await opened.sandbox({
      callbackDelayMs: 0,
      deliveryRetries: 0,
      deliveryTimeoutMs: 100,
      log: false,
    });
    await fetch(new URL('/api/payout/mobile-money-payout', sandbox.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(buildPayoutRequest(payoutTo(url, 100))),
    });
    const report = await sandbox.waitForIdle();
    expect(report.failures).toEqual([
      expect.objectContaining({ state: 'failed', attempts: 1, lastAnswer: 'timeout' }),
    ]);
  });
});

describe('the delivery record', () => {
  it('keeps the latest 1000 callbacks once delivered', async () => {
    const sandbox = opened.app({ callbackDelayMs: 0, log: false, transport: async () => 200 });
    for (let i = 0; i < 1001; i++) {
      const response = await sandbox.app.fetch(
        payoutRequest('http://127.0.0.1:9/hooks', 1, 100000000000 + i),
      );
      expect(response.status).toBe(200);
      await sandbox.waitForIdle();
    }
    // The report counts all 1001; the list keeps the latest 1000.
    const report = await sandbox.waitForIdle();
    expect(report.delivered).toBe(1001);
    expect(report.summary).toContain('1 callback not listed (1000 kept');
    expect(sandbox.deliveries).toHaveLength(1000);
    expect(sandbox.deliveries[0]?.reference).toBe('100000000001');
    expect(sandbox.deliveries.at(-1)?.reference).toBe('100000001000');
  });
});

describe('a waitForIdle({ timeout }) that found nothing pending', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await bundleForNode('sandbox', 'src/sandbox/index.ts');
    await writeFile(
      join(dir, 'idle.mjs'),
      `import { createSandboxApp } from './sandbox.js';
const sandbox = createSandboxApp({ log: false });
const report = await sandbox.waitForIdle({ timeout: 60_000 });
sandbox.close();
process.stdout.write(JSON.stringify({ ok: report.ok }));
`,
    );
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves no timer behind: a script that used it exits by itself', async () => {
    const result = await runNodeScript(join(dir, 'idle.mjs'), 10_000);
    expect(result).toEqual({ code: 0, stdout: '{"ok":true}', stderr: '' });
  });
});

describe('a duplicate delivery the route refuses', () => {
  it('is named as the duplicate it is in the summary', async () => {
    let calls = 0;
    const sandbox = opened.app({
      callbackDelayMs: 0,
      duplicateDeliveries: true,
      deliveryRetries: 0,
      log: false,
      transport: async () => (++calls === 1 ? 200 : 500),
    });
    await sandbox.app.fetch(payoutRequest('http://127.0.0.1:9/hooks'));
    const report = await sandbox.waitForIdle();
    expect(report.summary).toBe(
      '2 callbacks: 1 delivered, 1 failed\n' +
        '  ✗ payout.succeeded (duplicate 1) for 123456789012 to http://127.0.0.1:9/hooks failed after 1 attempt: 500',
    );
  });
});

describe('the last answer of a callback retried', () => {
  it('is the answer to its last attempt, not its first', async () => {
    const answers = [500, { status: 401, reason: 'invalid_signature' }];
    const sandbox = opened.app({
      callbackDelayMs: 0,
      retryDelayMs: 1,
      deliveryRetries: 1,
      log: false,
      transport: async () => answers.shift() ?? 200,
    });
    await sandbox.app.fetch(payoutRequest('http://127.0.0.1:9/hooks'));
    const report = await sandbox.waitForIdle();
    expect(report.failures).toEqual([
      expect.objectContaining({ attempts: 2, lastAnswer: '401 invalid_signature' }),
    ]);
  });
});
