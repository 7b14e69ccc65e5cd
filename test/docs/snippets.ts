// Type-checks code snippets — TSDoc `@example`s and ```ts blocks of the Markdown docs — against the
// package's types, as a merchant's strict TypeScript would. Each snippet is one module of its own,
// in memory, that sees:
// - `hosted-payments` and its subpaths, resolved to src/ (the same types dist/ declares);
// - the context prelude below: variables a snippet may use without declaring them (`client`,
//   `request`, `payload`, …), declared in the snippet's module unless it declares them itself;
// - optionally, automatic imports of every public export (TSDoc examples do not repeat imports;
//   Markdown blocks do, since a merchant pastes them).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** The package's entry points: import specifier → source file. */
export const entryPoints: Readonly<Record<string, string>> = {
  'hosted-payments': 'src/index.ts',
  'hosted-payments/callbacks': 'src/callbacks/index.ts',
  'hosted-payments/sandbox': 'src/sandbox/index.ts',
  'hosted-payments/testing': 'src/testing/index.ts',
  'hosted-payments/testing/msw': 'src/testing/msw/index.ts',
  'hosted-payments/redis': 'src/redis/index.ts',
  'hosted-payments/transactions': 'src/transactions/index.ts',
};

/**
 * What a snippet may use without declaring it, name → type. Keep it small and obvious: a reader of
 * the docs should be able to guess each of these from the words around the snippet. A snippet
 * gets the ones it does not declare itself, as module-level declarations.
 */
export const prelude: Readonly<Record<string, string>> = {
  // The SDK's own objects, configured.
  client: "import('hosted-payments').PaymentsClient",
  handler: "import('hosted-payments/callbacks').CallbackHandler",
  sandbox: "Awaited<ReturnType<typeof import('hosted-payments/sandbox').startSandbox>>",
  tracker: "import('hosted-payments/transactions').TransactionTracker",
  secret: 'string',
  onEvent: "import('hosted-payments/callbacks').CallbackHandlerOptions['onEvent']",
  // Redis connections: an ioredis client, and a node-redis v4 one where a snippet adapts it.
  redis: "import('ioredis').Redis",
  nodeRedis: '{ eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown> }',
  // What a route or a job has at hand.
  request: 'Request',
  payload: 'unknown',
  body: 'unknown',
  text: 'string',
  event: "import('hosted-payments/callbacks').CallbackEvent",
  // Inside a callback handler's onEvent: the order the callback is about (signed into its URL).
  reference: 'string',
  context: "import('hosted-payments/callbacks').CallbackContext<string>",
  error: 'unknown',
  // A builder's input, whichever call it is for.
  input: 'any',
  baseUrl: 'string',
  formData: 'FormData',
  json: 'unknown',
  cardInput: "import('hosted-payments').CardPaymentInput",
  mobileMoneyInput: "import('hosted-payments').MobileMoneyPaymentInput",
  checkoutInput: "import('hosted-payments').CheckoutSessionInput",
  payoutInput: "import('hosted-payments').PayoutInitiationInput",
  // Parts of an input, for snippets that show one call's shape.
  customer_details: "import('hosted-payments').MobileMoneyPaymentInput['customer_details']",
  amount: "import('hosted-payments').MobileMoneyPaymentInput['amount']",
  callback_url: 'string',
  // The merchant's own code: any function of theirs.
  ...Object.fromEntries(
    [
      'markPaid',
      'markFailed',
      'markPaidOut',
      'markPayoutFailed',
      'markPending',
      'saveReference',
      'fulfil',
      'settle',
      'notify',
      'releaseStock',
      'issueReceipt',
      'alertOps',
      'retryLater',
      'scheduleRetryCheck',
      'showErrors',
      'log',
    ].map((name) => [name, '(...args: any[]) => Promise<void>']),
  ),
  log: '((...args: unknown[]) => void) & Record<"info" | "warn" | "error", (...args: unknown[]) => void>',
  db: 'Record<string, (...args: any[]) => Promise<any>>',
  orders: 'Record<string, (...args: any[]) => Promise<any>>',
  metrics: 'Record<"register" | "increment" | "gauge", (...args: any[]) => void>',
  form: '{ setError(field: string, message: string): void }',
};

