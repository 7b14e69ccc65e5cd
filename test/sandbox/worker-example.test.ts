// examples/README.md: every webhook route reads its secret from WEBHOOK_SECRET and, in production,
// the origin its callback URLs were signed with from PUBLIC_ORIGIN. The Worker is one of them: behind
// a proxy or a custom domain, the URL it sees is not the one the service was given.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCallbackRequest } from '../../src/testing/index.js';
import { bundleForNode } from './helpers.js';

type Worker = { fetch(request: Request, env: Record<string, string>): Promise<Response> };

let dir: string;
let worker: Worker;

beforeAll(async () => {
  dir = await bundleForNode('worker', 'examples/cloudflare-worker.ts');
  worker = ((await import(pathToFileURL(join(dir, 'worker.js')).href)) as { default: Worker }).default;
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('examples/cloudflare-worker.ts', () => {
  it('verifies a callback against PUBLIC_ORIGIN when the request reaches it on another origin', async () => {
    const secret = 'worker-example-secret-0123456789';
    const signed = await createCallbackRequest('payment.mobile_money.failed', {
      secret,
      url: 'https://shop.example/webhooks/payments',
    });
    const { pathname, search } = new URL(signed.url);
    // As a route behind a proxy receives it: the internal origin, the same path, query and body.
    const internal = new Request(`http://127.0.0.1:8787${pathname}${search}`, {
      method: 'POST',
      headers: signed.headers,
      body: await signed.text(),
    });
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const response = await worker.fetch(internal, {
      WEBHOOK_SECRET: secret,
      PUBLIC_ORIGIN: 'https://shop.example',
    });
    const lines = log.mock.calls.map((call) => String(call[0]));
    log.mockRestore();
    expect(response.status).toBe(200);
    expect(lines).toEqual(['webhook: payment.mobile_money.failed reference=ORDER-1002 amount=1500']);
  });
});
