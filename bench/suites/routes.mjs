// The webhook route end to end, over real sockets on 127.0.0.1: each server (routes/server.mjs) in
// its own child process, all of them up at once, each warmed up, then driven by autocannon (in this
// process) with requests from a pool of distinct signed deliveries — the eight callback types in
// turn, every one a different reference and ids, so the dedupe store never short-circuits —
// bounded in time as well. A shared machine drifts between states a fifth apart over seconds to
// minutes, so each round drives the servers in short interleaved bursts (one server at a time, the
// order reversed every other burst): the drift lands on every server alike. Per server and round,
// over its bursts: req/s (2xx answers over the wall time of the bursts), p50/p99 latency (the
// median of the bursts' autocannon figures), and the server's own CPU per request
// (process.cpuUsage() in the child over each burst, over IPC) — steadier than req/s when other work
// shares the cores. The figure is the median of the per-round ratios (for two rounds, their mean).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Stripe from 'stripe';
import { beyondCheck } from '../lib/figures.mjs';
import { median } from '../lib/measure.mjs';
import { callbacksEntry } from '../lib/sdk.mjs';
import { delivery, signedUrl, stripeWebhookSecret, webhookPath } from '../fixtures/deliveries.mjs';

const serverScript = fileURLToPath(new URL('../routes/server.mjs', import.meta.url));

/** Which servers each group of figures needs (`--routes=express,node,hono` picks groups). */
export const routeGroups = {
  express: ['sdk-express', 'stripe-express', 'minimal-express', 'handmade-express', 'bare-express'],
  node: ['sdk-node', 'bare-node'],
  hono: ['sdk-hono', 'bare-hono', 'bare-node'],
};

/** Deliveries for the SDK routes (signed URL) and the bare route: `{ path, body }`, body as bytes. */
export async function sdkPool(signCallbackUrl, count) {
  const pool = [];
  for (let n = 0; n < count; n++) {
    const { body, reference } = delivery(n);
    const url = new URL(await signedUrl(signCallbackUrl, reference));
    pool.push({ path: `${url.pathname}${url.search}`, body: Buffer.from(body), headers: {} });
  }
  return pool;
}

/**
 * The same bodies for the stripe-node route, with a `Stripe-Signature` made when asked for (its
 * tolerance is 5 minutes, shorter than a full run): `refresh(from, to)` signs that slice anew.
 */
function stripePool(pool) {
  const stripe = new Stripe('sk_test_bench_0123456789');
  const signed = pool.map(({ body }) => ({ path: webhookPath, body, headers: {} }));
  signed.refresh = (from, to) => {
    for (const delivery of signed.slice(from, to)) {
      delivery.headers = {
        'stripe-signature': stripe.webhooks.generateTestHeaderString({
          payload: delivery.body.toString('utf8'),
          secret: stripeWebhookSecret,
        }),
      };
    }
  };
  return signed;
}

/**
 * How many deliveries a pool needs for `warmup` plus `bursts` bursts of `burstSize`: each drive may
 * prepare a few requests beyond its count (autocannon's connections), and every server reads the
 * same pool (each has its own dedupe store).
 */
export const poolSize = ({ warmup, bursts, burstSize, connections }) =>
  warmup + bursts * burstSize + (bursts + 1) * (4 * connections + 64);

