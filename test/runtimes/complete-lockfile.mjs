// The same fix-up as scripts/complete-lockfile.mjs, for this folder's own lockfile: the registry
// mirror serves only this platform's binaries of bun, deno and workerd, so npm leaves the other
// platforms' optional entries out and `npm ci` refuses the lockfile. Run after
// `npm install --prefix test/runtimes …`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('./package-lock.json', import.meta.url);
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
