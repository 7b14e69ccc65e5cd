// Client CPU per request over long alternating runs (N requests each, sequential), for comparing
// variants when per-round noise is high: node bench/experiments/request-cpu-long.mjs [n] [reps]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mainEntry, buildSdk } from '../lib/sdk.mjs';
import { createBareFetchClient } from '../baselines/bare-fetch.mjs';
import { mobileMoneyInput } from '../fixtures/callbacks.mjs';

await buildSdk();
const { PaymentsClient, buildMobileMoneyPaymentRequest } = await import(mainEntry);
const child = fork(new URL('../baselines/loopback-server.mjs', import.meta.url), [], {
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
const [chunk] = await once(child.stdout, 'data');
const baseUrl = `http://127.0.0.1:${String(chunk).trim()}`;
const client = new PaymentsClient({ baseUrl, apiKey: 'sk' });
const bare = createBareFetchClient({ baseUrl, apiKey: 'sk' });
const wire = buildMobileMoneyPaymentRequest(mobileMoneyInput);
const url = `${baseUrl}/api/payment/payment-initiate-callback/`;
const headers = {
  'content-type': 'application/json',
  accept: 'application/json',
  authorization: 'Bearer sk',
};
const variants = {
  bare: () => bare(wire),
  'bare + builder': () => bare(buildMobileMoneyPaymentRequest(mobileMoneyInput)),
  'bare + builder + timeout signal': async () => {
    const body = JSON.stringify(buildMobileMoneyPaymentRequest(mobileMoneyInput));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 30_000);
    try {
      const response = await fetch(url, { method: 'POST', headers, body, signal: controller.signal });
      return JSON.parse(await response.text());
    } finally {
      clearTimeout(timer);
    }
  },
  client: () => client.initiateMobileMoneyPayment(mobileMoneyInput),
  // The same as `bare`, measured last: shows any bias of a variant's position in the round.
  'bare again': () => bare(wire),
};
const [n = 20000, reps = 3] = process.argv.slice(2).map(Number);
const totals = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let rep = 0; rep < reps + 1; rep++) {
  for (const [name, fn] of Object.entries(variants)) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    for (let i = 0; i < n; i++) await fn();
    const used = process.cpuUsage(cpu);
    if (rep > 0)
      totals[name].push({ cpu: (used.user + used.system) / n, wall: ((performance.now() - t) * 1000) / n });
  }
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [name, runs] of Object.entries(totals)) {
  const cpu = med(runs.map((r) => r.cpu));
  const wall = med(runs.map((r) => r.wall));
  console.log(
    `${name.padEnd(16)} cpu ${cpu.toFixed(1)} µs/req (${(cpu / med(totals.bare.map((r) => r.cpu))).toFixed(3)}×)  wall ${wall.toFixed(1)} µs/req (${(wall / med(totals.bare.map((r) => r.wall))).toFixed(3)}×)`,
  );
}
child.kill();