/** A route server (routes/server.mjs) of `kind`, on the SDK build at `entry`. */
export function startServer(kind, execArgv, entry = callbacksEntry) {
  const child = fork(serverScript, [kind, entry], {
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    execArgv,
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const next = (type) =>
    new Promise((resolve, reject) => {
      const onMessage = (message) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message);
      };
      const onExit = (code) => {
        child.off('message', onMessage);
        reject(
          new Error(
            `${kind} server exited (${code}): ${stderr.split('\n').find((l) => /Error/.test(l)) ?? stderr.slice(0, 200)}`,
          ),
        );
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return {
    ready: next('ready'),
    async measure(run) {
      const started = next('started');
      child.send({ type: 'start' });
      await started;
      const result = await run();
      const stats = next('stats');
      child.send({ type: 'stop' });
      return { result, stats: await stats };
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    },
  };
}

/** autocannon over `pool[from, from + amount)`: 32 connections, bounded in count and time. */
export async function drive({ port, pool, from, amount, connections, maxSeconds }) {
  let next = from;
  const startedAt = performance.now();
  const instance = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    amount,
    timeout: 10,
    sampleInt: 100,
    method: 'POST',
    requests: [
      {
        setupRequest: (request) => {
          const { path, body, headers } = pool[next++ % pool.length];
          return {
            ...request,
            path,
            body,
            headers: { ...request.headers, 'content-type': 'application/json', ...headers },
          };
        },
      },
    ],
  });
  // autocannon notices the end only at its next sample tick: the run's wall time is taken at the
  // last response instead.
  let lastResponseAt = startedAt;
  instance.on('response', () => {
    lastResponseAt = performance.now();
  });
  const timer = setTimeout(() => instance.stop(), maxSeconds * 1000);
  const result = await instance;
  clearTimeout(timer);
  result.wallSeconds = (lastResponseAt - startedAt) / 1000;
  result.used = next - from;
  return result;
}

/**
 * A server of `kind` (on the SDK build at `entry`), started, listening and warmed up with `warmup`
 * deliveries.
 */
export async function warmServer({ kind, pools, mode, execArgv, entry }) {
  const { connections, warmup, maxSeconds } = mode.routes;
  const pool = kind === 'stripe-express' ? stripePool(pools.sdk) : pools.sdk;
  const server = startServer(kind, execArgv, entry);
  try {
    const { port } = await server.ready;
    pool.refresh?.(0, warmup + 4 * connections);
    const warm = await drive({ port, pool, from: 0, amount: warmup, connections, maxSeconds });
    if (warm.non2xx > 0 || warm.errors > 0) {
      throw new Error(
        `${kind}: warm-up got ${warm.non2xx} non-2xx answers (${JSON.stringify(warm.statusCodeStats)}), ${warm.errors} errors`,
      );
    }
    return { kind, server, port, pool, next: warm.used };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** One burst of `amount` deliveries to a warm server: its answers, wall time and CPU. */
export async function burst(warm, amount, { connections, maxSeconds }) {
  const { kind, server, port, pool } = warm;
  const from = warm.next;
  pool.refresh?.(from, from + amount + 4 * connections);
  const { result, stats } = await server.measure(() =>
    drive({ port, pool, from, amount, connections, maxSeconds }),
  );
  warm.next += result.used;
  const ok = result['2xx'];
  if (result.non2xx > 0 || result.errors > 0 || ok === 0) {
    throw new Error(
      `${kind}: ${result.non2xx} non-2xx answers (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  if (warm.next > pool.length) throw new Error(`${kind}: the delivery pool ran out`);
  // Every 2xx must be a delivery the route processed: a duplicate would be answered 200 without
  // reaching onEvent, and flatter the figure.
  if (stats.events < ok) {
    throw new Error(`${kind}: ${ok - stats.events} of ${ok} deliveries answered 2xx were not processed`);
  }
  return {
    ok,
    timeBound: ok < amount,
    wallSeconds: result.wallSeconds,
    cpuMicros: stats.cpuMicros,
    userMicros: stats.userMicros,
    requests: stats.requests,
    p50: result.latency.p50,
    p99: result.latency.p99,
    rss: stats.rss,
  };
}

/** A server's figures over the bursts of one round. */
function roundOf(kind, bursts) {
  const sum = (key) => bursts.reduce((total, run) => total + run[key], 0);
  return {
    kind,
    requests: sum('ok'),
    timeBound: bursts.some((run) => run.timeBound),
    rps: sum('ok') / sum('wallSeconds'),
    p50: median(bursts.map((run) => run.p50)),
    p99: median(bursts.map((run) => run.p99)),
    cpuPerRequest: (sum('cpuMicros') * 1000) / Math.max(1, sum('requests')), // ns
    serverRss: bursts.at(-1).rss,
  };
}

const fmtRate = (rps) => `${Math.round(rps).toLocaleString('en-US')} req/s`;
const fmtCpu = (ns) => `${(ns / 1000).toFixed(0)} µs CPU/req`;
const fmtLatency = (run) => `p50 ${run.p50} ms, p99 ${run.p99} ms`;
const each = (runs, format) => runs.map(format).join(' · ');

// The cells list every round's value (in round order) so they can be read against the ratio, which
// is the median of the per-round ratios. Only the rounds both servers ran count (a confirming round
// in check mode runs only the servers of the figures it confirms).
function ratioFigure(figure, allOurs, allBase, metric, text) {
  const oursRuns = allOurs.filter((run) => allBase.some((base) => base.round === run.round));
  const baseRuns = allBase.filter((run) => allOurs.some((ours) => ours.round === run.round));
  const ratios = oursRuns.map((run, index) => run[metric] / baseRuns[index][metric]);
  return Object.assign(figure, {
    ratio: median(ratios),
    ratios,
    oursText: text(oursRuns),
    baselineText: text(baseRuns),
    runs: { ours: oursRuns, baseline: baseRuns },
  });
}

// What the floor, hand-written and minimal routes (reported in the same run) show: behind Express a
// route that only reads and parses the body already costs about two thirds of stripe-node's CPU,
// so 1.2× stripe-node's throughput (≤ 0.83× its CPU) leaves a verifying route about half of what
// stripe-node's own verification adds above that floor; a route that verifies and validates each
// delivery, the issue's own hand-written one included, costs about what stripe-node's does.
const EXPRESS_GUARD_WHY =
  "behind Express a route that only reads and JSON.parses the body costs 0.52–0.78× stripe-node's " +
  'CPU per request (the floor rows), so 1.2× its throughput leaves a verifying route half of what ' +
  "stripe-node's verification adds above that floor; the hand-written route of issue 16 " +
  "(node:crypto HMAC, safeParseCallback, a Set) measures 0.93–1.35× stripe-node's CPU and a " +
  "minimal route of the SDK's own parts 0.99–1.49×; the SDK's route adds its body cap and " +
  "deadline, Host check and bounded dedupe. The same code reads 1.20–1.65× stripe-node's CPU and " +
  '0.62–0.87× its throughput from run to run here, so the guard sits beyond that spread; the ' +
  'node:http guard reads the same handler and adapter against a floor without Express';

export async function runRoutesSuite({ sdk, mode, routes, profileDir, check = false }) {
  const groups = routes ?? Object.keys(routeGroups);
  // Each figure is the ratio of one metric between two of the group's servers.
  const figures = [];
  const measuredBy = new Map();
  const add = (group, [ours, baseline, metric], figure) => {
    if (!groups.includes(group)) return;
    const added = { unit: 'ratio', ...figure };
    figures.push(added);
    measuredBy.set(added, { ours, baseline, metric });
  };
  add('express', ['sdk-express', 'stripe-express', 'rps'], {
    id: 'route.express.throughput',
    label: 'webhook route behind Express 5, throughput',
    goal: { min: 1.2 },
    guard: { min: 0.65 },
    guardWhy: EXPRESS_GUARD_WHY,
    baselineLabel: 'stripe-node Express route',
  });
  add('express', ['sdk-express', 'stripe-express', 'cpuPerRequest'], {
    id: 'route.express.cpu',
    label: 'webhook route behind Express 5, CPU per request',
    goal: { max: 1 },
    guard: { max: 1.5 },
    guardWhy: EXPRESS_GUARD_WHY,
    baselineLabel: 'stripe-node Express route',
  });
  add('express', ['sdk-express', 'stripe-express', 'p99'], {
    id: 'route.express.p99',
    label: 'webhook route behind Express 5, p99 latency',
    goal: {},
    reported: true,
    baselineLabel: 'stripe-node Express route',
  });
  add('express', ['minimal-express', 'stripe-express', 'cpuPerRequest'], {
    id: 'route.express.minimal',
    label: 'minimal verifying route behind Express 5, CPU per request',
    goal: {},
    reported: true,
    baselineLabel: 'stripe-node Express route',
  });
  add('express', ['handmade-express', 'stripe-express', 'rps'], {
    id: 'route.express.handmade.throughput',
    label: 'hand-written verifying route behind Express 5 (issue 16), throughput',
    goal: {},
    reported: true,
    baselineLabel: 'stripe-node Express route',
  });
  add('express', ['handmade-express', 'stripe-express', 'cpuPerRequest'], {
    id: 'route.express.handmade.cpu',
    label: 'hand-written verifying route behind Express 5 (issue 16), CPU per request',
    goal: {},
    reported: true,
    baselineLabel: 'stripe-node Express route',
  });
  add('express', ['bare-express', 'stripe-express', 'rps'], {
    id: 'route.express.floor.throughput',
    label: 'bare read + JSON.parse + 200 route behind Express 5 (the floor), throughput',
    goal: {},
    reported: true,
    baselineLabel: 'stripe-node Express route',
  });
  add('express', ['bare-express', 'stripe-express', 'cpuPerRequest'], {
    id: 'route.express.floor.cpu',
    label: 'bare read + JSON.parse + 200 route behind Express 5 (the floor), CPU per request',
    goal: {},
    reported: true,
    baselineLabel: 'stripe-node Express route',
  });
  add('express', ['sdk-express', 'minimal-express', 'cpuPerRequest'], {
    id: 'route.express.hardening',
    label: 'webhook route behind Express 5 vs the minimal route, CPU per request',
    goal: {},
    reported: true,
    baselineLabel: 'minimal verifying route',
  });
  add('node', ['sdk-node', 'bare-node', 'cpuPerRequest'], {
    id: 'route.node.cpu',
    label: 'webhook route on node:http, CPU per request',
    goal: { max: 3 },
    guard: { max: 4 },
    guardWhy:
      'not met since the fail-closed verdict rules of 27 Nov (+8 and +6 µs per delivery in A/B runs): 3.3–3.9× in quick runs and CI, 4.15× in the full run of 28 Nov on a quiet machine, whose bare route measured least; the guard keeps a regression of the route from landing without failing CI on that noise',
    baselineLabel: 'bare read + JSON.parse + 200',
  });
  add('hono', ['sdk-hono', 'bare-node', 'cpuPerRequest'], {
    id: 'route.hono.cpu',
    label: 'Fetch handler on @hono/node-server, CPU per request',
    goal: {},
    reported: true,
    baselineLabel: 'bare read + JSON.parse + 200',
  });
  add('hono', ['sdk-hono', 'bare-hono', 'cpuPerRequest'], {
    id: 'route.hono.floor',
    label: 'Fetch handler on @hono/node-server vs the floor behind Hono, CPU per request',
    goal: {},
    reported: true,
    baselineLabel: 'bare read + JSON.parse + 200 as a Hono route',
  });
  const { createCallbackHandler, toNodeListener, signCallbackUrl } = sdk.callbacks;
  if (!createCallbackHandler || !toNodeListener || !signCallbackUrl) {
    for (const figure of figures)
      figure.error = 'createCallbackHandler/toNodeListener/signCallbackUrl not exported';
    return figures;
  }

  const kinds = [...new Set(groups.flatMap((group) => routeGroups[group]))];
  const { warmup, amount, connections, rounds, warmRounds = 0 } = mode.routes;
  // In check mode a figure that fails after the rounds gets up to `confirmRounds` more (the servers
  // still warm) and is judged on the median of them all: a regression reads the same in every round,
  // a slow minute of a shared machine does not.
  const confirmRounds = check ? (mode.routes.confirmRounds ?? 0) : 0;
  const size = Math.min(mode.routes.burst, amount);
  const bursts = Math.ceil(amount / size);
  const deliveries = poolSize({
    warmup,
    bursts: (warmRounds + rounds + confirmRounds) * bursts,
    burstSize: size,
    connections,
  });
  const pools = { sdk: await sdkPool(signCallbackUrl, deliveries) };
  const execArgv = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const runs = Object.fromEntries(kinds.map((kind) => [kind, []]));
  const text = {
    rps: (runs) =>
      `${each(runs, (run) => Math.round(run.rps).toLocaleString('en-US'))} req/s (p99 ${each(runs, (run) => run.p99)} ms)`,
    cpuPerRequest: (runs) => `${each(runs, (run) => (run.cpuPerRequest / 1000).toFixed(0))} µs CPU/req`,
    p99: (runs) => `p99 ${each(runs, (run) => run.p99)} ms`,
  };
  const judgeAll = () => {
    for (const figure of figures) {
      const { ours, baseline, metric } = measuredBy.get(figure);
      ratioFigure(figure, runs[ours], runs[baseline], metric, text[metric]);
    }
    return figures.filter(beyondCheck);
  };
  const warm = [];
  try {
    for (const kind of kinds) warm.push(await warmServer({ kind, pools, mode, execArgv }));
    let round = 0;
    // A warm round (shown, not counted) is driven like the others; the rounds after it count.
    const runRound = async (servers, { counted = true } = {}) => {
      if (counted) round += 1;
      const results = new Map(servers.map((server) => [server, []]));
      for (let index = 0; index < bursts; index++) {
        const count = Math.min(size, amount - index * size);
        for (const server of index % 2 === 0 ? servers : [...servers].reverse()) {
          results.get(server).push(await burst(server, count, mode.routes));
        }
      }
      for (const [server, list] of results) {
        const run = roundOf(server.kind, list);
        process.stderr.write(
          `bench:   ${counted ? `round ${round}` : 'warm round'} ${server.kind}: ${fmtRate(run.rps)}, ${fmtCpu(run.cpuPerRequest)}, ${fmtLatency(run)}` +
            `${run.timeBound ? ` (time bound: ${run.requests} requests)` : ''}\n`,
        );
        if (counted) runs[server.kind].push({ ...run, round });
      }
    };
    for (let index = 0; index < warmRounds; index++) await runRound(warm, { counted: false });
    while (round < rounds) await runRound(warm);
    for (let extra = 0; extra < confirmRounds; extra++) {
      const failing = judgeAll();
      if (failing.length === 0) break;
      // Only the servers the failing figures compare, so every ratio keeps its rounds paired.
      const kindsToConfirm = new Set(
        failing.flatMap((figure) => [measuredBy.get(figure).ours, measuredBy.get(figure).baseline]),
      );
      process.stderr.write(
        `bench:   ${failing.map((figure) => figure.id).join(', ')} beyond the check: a confirming round of ${[...kindsToConfirm].join(', ')}\n`,
      );
      await runRound(warm.filter((server) => kindsToConfirm.has(server.kind)));
    }
  } finally {
    await Promise.all(warm.map(({ server }) => server.stop()));
  }
  judgeAll();
  return figures;
}
