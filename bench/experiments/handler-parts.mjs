// What one webhook request costs inside createCallbackHandler, part by part (Request construction
// excluded, as in the handler figure). Run: node --expose-gc bench/experiments/handler-parts.mjs
import { measure, do_not_optimize } from 'mitata';
import { callbacksEntry } from '../lib/sdk.mjs';
import { delivery, deliveryInit, callbackUrl } from '../fixtures/deliveries.mjs';

const { parseCallback, createCallbackHandler, createMemoryDedupeStore } = await import(callbacksEntry);
let n = 0;
const request = () => new Request(callbackUrl, deliveryInit(delivery(n++)));
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
const answerBody = JSON.stringify({ received: true });
const handler = createCallbackHandler({ verify: false, onEvent() {} });
const handlerNoDedupe = createCallbackHandler({ verify: false, onEvent() {}, dedupe: false });
const store = createMemoryDedupeStore();

async function readWithReader(req) {
  const reader = req.body.getReader();
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return chunks[0];
}

const cases = {
  'handler (default store)': function* () {
    yield { [0]: request, bench: (r) => handler(r) };
  },
  'handler (dedupe: false)': function* () {
    yield { [0]: request, bench: (r) => handlerNoDedupe(r) };
  },
  'parseCallback(string) alone': function* () {
    yield { [0]: () => delivery(n++), bench: (t) => parseCallback(t) };
  },
  'parseCallback(Uint8Array) alone': function* () {
    const enc = new TextEncoder();
    yield { [0]: () => enc.encode(delivery(n++)), bench: (b) => parseCallback(b) };
  },
  'body: getReader loop (handler today)': function* () {
    yield { [0]: request, bench: (r) => readWithReader(r) };
  },
  'body: request.arrayBuffer()': function* () {
    yield { [0]: request, bench: (r) => r.arrayBuffer() };
  },
  'body: request.text()': function* () {
    yield { [0]: request, bench: (r) => r.text() };
  },
  'answer: new Response(json, {status, headers})': () =>
    do_not_optimize(new Response(answerBody, { status: 200, headers: { ...JSON_HEADERS } })),
  'answer: new Response(null, {status: 204})': () => do_not_optimize(new Response(null, { status: 204 })),
  'answer: new Response(null, {status, headers})': () =>
    do_not_optimize(new Response(null, { status: 200, headers: JSON_HEADERS })),
  'dedupe: begin + complete (memory store)': async () => {
    const key = `k${n++}`;
    await store.begin(key, 300_000);
    await store.complete(key, 86_400_000);
  },
};
for (const [name, fn] of Object.entries(cases)) {
  await measure(fn, { min_cpu_time: 100e6 });
  const stats = await measure(fn, { min_cpu_time: 300e6 });
  console.log(`${name.padEnd(48)} ${(stats.p50 / 1e3).toFixed(2).padStart(7)} µs`);
}
