// Entry point of `npm run bench` (full: prints the table, writes bench/results.json) and
// `npm run bench:check` (quick: smaller runs, budgets enforced with the noise margin of
// lib/figures.mjs; exits 1 when a budget is broken). bench/README.md explains the method.
// Flags: --quick, --check, --only=routes,request,size,cold,memory,parse, --routes=express,node,hono,
// --profile=<dir> (CPU profiles of the route servers), --json=<file>.
// Installs bench/'s own devDependencies (autocannon, stripe, express, hono, openai, mitata, esbuild)
// from its lockfile when they are missing, then runs main.mjs with --expose-gc (mitata forces a GC
// before each measurement; without the flag it would allocate 1 GiB to provoke one).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
if (
  !['mitata', 'stripe', 'openai', 'esbuild', 'autocannon', 'express', 'hono', '@hono/node-server'].every(
    (name) => existsSync(`${benchDir}node_modules/${name}/package.json`),
  )
) {
  process.stderr.write('bench: installing bench/ devDependencies (npm ci --prefix bench)\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = spawnSync(npm, ['ci', '--prefix', benchDir, '--no-audit', '--no-fund'], {
    stdio: 'inherit',
  });
  if (install.status !== 0) process.exit(install.status ?? 1);
}
const child = spawnSync(process.execPath, ['--expose-gc', `${benchDir}main.mjs`, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(child.status ?? 1);
