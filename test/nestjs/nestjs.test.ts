// The NestJS recipe of docs/webhooks.md in a real Nest 11 app on Express, driven over a socket.
// test/nestjs/ pins Nest (installed by this file from its lockfile on first use); .project/ is the
// merchant's shop, compiled with the repository's TypeScript and run with this Node, importing the
// BUILT package by its name. The docs' controller block must be .project/src/webhooks.controller.ts
// character for character, so what the docs show is what runs here.
//
// .project/ starts with a dot so that the root tsconfig.json (which includes test/) leaves it out:
// its parameter decorators need the project's own experimentalDecorators, and @nestjs/* is only
// installed here. ESLint type-checks it through .project/tsconfig.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackEventType } from '../../src/callbacks/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';
import {
  describeRun,
  ensureBuilt,
  ensureInstalled,
  freePort,
  linkPackage,
  root,
  run,
} from '../runtimes/harness.js';

const nestDir = fileURLToPath(new URL('.', import.meta.url));
const project = join(nestDir, '.project');
const secret = 'nest-shop-webhook-secret-0123456789';

const installed = await ensureInstalled(nestDir);
if (!installed.ok) throw new Error(installed.reason);
await ensureBuilt();
// Built into node_modules/ (out of git's, ESLint's and Prettier's way); `hosted-payments` resolves
// from there and from .project/src to the link in test/nestjs/node_modules.
linkPackage(nestDir);
const build = join(nestDir, 'node_modules/.nest-shop');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const compiled = await run(process.execPath, [tsc, '-p', join(project, 'tsconfig.json'), '--outDir', build], {
  timeoutMs: 120_000,
});
if (compiled.code !== 0) throw new Error(describeRun('tsc -p test/nestjs/.project', compiled));

