// The oldest TypeScript we support, 5.7 (hono's declarations, which the sandbox's types use,
// need 5.7's generic Uint8Array; zod 4 needs 5.5), pinned in ./typescript/package.json, checks a
// merchant's file against the built declarations in every module resolution
// (./consumer-typecheck.ts).
import { fileURLToPath } from 'node:url';
import { describeConsumerTypeCheck } from './consumer-typecheck.js';

await describeConsumerTypeCheck(fileURLToPath(new URL('typescript', import.meta.url)));
