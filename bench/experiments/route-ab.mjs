// A/B of the webhook route between trees, e.g. the repo against a copy of src/ with a part switched
// off: each tree built as the bench builds it (BENCH_SRC), its `sdk-node` server (or `--kind`, e.g.
// `sdk-express`; and the `bare-node` floor) from routes/server.mjs, driven in interleaved rounds,
// the order reversed every other round, and the median server CPU per request reported. More
// rounds and more requests than the routes suite gives, for differences of a few microseconds.
// Include an untouched copy of src/ as a control: this machine drifts between states ~20 % apart.
//
//   node bench/experiments/route-ab.mjs [--rounds=4] [--amount=30000] [--kind=sdk-node] <label>=<dir> ...
//   node bench/experiments/route-ab.mjs main=. control=/tmp/copy without-dedupe=/tmp/copy2
//
// <dir> holds src/ and tsup.config.ts (a copy of the repo with node_modules linked); '.' is the repo.
import { spawnSync } from 'node:child_process';
import { resolve, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drive, sdkPool, startServer } from '../suites/routes.mjs';

const bench = fileURLToPath(new URL('..', import.meta.url));
const repo = resolve(bench, '..');
const flags = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((arg) => arg.startsWith('--'))
    .map((arg) => arg.slice(2).split('=')),
);
const rounds = Number(flags.rounds ?? 4);
const amount = Number(flags.amount ?? 30_000);
const kind = flags.kind ?? 'sdk-node';
const warmup = 3_000;
const trees = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith('--'))
  .map((arg) => {
    const [label, dir] = arg.split('=');
    return { label, dir: resolve(dir ?? label) };
  });
if (trees.length === 0) throw new Error('usage: route-ab.mjs <label>=<dir> ...');

for (const tree of trees) {
  const env = { ...process.env };
  if (tree.dir === repo) delete env.BENCH_SRC;
  else env.BENCH_SRC = tree.dir;
  const built = spawnSync(process.execPath, ['-e', "import('./lib/sdk.mjs').then((m) => m.buildSdk())"], {
    cwd: bench,
    env,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error(`building ${tree.dir} failed`);
  const dist = tree.dir === repo ? 'dist' : `dist-${basename(tree.dir)}`;
  tree.entry = resolve(bench, 'node_modules', '.hosted-payments', dist, 'callbacks', 'index.js');
}

const { signCallbackUrl } = await import(trees[0].entry);
const pool = await sdkPool(signCallbackUrl, warmup + amount + 256);

/** Server CPU per request of one server over `amount` requests, after `warmup`. */
async function measure(kind, entry) {
  const server = startServer(kind, [], entry);
  try {
    const { port } = await server.ready;
    const load = { port, pool, connections: 32, maxSeconds: 120 };
    await drive({ ...load, from: 0, amount: warmup });
    const { result, stats } = await server.measure(() => drive({ ...load, from: warmup, amount }));
    if (result.non2xx > 0 || stats.events !== amount) {
      throw new Error(
        `${kind}: ${result.non2xx} non-2xx answers, ${stats.events} events for ${amount} requests`,
      );
    }
    return stats.cpuMicros / amount;
  } finally {
    await server.stop();
  }
}
const servers = [{ label: 'bare read + JSON.parse', kind: 'bare-node', entry: trees[0].entry }];
for (const tree of trees) servers.push({ label: tree.label, kind, entry: tree.entry });
const cpu = new Map(servers.map((server) => [server, []]));
for (let round = 0; round < rounds; round++) {
  for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
    cpu.get(server).push(await measure(server.kind, server.entry));
  }
}
for (const [server, values] of cpu) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(
    `${server.label.padEnd(24)} median ${median.toFixed(1).padStart(6)} µs CPU/req   (${values.map((v) => v.toFixed(1)).join(' · ')})`,
  );
}
