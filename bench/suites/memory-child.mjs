// Runs in its own `node --expose-gc` process: N distinct signed deliveries through one handler with
// its default dedupe store, every `largeEvery`-th a 64 KiB body whose identifiers (not the
// reference) fill it. Samples heapUsed every N/200 deliveries (peak) and after a forced GC every
// N/20 (retained). Prints one JSON line.
//   node --expose-gc memory-child.mjs <callbacks entry> <N> <largeEvery>
import { pathToFileURL } from 'node:url';
import { delivery, deliveryInit, handlerOptions, signedUrl } from '../fixtures/deliveries.mjs';

const [entry, total, largeEvery] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const { createCallbackHandler, signCallbackUrl } = await import(pathToFileURL(entry).href);
let events = 0;
const handler = createCallbackHandler({ ...handlerOptions, onEvent: () => void events++ });
const statuses = {};

globalThis.gc();
const start = process.memoryUsage().heapUsed;
let peak = start;
const retained = [];
const sampleEvery = Math.max(1, Math.floor(total / 200));
const gcEvery = Math.max(1, Math.floor(total / 20));
const startedAt = performance.now();
let large = 0;
for (let n = 0; n < total; n++) {
  const isLarge = largeEvery > 0 && n % largeEvery === largeEvery - 1;
  if (isLarge) large++;
  const { body, reference } = delivery(n, { large: isLarge });
  const url = await signedUrl(signCallbackUrl, reference);
  const response = await handler(new Request(url, deliveryInit(body)));
  statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  if (response.status >= 300 && !isLarge) {
    throw new Error(`delivery ${n}: ${response.status} ${await response.text()}`);
  }
  if ((n + 1) % sampleEvery === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  if ((n + 1) % gcEvery === 0) {
    globalThis.gc();
    retained.push(process.memoryUsage().heapUsed);
  }
}
const seconds = (performance.now() - startedAt) / 1000;
process.stdout.write(
  `${JSON.stringify({ start, peak, retained, events, total, large, statuses, seconds })}\n`,
);
