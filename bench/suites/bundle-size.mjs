// min+gzip with esbuild: bundle, minify, platform browser (a neutral-platform library: no Node
// built-ins allowed), ESM, dependencies included (zod, ky — and stripe's / openai's own), gzip
// level 9. The whole entry is kept (`export *`), the worst case a merchant's tree-shaking can give;
// reported beside it, what a merchant ships who imports one part (the client alone, the webhook
// route alone), tree-shaken the same way.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { mainEntry, callbacksEntry } from '../lib/sdk.mjs';
import { sizeCeilings } from '../../scripts/size-ceilings.mjs';

const benchDir = fileURLToPath(new URL('..', import.meta.url));

export async function bundleSize(contents) {
  const result = await build({
    stdin: { contents, resolveDir: benchDir, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const code = result.outputFiles[0].contents;
  const byPackage = {};
  for (const [path, { bytesInOutput }] of Object.entries(Object.values(result.metafile.outputs)[0].inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(
      path.replace(/.*node_modules\/\.hosted-payments\//, ''),
    );
    const name = match ? match[1] : 'hosted-payments';
    byPackage[name] = (byPackage[name] ?? 0) + bytesInOutput;
  }
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length, byPackage };
}

async function measured(contents) {
  try {
    return await bundleSize(contents);
  } catch (error) {
    return {
      error: String(error.message ?? error)
        .split('\n')[0]
        .slice(0, 80),
    };
  }
}

export async function runBundleSizeSuite({ sdk }) {
  const stripe = await measured(`export { default } from 'stripe';`);
  const openai = await measured(`export { default } from 'openai';`);
  const main = await measured(`export * from ${JSON.stringify(mainEntry)};`);
  const callbacks = await measured(`export * from ${JSON.stringify(callbacksEntry)};`);
  const clientAlone = await measured(`export { PaymentsClient } from ${JSON.stringify(mainEntry)};`);
  const routeAlone = await measured(
    `export { createCallbackHandler, toNodeListener } from ${JSON.stringify(callbacksEntry)};`,
  );
  const figure = (id, label, result, max, guard, peers) => ({
    id,
    label,
    unit: 'bytes',
    goal: { max },
    guard: { max: guard },
    guardWhy:
      'the fail-closed verdict, Host validation, the tracker option, the ky transport and the fail-closed fixes of three audits (every outcome signal, captured amounts, redirects, redaction, option and URL checks; the route path, encoding, store-reply and body checks) grew the entries past their goals',
    value: result.gzip,
    minified: result.minified,
    byPackage: result.byPackage,
    peers,
    ...(result.error ? { error: result.error } : {}),
  });
  // What one import ships: reported, no goal.
  const part = (id, label, result) => ({
    id,
    label,
    unit: 'bytes',
    goal: {},
    reported: true,
    value: result.gzip,
    minified: result.minified,
    byPackage: result.byPackage,
    ...(result.error ? { error: result.error } : {}),
  });
  const incomplete =
    sdk.main.PaymentsClient === undefined || sdk.callbacks.parseCallback === undefined
      ? ' (entry incomplete)'
      : '';
  return [
    figure(
      'size.main',
      `bundle min+gzip: main entry, ky included${incomplete}`,
      main,
      30 * 1024,
      sizeCeilings.main,
      {
        stripe: stripe.gzip,
      },
    ),
    figure(
      'size.callbacks',
      `bundle min+gzip: ./callbacks${incomplete}`,
      callbacks,
      15 * 1024,
      sizeCeilings.callbacks,
      {
        openai: openai.gzip,
      },
    ),
    part('size.main.client', 'bundle min+gzip: `PaymentsClient` alone (tree-shaken)', clientAlone),
    part(
      'size.callbacks.route',
      'bundle min+gzip: `createCallbackHandler` + `toNodeListener` alone (tree-shaken)',
      routeAlone,
    ),
  ];
}
