// A/B of the node:http webhook route between trees, e.g. the repo against a copy of src/ with a part
// switched off: each tree built as the bench builds it (BENCH_SRC), its `sdk-node` server (and the
// `bare-node` floor) from routes/server.mjs, driven in interleaved rounds, the order reversed every
// other round, and the median server CPU per request reported. More rounds and more requests than
// the routes suite gives, for differences of a few microseconds.
//
//   node bench/experiments/route-ab.mjs [--rounds=4] [--amount=30000] <label>=<dir> ...
//   node bench/experiments/route-ab.mjs main=. without-dedupe=/tmp/copy
//
// <dir> holds src/ and tsup.config.ts (a copy of the repo with node_modules linked); '.' is the repo.
import { spawnSync, fork } from 'node:child_process';
import { resolve, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { delivery, signedUrl } from '../fixtures/deliveries.mjs';

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
const pool = [];
for (let n = 0; n < warmup + amount + 256; n++) {
  const { body, reference } = delivery(n);
  const url = new URL(await signedUrl(signCallbackUrl, reference));
  pool.push({ path: `${url.pathname}${url.search}`, body: Buffer.from(body) });
}

function message(child, type) {
  return new Promise((done, fail) => {
    const onMessage = (m) =>
      m.type === type && (child.off('exit', fail), child.off('message', onMessage), done(m));
    child.on('message', onMessage);
    child.once('exit', fail);
  });
}

async function measure(kind, entry) {
  const child = fork(resolve(bench, 'routes', 'server.mjs'), [kind, entry], { stdio: 'inherit' });
  const { port } = await message(child, 'ready');
  let next = 0;
  const drive = (count) =>
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: 32,
      amount: count,
      method: 'POST',
      requests: [
        {
          setupRequest: (request) => {
            const { path, body } = pool[next++ % pool.length];
            return {
              ...request,
              path,
              body,
              headers: { ...request.headers, 'content-type': 'application/json' },
            };
          },
        },
      ],
    });
  await drive(warmup);
  const started = message(child, 'started');
  child.send({ type: 'start' });
  await started;
  const result = await drive(amount);
  const stats = message(child, 'stats');
  child.send({ type: 'stop' });
  const { cpuMicros, events } = await stats;
  child.disconnect();
  if (result.non2xx > 0 || events !== amount)
    throw new Error(`${kind}: ${result.non2xx} non-2xx, ${events} events`);
  return cpuMicros / amount;
}

const servers = [{ label: 'bare read + JSON.parse', kind: 'bare-node', entry: trees[0].entry }];
for (const tree of trees) servers.push({ label: tree.label, kind: 'sdk-node', entry: tree.entry });
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
