// Every public export of every entry point carries TSDoc with an `@example` (STYLE.md habit 9):
// the README and the TypeDoc reference are built from the same words, so a missing example is a
// gap a merchant sees.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { checkSnippets, entryPoints, root, type Snippet } from './snippets.js';

/** Every entry point the package exports (package.json `exports`), as source files. */
const entries = Object.values(entryPoints);

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
  it('covers every entry point package.json exports', () => {
    const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const specifiers = Object.keys(exports)
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? 'hosted-payments' : `hosted-payments/${key.slice(2)}`));
    expect(Object.keys(entryPoints).sort()).toEqual(specifiers.sort());
  });

  it.each(entries)('every export of %s has documentation with an @example', (entry) => {
    expect(exportsWithoutExample(entry)).toEqual([]);
  });
});

/** Every `@example` of every public export (and of the members of exported classes), with where it is written. */
function publicExamples(): { name: string; code: string | undefined; file: string }[] {
  const examples: { name: string; code: string | undefined; file: string }[] = [];
  const seen = new Set<ts.Symbol>();
  const collect = (symbol: ts.Symbol, name: string) => {
    if (seen.has(symbol)) return;
    seen.add(symbol);
    const file = relative(root, symbol.declarations?.[0]?.getSourceFile().fileName ?? '?');
    symbol
      .getJsDocTags(checker)
      .filter((tag) => tag.name === 'example')
      .forEach((tag, index) => {
        const text = ts.displayPartsToString(tag.text);
        // An example that is not a fenced block (inline `code`, prose) is kept with no code: a
        // test below refuses it, since nothing would type-check it.
        const code = /```(?:ts|typescript)?\n([\s\S]*?)```/.exec(text)?.[1];
        examples.push({ name: `${file} ${name}${index > 0 ? ` #${index + 1}` : ''}`, code, file });
      });
  };
  for (const entry of entries) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      collect(symbol, exported.getName());
      if (symbol.flags & ts.SymbolFlags.Class) {
        const instance = checker.getDeclaredTypeOfSymbol(symbol);
        for (const member of instance.getProperties())
          collect(member, `${exported.getName()}.${member.getName()}`);
        for (const member of checker.getPropertiesOfType(checker.getTypeOfSymbol(symbol))) {
          if (member.getName() !== 'prototype') collect(member, `${exported.getName()}.${member.getName()}`);
        }
      }
    }
  }
  return examples;
}

describe('TSDoc examples', () => {
  const examples = publicExamples();
  const snippets = examples.filter(
    (example): example is Snippet & { file: string } => example.code !== undefined,
  );
  const problems = checkSnippets(snippets, { autoImport: true });

  it('every @example is a fenced ```ts block (so that it is type-checked)', () => {
    expect(examples.filter((example) => example.code === undefined).map(({ name }) => name)).toEqual([]);
  });

  it('there are examples to check', () => {
    expect(examples.length).toBeGreaterThan(50);
  });

  it('every @example compiles against the package types (with the context prelude of test/docs/snippets.ts)', () => {
    expect(Object.fromEntries(problems)).toEqual({});
  });
});

/** The public TSDoc (summary, tags, and those of class members) of every export, by name. */
function publicDocs(): Map<string, { file: string; text: string }> {
  const docs = new Map<string, { file: string; text: string }>();
  const add = (symbol: ts.Symbol, name: string) => {
    const file = relative(root, symbol.declarations?.[0]?.getSourceFile().fileName ?? '?');
    const text = [
      ts.displayPartsToString(symbol.getDocumentationComment(checker)),
      ...symbol.getJsDocTags(checker).map((tag) => ts.displayPartsToString(tag.text)),
    ].join('\n');
    docs.set(`${file} ${name}`, { file, text });
  };
  for (const entry of entries) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      add(symbol, exported.getName());
      const type =
        symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface)
          ? checker.getDeclaredTypeOfSymbol(symbol)
          : undefined;
      for (const member of type?.getProperties() ?? [])
        add(member, `${exported.getName()}.${member.getName()}`);
    }
  }
  return docs;
}

// What a merchant reads in their editor: they have no copy of the service's spec and none of
// this repository's files, so the docs name the field and the rule instead.
const notForMerchants = /§|\bspec\b|DESIGN|STYLE\.md|\bbench\/|\btest\//;

describe('TSDoc speaks to merchants', () => {
  const offending = [...publicDocs()].filter(([, { text }]) => notForMerchants.test(text));

  it('no public TSDoc cites spec sections or files that are not in the package', () => {
    expect(offending.map(([name]) => name)).toEqual([]);
  });
});
