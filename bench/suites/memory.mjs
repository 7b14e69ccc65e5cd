// 1,000,000 distinct deliveries through the handler's default dedupe store, in a child process with
// --expose-gc. "Bounded": the heap retained after a forced GC stops growing — over the second half of
// the run it grows by less than 10% + 4 MB of what it was at the half-way mark (an unbounded store
// grows linearly: +100% over that half). The figure reports the peak heapUsed.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { callbacksEntry } from '../lib/sdk.mjs';

export async function runMemorySuite({ sdk, mode }) {
  const total = mode.memoryDeliveries;
  const figure = {
    id: 'memory.dedupe',
    label: `memory: ${total.toLocaleString('en-US')} distinct deliveries`,
    unit: 'memory',
    goal: { bounded: true },
  };
  if (sdk.callbacks.createCallbackHandler === undefined) {
    figure.error = 'createCallbackHandler not exported yet';
    return [figure];
  }
  const child = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      fileURLToPath(new URL('./memory-child.mjs', import.meta.url)),
      callbacksEntry,
      String(total),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  if (child.status !== 0) {
    figure.error = (
      child.stderr.split('\n').find((line) => /Error/.test(line)) ?? `exit ${child.status}`
    ).slice(0, 80);
    return [figure];
  }
  const report = JSON.parse(child.stdout.trim().split('\n').pop());
  const half = report.retained[Math.floor(report.retained.length / 2) - 1];
  const end = report.retained.at(-1);
  const bounded = end <= half * 1.1 + 4 * 1024 * 1024;
  const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
  Object.assign(figure, {
    value: report.peak,
    bounded,
    baselineLabel: `retained ${mb(report.start)} → ${mb(half)} (½) → ${mb(end)}`,
    report,
  });
  return [figure];
}
