// Merges the figures the reliability tests recorded (test/reliability/.results/<section>.json)
// into summary.json and prints them. Run by .ci/run after `npm test`; `node test/reliability/print-summary.mjs`.
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const dir = new URL('./.results/', import.meta.url).pathname;
if (!existsSync(dir)) {
  console.log('reliability: no figures recorded (did the suite run?)');
  process.exit(0);
}
const sections = readdirSync(dir)
  .filter((f) => f.endsWith('.json') && f !== 'summary.json')
  .sort()
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
const summary = Object.fromEntries(sections.map((s) => [s.section, s.figures]));
writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log('reliability figures (test/reliability/.results/summary.json):');
for (const section of sections) {
  console.log(`  ${section.section}`);
  for (const [key, value] of Object.entries(section.figures)) console.log(`    ${key}: ${value}`);
}
