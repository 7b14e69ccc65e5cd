import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'callbacks/index': 'src/callbacks/index.ts',
    'sandbox/index': 'src/sandbox/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/msw/index': 'src/testing/msw/index.ts',
    'redis/index': 'src/redis/index.ts',
    'transactions/index': 'src/transactions/index.ts',
    cli: 'src/cli.ts',
  },
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  target: 'es2022',
  platform: 'neutral',
  splitting: true,
  treeshake: true,
  sourcemap: false,
  clean: true,
  // Peer and runtime dependencies stay imports; merchants' bundlers resolve them.
  external: ['zod', 'ky', 'hono', '@hono/node-server', 'commander', 'msw', 'ioredis'],
});
