// Distinct signed deliveries through the handler's default dedupe store (1,000,000 in the full run,
// 150,000 in quick mode), every 8th a 64 KiB body with long identifiers, in a child process with
// --expose-gc. Judged on two counts: the heap retained after a forced GC stops growing — over the
// second half of the run it grows by less than 10 % + 4 MB of what it was at the half-way mark (an
// unbounded store grows linearly: +100 % over that half) — and it stays under a byte budget, so a
// store bounded only by its entry count, holding long keys, does not pass. The figure is that
// retained heap; the peak heapUsed is shown beside it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { callbacksEntry } from '../lib/sdk.mjs';

const MB = 1024 * 1024;
export const retainedBudget = 64 * MB;

export async function runMemorySuite({ sdk, mode }) {
  const { deliveries: total, largeEvery } = mode.memory;
  const figure = {
    id: 'memory.dedupe',
    label: `memory: ${total.toLocaleString('en-US')} deliveries, 1 in ${largeEvery} of 64 KiB with long ids`,
    unit: 'memory',
    goal: { max: retainedBudget },
  };
  if (sdk.callbacks.createCallbackHandler === undefined) {
    figure.error = 'createCallbackHandler not exported';
    return [figure];
  }
  const child = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      fileURLToPath(new URL('./memory-child.mjs', import.meta.url)),
      callbacksEntry,
      String(total),
      String(largeEvery),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  if (child.status !== 0) {
    figure.error = (
      child.stderr.split('\n').find((line) => /Error/.test(line)) ?? `exit ${child.status}`
    ).slice(0, 120);
    return [figure];
  }
  const report = JSON.parse(child.stdout.trim().split('\n').pop());
  const half = report.retained[Math.floor(report.retained.length / 2) - 1];
  const end = report.retained.at(-1);
  const bounded = end <= half * 1.1 + 4 * MB;
  const mb = (bytes) => `${(bytes / MB).toFixed(1)} MB`;
  Object.assign(figure, {
    value: end,
    peak: report.peak,
    bounded,
    baselineLabel: `retained ${mb(report.start)} → ${mb(half)} (½) → ${mb(end)}; answers ${Object.entries(
      report.statuses,
    )
      .map(([status, count]) => `${status}×${count}`)
      .join(', ')}`,
    report,
  });
  return [figure];
}
