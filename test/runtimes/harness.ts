// Shared plumbing for the tests that run the BUILT package (test/runtimes, test/examples,
// test/types-oldest): build dist/ when it is stale, install a side folder's own dependencies,
// link the package into a consumer folder, run child processes with their output captured
// (never on our console: the suite fails on console output), and find free ports.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  lstatSync,
  readlinkSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where package.json and dist/ live). */
export const root = fileURLToPath(new URL('../..', import.meta.url));

export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

export interface RunOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  readonly input?: string;
}

/** Runs a command to completion, capturing stdout and stderr; never throws for a non-zero exit. */
export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? root,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
    // A child that exits before reading its input closes the pipe: the write's EPIPE is not a
    // failure of the run (its exit status, reported on close, is).
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** A readable account of a finished child process, for assertion messages. */
export function describeRun(label: string, result: RunResult): string {
  const status = result.timedOut ? 'timed out' : `exited ${result.code ?? result.signal}`;
  return `${label} ${status}\n--- stdout ---\n${result.stdout.slice(-4000)}\n--- stderr ---\n${result.stderr.slice(-4000)}`;
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** The files the tests of the built package load; all of them must be newer than src/. */
const builtFiles = [
  'dist/index.js',
  'dist/index.cjs',
  'dist/index.d.ts',
  'dist/index.d.cts',
  'dist/callbacks/index.js',
  'dist/callbacks/index.cjs',
  'dist/callbacks/index.d.ts',
  'dist/sandbox/index.js',
  'dist/testing/index.js',
];

/** Why dist/ is stale, or undefined when it is as new as src/ and tsup.config.ts. */
export function distStaleness(): string | undefined {
  const sources = Math.max(newestMtime(join(root, 'src')), newestMtime(join(root, 'tsup.config.ts')));
  for (const file of builtFiles) {
    const path = join(root, file);
    if (!existsSync(path)) return `${file} is missing`;
    if (statSync(path).mtimeMs < sources) return `${file} is older than src/`;
  }
  return undefined;
}

async function withLock<T>(name: string, action: () => Promise<T>): Promise<T> {
  const lock = join(tmpdir(), `hosted-payments-${name}.lock`);
  const deadline = Date.now() + 240_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another test file is doing the same work; a lock older than 4 minutes is abandoned.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 240_000)
        rmSync(lock, { recursive: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await action();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Builds dist/ with tsup when it is missing or older than src/. `npm test` builds before vitest,
 * so there this is a no-op; it matters when one runs `npx vitest run test/runtimes` alone.
 */
export async function ensureBuilt(): Promise<void> {
  if (distStaleness() === undefined) return;
  await withLock('build', async () => {
    const reason = distStaleness();
    if (reason === undefined) return;
    const result = await run(process.execPath, [join(root, 'node_modules/tsup/dist/cli-default.js')], {
      timeoutMs: 240_000,
    });
    if (result.code !== 0) throw new Error(describeRun(`tsup (dist was stale: ${reason})`, result));
  });
}

export type InstallState = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Installs a side folder's own dependencies (`npm ci --prefix <dir>`) when its node_modules is
 * missing or older than its lockfile. Those folders keep the root install lean.
 */
export async function ensureInstalled(dir: string): Promise<InstallState> {
  const marker = join(dir, 'node_modules/.package-lock.json');
  const lockfile = join(dir, 'package-lock.json');
  const fresh = () => existsSync(marker) && statSync(marker).mtimeMs >= statSync(lockfile).mtimeMs;
  if (fresh()) return { ok: true };
  return withLock(`install-${relative(root, dir).replaceAll('/', '-')}`, async () => {
    if (fresh()) return { ok: true } as const;
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = await run(npm, ['ci', '--prefix', dir, '--no-audit', '--no-fund'], { timeoutMs: 240_000 });
    if (result.code === 0) return { ok: true } as const;
    const lastError = result.stderr
      .split('\n')
      .filter((line) => line.startsWith('npm error') && !line.includes('A complete log'))
      .slice(0, 2)
      .join('; ');
    return {
      ok: false,
      reason: `npm ci in ${relative(root, dir)} failed (${lastError || 'see npm log'})`,
    } as const;
  });
}

/**
 * Makes `import 'hosted-payments'` in `consumerDir` resolve to this repository, the way an
 * installed copy would: node_modules/hosted-payments → the root, through its exports map.
 */
export function linkPackage(consumerDir: string): void {
  const link = join(consumerDir, 'node_modules/hosted-payments');
  mkdirSync(join(consumerDir, 'node_modules'), { recursive: true });
  const target = relative(join(consumerDir, 'node_modules'), root) || '.';
  try {
    if (lstatSync(link).isSymbolicLink() && readlinkSync(link) === target) return;
    rmSync(link, { recursive: true, force: true });
  } catch {
    // not there yet
  }
  try {
    symlinkSync(target, link, 'dir');
  } catch (error) {
    // Two test files linking at once: the other one won.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
