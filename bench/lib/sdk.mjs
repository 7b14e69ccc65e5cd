// Builds the package exactly as `npm run build` does (the repo's tsup.config.ts: same entries,
// splitting, target, externals) but JS only and into bench/node_modules/.hosted-payments/dist (ignored by git, eslint and prettier), so the bench never clobbers the
// dist/ another process may be testing, and never measures a stale one. Then loads the two public
// entries. zod and ky stay external imports, resolved from the repo's node_modules, as a
// merchant's install resolves them.
import { existsSync, statSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { basename, join, resolve } from 'node:path';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
// BENCH_SRC=<dir with src/ and tsup.config.ts> measures another tree (e.g. a patched copy of src/,
// to weigh a change before making it) side by side with the same peers.
const sourceRoot = process.env.BENCH_SRC ? resolve(process.env.BENCH_SRC) : repoRoot;
export const distDir = join(
  repoRoot,
  'bench',
  'node_modules',
  '.hosted-payments',
  sourceRoot === repoRoot ? 'dist' : `dist-${basename(sourceRoot)}`,
);
export const mainEntry = join(distDir, 'index.js');
export const callbacksEntry = join(distDir, 'callbacks', 'index.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export async function buildSdk({ force = false } = {}) {
  const fresh =
    !force &&
    existsSync(mainEntry) &&
    statSync(mainEntry).mtimeMs >
      Math.max(newestMtime(join(sourceRoot, 'src')), statSync(join(sourceRoot, 'tsup.config.ts')).mtimeMs);
  if (fresh) return;
  // chdir first: esbuild (loaded by tsup) takes its default working directory when it is loaded.
  const cwd = process.cwd();
  process.chdir(sourceRoot);
  const startedAt = Date.now();
  try {
    const { build } = await import('tsup');
    await build({ outDir: distDir, dts: false, silent: process.env.BENCH_DEBUG === undefined, clean: true });
  } finally {
    process.chdir(cwd);
  }
  // tsup reports a failed build only in its (silenced) log: check that the entries were written.
  if (
    !existsSync(mainEntry) ||
    statSync(mainEntry).mtimeMs < startedAt - 1000 ||
    !existsSync(callbacksEntry)
  ) {
    throw new Error(`building the package failed; run \`npx tsup\` in ${sourceRoot} to see why`);
  }
}

/** Loads the built entries; a missing export is `undefined` (its figures then read "n/a"). */
export async function loadSdk() {
  const main = await import(pathToFileURL(mainEntry).href);
  const callbacks = await import(pathToFileURL(callbacksEntry).href);
  return { main, callbacks };
}
