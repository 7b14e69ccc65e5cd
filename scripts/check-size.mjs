// Size budget of the two entries a merchant ships to a browser-like or edge runtime: each built
// ESM entry (dist/) is bundled by esbuild the way a merchant's bundler would (platform neutral,
// browser conditions, dependencies such as zod and ky included, minified), then gzipped with
// node:zlib at level 9. Fails when an entry is over its budget. Run after `npm run build`.
//   node scripts/check-size.mjs          # table, exit 1 when over budget
//   node scripts/check-size.mjs --json   # the numbers as JSON
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { sizeCeilings } from './size-ceilings.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const KB = 1024;

const entries = [
  { name: 'hosted-payments', file: 'dist/index.js', budget: sizeCeilings.main },
  { name: 'hosted-payments/callbacks', file: 'dist/callbacks/index.js', budget: sizeCeilings.callbacks },
];

const format = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

const results = [];
for (const entry of entries) {
  if (!existsSync(new URL(entry.file, `file://${root}`))) {
    console.error(`check-size: ${entry.file} is missing; run \`npm run build\` first`);
    process.exit(1);
  }
  const output = await build({
    absWorkingDir: root,
    entryPoints: [entry.file],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['worker', 'browser', 'import', 'default'],
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = output.outputFiles[0].contents;
  const gzip = gzipSync(code, { level: 9 }).length;
  const inputs = Object.entries(output.metafile.outputs[Object.keys(output.metafile.outputs)[0]].inputs);
  const packages = new Map();
  for (const [path, { bytesInOutput }] of inputs) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const key = match ? match[1] : 'hosted-payments';
    packages.set(key, (packages.get(key) ?? 0) + bytesInOutput);
  }
  results.push({
    name: entry.name,
    minified: code.length,
    gzip,
    budget: entry.budget,
    ok: gzip <= entry.budget,
    // Minified bytes each package contributes, largest first (before gzip).
    composition: Object.fromEntries([...packages].sort((a, b) => b[1] - a[1])),
  });
}

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(results, null, 2));
} else {
  for (const r of results) {
    const parts = Object.entries(r.composition)
      .map(([name, bytes]) => `${name} ${format(bytes)}`)
      .join(', ');
    console.log(
      `${r.ok ? 'ok  ' : 'OVER'} ${r.name.padEnd(26)} ${format(r.gzip).padStart(8)} min+gzip ` +
        `(budget ${format(r.budget)}; ${format(r.minified)} minified: ${parts})`,
    );
  }
}
if (results.some((r) => !r.ok)) {
  console.error('check-size: over budget; see the composition above for what grew');
  process.exit(1);
}
