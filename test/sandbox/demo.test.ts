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
  it('runs every flow, awaits each outcome with the tracker, expires the lost payment and exits 0', async () => {
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
    expect(result.stdout).toContain('✓ all 9 transactions settled as expected');
    // The payment whose callback the sandbox drops is given up on, found stale and expired.
    expect(result.stdout).toContain(
      "tracker.waitFor('ORDER-MM-3', { timeout: 1500 }) → TransactionTimeoutError",
    );
    expect(result.stdout).toMatch(
      /tracker\.stale\(\{ olderThan: 1500 \}\) → ORDER-MM-3: mobile_money, 300 KES/,
    );
    expect(result.stdout).toContain("tracker.expireIfPending('ORDER-MM-3', { createdAt }) → expired");
    expect(result.stdout).toContain(
      '✓ ORDER-MM-3, whose callback never came, was found by tracker.stale and expired',
    );
    // Every callback found its transaction: none refused (e.g. 409 unknown_reference).
    expect(result.stdout).not.toContain('callback refused');
    expect(result.stdout).not.toContain('4242424242424242 ');
  });
});
