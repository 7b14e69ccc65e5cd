// The newest TypeScript — what `npm i -D typescript` installs today, 7.x — pinned in
// ./typescript/package.json, checks a merchant's file against the built declarations in every
// module resolution it offers (../types-oldest/consumer-typecheck.ts). TypeScript 7 removed
// node10 resolution: a consumer still on it gets TypeScript's own error, which the test checks.
import { fileURLToPath } from 'node:url';
import { describeConsumerTypeCheck } from '../types-oldest/consumer-typecheck.js';

await describeConsumerTypeCheck(fileURLToPath(new URL('typescript', import.meta.url)), {
  node10: /TS5108: Option 'moduleResolution=node10' has been removed/,
});
