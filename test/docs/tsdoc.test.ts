// Every public export of every entry point carries TSDoc with an `@example` (STYLE.md habit 9):
// the README and the TypeDoc reference are built from the same words, so a missing example is a
// gap a merchant sees.
import { describe, expect, it } from 'vitest';
import ts from 'typescript';

const entries = [
  'src/index.ts',
  'src/callbacks/index.ts',
  'src/sandbox/index.ts',
  'src/testing/index.ts',
  'src/redis/index.ts',
  'src/transactions/index.ts',
];

const program = ts.createProgram(entries, {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
});
const checker = program.getTypeChecker();

function exportsWithoutExample(entry: string): string[] {
  const source = program.getSourceFile(entry);
  if (source === undefined) throw new Error(`${entry} not found`);
  const module = checker.getSymbolAtLocation(source);
  if (module === undefined) return [];
  const missing: string[] = [];
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const tags = symbol.getJsDocTags(checker);
    const hasDoc = symbol.getDocumentationComment(checker).length > 0;
    if (!hasDoc || !tags.some((tag) => tag.name === 'example')) missing.push(exported.getName());
  }
  return missing;
}

describe('TSDoc', () => {
  it.each(entries)('every export of %s has documentation with an @example', (entry) => {
    expect(exportsWithoutExample(entry)).toEqual([]);
  });
});