/** The ```ts no-check block of docs/webhooks.md that starts with `// <file>`. */
function docsBlock(file: string): string {
  const markdown = readFileSync(join(root, 'docs/webhooks.md'), 'utf8');
  const blocks = [...markdown.matchAll(/```ts no-check\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const found = blocks.filter((block) => block.startsWith(`// ${file}\n`));
  if (found.length !== 1) throw new Error(`docs/webhooks.md has ${found.length} blocks for ${file}`);
  return found[0]!;
}

interface Shop {
  readonly origin: string;
  /** Everything the app printed so far (its OrdersService prints each order it settles). */
  output(): string;
  stop(): Promise<void>;
}

async function startShop(env: NodeJS.ProcessEnv): Promise<Shop> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [join(build, 'main.js')], {
    cwd: project,
    env: { ...process.env, NO_COLOR: '1', PORT: String(port), PUBLIC_ORIGIN: origin, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  while (!output.includes(`listening on ${origin}`)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the Nest app did not start (exit ${child.exitCode}):\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    origin,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Posts a callback as the service would: the fixture of `type`, to `path` signed for `reference`. */
async function deliver(
  shop: Shop,
  path: string,
  reference: string,
  type: CallbackEventType = 'payment.mobile_money.succeeded',
): Promise<{ status: number; headers: Headers; body: string }> {
  const request = await createCallbackRequest(type, { secret, reference, url: `${shop.origin}${path}` });
  const response = await fetch(request);
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** The same route, unsigned: what anyone who finds the route can post. */
async function forge(shop: Shop, path: string): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({ transaction_reference: 'ORDER-FORGED', status: 'success', amount: '1500' });
  const response = await fetch(`${shop.origin}${path}?hp_ref=ORDER-FORGED&hp_sig=${'A'.repeat(43)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, body: await response.text() };
}

const paidLines = (shop: Shop, reference: string): number =>
  shop
    .output()
    .split('\n')
    .filter((line) => line.startsWith(`order paid: ${reference} `)).length;

it("docs/webhooks.md's NestJS controller is the one this test runs, as pasted", () => {
  const file = readFileSync(join(project, 'src/webhooks.controller.ts'), 'utf8');
  expect(docsBlock('src/webhooks.controller.ts')).toBe(file);
});

describe("the @Res() + toNodeListener route, with Nest's rawBody: true", () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ WEBHOOK_SECRET: secret });
  });
  afterAll(async () => {
    await shop?.stop();
  });

  it('answers a genuine callback 200 with an empty body and no content type, after onEvent', async () => {
    const answer = await deliver(shop, '/webhooks/payments', 'ORDER-1');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('');
    expect(answer.headers.get('content-type')).toBeNull();
    expect(answer.headers.get('x-callback-duplicate')).toBeNull();
    expect(paidLines(shop, 'ORDER-1')).toBe(1);
  });

  it('reads the posted bytes, not what JSON.parse made of them: an amount it would round is 400 invalid_payload', async () => {
    const request = await createCallbackRequest('payment.mobile_money.succeeded', {
      secret,
      reference: 'ORDER-ROUNDED',
      url: `${shop.origin}/webhooks/payments`,
    });
    const body = (await request.text()).replace('"amount":1500', '"amount":1499.99999999999999999');
    expect(body).toContain('1499.99999999999999999');
    const response = await fetch(request.url, { method: 'POST', headers: request.headers, body });
    expect([response.status, await response.text()]).toEqual([400, '{"error":"invalid_payload"}']);
    await expect.poll(() => shop.output()).toContain('webhook refused: 400 invalid_payload');
    expect(paidLines(shop, 'ORDER-ROUNDED')).toBe(0);
  });

  it('answers the same callback again 200 with x-callback-duplicate: true, without onEvent', async () => {
    const answer = await deliver(shop, '/webhooks/payments', 'ORDER-1');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-callback-duplicate')).toBe('true');
    expect(paidLines(shop, 'ORDER-1')).toBe(1);
  });

  it('answers a forged callback 401 invalid_signature, and tells onError', async () => {
    expect(await forge(shop, '/webhooks/payments')).toEqual({
      status: 401,
      body: '{"error":"invalid_signature"}',
    });
    await expect.poll(() => shop.output()).toContain('webhook refused: 401 invalid_signature');
    expect(shop.output()).not.toContain('ORDER-FORGED');
  });

  it('answers 500 handler_failed when onEvent throws, so the sender retries', async () => {
    const answer = await deliver(shop, '/webhooks/payments', 'ORDER-DB-DOWN');
    expect(answer.status).toBe(500);
    expect(answer.body).toBe('{"error":"handler_failed"}');
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    await expect
      .poll(() => shop.output())
      .toContain('webhook refused: 500 handler_failed: the database is down');
  });

  it('answers a delivery of an event still in onEvent 503 in_progress with Retry-After: 5', async () => {
    const [first, second] = await Promise.all([
      deliver(shop, '/webhooks/payments', 'ORDER-SLOW'),
      new Promise((resolve) => setTimeout(resolve, 300)).then(() =>
        deliver(shop, '/webhooks/payments', 'ORDER-SLOW'),
      ),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(503);
    expect(second.body).toBe('{"error":"in_progress"}');
    expect(second.headers.get('retry-after')).toBe('5');
    expect(paidLines(shop, 'ORDER-SLOW')).toBe(1);
  });
});

describe("the @Res() + toNodeListener route, without Nest's rawBody: true", () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ WEBHOOK_SECRET: secret, RAW_BODY: '0' });
  });
  afterAll(async () => {
    await shop?.stop();
  });

  it('answers a genuine callback 500 handler_failed, without onEvent, and onError says to keep req.rawBody', async () => {
    const answer = await deliver(shop, '/webhooks/payments', 'ORDER-PARSED');
    expect(answer.status).toBe(500);
    expect(answer.body).toBe('{"error":"handler_failed"}');
    await expect
      .poll(() => shop.output())
      .toMatch(/webhook refused: 500 handler_failed: toNodeListener: req\.body is what a JSON parser/);
    expect(shop.output()).toContain('NestJS: rawBody: true');
    expect(paidLines(shop, 'ORDER-PARSED')).toBe(0);
  });
});

// What docs/webhooks.md warns against, kept true: .project/src/relays.controller.ts.
describe('relaying the Fetch handler through Nest instead', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({ WEBHOOK_SECRET: secret });
  });
  afterAll(async () => {
    await shop?.stop();
  });

  it('returning the Response answers 201 {} to everything: a forgery, a failed onEvent, a success', async () => {
    const forged = await forge(shop, '/relays/returned');
    const failed = await deliver(shop, '/relays/returned', 'ORDER-DB-DOWN');
    const paid = await deliver(shop, '/relays/returned', 'ORDER-RETURNED');
    expect(forged).toEqual({ status: 201, body: '{}' });
    expect([failed.status, failed.body]).toEqual([201, '{}']);
    expect([paid.status, paid.body]).toEqual([201, '{}']);
    expect(paidLines(shop, 'ORDER-RETURNED')).toBe(1);
  });

  it('response.json() throws on the 200, which has no body: Nest answers 500 though onEvent ran', async () => {
    const answer = await deliver(shop, '/relays/json', 'ORDER-JSON');
    expect(answer.status).toBe(500);
    expect(paidLines(shop, 'ORDER-JSON')).toBe(1);
    await expect.poll(() => shop.output()).toContain('SyntaxError: Unexpected end of JSON input');
  });

  it('an HttpException keeps the status but drops Retry-After and x-callback-duplicate', async () => {
    const [first, second] = await Promise.all([
      deliver(shop, '/relays/exception', 'ORDER-SLOW'),
      new Promise((resolve) => setTimeout(resolve, 300)).then(() =>
        deliver(shop, '/relays/exception', 'ORDER-SLOW'),
      ),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBeNull();
    const again = await deliver(shop, '/relays/exception', 'ORDER-SLOW');
    expect(again.status).toBe(200);
    expect(again.headers.get('x-callback-duplicate')).toBeNull();
    expect(paidLines(shop, 'ORDER-SLOW')).toBe(1);
  });
});
