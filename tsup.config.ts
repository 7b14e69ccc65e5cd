import { defineConfig } from 'tsup';

// The sandbox's web server (hono, @hono/node-server) and the CLI's argument parser (commander)
// are devDependencies bundled into the code that uses them, so a merchant's production
// node_modules holds ky and nothing else of ours, and `npx hosted-payments sandbox` still runs.
const bundled = ['hono', '@hono/node-server', 'commander'];

export default defineConfig([
  {
    // The library. One build for every entry: entries share chunks, so an error class thrown by
    // the sandbox is the very class the main entry exports. hono is bundled only into the chunks
    // the sandbox and testing entries load.
    entry: {
      index: 'src/index.ts',
      'callbacks/index': 'src/callbacks/index.ts',
      'sandbox/index': 'src/sandbox/index.ts',
      'testing/index': 'src/testing/index.ts',
      'testing/msw/index': 'src/testing/msw/index.ts',
      'redis/index': 'src/redis/index.ts',
      'transactions/index': 'src/transactions/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
    target: 'es2022',
    platform: 'neutral',
    splitting: true,
    treeshake: true,
    sourcemap: false,
    // The second build writes cli.js into the same folder at the same time.
    clean: ['!cli.js'],
    // Runtime and peer dependencies stay imports that the merchant's install resolves.
    external: ['zod', 'ky', 'msw', 'ioredis'],
    noExternal: bundled,
  },
  {
    // The `hosted-payments` bin: one self-contained ES module for Node. commander is CommonJS and
    // requires Node built-ins, which an ES module bundle can only do through createRequire.
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    treeshake: true,
    sourcemap: false,
    clean: false,
    external: ['zod', 'ky'],
    noExternal: bundled,
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  },
]);
