// The README's and examples' webhook routes cannot run unverified by accident: started without
// WEBHOOK_SECRET, each stops with createCallbackHandler's TypeError, before listening. The Next.js
// route makes its handler on the first request (next build imports route modules without the
// runtime's secrets): it imports, and that request fails with the same TypeError.
import { describe, expect, it } from 'vitest';
import { describeRun, ensureBuilt, root, run } from '../runtimes/harness.js';

await ensureBuilt();

describe('webhook route examples without WEBHOOK_SECRET', () => {
  const routes = [
    'examples/webhooks/express.ts',
    'examples/webhooks/express-json.ts',
    'examples/webhooks/fastify.ts',
    'examples/webhooks/hono.ts',
  ];
  for (const route of routes) {
    it(`${route} refuses to start, saying how to fix it`, async () => {
      const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', PORT: '0' };
      delete env.WEBHOOK_SECRET;
      const result = await run(process.execPath, ['--import', 'tsx', route], {
        cwd: root,
        env,
        timeoutMs: 45_000,
      });
      expect(result.code, describeRun(route, result)).not.toBe(0);
      expect(result.stderr).toMatch(/TypeError: createCallbackHandler: secret is missing/);
      expect(result.stderr).toContain('verify: false');
      expect(result.stdout).not.toContain('listening');
    });
  }
});

describe('the Next.js route without WEBHOOK_SECRET', () => {
  it('imports (as next build does) and fails its first request with the TypeError saying how to fix it', async () => {
    const saved = process.env.WEBHOOK_SECRET;
    delete process.env.WEBHOOK_SECRET;
    try {
      const { POST } = await import('../../examples/nextjs/app/api/webhooks/payments/route.js');
      const request = new Request('https://shop.example/api/webhooks/payments', {
        method: 'POST',
        body: '{}',
      });
      await expect(POST(request)).rejects.toThrow(/createCallbackHandler: secret is missing.*verify: false/s);
    } finally {
      if (saved !== undefined) process.env.WEBHOOK_SECRET = saved;
    }
  });
});
