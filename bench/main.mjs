// The bench itself (see run.mjs for the entry point and flags). Prints the table, writes the JSON.
import { writeFileSync, mkdirSync } from 'node:fs';
import { cpus, totalmem, platform, release } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { modes } from './lib/measure.mjs';
import { judge, goalText, noiseMargin, passes } from './lib/figures.mjs';
import { renderTable } from './lib/table.mjs';
import { buildSdk, loadSdk, distDir } from './lib/sdk.mjs';
import { runParseSuite } from './suites/parse.mjs';
import { runRequestSuite } from './suites/request.mjs';
import { runRoutesSuite, routeGroups } from './suites/routes.mjs';
import { runColdStartSuite } from './suites/cold-start.mjs';
import { runBundleSizeSuite } from './suites/bundle-size.mjs';
import { runMemorySuite } from './suites/memory.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const check = args.includes('--check');
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice(7)
  .split(',');
const jsonArg = args.find((arg) => arg.startsWith('--json='))?.slice(7);
// --routes=express,node,hono: only these groups of route figures (each group runs its own servers).
const routes = args
  .find((arg) => arg.startsWith('--routes='))
  ?.slice(9)
  .split(',');
// --profile=<dir>: the route servers run with --cpu-prof into <dir> (read with experiments/top.mjs).
const profileDir = args.find((arg) => arg.startsWith('--profile='))?.slice(10);
for (const group of routes ?? []) {
  if (!(group in routeGroups)) {
    process.stderr.write(`bench: unknown --routes group ${group} (${Object.keys(routeGroups).join(', ')})\n`);
    process.exit(2);
  }
}
// --amount=<n>: requests per route server and round (warm-up: a fifth of it), for short checks.
const amount = Number(args.find((arg) => arg.startsWith('--amount='))?.slice(9) ?? 0);
const mode = quick ? { ...modes.quick } : { ...modes.full };
if (amount > 0) mode.routes = { ...mode.routes, amount, warmup: Math.ceil(amount / 5) };
const log = (line) => process.stderr.write(`bench: ${line}\n`);

const suites = [
  ['routes', runRoutesSuite],
  ['request', runRequestSuite],
  ['size', runBundleSizeSuite],
  ['cold', runColdStartSuite],
  ['memory', runMemorySuite],
  ['parse', runParseSuite],
];

const startedAt = performance.now();
log(`building the package (repo tsup config, JS only) into ${distDir}`);
await buildSdk();
const sdk = await loadSdk();

const figures = [];
for (const [name, run] of suites) {
  if (only && !only.includes(name)) continue;
  const suiteStart = performance.now();
  log(`${name}…`);
  try {
    figures.push(...(await run({ sdk, mode, quick, check, routes, profileDir, figures })));
  } catch (error) {
    log(`${name} failed: ${error.stack ?? error}`);
    figures.push({
      id: name,
      label: `${name} suite`,
      unit: 'ratio',
      goal: {},
      error: String(error.message ?? error).slice(0, 80),
    });
  }
  log(`${name} done in ${((performance.now() - suiteStart) / 1000).toFixed(1)} s`);
}

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  os: `${platform()} ${release()}`,
  node: process.version,
};
const seconds = (performance.now() - startedAt) / 1000;
console.log(
  `\nhosted-payments bench — ${quick ? 'quick' : 'full'}: ` +
    `${!only || only.includes('routes') ? `routes ${mode.routes.rounds} rounds of ${mode.routes.amount.toLocaleString('en-US')} requests per server, ` : ''}` +
    `${mode.rounds} rounds elsewhere, medians; ` +
    `${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, ${seconds.toFixed(0)} s\n`,
);
console.log(renderTable(figures, { check }));
if (check)
  console.log(
    `\n(check mode: a ratio fails only beyond ${noiseMargin}× its goal; sizes and memory have no margin; "reported" figures have no goal)`,
  );

const results = {
  date: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  rounds: mode.rounds,
  machine,
  seconds: Math.round(seconds),
  figures: figures.map((figure) => ({
    ...figure,
    goalText: goalText(figure),
    status: judge(figure, { check }),
  })),
};
const jsonPath =
  jsonArg ??
  (quick ? `${distDir}/../results.quick.json` : fileURLToPath(new URL('./results.json', import.meta.url)));
mkdirSync(dirname(jsonPath), { recursive: true });
writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
log(`wrote ${jsonPath}`);

if (check) {
  const broken = results.figures.filter((figure) => !passes(figure.status));
  if (broken.length > 0) {
    console.log(
      `\nbench:check FAILED — ${broken.length} budget(s) broken or not measurable: ${broken.map((f) => f.id).join(', ')}`,
    );
    process.exit(1);
  }
  console.log('\nbench:check passed — every budget holds');
}
