// Where the client's CPU per request goes beyond bare fetch: variants of the bare POST with one
// more piece each, by client-process CPU time (see request-cpu.mjs), plus the pure parts alone.
// Run: node --expose-gc bench/experiments/request-parts.mjs
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { measure } from 'mitata';
import { compare } from '../lib/measure.mjs';
import { mainEntry } from '../lib/sdk.mjs';
import { mobileMoneyInput } from '../fixtures/callbacks.mjs';

const { PaymentsClient, buildMobileMoneyPaymentRequest, mobileMoneyPaymentResponseSchema } = await import(
  mainEntry
);
const z = await import('zod/mini');
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
};
for (const [name, fn] of Object.entries({
  'builder alone': () => buildMobileMoneyPaymentRequest(mobileMoneyInput),
  'response schema alone': () =>
    z.safeParse(mobileMoneyPaymentResponseSchema, { message: 'M Payment Initiated', status: 200 }),
  'JSON.stringify(wire)': () => JSON.stringify(buildMobileMoneyPaymentRequest(mobileMoneyInput)),
})) {
  await measure(fn, { min_cpu_time: 100e6 });
  const s = await measure(fn, { min_cpu_time: 300e6 });
  console.log(`${name.padEnd(30)} ${(s.p50 / 1e3).toFixed(2)} µs`);
}
const child = fork(new URL('../baselines/loopback-server.mjs', import.meta.url), [], {
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
const [chunk] = await once(child.stdout, 'data');
const baseUrl = `http://127.0.0.1:${String(chunk).trim()}`;
const url = `${baseUrl}/api/payment/payment-initiate-callback/`;
const headers = {
  'content-type': 'application/json',
  accept: 'application/json',
  authorization: 'Bearer sk',
};
const wire = buildMobileMoneyPaymentRequest(mobileMoneyInput);
const bare = async () => {
  const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify(wire) });
  return r.json();
};
const variants = {
  'bare + controller signal + timer': async () => {
    const c = new AbortController();
    const t = setTimeout(() => c.abort(), 30_000);
    try {
      const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify(wire), signal: c.signal });
      return JSON.parse(await r.text());
    } finally {
      clearTimeout(t);
    }
  },
  'bare + AbortSignal.timeout': async () => {
    const r = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(wire),
      signal: AbortSignal.timeout(30_000),
    });
    return r.json();
  },
  'bare + builder': async () => {
    const r = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(buildMobileMoneyPaymentRequest(mobileMoneyInput)),
    });
    return r.json();
  },
  'bare + fresh literal body': async () => {
    const i = mobileMoneyInput;
    const body = {
      customer_details: { payment_method: 'MOBILE-MONEY', ...i.customer_details },
      products: i.products.map((p) => ({ ...p })),
      amount: { ...i.amount },
      callback_details: { ...i.callback_details },
    };
    const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    return r.json();
  },
  'client.initiateMobileMoneyPayment': (() => {
    const client = new PaymentsClient({ baseUrl, apiKey: 'sk' });
    return () => client.initiateMobileMoneyPayment(mobileMoneyInput);
  })(),
};
// CLOCK=wall measures round-trip time instead of client CPU.
const clock = process.env.CLOCK === 'wall' ? {} : { now: cpuNow };
const pick = process.env.ONLY?.split(',');
for (const [name, ours] of Object.entries(variants)) {
  if (pick && !pick.some((p) => name.includes(p))) continue;
  const result = await compare({
    ours,
    baseline: bare,
    rounds: Number(process.env.ROUNDS ?? 5),
    options: {
      ...clock,
      min_cpu_time: 150e6,
      min_samples: 30,
      ...(process.env.CONC ? { concurrency: Number(process.env.CONC) } : {}),
    },
    perOp: Number(process.env.CONC ?? 1),
  });
  console.log(
    `${name.padEnd(36)} ours ${(result.ours / 1e3).toFixed(0)} µs, bare ${(result.baseline / 1e3).toFixed(0)} µs, ${result.ratio.toFixed(2)}× [${result.ratios.map((r) => r.toFixed(2)).join(' ')}]`,
  );
}
child.kill();
