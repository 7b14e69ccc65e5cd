// A ts block of the docs, run as a merchant pastes it: the block that contains `marker`, with the
// package's name and subpaths resolved to its source, written to .tmp/ and imported as a new
// module each call.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TransactionTracker } from '../../src/transactions/index.js';

/** The shape of docs/transactions.md's `expireStale` cron. */
export type ExpireStale = (
  tracker: TransactionTracker,
  cancelOrder: (reference: string) => Promise<void>,
  holdPayout?: (reference: string) => Promise<void>,
) => Promise<void>;

let loads = 0;
const scratch = resolve('.tmp', `documented-${process.pid}`);

/** The module of the ts block in `doc` (a path from the repo's root) that contains `marker`. */
export async function documentedModule<T>(doc: string, marker: string): Promise<T> {
  const text = await readFile(doc, 'utf8');
  const block = [...text.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .find((code) => code.includes(marker));
  if (block === undefined) throw new Error(`${doc} has no ts block with ${marker}`);
  const code = block.replace(
    /from 'hosted-payments(?:\/([\w/]+))?'/g,
    (_, sub?: string) =>
      `from ${JSON.stringify(sub === undefined ? resolve('src', 'index.ts') : resolve('src', sub, 'index.ts'))}`,
  );
  await mkdir(scratch, { recursive: true });
  const file = join(scratch, `block-${loads++}.ts`);
  await writeFile(file, code);
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as T;
}

/** The function `name` exported by its block of docs/transactions.md. */
export async function documentedFunction<T>(name: string, doc = 'docs/transactions.md'): Promise<T> {
  const module = await documentedModule<Record<string, T>>(doc, `export async function ${name}(`);
  const found = module[name];
  if (found === undefined) throw new Error(`${doc}'s block does not export ${name}`);
  return found;
}

/** Removes the files the blocks were written to (an afterAll of the test file). */
export async function removeDocumentedFiles(): Promise<void> {
  await rm(scratch, { recursive: true, force: true });
}
