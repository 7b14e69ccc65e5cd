// Self time by function (and by file) of a .cpuprofile: node bench/experiments/top.mjs file.cpuprofile [rows]
// Profiles of the route servers: node bench/run.mjs --quick --only=routes --routes=node --profile=<dir>
import { readFileSync } from 'node:fs';

const [file, rows = '25'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
const deltas = profile.timeDeltas;
profile.samples.forEach((id, i) => {
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  const key = `${functionName || '(anonymous)'} ${url.replace(/.*\/(node_modules\/|src\/|dist\/)/, '$1')}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
for (const [key, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(rows))) {
  console.log(`${((100 * micros) / total).toFixed(1).padStart(5)}%  ${key}`);
}

// By category, to compare two profiles of the same work (e.g. request vs request-bare).
const category = (url, name) =>
  /ky\/distribution/.test(url)
    ? 'ky'
    : /hosted-payments|dist\//.test(url)
      ? 'hosted-payments'
      : /zod/.test(url)
        ? 'zod'
        : /undici/.test(url)
          ? 'undici (fetch)'
          : /webstreams|js_transferable|abort_controller|event_target/.test(url)
            ? 'web streams / events'
            : name.startsWith('(')
              ? name
              : url.startsWith('node:')
                ? 'node internals'
                : url === ''
                  ? 'native'
                  : 'other';
const byCategory = new Map();
profile.samples.forEach((id, i) => {
  const { functionName, url } = byId.get(id).callFrame;
  const key = category(url, functionName);
  byCategory.set(key, (byCategory.get(key) ?? 0) + (deltas[i] ?? 0));
});
console.log('--- by category (ms of self time)');
for (const [key, micros] of [...byCategory].sort((a, b) => b[1] - a[1]))
  console.log(`${(micros / 1000).toFixed(0).padStart(7)} ms  ${key}`);
