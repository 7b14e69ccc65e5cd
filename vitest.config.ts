import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/runtimes/fixtures/**'],
    setupFiles: ['test/helpers/fail-on-console.ts'],
    // The JSON report is what .ci/run counts for its closing `tests: N passed, M failed` line.
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
