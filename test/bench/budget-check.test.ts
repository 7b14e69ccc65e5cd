// "A change that breaks a budget fails CI": the judging rules of `npm run bench:check`, and the real
// check run on copies of the SDK with a budget broken on purpose — a main entry over its size budget,
// and a Node adapter made slower per request — each making the check exit 1 and name the figure (the
// slow one only after the rounds that confirm it).
// The copies are built and measured by the bench itself (`BENCH_SRC`), next to the same peers and
// bare routes, exactly as CI runs it.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JS module of bench/, no type declarations
import { judge, noiseMargin, passes } from '../../bench/lib/figures.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

type Status = 'met' | 'margin' | 'known miss' | 'MISSED' | 'n/a' | 'reported';
const status = (figure: object, check = true): Status => judge(figure, { check }) as Status;
const ratio = (value: number, goal: { max?: number; min?: number }, extra: object = {}) => ({
  id: 'x',
  label: 'x',
  unit: 'ratio',
  goal,
  ratio: value,
  ...extra,
});
const MB = 1024 * 1024;

describe('bench:check judging', () => {
  it('passes a ratio within its goal and fails one beyond the noise margin', () => {
    expect(noiseMargin).toBe(1.2);
    expect(status(ratio(2.9, { max: 3 }))).toBe('met');
    expect(status(ratio(3.5, { max: 3 }))).toBe('margin');
    expect(passes(status(ratio(3.5, { max: 3 })))).toBe(true);
    expect(status(ratio(3.7, { max: 3 }))).toBe('MISSED');
    expect(passes(status(ratio(3.7, { max: 3 })))).toBe(false);
    // throughput ≥ 1.2× stripe-node: fails below 1.0×
    expect(status(ratio(1.25, { min: 1.2 }))).toBe('met');
    expect(status(ratio(1.05, { min: 1.2 }))).toBe('margin');
    expect(status(ratio(0.95, { min: 1.2 }))).toBe('MISSED');
  });

  it('gives no margin outside check mode, nor to sizes', () => {
    expect(status(ratio(1.1, { max: 1 }), false)).toBe('MISSED');
    const size = { id: 's', label: 's', unit: 'bytes', goal: { max: 15 * 1024 }, value: 15 * 1024 + 1 };
    expect(status(size)).toBe('MISSED');
    expect(status({ ...size, value: 15 * 1024 })).toBe('met');
  });

  it('holds a figure that misses its goal to its guard, so that it cannot get worse unnoticed', () => {
    const express = ratio(0.9, { min: 1.2 }, { guard: { min: 0.7 } });
    expect(status(express)).toBe('known miss');
    expect(passes(status(express))).toBe(true);
    // the guard gets the noise margin too: fails below 0.7 / 1.2
    expect(status({ ...express, ratio: 0.6 })).toBe('known miss');
    expect(status({ ...express, ratio: 0.55 })).toBe('MISSED');
    expect(status({ ...express, ratio: 1.3 })).toBe('met');
    const size = {
      id: 's',
      label: 's',
      unit: 'bytes',
      goal: { max: 30 * 1024 },
      guard: { max: 35 * 1024 },
      value: 34 * 1024,
    };
    expect(status(size)).toBe('known miss');
    expect(status({ ...size, value: 35 * 1024 + 1 })).toBe('MISSED');
  });

  it('fails a figure that could not be measured, and never fails a reported one', () => {
    expect(passes(status({ ...ratio(1, { max: 3 }), error: 'server exited' }))).toBe(false);
    expect(status(ratio(40, {}, { reported: true }))).toBe('reported');
    expect(passes('reported')).toBe(true);
  });

  it('judges memory by boundedness and by its byte budget', () => {
    const memory = { id: 'm', label: 'm', unit: 'memory', goal: { max: 64 * MB }, value: 20 * MB };
    expect(status({ ...memory, bounded: true })).toBe('met');
    expect(status({ ...memory, bounded: false })).toBe('MISSED');
    // flat, but holding long keys: over the byte budget
    expect(status({ ...memory, bounded: true, value: 400 * MB })).toBe('MISSED');
  });
});

