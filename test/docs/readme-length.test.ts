// CONTRIBUTING.md ("Documentation"): the README is for merchants and stays task-ordered and short,
// at most 300 lines; reference material lives in docs/.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('the README is at most 300 lines', () => {
  const lines = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    .replace(/\n$/, '')
    .split('\n');
  expect(lines.length).toBeLessThanOrEqual(300);
});
