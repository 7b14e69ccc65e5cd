// What each import adds to a cold `node` start (spawned processes timed by mitata, interleaved
// with a bare start). Run: node --expose-gc bench/experiments/import-cost.mjs
import { spawnSync } from 'node:child_process';
import { compare } from '../lib/measure.mjs';
import { distDir } from '../lib/sdk.mjs';

const run = (code) => () =>
  spawnSync(process.execPath, ['--input-type=module', '-e', code], { stdio: 'ignore', cwd: distDir });
const bare = run('');
const options = { min_samples: 10, max_samples: 10, min_cpu_time: 0, warmup_samples: 1, batch_threshold: 0 };
for (const [name, code] of Object.entries({
  "import 'ky'": "import 'ky';",
  "import 'zod/v4/mini'": "import 'zod/v4/mini';",
  "import 'zod'": "import 'zod';",
  'main entry (dist/index.js)': "import './index.js';",
  './callbacks (dist/callbacks/index.js)': "import './callbacks/index.js';",
  "import 'stripe'": `import ${JSON.stringify(import.meta.resolve('stripe'))};`,
  "import 'openai'": `import ${JSON.stringify(import.meta.resolve('openai'))};`,
})) {
  const result = await compare({ ours: run(code), baseline: bare, rounds: 3, options });
  console.log(
    `${name.padEnd(40)} +${((result.ours - result.baseline) / 1e6).toFixed(0).padStart(3)} ms over a bare node start (${(result.baseline / 1e6).toFixed(0)} ms)`,
  );
}
