// Type-checks a merchant's file (./consumer.ts) against the BUILT declarations with a given
// TypeScript (installed in its own folder, so the root install stays on the repo's compiler), with
// skipLibCheck off so our .d.ts files are checked too, in each module resolution a consumer may
// use: bundler, node16 and nodenext from ESM and from CommonJS, and node10 (through package.json
// typesVersions); and nodenext with no DOM lib, as a Node project's tsconfig has.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeRun, ensureBuilt, ensureInstalled, linkPackage, run } from '../runtimes/harness.js';

const consumer = fileURLToPath(new URL('consumer.ts', import.meta.url));

const modes = {
  bundler: { type: 'module', module: 'esnext', moduleResolution: 'bundler' },
  'node16 (ESM)': { type: 'module', module: 'node16', moduleResolution: 'node16' },
  'node16 (CommonJS)': { type: 'commonjs', module: 'node16', moduleResolution: 'node16' },
  'nodenext (ESM)': { type: 'module', module: 'nodenext', moduleResolution: 'nodenext' },
  'nodenext (CommonJS)': { type: 'commonjs', module: 'nodenext', moduleResolution: 'nodenext' },
  node10: { type: 'commonjs', module: 'commonjs', moduleResolution: 'node10' },
  // A Node project whose lib has no DOM (@tsconfig/node20): the web types it may name are the ones
  // @types/node declares.
  'nodenext (ESM), no DOM lib': {
    type: 'module',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    lib: ['es2022'],
  },
} as const;

export type ConsumerMode = keyof typeof modes;

/**
 * One test per module resolution: the TypeScript installed in `tsDir` (its package.json pins it)
 * type-checks consumer.ts against dist/. `unsupported` names modes that TypeScript itself no
 * longer offers, with the reason: the test then asserts that it refuses them.
 */
export async function describeConsumerTypeCheck(
  tsDir: string,
  unsupported: Partial<Record<ConsumerMode, RegExp>> = {},
): Promise<void> {
  const install = await ensureInstalled(tsDir);
  await ensureBuilt();
  const pinned = (
    JSON.parse(readFileSync(join(tsDir, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    }
  ).devDependencies.typescript;

  describe.skipIf(!install.ok)(
    `the built declarations with TypeScript ${pinned}${install.ok ? '' : ` — skipped: ${install.reason}`}`,
    () => {
      for (const [mode, settings] of Object.entries(modes) as [
        ConsumerMode,
        (typeof modes)[ConsumerMode],
      ][]) {
        const refusal = unsupported[mode];
        it(
          refusal
            ? `refuses ${mode} resolution, which it no longer supports`
            : `type-check a consumer in ${mode} resolution`,
          async () => {
            // Each case is a tiny project of its own (its package.json decides ESM or CommonJS),
            // kept under node_modules so neither git, tsc nor eslint sees it.
            const dir = join(tsDir, 'node_modules', '.cases', mode.replace(/\W+/g, '-'));
            mkdirSync(dir, { recursive: true });
            linkPackage(dir);
            copyFileSync(consumer, join(dir, 'consumer.ts'));
            writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, type: settings.type }));
            writeFileSync(
              join(dir, 'tsconfig.json'),
              JSON.stringify({
                compilerOptions: {
                  target: 'es2022',
                  lib: 'lib' in settings ? settings.lib : ['es2022', 'dom', 'dom.iterable'],
                  module: settings.module,
                  moduleResolution: settings.moduleResolution,
                  types: ['node'],
                  strict: true,
                  // The strictest settings merchants use: an option read from the environment
                  // (string | undefined) must still be accepted where the option is optional.
                  exactOptionalPropertyTypes: true,
                  noEmit: true,
                  skipLibCheck: false,
                  esModuleInterop: true,
                },
                files: ['consumer.ts'],
              }),
            );
            const result = await run(
              process.execPath,
              [join(tsDir, 'node_modules/typescript/bin/tsc'), '-p', dir],
              { cwd: dir, timeoutMs: 90_000 },
            );
            const output = `${result.stdout}\n${result.stderr}`;
            if (refusal) {
              expect(output, describeRun(`tsc ${pinned} (${mode})`, result)).toMatch(refusal);
              return;
            }
            // msw's own declarations import the ESM-only `rettime` from files TypeScript treats as
            // CommonJS, so a CommonJS (node16/nodenext) consumer of msw sees TS1479 inside
            // node_modules/msw with any TypeScript; that is msw's problem, not ours, and the only
            // error let through.
            const errors = result.stdout
              .split('\n')
              .filter((line) => line.includes('error TS'))
              .filter(
                (line) =>
                  !(settings.type === 'commonjs' && /node_modules\/msw\/.*TS1479.*rettime/.test(line)),
              );
            expect(errors, describeRun(`tsc ${pinned} (${mode})`, result)).toEqual([]);
            expect(result.stderr).toBe('');
          },
          120_000,
        );
      }
    },
  );
}
