// The built package in a merchant's CommonJS project tested with plain Jest (`npx jest`, no config):
// test/jest/project/ holds the merchant's tests, test/jest/ pins Jest (installed by this file from
// its lockfile on first use). Jest runs each test file in a vm context whose `import()` works only
// under Node's --experimental-vm-modules, and the client loads ky (ESM-only) with `import()` on
// its first call. Without the flag the call must fail saying so and what to do, not "is it
// installed?"; with it, the payment must go through. On the Node running the suite and the runtime
// matrix's Node 22, 24 and 26 (a major the matrix cannot run here is skipped with the reason).
//
// The package is COPIED into project/node_modules/hosted-payments (package.json and dist/), as a
// merchant's install has it: Jest transforms files outside node_modules with babel-jest, and a
// link would resolve to dist/ at the repository root. ky, zod and msw come from the root install.
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeRun, ensureBuilt, ensureInstalled, root, run } from '../runtimes/harness.js';
import { findRuntime, runtimeLabel, runtimesDir, type Runtime } from '../runtimes/runtimes.js';

const jestDir = fileURLToPath(new URL('.', import.meta.url));
const project = join(jestDir, 'project');
const pinned = (
  JSON.parse(readFileSync(join(jestDir, 'package.json'), 'utf8')) as { dependencies: { jest: string } }
).dependencies.jest;

// Collection-time preparation, so that test names can carry a skip reason.
const installed = await ensureInstalled(jestDir);
if (!installed.ok) throw new Error(installed.reason);
await ensureBuilt();
const copy = join(project, 'node_modules/hosted-payments');
rmSync(copy, { recursive: true, force: true });
mkdirSync(copy, { recursive: true });
cpSync(join(root, 'package.json'), join(copy, 'package.json'));
cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
const matrix = await ensureInstalled(runtimesDir);
const majors = await Promise.all(
  (['node-22', 'node-24', 'node-26'] as const).map((name) => findRuntime(name, matrix)),
);
/** Whether a version `major.minor.patch` is at least `major.minor`. */
const atLeast = (version: string, major: number, minor: number): boolean => {
  const [given = 0, givenMinor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return given > major || (given === major && givenMinor >= minor);
};

/** The Node running this suite, then the runtime matrix's majors. */
const nodes: (Runtime | { ok: true; bin: string; version: string })[] = [
  { ok: true, bin: process.execPath, version: process.versions.node },
  ...majors,
];

interface Outcome {
  answer?: unknown;
  error?: {
    name: string;
    message: string;
    sent: boolean;
    cause?: { name: string; code?: string; message: string };
  };
}

const succeeded: Outcome = { answer: { message: 'MOBILE-MONEY Payment Initiated', status: 200 } };

/** Runs one of project/'s test files with Jest and returns what its client call did. */
async function jest(
  file: string,
  { flag, node }: { flag: boolean; node: string },
): Promise<{ code: number | null; outcome: Outcome }> {
  const record = join(tmpdir(), `hosted-payments-jest-${process.pid}-${file}.json`);
  rmSync(record, { force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, HP_JEST_RECORD: record, NODE_OPTIONS: '' };
  if (flag) env.NODE_OPTIONS = '--experimental-vm-modules';
  const args = [join(jestDir, 'node_modules/jest/bin/jest.js'), '--ci', '--runTestsByPath', file];
  const result = await run(node, args, { cwd: project, env, timeoutMs: 60_000 });
  const label = `jest ${pinned} ${file}${flag ? ' with --experimental-vm-modules' : ''}`;
  let outcome: Outcome;
  try {
    outcome = JSON.parse(readFileSync(record, 'utf8')) as Outcome;
  } catch {
    throw new Error(describeRun(`${label} recorded nothing`, result));
  } finally {
    rmSync(record, { force: true });
  }
  expect(result.timedOut, describeRun(label, result)).toBe(false);
  return { code: result.code, outcome };
}

describe.each(nodes)(`a CommonJS project tested with Jest ${pinned}`, (node) => {
  describe.skipIf(!node.ok)(node.ok ? `on Node ${node.version}` : runtimeLabel(node), () => {
    const bin = () => {
      if (!node.ok) throw new Error(node.reason);
      return node.bin;
    };

    it('without --experimental-vm-modules, a client call fails naming Jest and the flag, nothing sent', async () => {
      const { code, outcome } = await jest('payment.test.cjs', { flag: false, node: bin() });
      expect(code).toBe(1);
      expect(outcome.error).toMatchObject({ name: 'ConnectionError', sent: false });
      const message = outcome.error?.message ?? '';
      expect(message).toMatch(/^initiateMobileMoneyPayment could not load ky\b/);
      expect(message).not.toContain('is it installed');
      expect(message).toContain('Jest');
      expect(message).toContain('NODE_OPTIONS=--experimental-vm-modules');
      expect(message).toMatch(/nothing was sent$/);
      // Node's own error stays reachable as the cause.
      expect(outcome.error?.cause).toEqual({
        name: 'TypeError',
        code: 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG',
        message: expect.stringContaining('--experimental-vm-modules') as string,
      });
    });

    it('with NODE_OPTIONS=--experimental-vm-modules, the payment against the sandbox goes through', async () => {
      const { code, outcome } = await jest('payment.test.cjs', { flag: true, node: bin() });
      expect(outcome).toEqual(succeeded);
      expect(code).toBe(0);
    });

    // msw 2's own CommonJS build requires an ES module (rettime), which Jest loads only from
    // Node 24.9 on, under the same flag; on older Node msw itself fails to load under Jest.
    it.runIf(node.ok && atLeast(node.version, 24, 9))(
      'with NODE_OPTIONS=--experimental-vm-modules, the payment against the msw kit goes through (msw 2 loads under Jest from Node 24.9)',
      async () => {
        const { code, outcome } = await jest('msw-kit.test.cjs', { flag: true, node: bin() });
        expect(outcome).toEqual(succeeded);
        expect(code).toBe(0);
      },
    );
  });
});
