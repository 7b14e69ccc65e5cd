import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { fileURLToPath } from 'node:url';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.tmp/**',
      'docs/api/**',
      'coverage/**',
      'bench/node_modules/**',
      'test/runtimes/node_modules/**',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  // Type-aware rules on every TypeScript file (tsconfig.json's project): a promise nobody awaits
  // or handles, or one passed where a callback's return value is ignored, is a bug in a payment
  // SDK — a failure that nobody sees.
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: fileURLToPath(new URL('.', import.meta.url)) },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  // The shipped code gets the whole type-checked recommended set.
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ['src/**/*.ts'] })),
  {
    files: ['examples/**', 'scripts/**', 'bench/**', 'src/cli.ts', 'test/**'],
    rules: { 'no-console': 'off' },
  },
);
