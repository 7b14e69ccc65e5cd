// Where ky's per-request cost goes (issue 6: "ky with default options took 1.3–2.3× bare fetch").
// Each variant POSTs the same body to the same loopback server; ratios against bare fetch, measured
// side by side with lib/measure.mjs. Run: node --expose-gc bench/experiments/ky-variants.mjs
import { fork } from 'node:child_process';
import { once } from 'node:events';
import ky from 'ky';
import { compare } from '../lib/measure.mjs';
import { mobileMoneyWireBody } from '../fixtures/callbacks.mjs';

const child = fork(new URL('../baselines/loopback-server.mjs', import.meta.url), [], {
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
const [chunk] = await once(child.stdout, 'data');
const base = `http://127.0.0.1:${String(chunk).trim()}`;
const url = `${base}/api/payment/payment-initiate-callback/`;
const headers = {
  'content-type': 'application/json',
  accept: 'application/json',
  authorization: 'Bearer sk',
};

const bare = async () =>
  (await fetch(url, { method: 'POST', headers, body: JSON.stringify(mobileMoneyWireBody) })).json();
const kyDefault = ky.create({ prefixUrl: base, headers: { authorization: 'Bearer sk' } });
const kyLean = ky.create({
  prefixUrl: base,
  headers: { authorization: 'Bearer sk' },
  retry: 0,
  timeout: false,
});
const kyLeanHook = ky.create({
  prefixUrl: base,
  headers: { authorization: 'Bearer sk' },
  retry: 0,
  timeout: false,
  hooks: { afterResponse: [() => {}] },
});
const path = 'api/payment/payment-initiate-callback/';
const variants = {
  'ky defaults, json option': () => kyDefault.post(path, { json: mobileMoneyWireBody }).json(),
  'ky retry 0, timeout false': () => kyLean.post(path, { json: mobileMoneyWireBody }).json(),
  'ky retry 0, timeout false, signal AbortSignal.timeout': () =>
    kyLean.post(path, { json: mobileMoneyWireBody, signal: AbortSignal.timeout(30_000) }).json(),
  'ky lean + an afterResponse hook': () => kyLeanHook.post(path, { json: mobileMoneyWireBody }).json(),
  'ky lean, fetch(request) replaced by fetch(url, init)': () =>
    kyLean
      .post(path, {
        json: mobileMoneyWireBody,
        fetch: (request) =>
          fetch(request.url, {
            method: request.method,
            headers: request.headers,
            body: JSON.stringify(mobileMoneyWireBody),
            signal: request.signal,
          }),
      })
      .json(),
  'ky lean, body-less Request, body sent by a fetch wrapper': () => {
    const text = JSON.stringify(mobileMoneyWireBody);
    return kyLean
      .post(path, {
        headers: { 'content-type': 'application/json' },
        fetch: (request) =>
          fetch(request.url, {
            method: 'POST',
            headers: request.headers,
            body: text,
            signal: request.signal,
          }),
      })
      .json();
  },
  'ky lean, body-less, wrapper, timeout false': () => {
    const text = JSON.stringify(mobileMoneyWireBody);
    return kyLean
      .post(path, {
        headers: { 'content-type': 'application/json' },
        timeout: false,
        fetch: (request) =>
          fetch(request.url, {
            method: 'POST',
            headers: request.headers,
            body: text,
            signal: request.signal,
          }),
      })
      .json();
  },
  'no ky: fetch(url, init) + one AbortController + one timer': async () => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), 30_000);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(mobileMoneyWireBody),
        signal: controller.signal,
      });
      return JSON.parse(await response.text());
    } finally {
      clearTimeout(timer);
    }
  },
  'bare fetch(new Request(url, init))': async () =>
    (
      await fetch(new Request(url, { method: 'POST', headers, body: JSON.stringify(mobileMoneyWireBody) }))
    ).json(),
  'bare fetch + request.clone()': async () => {
    const request = new Request(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(mobileMoneyWireBody),
      duplex: 'half',
    });
    request.clone();
    return (await fetch(request)).json();
  },
};
const concurrency = Number(process.env.CONCURRENCY ?? 1);
// CLOCK=cpu: client-process CPU time instead of wall time (robust on a loaded machine).
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
};
const clock = process.env.CLOCK === 'cpu' ? { now: cpuNow } : {};
// FILTER=<substring> runs only the matching variants.
for (const [name, ours] of Object.entries(variants).filter(([name]) =>
  name.includes(process.env.FILTER ?? ''),
)) {
  const result = await compare({
    ours,
    baseline: bare,
    rounds: 3,
    options: { min_cpu_time: 300e6, min_samples: 30, concurrency, ...clock },
    perOp: concurrency,
  });
  console.log(
    `${name.padEnd(56)} ${(result.ours / 1e3).toFixed(0).padStart(5)} µs vs ${(result.baseline / 1e3).toFixed(0).padStart(5)} µs  ${result.ratio.toFixed(2)}×`,
  );
}
child.kill();
