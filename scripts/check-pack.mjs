// What `npm publish` would upload, checked twice (run after `npm run build`):
// 1. The file list must be the build and the three documents, nothing else: no sources, tests,
//    examples, fixtures, lockfiles or stray files. Reads `npm pack --dry-run --json` (which runs
//    no lifecycle scripts here: --ignore-scripts) and fails on anything outside dist/, README.md,
//    LICENSE and package.json, or when one of those is missing.
// 2. A fresh consumer of the packed tarball, installed as a merchant's production install
//    (`--omit=dev --omit=optional`, next to its own zod, the one required peer), gets ky and
//    nothing else from us, and `npx hosted-payments sandbox` starts there (the sandbox's web
//    server and the CLI's parser are bundled into dist/).
// 3. A merchant whose project already has a peer at a version the tests run against (the root
//    install's, the oldest major's side folder, e.g. test/redis/ioredis-5, and for zod each floor
//    the runtime matrix pins, zod 3.25.76 among them) can install the tarball next to it: npm
//    resolves the tree (`npm install --dry-run`) without ERESOLVE.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

const consumer = mkdtempSync(join(tmpdir(), 'hosted-payments-consumer-'));
try {
  await checkConsumer(consumer);
} finally {
  rmSync(consumer, { recursive: true, force: true });
}

/** What a merchant's production install of the tarball holds, and whether the sandbox bin runs there. */
async function checkConsumer(dir) {
  const run = (args) =>
    execFileSync(npm, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [{ filename }] = JSON.parse(
    run(['pack', '--json', '--ignore-scripts', '--pack-destination', dir, root]),
  );
  const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  writeConsumer(dir, `./${filename}`, own);
  run(['install', '--omit=dev', '--omit=optional', '--prefer-offline', '--no-audit', '--no-fund']);

  // Every package in the production tree, however deep.
  const tree = JSON.parse(run(['ls', '--all', '--json', '--omit=dev', '--omit=optional']));
  const installed = new Set();
  const walk = (node) => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      // An unmet optional peer (msw, ioredis) is listed without a version: not installed.
      if (child.version === undefined) continue;
      installed.add(name);
      walk(child);
    }
  };
  walk(tree);
  const expected = new Set(['hosted-payments', 'zod', ...Object.keys(own.dependencies ?? {})]);
  const extra = [...installed].filter((name) => !expected.has(name)).sort();
  if (extra.length > 0) {
    fail(
      `a production install of the package also installs ${extra.join(', ')} (allowed: ${[...expected].join(', ')})`,
    );
  }
  console.log(`check-pack: a production install holds ${[...installed].sort().join(', ')}`);

  checkTypes(dir);
  checkPeers(dir, filename, own);

  const url = await startSandboxBin(dir);
  const response = await fetch(url);
  await response.body?.cancel();
  console.log(
    `check-pack: \`npx hosted-payments sandbox\` ran from the install (${url} answered ${response.status})`,
  );
}

/**
 * The entries' declarations type-check in the production install with skipLibCheck off: they may
 * name no package that install lacks (hono, bundled into the sandbox, is a devDependency).
 * `./testing/msw` is the exception: it hands out msw handlers, so it needs msw, an optional peer
 * the merchant installs to use it; the type tests check it next to msw.
 */
function checkTypes(dir) {
  const entries = [
    'hosted-payments',
    'hosted-payments/callbacks',
    'hosted-payments/redis',
    'hosted-payments/sandbox',
    'hosted-payments/testing',
    'hosted-payments/transactions',
  ];
  writeFileSync(
    join(dir, 'consumer.ts'),
    entries.map((entry, index) => `export * as entry${index} from '${entry}';`).join('\n'),
  );
  const args = [
    join(root, 'node_modules/typescript/bin/tsc'),
    '--noEmit',
    '--strict',
    '--skipLibCheck',
    'false',
    '--target',
    'es2022',
    '--lib',
    'es2023,dom,dom.iterable',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--typeRoots',
    join(root, 'node_modules/@types'),
    '--types',
    'node',
    'consumer.ts',
  ];
  try {
    execFileSync(process.execPath, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    fail(
      `the declarations of ${entries.join(', ')} do not type-check in a production install:\n${error.stdout}${error.stderr}`,
    );
  }
  console.log(`check-pack: ${entries.join(', ')} type-check in the production install (skipLibCheck off)`);
}

/**
 * A merchant's package.json: the tarball (`tarball`, a path from `dir`), its own zod (the one
 * required peer), and `extra`.
 */
function writeConsumer(dir, tarball, own, extra = {}) {
  const dependencies = { 'hosted-payments': `file:${tarball}`, zod: own.devDependencies.zod, ...extra };
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }),
  );
}

/**
 * The tarball installs (npm's resolution, `--dry-run`) next to each tested version of each peer:
 * the root devDependency, and the versions pinned by the side folders that test the other majors
 * (for zod, the runtime matrix's `zod-oldest` and `zod-oldest-3`, installed there under an alias).
 */
function checkPeers(dir, filename, own) {
  const pinned = (folder, name) =>
    JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')).dependencies[name].replace(
      /^npm:[^@]+@/,
      '',
    );
  const tested = {
    ioredis: [own.devDependencies.ioredis, pinned('test/redis/ioredis-5', 'ioredis')],
    msw: [own.devDependencies.msw, pinned('test/testing/msw-3', 'msw')],
    zod: [
      own.devDependencies.zod,
      pinned('test/runtimes', 'zod-oldest'),
      pinned('test/runtimes', 'zod-oldest-3'),
    ],
  };
  // A folder of its own, with no lockfile or node_modules: next to the production install made
  // above, npm would keep the tree it has and never report the conflict.
  const fresh = join(dir, 'peers');
  mkdirSync(fresh);
  for (const [name, versions] of Object.entries(tested)) {
    for (const version of versions) {
      writeConsumer(fresh, `../${filename}`, own, { [name]: version });
      try {
        execFileSync(npm, ['install', '--dry-run', '--prefer-offline', '--no-audit', '--no-fund'], {
          cwd: fresh,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (error) {
        const reason =
          /Could not resolve dependency:\n[^\n]*\n[^\n]*/
            .exec(error.stderr)?.[0]
            .replace(/npm error /g, '') ?? error.stderr.split('\n')[0];
        fail(
          `a project with ${name}@${version} cannot install the package (${reason}); peerDependencies.${name} is ${own.peerDependencies[name]}`,
        );
      }
      console.log(`check-pack: the package installs next to ${name}@${version}`);
    }
  }
}

/** Starts `npx hosted-payments sandbox` on a free port, waits for its banner, stops it; resolves with its URL. */
function startSandboxBin(dir) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      npm === 'npm' ? 'npx' : 'npx.cmd',
      ['--no-install', 'hosted-payments', 'sandbox', '--port', '0'],
      {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so stopping it stops npx and the node process it started.
        detached: process.platform !== 'win32',
      },
    );
    let output = '';
    const stop = () => {
      try {
        if (process.platform === 'win32') child.kill();
        else process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`\`npx hosted-payments sandbox\` printed no banner within 30 s:\n${output}`));
    }, 30_000);
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
        // Answer the request check-pack makes first, then stop.
        setTimeout(stop, 2_000);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`\`npx hosted-payments sandbox\` exited (${signal ?? code}) before its banner:\n${output}`),
      );
    });
  }).catch((error) => fail(error.message));
}

function fail(message) {
  console.error(`check-pack: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
}
