// The ts blocks of docs/sandbox.md and docs/testing.md, and those of the README's "Sandbox and
// testing" section, run as pasted: each is bundled as its own script and run with this Node. The package's own name resolves to its source entries here, as
// tsconfig's paths do for the examples.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForNode, runNodeScript } from './helpers.js';

let scratch: string;
beforeAll(async () => {
  // Under the repository (in the ignored .tmp/), so bare imports such as msw resolve.
  await mkdir('.tmp', { recursive: true });
  scratch = await mkdtemp(join('.tmp', 'doc-snippets-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const fromSource = (code: string): string =>
  code.replace(/from 'hosted-payments(\/[\w/]+)?'/g, (_, sub: string | undefined) =>
    JSON.stringify(resolve('src', sub ? `${sub.slice(1)}/index.ts` : 'index.ts')).replace(/^/, 'from '),
  );

/** Where the runnable blocks are: a whole file, or one `## ` section of it. */
const sources: Record<string, { file: string; section?: string }> = {
  'docs/sandbox.md': { file: 'docs/sandbox.md' },
  'docs/testing.md': { file: 'docs/testing.md' },
  'README.md': { file: 'README.md', section: '## Sandbox and testing' },
};

async function blocks({ file, section }: { file: string; section?: string }): Promise<string[]> {
  let text = await readFile(file, 'utf8');
  if (section !== undefined) {
    const start = text.indexOf(`\n${section}\n`);
    if (start === -1) throw new Error(`${file} has no section "${section}"`);
    const end = text.indexOf('\n## ', start + 1);
    text = text.slice(start, end === -1 ? undefined : end);
  }
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

const expectations: Record<string, readonly RegExp[]> = {
  'docs/sandbox.md#1': [
    /your route got payment\.mobile_money\.succeeded for ORDER-1/,
    /1 callback: 1 delivered/,
  ],
  'docs/sandbox.md#2': [/paid: true/, /redirectedTo: 'https:\/\/shop\.example\/thanks'/],
  'docs/testing.md#1': [/^200 checkout\.succeeded 5005\n1\n$/],
  'docs/testing.md#2': [/^payment\.mobile_money\.failed\n123456789012 250\n$/],
  'docs/testing.md#3': [/\[ 'payment\.mobile_money\.succeeded' \] true/],
  'docs/testing.md#4': [
    /^an HTML error page from a proxy: ApiError 502\na dropped connection: ConnectionError sent: true\nno answer: TimeoutError\na 2xx of another shape: ApiError 200\n$/,
  ],
  'docs/testing.md#5': [/^succeeded\npaid\n$/],
  'README.md#1': [/your route got payment\.mobile_money\.succeeded for ORDER-1/, /1 callback: 1 delivered/],
};

describe.each(Object.keys(sources))('%s', (file) => {
  it('every ts block runs as pasted and prints what its comments say', { timeout: 120_000 }, async () => {
    const found = await blocks(sources[file]!);
    expect(found.length).toBeGreaterThan(0);
    for (const [index, code] of found.entries()) {
      const name = `${file.replace(/\W+/g, '-')}-${index + 1}`;
      const entry = join(scratch, `${name}.ts`);
      await writeFile(entry, fromSource(code));
      const dir = await bundleForNode(name, entry);
      const result = await runNodeScript(join(dir, `${name}.js`), 30_000);
      await rm(dir, { recursive: true, force: true });
      const label = `${file}#${index + 1}`;
      expect(result.stderr, label).toBe('');
      expect(result.code, `${label}\n${result.stdout}`).toBe(0);
      for (const pattern of expectations[label] ?? []) expect(result.stdout, label).toMatch(pattern);
    }
  });
});
