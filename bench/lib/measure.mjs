// Side-by-side measurement on top of mitata's `measure` (mitata does the timing, batching of
// sub-microsecond work, warm-up and outlier trimming; nothing here times anything by hand).
// Every figure is a ratio of two tasks measured in the same process, interleaved in rounds
// (A B, B A, A B, …) so drift in CPU frequency or load hits both sides; the figure is the median of
// the per-round ratios of the per-task medians.
import { measure } from 'mitata';

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * @param {{ ours: Function, baseline: Function, rounds: number, options?: object,
 *   oursOptions?: object, baselineOptions?: object }} spec
 * `ours`/`baseline`: mitata benchmark functions (plain, async, or generators yielding
 * `{ [0]() { setup }, bench(x) { … } }` so per-iteration setup stays outside the timing).
 * @returns {Promise<{ ours: number, baseline: number, ratio: number, ratios: number[], oursMedian: number,
 *   baselineMedian: number }>} ns/op
 */
export async function compare(spec) {
  return summarize(await compareRounds(spec));
}

/**
 * The rounds of `compare`, unsummarised: each round's time per side (ns/op), in round order.
 * @returns {Promise<{ oursTimes: number[], baselineTimes: number[] }>}
 */
export async function compareRounds({ ours, baseline, rounds, options = {}, perOp = 1 }) {
  const oursTimes = [];
  const baselineTimes = [];
  // Warm-up: let both sides reach their optimised (JIT) steady state before anything counts.
  const warmupOptions = { ...options, min_cpu_time: (options.min_cpu_time ?? 100e6) / 2 };
  await measure(ours, warmupOptions);
  await measure(baseline, warmupOptions);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['ours', 'baseline'] : ['baseline', 'ours'];
    const result = {};
    for (const side of order) {
      const stats = await measure(side === 'ours' ? ours : baseline, { ...options });
      result[side] = stats.p50 / perOp;
    }
    oursTimes.push(result.ours);
    baselineTimes.push(result.baseline);
  }
  return { oursTimes, baselineTimes };
}

/**
 * The figure of paired rounds (`compareRounds`, or several runs of it concatenated): the median of
 * the per-round ratios, and the median time of each side.
 */
export function summarize({ oursTimes, baselineTimes }) {
  const ratios = oursTimes.map((time, round) => time / baselineTimes[round]);
  // The figure is the median of the per-round ratios; the times shown beside it are that round's
  // (for an even count, the upper-middle one), so the printed ours / baseline is the printed ratio.
  const order = ratios.map((_, index) => index).sort((a, b) => ratios[a] - ratios[b]);
  const middle = order[order.length >> 1];
  return {
    ours: oursTimes[middle],
    baseline: baselineTimes[middle],
    ratio: median(ratios),
    ratios,
    oursMedian: median(oursTimes),
    baselineMedian: median(baselineTimes),
  };
}

/** Per-mode knobs: `full` for `npm run bench`, `quick` for the CI check. */
export const modes = {
  full: {
    rounds: 5,
    micro: { min_cpu_time: 250e6 },
    // A loopback round trip's wall time drifts with scheduling on a shared machine over seconds:
    // more, shorter interleaved rounds keep the drift from landing on one side of a round.
    requestRounds: 21,
    concurrent: { min_cpu_time: 150e6, min_samples: 12, concurrency: 32 },
    coldSamples: 12,
    // Per server and round: 40,000 deliveries in bursts of 2,000, interleaved with the other servers'.
    routes: { rounds: 2, connections: 32, warmup: 5_000, amount: 40_000, burst: 2_000, maxSeconds: 60 },
    memory: { deliveries: 1_000_000, largeEvery: 8 },
  },
  quick: {
    rounds: 3,
    micro: { min_cpu_time: 60e6 },
    requestRounds: 9,
    concurrent: { min_cpu_time: 80e6, min_samples: 8, concurrency: 32 },
    coldSamples: 6,
    // A warm-up of 3,000 deliveries: after 1,000 V8 is still optimising the longer routes. Then a
    // warm round of interleaved bursts, not counted: after the warm-up alone each server's first
    // round still read 5–45 % more CPU per request than its second, each by its own amount.
    // With --check, up to 2 confirming rounds of a figure beyond the check (suites/routes.mjs).
    routes: {
      rounds: 2,
      warmRounds: 1,
      confirmRounds: 2,
      connections: 32,
      warmup: 3_000,
      amount: 5_000,
      burst: 1_000,
      maxSeconds: 20,
    },
    // 3× the default store's 50,000-entry bound: the store is full and evicting for two thirds of it.
    memory: { deliveries: 150_000, largeEvery: 8 },
  },
};
