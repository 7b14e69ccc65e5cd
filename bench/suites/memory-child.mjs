// Runs in its own `node --expose-gc` process: N distinct deliveries through one handler with its
// default dedupe store. Samples heapUsed every N/200 deliveries (peak) and after a forced GC every
// N/20 (retained). Prints one JSON line.
import { pathToFileURL } from 'node:url';
import { delivery, deliveryInit, callbackUrl } from '../fixtures/deliveries.mjs';

const [entry, total] = [process.argv[2], Number(process.argv[3])];
const { createCallbackHandler } = await import(pathToFileURL(entry).href);
let events = 0;
const handler = createCallbackHandler({ verify: false, onEvent: () => void events++ });

globalThis.gc();
const start = process.memoryUsage().heapUsed;
let peak = start;
const retained = [];
const sampleEvery = Math.max(1, Math.floor(total / 200));
const gcEvery = Math.max(1, Math.floor(total / 20));
const startedAt = performance.now();
for (let n = 0; n < total; n++) {
  const response = await handler(new Request(callbackUrl, deliveryInit(delivery(n))));
  if (response.status >= 300) throw new Error(`delivery ${n}: ${response.status} ${await response.text()}`);
  if ((n + 1) % sampleEvery === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  if ((n + 1) % gcEvery === 0) {
    globalThis.gc();
    retained.push(process.memoryUsage().heapUsed);
  }
}
const seconds = (performance.now() - startedAt) / 1000;
process.stdout.write(`${JSON.stringify({ start, peak, retained, events, total, seconds })}\n`);
