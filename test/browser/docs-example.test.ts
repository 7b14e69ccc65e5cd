// The Playwright example of docs/testing.md (its ```typescript block) runs as pasted against the
// system Chromium, as the browser tests do, and lands on success_url.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const fromSource = (code: string): string =>
  code.replace(/from 'hosted-payments(\/[\w/]+)?'/g, (_, sub: string | undefined) =>
    JSON.stringify(resolve('src', sub ? `${sub.slice(1)}/index.ts` : 'index.ts')).replace(/^/, 'from '),
  );

it(
  'the Playwright example of docs/testing.md pays the checkout page and lands on success_url',
  { timeout: 120_000 },
  async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}; set CHROMIUM_PATH`);
    const text = await readFile('docs/testing.md', 'utf8');
    const blocks = [...text.matchAll(/```typescript\n([\s\S]*?)```/g)].map((match) => match[1]!);
    expect(blocks).toHaveLength(1);
    // Under the repository, so playwright-core resolves from its node_modules.
    await mkdir('.tmp', { recursive: true });
    const dir = await mkdtemp(join('.tmp', 'docs-browser-'));
    try {
      const file = join(dir, 'playwright-example.mts');
      await writeFile(file, fromSource(blocks[0]!));
      const result = await new Promise<{ error: Error | null; stdout: string; stderr: string }>((done) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', file],
          { timeout: 90_000, env: { ...process.env, CHROMIUM_PATH: CHROMIUM } },
          (error, stdout, stderr) => done({ error, stdout, stderr }),
        );
      });
      expect(result.stderr).toBe('');
      expect(result.error).toBeNull();
      expect(result.stdout).toBe('/thanks\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
