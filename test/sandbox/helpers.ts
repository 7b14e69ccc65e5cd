// A tiny merchant site for the sandbox tests: a webhook route that records what it receives (and
// can fail the first attempts), plus success/failed pages for the checkout redirect.
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'tsup';
import { afterEach } from 'vitest';
import {
  createSandboxApp,
  startSandbox,
  type Sandbox,
  type SandboxApp,
  type SandboxAppOptions,
  type StartSandboxOptions,
} from '../../src/sandbox/index.js';

export interface ReceivedCallback {
  readonly path: string;
  readonly url: string;
  readonly body: Record<string, unknown>;
  readonly status: number;
}

export interface MerchantSite {
  readonly url: string;
  /** Every callback answered with 2xx, in arrival order. */
  readonly received: ReceivedCallback[];
  /** Every callback attempt, failed ones included. */
  readonly attempts: ReceivedCallback[];
  /** Answer the next `n` callbacks with 500. */
  failNext(n: number): void;
  /** Resolves once `count` callbacks were accepted (rejects after `timeoutMs`). */
  waitForCallbacks(count: number, timeoutMs?: number): Promise<ReceivedCallback[]>;
  close(): Promise<void>;
}

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function startMerchantSite(): Promise<MerchantSite> {
  const received: ReceivedCallback[] = [];
  const attempts: ReceivedCallback[] = [];
  let failures = 0;
  let waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://merchant.test');
      if (req.method === 'POST' && url.pathname.startsWith('/hooks')) {
        const text = await readBody(req);
        const status = failures > 0 ? 500 : 200;
        if (failures > 0) failures -= 1;
        const entry = {
          path: url.pathname,
          url: req.url ?? '',
          body: JSON.parse(text) as Record<string, unknown>,
          status,
        };
        attempts.push(entry);
        if (status === 200) received.push(entry);
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ok: status === 200 }));
        for (const wake of waiters) wake();
        return;
      }
      if (req.method === 'GET' && (url.pathname === '/success' || url.pathname === '/failed')) {
        const title = url.pathname === '/success' ? 'Thank you for your order' : 'Payment failed';
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            `<!doctype html><html lang="en"><link rel="icon" href="data:,"><title>${title}</title><main><h1>${title}</h1></main></html>`,
          );
        return;
      }
      res.writeHead(404).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    attempts,
    failNext: (n) => {
      failures = n;
    },
    waitForCallbacks: (count, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(new Error(`expected ${count} callbacks within ${timeoutMs} ms, got ${received.length}`)),
          timeoutMs,
        );
        const check = () => {
          if (received.length >= count) {
            clearTimeout(timer);
            waiters = waiters.filter((w) => w !== check);
            resolve(received.slice(0, count));
          }
        };
        waiters.push(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const customer = {
  full_name: 'Jane Doe',
  phone_number: '0712345678',
  email: 'jane@example.com',
} as const;

export const amount = { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' } as const;

export const futureYear = new Date().getFullYear() + 3;

/**
 * Bundles one TypeScript entry into a temp folder as a self-contained Node ESM script (dist/ may
 * not exist yet when the tests run), so a test can run it in a child process.
 */
export async function bundleForNode(name: string, entry: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `hp-${name}-`));
  await build({
    entry: { [name]: entry },
    outDir: dir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    config: false,
    dts: false,
    silent: true,
    noExternal: [/.*/],
  });
  return dir;
}

/** Runs a script with this Node in a child process; resolves with its exit code and output. */
export function runNodeScript(
  file: string,
  timeoutMs: number,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [file], { timeout: timeoutMs }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

/** A webhook route refusing every callback, as a handler with another secret does (401). */
export const refusing: RequestListener = (_req, res) => {
  res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_signature"}');
};

/** What a test starts through {@link closedAfterEach}. */
export interface OpenedInTest {
  /** Starts a sandbox, closed after the test. */
  sandbox(options?: StartSandboxOptions): Promise<Sandbox>;
  /** A sandbox app of its own (no server), closed after the test. */
  app(options?: SandboxAppOptions): SandboxApp;
  /** Serves `listener` on a loopback port, closed after the test; resolves with its webhook URL. */
  route(listener: RequestListener): Promise<string>;
}

/**
 * The sandboxes and webhook routes a test starts, closed after each test of the file that calls
 * this at its top level (a failed assertion included).
 */
export function closedAfterEach(): OpenedInTest {
  const open: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
  });
  return {
    async sandbox(options) {
      const sandbox = await startSandbox(options);
      open.push(() => sandbox.close());
      return sandbox;
    },
    app(options) {
      const sandbox = createSandboxApp(options);
      open.push(async () => sandbox.close());
      return sandbox;
    },
    async route(listener) {
      const server: Server = createServer(listener);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      open.push(async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      });
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/payments`;
    },
  };
}

/**
 * Posts `body` to the payment endpoint of a sandbox app of its own (no server), then closes it:
 * the answer's status and text, and the deliveries it scheduled.
 */
export async function postPayment(body: object) {
  const sandbox = createSandboxApp({ callbackDelayMs: 0, log: false });
  try {
    const response = await sandbox.app.fetch(
      new Request('http://sandbox.test/api/payment/payment-initiate-callback/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    return { status: response.status, text: await response.text(), deliveries: sandbox.deliveries };
  } finally {
    sandbox.close();
  }
}

/** A payout input to the sandbox, its callback posted to `webhookUrl`. */
export const payoutTo = (webhookUrl: string, amount: number, reference_id = 123456789012) => ({
  customer_details: { full_name: 'John Doe', phone_number: '0712345678', email: 'john@example.com' },
  destination: {
    type: 'mobile_wallet',
    country_code: 'KE',
    mobile_number: '0712345678',
    wallet_name: 'MOBILE-MONEY',
  },
  transfer: { amount, currency: 'KES', reference_id, description: 'refund' },
  webhook_endpoint: { webhook_url: webhookUrl },
});
