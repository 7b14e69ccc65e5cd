// Entry point of `npm run bench` (full: prints the table, writes bench/results.json) and
// `npm run bench:check` (quick: fewer iterations, 3 rounds, budgets enforced with the noise margin
// of lib/figures.mjs; exits 1 when a budget is broken).
// Flags: --quick, --check, --only=size,parse,handler,request,cold,memory, --json=<file>,
// --allow-miss=<figure id,…> (also BENCH_ALLOW_MISS; reported, not failing the check).
// Installs bench/'s own devDependencies (stripe, openai, mitata, esbuild) from its lockfile when they
// are missing, then runs main.mjs with --expose-gc (mitata forces a GC before each measurement;
// without the flag it would allocate 1 GiB to provoke one).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
if (
  !['mitata', 'stripe', 'openai', 'esbuild'].every((name) =>
    existsSync(`${benchDir}node_modules/${name}/package.json`),
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
