// `npm run demo` is the project's main job: examples/demo.ts must run every flow and exit 0.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hp-demo-'));
  await build({
    entry: { demo: 'examples/demo.ts' },
    outDir: dir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    config: false,
    dts: false,
    silent: true,
    noExternal: [/.*/],
  });
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('examples/demo.ts', () => {
  it('runs every flow, prints every event and exits 0', async () => {
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [join(dir, 'demo.js')], { timeout: 20_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
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
