// Every ```ts block of README.md and docs/*.md type-checks against the package's types, as pasted
// into a merchant's strict TypeScript project. Blocks import what they use (a merchant pastes
// them whole); they may use the context variables of the prelude in ./snippets.ts (`client`,
// `request`, …) without declaring them. A block fenced ```ts no-check is illustration only.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSnippets, markdownBlocks, root } from './snippets.js';

const files = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/**
 * Files whose blocks are known not to compile yet (a file another change is rewriting); each must
 * still have a failing block, so an entry goes once its file compiles. Empty: every file is checked.
 */
const pendingFiles = new Set<string>([]);

describe.each(files)('%s', (file) => {
  const blocks = markdownBlocks(file);
  const problems =
    blocks.length === 0 ? new Map<string, string[]>() : checkSnippets(blocks, { autoImport: false });

  if (pendingFiles.has(file)) {
    it('still has a block that does not compile (remove it from pendingFiles once all do)', () => {
      expect(problems.size).toBeGreaterThan(0);
    });
  } else {
    it('every ts block compiles', () => {
      expect(Object.fromEntries(problems)).toEqual({});
    });
  }
});