export const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force,
  types: ['node'],
  strict: true,
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
  paths: Object.fromEntries(
    Object.entries(entryPoints).map(([specifier, file]) => [specifier, [join(root, file)]]),
  ),
};

export interface Snippet {
  /** Where it comes from, e.g. `README.md block 3` or `src/client.ts PaymentsClient`. */
  readonly name: string;
  readonly code: string;
}

/** The exports of every entry, each name once (the first entry that exports it). */
export function publicExports(program: ts.Program): Map<string, string> {
  const checker = program.getTypeChecker();
  const names = new Map<string, string>();
  for (const [specifier, file] of Object.entries(entryPoints)) {
    const source = program.getSourceFile(join(root, file));
    const module = source && checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${file} not found`);
    for (const symbol of checker.getExportsOfModule(module)) {
      if (!names.has(symbol.getName())) names.set(symbol.getName(), specifier);
    }
  }
  return names;
}

/** Names a snippet imports or declares at its top level: an automatic import of those would clash. */
function ownNames(code: string): Set<string> {
  const source = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const names = new Set<string>();
  const addBinding = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) addBinding(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) names.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) names.add(element.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) addBinding(declaration.name);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

/**
 * Type-checks each snippet as its own module; returns the diagnostics per snippet name (a snippet
 * without problems is absent). `autoImport` adds imports of every public export the snippet does
 * not import or declare itself.
 */
export function checkSnippets(
  snippets: readonly Snippet[],
  { autoImport }: { autoImport: boolean },
): Map<string, string[]> {
  const dir = join(root, 'test/docs/.snippets');
  let exported = new Map<string, string>();
  if (autoImport)
    exported = publicExports(
      ts.createProgram(
        Object.values(entryPoints).map((file) => join(root, file)),
        compilerOptions,
      ),
    );

  const files = new Map<string, string>();
  const fileOf = new Map<string, Snippet>();
  snippets.forEach((snippet, index) => {
    const own = ownNames(snippet.code);
    let header = Object.entries(prelude)
      .filter(([name]) => !own.has(name))
      .map(([name, type]) => `declare const ${name}: ${type};`)
      .join(' ');
    if (autoImport) {
      const bySpecifier = new Map<string, string[]>();
      for (const [name, specifier] of exported) {
        if (own.has(name)) continue;
        bySpecifier.set(specifier, [...(bySpecifier.get(specifier) ?? []), name]);
      }
      // One line, so the snippet's line numbers in messages are its own plus one.
      header +=
        ' ' +
        [...bySpecifier]
          .map(([specifier, names]) => `import { ${names.join(', ')} } from '${specifier}';`)
          .join(' ');
    }
    const file = join(dir, `snippet-${index}.ts`);
    files.set(file, `${header}\n${snippet.code}\nexport {};\n`);
    fileOf.set(file, snippet);
  });

  const host = ts.createCompilerHost(compilerOptions, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, languageVersion, ...rest) => {
    const text = files.get(name);
    return text === undefined
      ? getSourceFile.call(host, name, languageVersion, ...rest)
      : ts.createSourceFile(name, text, languageVersion, true);
  };
  const program = ts.createProgram([...fileOf.keys()], compilerOptions, host);

  const problems = new Map<string, string[]>();
  for (const [file, snippet] of fileOf) {
    const source = program.getSourceFile(file)!;
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    if (diagnostics.length === 0) continue;
    problems.set(
      snippet.name,
      diagnostics.map((diagnostic) => {
        const line =
          diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line;
        return `line ${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      }),
    );
  }
  return problems;
}

/** The ```ts / ```typescript blocks of a Markdown file; a block fenced ```ts no-check is left out on purpose. */
export function markdownBlocks(file: string): Snippet[] {
  const text = readFileSync(join(root, file), 'utf8');
  const blocks: Snippet[] = [];
  const fence = /^```(ts|typescript)([^\n]*)\n([\s\S]*?)^```/gm;
  for (const match of text.matchAll(fence)) {
    if (/\bno-check\b/.test(match[2]!)) continue;
    const line = text.slice(0, match.index).split('\n').length;
    blocks.push({ name: `${file}:${line}`, code: match[3]! });
  }
  return blocks;
}
