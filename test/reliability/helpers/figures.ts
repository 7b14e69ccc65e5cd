// Each reliability test file records the figures it measured in test/reliability/.results/<section>.json
// (test files run in parallel workers, so one file each); print-summary.mjs merges them into
// summary.json and prints them. Tests may not print (test/helpers/fail-on-console.ts).
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const resultsDir = resolve(dirname(fileURLToPath(import.meta.url)), '../.results');

export type Figure = number | string | boolean;

/** Merges `figures` into the section's file (several tests of one file may record). */
export function recordFigures(section: string, figures: Record<string, Figure>): void {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${section}.json`);
  const previous = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { figures?: Record<string, Figure> })
    : {};
  const merged = {
    section,
    recordedAt: new Date().toISOString(),
    figures: { ...previous.figures, ...figures },
  };
  writeFileSync(file, `${JSON.stringify(merged, null, 2)}\n`);
}

/** Starts a section afresh (call in beforeAll) so stale figures of a previous run don't linger. */
export function resetFigures(section: string): void {
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    join(resultsDir, `${section}.json`),
    `${JSON.stringify({ section, recordedAt: new Date().toISOString(), figures: {} }, null, 2)}\n`,
  );
}

/** Percentile (nearest rank) of an unsorted list of numbers. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;
