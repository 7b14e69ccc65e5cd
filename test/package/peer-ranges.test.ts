// Each peer range names the versions the tests run, and only them: the root install's (the newest
// major a merchant gets today) and the one a side folder pins for another major. A project that
// has a tested version installs the package (scripts/check-pack.mjs asks npm itself); here the
// range is held to every tested version, so a new major in the root install or a side folder
// cannot land without the range, nor the range without the tests. zod's range is also held to
// its floors: each alternative (`^3.25.76`, `^4.1.0`) starts at a version the runtime matrix pins.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const json = <T>(path: string): T => JSON.parse(readFileSync(join(root, path), 'utf8')) as T;
const own = json<{ peerDependencies: Record<string, string> }>('package.json');

/** The tested versions of each peer: where they come from, and the version. */
const tested: Record<string, [string, string][]> = {
  ioredis: [
    ['the root install', json<{ version: string }>('node_modules/ioredis/package.json').version],
    [
      'test/redis/ioredis-5',
      json<{ dependencies: { ioredis: string } }>('test/redis/ioredis-5/package.json').dependencies.ioredis,
    ],
  ],
  msw: [
    ['the root install', json<{ version: string }>('node_modules/msw/package.json').version],
    [
      'test/testing/msw-3',
      json<{ dependencies: { msw: string } }>('test/testing/msw-3/package.json').dependencies.msw,
    ],
  ],
  zod: [
    ['the root install', json<{ version: string }>('node_modules/zod/package.json').version],
    ['the runtime matrix (zod-oldest, the floor of zod 4)', runtimeMatrixZod('zod-oldest')],
    ['the runtime matrix (zod-oldest-3, the floor of zod 3)', runtimeMatrixZod('zod-oldest-3')],
  ],
};

/** The exact zod version the runtime matrix installs under `alias` (`"<alias>": "npm:zod@M.m.p"`). */
function runtimeMatrixZod(alias: string): string {
  const spec = json<{ dependencies: Record<string, string> }>('test/runtimes/package.json').dependencies[
    alias
  ];
  if (spec === undefined) throw new Error(`test/runtimes/package.json installs no ${alias}`);
  return spec.replace(/^npm:zod@/, '');
}

/** The floor (`M.m.p`) of each alternative of a range of the form `^3.25.76 || ^4.1.0`. */
function caretFloors(range: string): string[] {
  return range.split('||').map((alternative) => {
    const match = /^\s*\^(\d+\.\d+\.\d+)\s*$/.exec(alternative);
    if (match === null) throw new Error(`'${alternative.trim()}' is not of the form ^M.m.p`);
    return match[1]!;
  });
}

/**
 * Whether a range of the form package.json uses (`^5.0.0 || ^6.0.0`) admits `version` (an exact
 * `M.m.p`); a range of any other form fails the test rather than being half read.
 */
function caretRangeAdmits(range: string, version: string): boolean {
  const exact = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (exact === null) throw new Error(`'${version}' is not an exact version`);
  const [major, minor, patch] = exact.slice(1).map(Number) as [number, number, number];
  return range.split('||').some((alternative) => {
    const match = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(alternative);
    if (match === null) throw new Error(`'${alternative.trim()}' is not of the form ^M.m.p`);
    const [m, n, p] = match.slice(1).map(Number) as [number, number, number];
    return major === m && (minor > n || (minor === n && patch >= p));
  });
}

describe('the peer ranges', () => {
  it('start each major of zod at a version the runtime matrix tests, and no other', () => {
    // A floor that nothing runs on would let npm install a zod the SDK was never tried with.
    const floors = tested
      .zod!.filter(([where]) => where !== 'the root install')
      .map(([, version]) => version);
    expect(caretFloors(own.peerDependencies.zod!).sort()).toEqual(floors.sort());
  });

  it('list exactly the peers whose tested versions are known here', () => {
    expect(Object.keys(own.peerDependencies).sort()).toEqual(Object.keys(tested).sort());
  });

  describe.each(Object.entries(tested))('%s', (name, versions) => {
    it.each(versions)('admits the version %s tests (%s)', (_where, version) => {
      expect(
        caretRangeAdmits(own.peerDependencies[name]!, version),
        `${name}@${version} against ${own.peerDependencies[name]}`,
      ).toBe(true);
    });
  });

  it('reads the form it knows, and refuses another', () => {
    expect(caretRangeAdmits('^5.0.0 || ^6.0.0', '6.0.0')).toBe(true);
    expect(caretRangeAdmits('^5.2.0', '5.1.9')).toBe(false);
    expect(caretRangeAdmits('^5.2.0', '6.0.0')).toBe(false);
    expect(() => caretRangeAdmits('>=5', '5.0.0')).toThrow(/not of the form/);
    expect(caretFloors('^3.25.76 || ^4.1.0')).toEqual(['3.25.76', '4.1.0']);
    expect(() => caretFloors('^4.1.0 || >=5')).toThrow(/not of the form/);
  });
});
