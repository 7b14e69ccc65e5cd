// Cold start: a whole `node` process (spawned, run to exit) that imports an entry and builds its
// main object, against the same process for the peer. mitata times each spawnSync; interleaved
// rounds as everywhere else. A bare `node` start is measured too, to report what each import adds.
// The reported "first call" pair also makes one call to a 127.0.0.1 server in the same process
// (cold/loopback.mjs), so the cost the client defers to its first call is not hidden; so does a
// bare `fetch` (the floor of any client on fetch, which Node loads on first use).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beyondCheck } from '../lib/figures.mjs';
import { compare, compareRounds, summarize } from '../lib/measure.mjs';
import { distDir } from '../lib/sdk.mjs';

const env = { ...process.env, HP_DIST: distDir };

const script = (name) => fileURLToPath(new URL(`../cold/${name}.mjs`, import.meta.url));
const spawn = (name) => () => spawnSync(process.execPath, [script(name)], { stdio: 'ignore', env });

function runsCleanly(name) {
  const result = spawnSync(process.execPath, [script(name)], { encoding: 'utf8', env });
  return result.status === 0
    ? undefined
    : (result.stderr.split('\n').find((line) => /Error/.test(line)) ?? `exit ${result.status}`).slice(0, 80);
}

export async function runColdStartSuite({ mode, check = false }) {
  const options = {
    min_samples: mode.coldSamples,
    max_samples: mode.coldSamples,
    min_cpu_time: 0,
    warmup_samples: 1,
    batch_threshold: 0,
  };
  const pairs = [
    {
      id: 'cold.main',
      label: 'cold start: import main + new PaymentsClient',
      ours: 'ours-main',
      peer: 'stripe',
      judged: {
        goal: { max: 0.8 },
        guard: { max: 1 },
        guardWhy:
          'at its goal since ky loads on the first call: 0.68–0.94× over runs, so noise alone must not fail CI',
      },
    },
    {
      // The client imports ky on its first call: this keeps that deferred cost in view.
      id: 'cold.main.firstCall',
      label: 'cold start + first call (loopback): main',
      ours: 'ours-main-first-call',
      peer: 'stripe-first-call',
      judged: { goal: {}, reported: true },
    },
    {
      // Node loads its fetch implementation on the first fetch: what any client on fetch pays there.
      id: 'cold.main.firstCall.fetch',
      label: 'cold start + first call (loopback): main vs a bare fetch',
      ours: 'ours-main-first-call',
      peer: 'bare-fetch-first-call',
      judged: { goal: {}, reported: true },
    },
    {
      id: 'cold.callbacks',
      label: 'cold start: import ./callbacks + handler',
      ours: 'ours-callbacks',
      peer: 'openai',
      judged: {
        goal: { max: 0.8 },
        guard: { max: 1.2 },
        guardWhy:
          "importing zod/mini alone is ~0.94× openai-node's whole cold start (zod is a peer; the schemas are built at import)",
      },
    },
  ];
  const bare = await compare({ ours: spawn('bare'), baseline: spawn('bare'), rounds: 1, options });
  const figures = [];
  for (const pair of pairs) {
    const figure = {
      id: pair.id,
      label: pair.label,
      unit: 'ratio',
      ...pair.judged,
      baselineLabel: pair.peer,
    };
    figures.push(figure);
    const error = runsCleanly(pair.ours) ?? runsCleanly(pair.peer);
    if (error) {
      figure.error = error;
      continue;
    }
    const measure = () =>
      compareRounds({ ours: spawn(pair.ours), baseline: spawn(pair.peer), rounds: mode.rounds, options });
    const firstRounds = await measure();
    Object.assign(figure, summarize(firstRounds));
    // In check mode a judged figure beyond the check is measured again, as many rounds, and judged
    // on the median of all of them (as the routes are): a process start on a shared machine varies
    // by a fifth from one run to the next, a regression does not go away.
    if (check && beyondCheck(figure)) {
      process.stderr.write(`bench:   ${pair.id} beyond the check: ${mode.rounds} confirming rounds\n`);
      const againRounds = await measure();
      // Ratio, ratios, medians and the times shown, over all the rounds (paired by round).
      Object.assign(
        figure,
        summarize({
          oursTimes: [...firstRounds.oursTimes, ...againRounds.oursTimes],
          baselineTimes: [...firstRounds.baselineTimes, ...againRounds.baselineTimes],
        }),
      );
    }
    figure.bareNode = bare.ours;
    figure.oursAddsOverBareNode = figure.ours - bare.ours;
    figure.peerAddsOverBareNode = figure.baseline - bare.ours;
  }
  return figures;
}
