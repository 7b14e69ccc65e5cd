// The memory dedupe store under sustained distinct keys: begin + complete per delivery, as the
// handler does, on a store already holding N entries. A Map used as an LRU with
// delete-from-the-front leaves deleted slots at the front of V8's OrderedHashMap until it rehashes;
// every fresh `map.keys().next()` walks over them. Run: node --expose-gc bench/experiments/dedupe-store.mjs
import { measure } from 'mitata';
import { callbacksEntry } from '../lib/sdk.mjs';

const { createMemoryDedupeStore } = await import(callbacksEntry);

for (const prefill of [0, 10_000, 49_000, 60_000, 200_000]) {
  const store = createMemoryDedupeStore();
  let n = 0;
  for (; n < prefill; n++) {
    await store.begin(`k${n}`, 300_000);
    await store.complete(`k${n}`, 86_400_000);
  }
  const stats = await measure(
    async () => {
      const key = `k${n++}`;
      await store.begin(key, 300_000);
      await store.complete(key, 86_400_000);
    },
    { min_cpu_time: 200e6 },
  );
  console.log(
    `after ${String(prefill).padStart(7)} deliveries: begin+complete ${(stats.p50 / 1e3).toFixed(2).padStart(7)} µs (p99 ${(stats.p99 / 1e3).toFixed(1)} µs)`,
  );
}