describe('bench:check on a copy of the SDK with a budget broken', () => {
  const copies: string[] = [];
  afterAll(() => {
    for (const dir of copies) {
      rmSync(join(dir, '..'), { recursive: true, force: true });
      const built = join(repoRoot, 'bench', 'node_modules', '.hosted-payments', `dist-${basename(dir)}`);
      rmSync(built, { recursive: true, force: true });
    }
  });

  /** A copy of what the bench builds (src/, tsup and TypeScript config), changed by `edit`. */
  const brokenCopy = (name: string, edit: (dir: string) => void): string => {
    // Inside the repo's node_modules (ignored by git) so that the copy resolves tsup and zod; not
    // under bench/node_modules, which the bench's first run installs afresh (npm ci).
    const parent = join(repoRoot, 'node_modules', '.cache', 'hp-budget-check');
    mkdirSync(parent, { recursive: true });
    const dir = join(mkdtempSync(join(parent, 'run-')), name);
    copies.push(dir);
    cpSync(join(repoRoot, 'src'), join(dir, 'src'), { recursive: true });
    for (const file of ['tsup.config.ts', 'tsconfig.json', 'package.json'])
      cpSync(join(repoRoot, file), join(dir, file));
    edit(dir);
    return dir;
  };

  const check = (source: string | undefined, args: string[], json: string) => {
    const run = spawnSync(
      process.execPath,
      ['bench/run.mjs', '--quick', '--check', ...args, `--json=${json}`],
      {
        cwd: repoRoot,
        env: { ...process.env, ...(source ? { BENCH_SRC: source } : {}) },
        encoding: 'utf8',
        timeout: 280_000,
      },
    );
    const figures = (() => {
      try {
        return (JSON.parse(readFileSync(json, 'utf8')) as { figures: { id: string; ratio?: number }[] })
          .figures;
      } catch {
        return [];
      }
    })();
    return { status: run.status, output: `${run.stdout}\n${run.stderr}`, figures };
  };

  it('fails when the main entry grows over its size budget', { timeout: 300_000 }, () => {
    const source = brokenCopy('hp-oversized', (dir) => {
      // 8 KB of random bytes, base64: ~11 KB that gzip cannot shrink, on top of ~28 KB.
      const padding = randomBytes(8 * 1024).toString('base64');
      const index = join(dir, 'src', 'index.ts');
      writeFileSync(
        index,
        `${readFileSync(index, 'utf8')}\nexport const __padding = ${JSON.stringify(padding)};\n`,
      );
    });
    const { status, output } = check(source, ['--only=size'], join(source, 'results.json'));
    expect(output).toMatch(/bench:check FAILED — 1 budget\(s\) broken or not measurable: size\.main/);
    expect(status).toBe(1);
  });

  it(
    'fails when the Node adapter gets slower per request than the node:http budget allows',
    { timeout: 600_000 },
    () => {
      const routeArgs = ['--only=routes', '--routes=node', '--amount=2000'];
      const source = brokenCopy('hp-slow-route', (dir) => {
        // Wherever toNodeListener is defined: rename it and export a wrapper that adds ~0.5 ms of
        // busy work to every request (several times the whole bare route's CPU per request).
        const files = readdirSync(join(dir, 'src', 'callbacks'), { recursive: true, encoding: 'utf8' })
          .filter((file) => file.endsWith('.ts'))
          .map((file) => join(dir, 'src', 'callbacks', file));
        const definition = /export (function|const) toNodeListener\b/;
        const file = files.find((path) => definition.test(readFileSync(path, 'utf8')));
        expect(file).toBeDefined();
        const text = readFileSync(file!, 'utf8').replace(definition, '$1 toNodeListenerUnslowed');
        writeFileSync(
          file!,
          `${text}
export function toNodeListener(...args: Parameters<typeof toNodeListenerUnslowed>): ReturnType<typeof toNodeListenerUnslowed> {
  const listener = toNodeListenerUnslowed(...args) as (...call: unknown[]) => unknown;
  return ((...call: unknown[]) => {
    for (const until = performance.now() + 0.5; performance.now() < until; );
    return listener(...call);
  }) as ReturnType<typeof toNodeListenerUnslowed>;
}
`,
        );
      });
      const broken = check(source, routeArgs, join(source, 'results.json'));
      expect(broken.output).toMatch(
        /bench:check FAILED — \d+ budget\(s\) broken or not measurable: .*route\.node\.cpu/,
      );
      expect(broken.status).toBe(1);
      // Before failing, the check measured the figure's two servers again, twice: a regression
      // reads the same in every round (noise does not), and the verdict is the median of all four.
      expect(
        broken.output.match(/route\.node\.cpu beyond the check: a confirming round of sdk-node, bare-node/g),
      ).toHaveLength(2);
      const brokenNode = broken.figures.find((figure) => figure.id === 'route.node.cpu') as
        { ratios?: number[] } | undefined;
      expect(brokenNode?.ratios).toHaveLength(4);

      // The same check on the SDK as it is: the figure moved by what the change added (~0.5 ms
      // against a bare route of well under 0.2 ms), not by noise or an unrelated failure.
      const unchanged = check(undefined, routeArgs, join(source, '..', 'unchanged.json'));
      const ratioOf = (figures: { id: string; ratio?: number }[]) =>
        figures.find((figure) => figure.id === 'route.node.cpu')?.ratio ?? Number.NaN;
      expect(ratioOf(unchanged.figures), unchanged.output).toBeGreaterThan(0);
      expect(ratioOf(broken.figures) - ratioOf(unchanged.figures)).toBeGreaterThan(2.5);
    },
  );

  it('passes on the SDK as it is', { timeout: 300_000 }, () => {
    const run = spawnSync(process.execPath, ['bench/run.mjs', '--quick', '--check', '--only=size'], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(`${run.stdout}`).toContain('bench:check passed — every budget holds');
    expect(run.status).toBe(0);
  });
});
