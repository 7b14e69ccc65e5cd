// `npm run demo` is the project's main job: examples/demo.ts must run every flow and exit 0.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForNode, runNodeScript } from './helpers.js';

let dir: string;

beforeAll(async () => {
  dir = await bundleForNode('demo', 'examples/demo.ts');
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('examples/demo.ts', () => {
  it('runs every flow, prints every event and exits 0', async () => {
    const result = await runNodeScript(join(dir, 'demo.js'), 20_000);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const type of [
      'payment.card.succeeded',
      'payment.card.failed',
      'payment.mobile_money.succeeded',
      'payment.mobile_money.failed',
      'checkout.succeeded',
      'checkout.failed',
      'payout.succeeded',
      'payout.failed',
    ]) {
      expect(result.stdout).toContain(type);
    }
    expect(result.stdout).toContain('✓ all 9 callbacks arrived');
    expect(result.stdout).not.toContain('4242424242424242 ');
  });
});
