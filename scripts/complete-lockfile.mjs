// The registry mirror on our machines serves only this platform's builds of packages that ship
// per-platform binaries (rollup's), so `npm install` leaves the other platforms' optional
// packages out of package-lock.json and `npm ci` then refuses the lockfile as out of sync.
// This adds the missing optional entries (version and platform only: npm skips them on a
// platform they do not match, and never downloads them here). Run after `npm install`:
//   node scripts/complete-lockfile.mjs                 the root package-lock.json
//   node scripts/complete-lockfile.mjs test/runtimes   another folder's (bun, deno, workerd there)
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const file = resolve(root, process.argv[2] ?? '.', 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
const platform = (name) => {
  const m = /-(android|darwin|freebsd|linux|openbsd|openharmony|win32|sunos|aix|netbsd)-([a-z0-9]+)/.exec(
    name,
  );
  return m ? { os: [m[1]], cpu: [m[2] === 'arm' || m[2].startsWith('arm-') ? 'arm' : m[2]] } : {};
};
let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `${path ? `${path}/` : ''}node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (packages[target] || packages[hoisted]) continue;
    packages[hoisted] = { version, ...platform(dep), dev: entry.dev, optional: true };
    if (!packages[hoisted].dev) delete packages[hoisted].dev;
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
lock.packages = sorted;
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional platform entries`);
