// The choice behind the callbacks entry's size and parse speed: the card-success callback schema
// (spec §2.9) written with classic zod and with zod/mini, each with and without `z.compile()`
// (zod 4.6). Prints parse time per object and the min+gzip of a bundle holding the 8 schemas' worth of
// zod (esbuild, browser, minified). Run: node --expose-gc bench/experiments/zod-variants.mjs
import { measure, do_not_optimize } from 'mitata';
import { bundleSize } from '../suites/bundle-size.mjs';
import { validPayloads } from '../fixtures/callbacks.mjs';
import { validateCallbackByHand } from '../baselines/typeof-validator.mjs';

const schemaSource = (z) => `
const paid = ${z}.enum(['True', 'False']);
export const schema = ${z}.looseObject({
  id: ${z}.string(), status: ${z}.int(), 'payment method': ${z}.string(), message: ${z}.string(),
  amount: ${z}.string(), currency: ${z}.string(), 'amount captured': ${z}.string(),
  'payment status': ${z}.string(), 'transaction id': ${z}.string(), paid, timestamp: ${z}.int(),
});`;
const variants = {
  'classic zod': { imports: `import * as z from 'zod';`, z: 'z', compile: false },
  'classic zod + z.compile': { imports: `import * as z from 'zod';`, z: 'z', compile: true },
  'zod/mini': { imports: `import * as z from 'zod/mini';`, z: 'z', compile: false },
  'zod/mini + z.compile': { imports: `import * as z from 'zod/mini';`, z: 'z', compile: true },
};
const payload = validPayloads['payment.card.succeeded'];
const hand = await measure(() => do_not_optimize(validateCallbackByHand(payload)), { min_cpu_time: 200e6 });
console.log(`${'hand-written typeof validator'.padEnd(26)} ${hand.p50.toFixed(0).padStart(5)} ns/parse`);
for (const [name, v] of Object.entries(variants)) {
  const source = `${v.imports}${schemaSource(v.z)}${v.compile ? `\nexport const compiled = z.compile(schema);` : ''}`;
  const size = await bundleSize(source);
  const module = await import(
    `data:text/javascript,${encodeURIComponent(source.replace(/'zod(\/mini)?'/g, (m) => `'${import.meta.resolve(m.slice(1, -1))}'`))}`
  );
  const schema = v.compile ? module.compiled : module.schema;
  if (!schema.safeParse(payload).success) throw new Error(`${name} rejects the payload`);
  await measure(() => do_not_optimize(schema.safeParse(payload)), { min_cpu_time: 100e6 });
  const stats = await measure(() => do_not_optimize(schema.safeParse(payload)), { min_cpu_time: 200e6 });
  console.log(
    `${name.padEnd(26)} ${stats.p50.toFixed(0).padStart(5)} ns/parse   bundle ${(size.gzip / 1024).toFixed(1)} KB min+gzip`,
  );
}
