// Issue 6's "a change that breaks a budget fails CI": the judging rules of `npm run bench:check`,
// and the real check run on copies of the SDK with a budget broken on purpose — a bundle over its
// size budget, and a parseCallback slowed past its ratio — each making the check exit 1 and name
// the figure. The copies are built and measured by the bench itself (`BENCH_SRC`), next to the
// same peers, exactly as CI runs it.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JS module of bench/, no type declarations
import { judge, noiseMargin, passes } from '../../bench/lib/figures.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

type Status = 'met' | 'margin' | 'MISSED' | 'n/a' | 'info';
const status = (figure: object, check = true): Status => judge(figure, { check }) as Status;
const ratio = (value: number, goal: { max?: number; min?: number }, extra: object = {}) => ({
  id: 'x',
  label: 'x',
  unit: 'ratio',
  goal,
  ratio: value,
  ...extra,
});

describe('bench:check judging', () => {
  it('passes a ratio within its goal and fails one beyond the noise margin', () => {
    expect(noiseMargin).toBe(1.2);
    expect(status(ratio(1.2, { max: 1.25 }))).toBe('met');
    expect(status(ratio(1.4, { max: 1.25 }))).toBe('margin');
    expect(passes(status(ratio(1.4, { max: 1.25 })))).toBe(true);
    expect(status(ratio(1.6, { max: 1.25 }))).toBe('MISSED');
    expect(passes(status(ratio(1.6, { max: 1.25 })))).toBe(false);
    expect(status(ratio(0.45, { min: 0.5 }))).toBe('margin');
    expect(status(ratio(0.4, { min: 0.5 }))).toBe('MISSED');
  });

  it('gives no margin outside check mode, nor to sizes', () => {
    expect(status(ratio(1.4, { max: 1.25 }), false)).toBe('MISSED');
    const size = { id: 's', label: 's', unit: 'bytes', goal: { max: 30 * 1024 }, value: 30 * 1024 + 1 };
    expect(status(size)).toBe('MISSED');
    expect(status({ ...size, value: 30 * 1024 })).toBe('met');
  });

  it('fails a figure that could not be measured, and never fails an informational one', () => {
    expect(passes(status({ ...ratio(1, { max: 1.25 }), error: 'suite crashed' }))).toBe(false);
    expect(status(ratio(0.1, { min: 0.5 }, { informational: true }))).toBe('info');
    expect(passes('info')).toBe(true);
  });

  it('judges memory by boundedness', () => {
    const memory = { id: 'm', label: 'm', unit: 'memory', goal: {}, value: 1 };
    expect(status({ ...memory, bounded: true })).toBe('met');
    expect(status({ ...memory, bounded: false })).toBe('MISSED');
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

  const check = (source: string, only: string) => {
    const run = spawnSync(
      process.execPath,
      ['bench/run.mjs', '--quick', '--check', `--only=${only}`, `--json=${join(source, 'results.json')}`],
      { cwd: repoRoot, env: { ...process.env, BENCH_SRC: source }, encoding: 'utf8', timeout: 240_000 },
    );
    return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
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
    const { status, output } = check(source, 'size');
    expect(output).toMatch(/bench:check FAILED — 1 budget\(s\) broken or not measurable: size\.main/);
    expect(status).toBe(1);
  });

  it('fails when parseCallback gets slower than its ratio to JSON.parse allows', { timeout: 300_000 }, () => {
    const source = brokenCopy('hp-slow-parse', (dir) => {
      const parse = join(dir, 'src', 'callbacks', 'parse.ts');
      const text = readFileSync(parse, 'utf8');
      const signature =
        'export function parseCallback(body: unknown, options?: ParseCallbackOptions): CallbackEvent {';
      expect(text).toContain(signature);
      // ~3 µs of busy work per call: a few times JSON.parse of a callback.
      writeFileSync(
        parse,
        text.replace(
          signature,
          `${signature}\n  for (const until = performance.now() + 0.003; performance.now() < until; );`,
        ),
      );
    });
    const { status, output } = check(source, 'parse');
    expect(output).toMatch(/bench:check FAILED — \d+ budget\(s\) broken or not measurable: .*parse\.string/);
    expect(status).toBe(1);
  });

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
