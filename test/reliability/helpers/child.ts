// Runs a TypeScript scenario in a separate Node process: bundled with esbuild (the SDK's source
// included, node_modules left as imports), then `node` on the result. The process must exit by
// itself — a leaked socket, timer or server keeps it alive and the run fails with `leaked: true`.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
// Inside node_modules: bare imports resolve from the repo's node_modules, and linters skip it.
const outDir = join(root, 'node_modules/.cache/hosted-payments-reliability');

export interface ChildResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** True when the process was still alive at the deadline and had to be killed. */
  readonly leaked: boolean;
  readonly durationMs: number;
}

const bundles = new Map<string, Promise<string>>();

/** Bundles `entry` (a .ts path) once per test run; returns the .mjs path. */
export function bundleScenario(entry: string): Promise<string> {
  let out = bundles.get(entry);
  if (!out) {
    const file = join(outDir, `${entry.replace(/[^\w]+/g, '_')}.mjs`);
    mkdirSync(outDir, { recursive: true });
    out = build({
      entryPoints: [entry],
      outfile: file,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'silent',
      absWorkingDir: root,
    }).then(() => file);
    bundles.set(entry, out);
  }
  return out;
}

export async function runScenario(
  entry: string,
  options: { args?: string[]; env?: Record<string, string>; deadlineMs: number; input?: string },
): Promise<ChildResult> {
  const file = await bundleScenario(entry);
  const started = performance.now();
  return new Promise((resolveResult) => {
    const child = spawn(process.execPath, [file, ...(options.args ?? [])], {
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let leaked = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.end(options.input ?? '');
    const timer = setTimeout(() => {
      leaked = true;
      child.kill('SIGKILL');
    }, options.deadlineMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolveResult({ code, signal, stdout, stderr, leaked, durationMs: performance.now() - started });
    });
  });
}
