// What `npm publish` would upload must be the build and the three documents, nothing else: no
// sources, tests, examples, fixtures, lockfiles or stray files. Reads `npm pack --dry-run --json`
// (which runs no lifecycle scripts here: --ignore-scripts) and fails on anything outside
// dist/, README.md, LICENSE and package.json, or when one of those is missing.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const stdout = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
  cwd: root,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'pipe'],
});
const [pack] = JSON.parse(stdout);
const paths = pack.files.map((file) => file.path).sort();

const allowed = (path) => path.startsWith('dist/') || ['README.md', 'LICENSE', 'package.json'].includes(path);
const unexpected = paths.filter((path) => !allowed(path));
const required = [
  'package.json',
  'README.md',
  'LICENSE',
  'dist/index.js',
  'dist/index.cjs',
  'dist/index.d.ts',
];
const missing = required.filter((path) => !paths.includes(path));
// Source maps, tests or declaration maps that point at files we do not ship are noise too.
const strayInDist = paths.filter(
  (path) => path.startsWith('dist/') && /\.(map|test\.[cm]?[jt]s|tsbuildinfo)$/.test(path),
);

console.log(
  `check-pack: ${pack.name}@${pack.version}, ${paths.length} files, ` +
    `${(pack.size / 1024).toFixed(1)} KB packed, ${(pack.unpackedSize / 1024).toFixed(1)} KB unpacked`,
);
const problems = [
  ...unexpected.map((path) => `unexpected file in the package: ${path}`),
  ...missing.map((path) => `missing from the package: ${path} (run \`npm run build\` first?)`),
  ...strayInDist.map((path) => `stray build artefact in the package: ${path}`),
];
if (problems.length > 0) {
  for (const problem of problems) console.error(`check-pack: ${problem}`);
  process.exit(1);
}
