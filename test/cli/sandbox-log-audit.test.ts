// What `hosted-payments sandbox` writes as a merchant reads it: with --log silent nothing at all on
// stdout (no banner, no request line, no "sandbox stopped") while it still answers and exits 0; with
// --log json, each line an object carrying the fields of its event (the request's method, path and
// status; the callback's type, reference, attempt, outcome and the route's answer), so a CI job can
// filter them, and no character from a request that would reorder or break the terminal's lines.
// startSandbox() with no log option prints a dropped callback (the no-callback test phone) too. An
// unknown --log format is refused, and the banner states a --failure-rate in force.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { buildPayoutRequest } from '../../src/index.js';
import { run, type CliIo } from '../../src/cli/program.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { payoutTo } from '../sandbox/helpers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function runSandbox(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const controller = new AbortController();
  let listening: (url: string) => void = () => undefined;
  const ready = new Promise<string>((resolve) => (listening = resolve));
  const io: CliIo = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    signal: controller.signal,
    onListening: (url) => listening(url),
  };
  const running = run(['sandbox', '--port', '0', ...args], io);
  return {
    ready,
    out: () => out.join(''),
    err: () => err.join(''),
    stop: async () => {
      controller.abort();
      return running;
    },
  };
}

it('sandbox --log silent writes nothing, answers requests and exits 0', async () => {
  const sandbox = runSandbox(['--log', 'silent']);
  const base = await sandbox.ready;
  expect((await fetch(`${base}/`)).status).toBe(200);
  expect((await fetch(`${base}/`)).status).toBe(200);
  expect(await sandbox.stop()).toBe(0);
  expect(sandbox.out()).toBe('');
  expect(sandbox.err()).toBe('');
});

it('sandbox --log json: the request and callback lines carry their fields', async () => {
  const route = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => route.listen(0, '127.0.0.1', resolve));
  try {
    const hook = `http://127.0.0.1:${(route.address() as AddressInfo).port}/hooks/payout`;
    const sandbox = runSandbox(['--callback-delay', '0', '--log', 'json']);
    const base = await sandbox.ready;
    expect((await fetch(`${base}/x%E2%80%AEy%E2%80%A8z`)).status).toBe(404);
    const answer = await fetch(`${base}/api/payout/mobile-money-payout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(buildPayoutRequest(payoutTo(hook, 10))),
    });
    expect(answer.status).toBe(200);
    await expect.poll(() => sandbox.out(), { timeout: 5000 }).toContain('"kind":"callback"');
    expect(await sandbox.stop()).toBe(0);
    // A right-to-left override or a line separator from a request path stays escaped on the terminal.
    expect(sandbox.out()).not.toMatch(/[\u2028\u202e]/);
    const lines = sandbox
      .out()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({ kind: 'listening', url: base }),
      expect.objectContaining({ kind: 'request', method: 'GET', path: '/x\u202ey\u2028z', status: 404 }),
      expect.objectContaining({
        kind: 'request',
        method: 'POST',
        path: '/api/payout/mobile-money-payout',
        status: 200,
      }),
      expect.objectContaining({
        kind: 'callback',
        type: 'payout.succeeded',
        url: hook,
        reference: '123456789012',
        attempt: 1,
        copy: 0,
        outcome: 'delivered',
        status: 200,
      }),
    ]);
  } finally {
    route.closeAllConnections();
    await new Promise((resolve) => route.close(resolve));
  }
});

it('startSandbox() with its default log prints the callback it drops for the no-callback test phone', async () => {
  const written: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  const sandbox = await startSandbox({ callbackDelayMs: 0 });
  try {
    await new PaymentsClient({ baseUrl: sandbox.url }).initiateMobileMoneyPayment({
      customer_details: { full_name: 'Jane Doe', phone_number: '254700000000', email: 'jane@example.com' },
      amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
      callback_details: { transaction_reference: 'ORDER-LOST', callback_url: 'http://127.0.0.1:9/hooks' },
    });
    await sandbox.waitForIdle();
  } finally {
    await sandbox.close();
  }
  expect(written.join('')).toMatch(/callback payment\.mobile_money\.succeeded for ORDER-LOST .* dropped/);
});

it('sandbox --log refuses a format it does not have, naming the ones it has', async () => {
  const err: string[] = [];
  const code = await run(['sandbox', '--port', '0', '--log', 'text'], {
    stdout: () => undefined,
    stderr: (text) => void err.push(text),
  });
  expect(code).not.toBe(0);
  expect(err.join('')).toContain('pretty, json, silent');
});

it('sandbox --failure-rate 0.2: the banner says the failure rate in force', async () => {
  const sandbox = runSandbox(['--failure-rate', '0.2']);
  await sandbox.ready;
  expect(await sandbox.stop()).toBe(0);
  expect(sandbox.out()).toContain('failure rate: 0.2');
});
