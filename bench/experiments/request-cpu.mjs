// Request overhead by client-process CPU time instead of wall time: on a loaded machine the wall
// clock of a loopback round trip is mostly scheduling noise, while the CPU the client spends per
// request is what the SDK adds. mitata's clock is swapped for process.cpuUsage().
// Run: node --expose-gc bench/experiments/request-cpu.mjs [dist dir names under bench/node_modules/.hosted-payments …]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { compare } from '../lib/measure.mjs';
import { createBareFetchClient } from '../baselines/bare-fetch.mjs';
import { mobileMoneyInput } from '../fixtures/callbacks.mjs';

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
};
const child = fork(new URL('../baselines/loopback-server.mjs', import.meta.url), [], {
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
const [chunk] = await once(child.stdout, 'data');
const baseUrl = `http://127.0.0.1:${String(chunk).trim()}`;
const dists = process.argv.slice(2).length ? process.argv.slice(2) : ['dist'];
for (const concurrency of [1, 32]) {
  for (const dist of dists) {
    const { PaymentsClient, buildMobileMoneyPaymentRequest } = await import(
      new URL(`../node_modules/.hosted-payments/${dist}/index.js`, import.meta.url)
    );
    const client = new PaymentsClient({ baseUrl, apiKey: 'sk' });
    const bare = createBareFetchClient({ baseUrl, apiKey: 'sk' });
    const wire = buildMobileMoneyPaymentRequest(mobileMoneyInput);
    const result = await compare({
      ours: () => client.initiateMobileMoneyPayment(mobileMoneyInput),
      baseline: () => bare(wire),
      rounds: 5,
      options: { now: cpuNow, min_cpu_time: 300e6, min_samples: 30, concurrency },
      perOp: concurrency,
    });
    console.log(
      `${dist.padEnd(18)} c=${String(concurrency).padEnd(3)} client CPU/req: ours ${(result.ours / 1e3).toFixed(0)} µs, bare fetch ${(result.baseline / 1e3).toFixed(0)} µs, ratio ${result.ratio.toFixed(2)}× [${result.ratios.map((r) => r.toFixed(2)).join(' ')}]`,
    );
  }
}
child.kill();
