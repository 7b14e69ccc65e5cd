// The built declarations on each zod floor of the peer range (4.1.0 and 3.25.76, whose zod 4 is
// 4.0.0), as a merchant's TypeScript meets them with skipLibCheck off: dist/*.d.ts name zod's
// types, and a type that only a later zod exports is an error there — and with skipLibCheck on,
// `any` in its place (a card number's type quietly lost). The runtime matrix runs the JavaScript
// on the same two installs; this checks the types.
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeRun, ensureBuilt, ensureInstalled, root, run } from '../runtimes/harness.js';
import { runtimesDir } from '../runtimes/runtimes.js';

const install = await ensureInstalled(runtimesDir);
await ensureBuilt();

// A merchant's file: the schemas composed and inferred, and the rest of the public surface.
const consumer = `
import * as z from 'zod/v4/mini';
import { PaymentsClient, cardPaymentRequestSchema, type CardPaymentInput } from 'hosted-payments';
import { createCallbackHandler, payoutSuccessCallbackSchema, type CallbackEvent } from 'hosted-payments/callbacks';
import { createTransactionTracker } from 'hosted-payments/transactions';
import { callbackFixtures } from 'hosted-payments/testing';

type Card = z.infer<typeof cardPaymentRequestSchema>['card_details'];
const card: Card = { card_number: 4242424242424242, expiry_month: 12, expiry_year: 2030, cvc: 123 };
// @ts-expect-error card_number is required
const partial: Card = { expiry_month: 12, expiry_year: 2030, cvc: 123 };
const wrapped = z.object({ payout: payoutSuccessCallbackSchema });
const input: CardPaymentInput | undefined = undefined;
const client = new PaymentsClient({ baseUrl: 'https://payments.example' });
const handler = createCallbackHandler({ secret: 'a-real-secret-0123456789', onEvent: (_event: CallbackEvent) => {} });
export { card, partial, wrapped, input, client, handler, createTransactionTracker, callbackFixtures };
`;

describe.each(['zod-oldest', 'zod-oldest-3'])('the built declarations on %s', (floor) => {
  const zodDir = join(runtimesDir, 'node_modules', floor);
  it.skipIf(!install.ok || !existsSync(zodDir))(
    `type-check a merchant's file with skipLibCheck off${install.ok ? '' : ` — skipped: ${install.reason}`}`,
    async () => {
      // Under the runtime matrix's node_modules (ignored by git, tsc and eslint); the package is a
      // copy, so that its own imports of zod resolve to this floor, not to the root install's zod.
      const dir = join(runtimesDir, 'node_modules', '.cases', `declarations-${floor}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(join(dir, 'node_modules/hosted-payments'), { recursive: true });
      cpSync(join(root, 'package.json'), join(dir, 'node_modules/hosted-payments/package.json'));
      cpSync(join(root, 'dist'), join(dir, 'node_modules/hosted-payments/dist'), { recursive: true });
      symlinkSync(zodDir, join(dir, 'node_modules/zod'), 'dir');
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
      writeFileSync(join(dir, 'consumer.ts'), consumer);
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'es2022',
            lib: ['es2022', 'dom', 'dom.iterable'],
            module: 'nodenext',
            moduleResolution: 'nodenext',
            types: ['node'],
            typeRoots: [join(root, 'node_modules/@types')],
            strict: true,
            exactOptionalPropertyTypes: true,
            noEmit: true,
            skipLibCheck: false,
          },
          files: ['consumer.ts'],
        }),
      );
      const result = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], {
        cwd: dir,
        timeoutMs: 90_000,
      });
      const errors = result.stdout.split('\n').filter((line) => line.includes('error TS'));
      expect(errors, describeRun(`tsc on ${floor}`, result)).toEqual([]);
    },
    120_000,
  );
});
