// The first step of `npm test`: the system programs some suites drive for real — Debian's
// `chromium` (the hosted checkout page in a browser) and `redis-server` (the Redis dedupe store) —
// must be there. When one is missing and this is a Debian/Ubuntu machine where we are root, it is
// installed with apt-get; otherwise the run stops here with the exact command to run. Never a skip:
// a suite that did not run is not a suite that passed.
//   CHROMIUM_PATH     another Chromium binary (default /usr/bin/chromium)
//   REDIS_SERVER_BIN  another redis-server (default: `redis-server` on PATH)
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The file at `path`, or `name` looked up on PATH, if it is executable there. */
function findExecutable(name) {
  const candidates = name.includes('/')
    ? [name]
    : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, name));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const needs = [
  { pkg: 'chromium', binary: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', env: 'CHROMIUM_PATH' },
  { pkg: 'redis-server', binary: process.env.REDIS_SERVER_BIN ?? 'redis-server', env: 'REDIS_SERVER_BIN' },
];
const missing = needs.filter((need) => findExecutable(need.binary) === undefined);
if (missing.length === 0) process.exit(0);
for (const need of missing) {
  if (process.env[need.env] !== undefined) {
    console.error(
      `provision: ${need.env}=${need.binary} is not an executable file (it stands in for ${need.pkg}).`,
    );
    process.exit(1);
  }
}

const packages = missing.map((need) => need.pkg);
const command = `apt-get update && apt-get install -y ${packages.join(' ')}`;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = process.platform === 'linux' && findExecutable('apt-get') !== undefined;

function stop(reason) {
  console.error(
    `provision: ${reason}\n` +
      `  The browser and Redis suites need: ${packages.join(', ')}.\n` +
      (hasApt
        ? `  Install them, then run npm test again:\n    sudo sh -c '${command}'\n`
        : `  Install them with your system's package manager, then run npm test again.\n`) +
      `  Or point ${missing.map((need) => need.env).join(' / ')} at the binaries you have.`,
  );
  process.exit(1);
}

if (!hasApt) stop(`missing ${packages.join(' and ')}, and this machine has no apt-get.`);
if (!isRoot) stop(`missing ${packages.join(' and ')}; installing them needs root.`);

console.log(`provision: installing ${packages.join(' ')} with apt-get`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', ...packages],
]) {
  const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0)
    stop(`\`apt-get ${args.join(' ')}\` failed (exit ${result.status ?? result.signal}).`);
}
const stillMissing = missing.filter((need) => findExecutable(need.binary) === undefined);
if (stillMissing.length > 0) {
  stop(`apt-get finished but ${stillMissing.map((need) => need.binary).join(' and ')} is still not there.`);
}
console.log(
  `provision: installed ${execFileSync('dpkg-query', ['-W', ...packages], { encoding: 'utf8' })
    .trim()
    .replaceAll('\n', ', ')}`,
);
