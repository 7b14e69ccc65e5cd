// A/B of the webhook route between trees, e.g. the repo against a copy of src/ with a part switched
// off: each tree built as the bench builds it (BENCH_SRC), its `sdk-node` server (or `--kind`, e.g.
// `sdk-express`; and the `bare-node` floor) from routes/server.mjs. Every server runs at once (on
// 127.0.0.1, idle while another is driven) and is warmed up; then each is driven in turn for a
// short burst of `--amount` requests, the order reversed every other round, and its CPU per request
// over the bursts is reported (median and mean). This machine drifts between states ~20 % apart
// over seconds to minutes: bursts of a second or two put every tree in the same states, and two
// untouched copies of src/ (controls) then agree within ~2 %, where whole runs one after another
// differed by 20 %. Include a control anyway.
//
//   node bench/experiments/route-ab.mjs [--rounds=12] [--amount=2000] [--kind=sdk-node] <label>=<dir> ...
//   node bench/experiments/route-ab.mjs main=. control=/tmp/copy without-dedupe=/tmp/copy2
//
// <dir> holds src/ and tsup.config.ts (a copy of the repo with node_modules linked); '.' is the repo.
import { spawnSync } from 'node:child_process';
import { resolve, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../lib/measure.mjs';
import { burst, poolSize, sdkPool, warmServer } from '../suites/routes.mjs';

const bench = fileURLToPath(new URL('..', import.meta.url));
const repo = resolve(bench, '..');
const flags = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((arg) => arg.startsWith('--'))
    .map((arg) => arg.slice(2).split('=')),
);
const rounds = Number(flags.rounds ?? 12);
const burstSize = Number(flags.amount ?? 2_000);
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
const routes = { connections: 32, warmup, maxSeconds: 120 };
const deliveries = poolSize({ warmup, bursts: rounds, burstSize, connections: routes.connections });
const pools = { sdk: await sdkPool(signCallbackUrl, deliveries) };

const servers = [{ label: 'bare read + JSON.parse', kind: 'bare-node', entry: trees[0].entry }];
for (const tree of trees) servers.push({ label: tree.label, kind, entry: tree.entry });
try {
  for (const server of servers) {
    server.warm = await warmServer({ ...server, pools, mode: { routes }, execArgv: [] });
    server.cpu = [];
    server.user = [];
  }
  for (let round = 0; round < rounds; round++) {
    for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
      const run = await burst(server.warm, burstSize, routes);
      server.cpu.push(run.cpuMicros / run.requests);
      server.user.push(run.userMicros / run.requests);
    }
  }
} finally {
  await Promise.all(servers.map((server) => server.warm?.server.stop()));
}
for (const server of servers) {
  const mean = server.cpu.reduce((a, b) => a + b, 0) / server.cpu.length;
  console.log(
    `${server.label.padEnd(24)} median ${median(server.cpu).toFixed(1).padStart(6)}  mean ${mean.toFixed(1).padStart(6)}  user median ${median(server.user).toFixed(1).padStart(6)} µs CPU/req over ${rounds} bursts`,
  );
}
