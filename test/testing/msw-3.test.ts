// hosted-payments/testing/msw on msw 3, which needs Node >= 22.12: the root install has msw 2 (run
// by handlers.test.ts on the Node running the suite), `test/testing/msw-3/` pins msw 3. On the
// runtime matrix's Node 22 and 24, a merchant's test written as docs/testing.md shows
// (msw-3/fixtures/kit.mjs, and its CommonJS twin kit.cjs) runs the BUILT kit with msw 3's
// `setupServer`, and what handlers.test.ts checks on msw 2 must hold: each endpoint's documented
// answer and callback, the checkout page, a path prefix, retries, callbacks POSTed to a merchant's
// own handler, a 400 naming the fields, a merchant's handler in front of the kit's, and requests the
// kit does not serve left to msw's unhandled-request strategy.
//
// The package is COPIED into msw-3/node_modules/hosted-payments (package.json and dist/), not
// linked: through a symlink Node would resolve the kit's `import 'msw'` from the repository root,
// i.e. msw 2. A copy resolves it as a merchant's install does, to msw-3/node_modules/msw (ky and zod
// still come from the root install). The fixture reports which msw the kit loaded.
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeRun, ensureBuilt, ensureInstalled, root, run } from '../runtimes/harness.js';
import { findRuntime, runtimeLabel, runtimesDir, type Runtime } from '../runtimes/runtimes.js';

const mswDir = fileURLToPath(new URL('msw-3', import.meta.url));
const pinned = (
  JSON.parse(readFileSync(join(mswDir, 'package.json'), 'utf8')) as { dependencies: { msw: string } }
).dependencies.msw;

// Collection-time preparation, so that test names can carry a skip reason.
const installed = await ensureInstalled(mswDir);
if (!installed.ok) throw new Error(installed.reason);
await ensureBuilt();
const copy = join(mswDir, 'node_modules/hosted-payments');
rmSync(copy, { recursive: true, force: true });
mkdirSync(copy, { recursive: true });
cpSync(join(root, 'package.json'), join(copy, 'package.json'));
cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
const matrix = await ensureInstalled(runtimesDir);
const runtimes = await Promise.all([findRuntime('node-22', matrix), findRuntime('node-24', matrix)]);

interface CallbackSeen {
  type: string;
  url: string;
}

interface UnhandledAttempt {
  outcome: 'answered' | 'rejected';
  error?: string;
  connectionError?: boolean;
  cause?: string;
  reported: string[];
}

/** What msw-3/fixtures/kit.mjs prints; only what is asserted is typed. */
interface KitRecord {
  node: string;
  msw: string;
  kitMsw: string;
  docs: { received: string[]; ok: boolean };
  endpoints: {
    answers: Record<string, unknown>;
    events: CallbackSeen[];
    reportOk: boolean;
    walletBalance: number;
    expectedWalletBalance: number;
  };
  checkout: Record<string, unknown> & { events: CallbackSeen[] };
  prefix: { events: string[]; linkUnderPrefix: boolean; formPostsToPage: boolean };
  retries: { calls: number; state: string };
  posted: { types: string[]; states: string[]; reportOk: boolean };
  errors: { status: number; fields: string[]; clientError: { name: string; status: number } | null };
  unhandled: Record<string, UnhandledAttempt>;
  console: { errors: number; warnings: string[] };
}

async function runFixture<T>(node: Runtime & { ok: true }, fixture: string): Promise<T> {
  const result = await run(node.bin, [join('fixtures', fixture)], { cwd: mswDir, timeoutMs: 30_000 });
  const label = `${fixture} on Node ${node.version} with msw ${pinned}`;
  expect(result.code, describeRun(label, result)).toBe(0);
  expect(result.stderr, describeRun(label, result)).toBe('');
  return JSON.parse(result.stdout) as T;
}

const unhandledReport = (method: string, url: string) =>
  expect.stringContaining(
    `[MSW] Error: intercepted a request without a matching request handler:\n\n  • ${method} ${url}\n`,
  );

describe.each(runtimes)('the built msw kit with msw 3 on Node $name', (node) => {
  // One run of the fixture per Node, shared by the tests below (each asserts one part of it).
  let record: Promise<KitRecord> | undefined;
  const kit = () => {
    if (!node.ok) throw new Error(node.reason);
    return (record ??= runFixture<KitRecord>(node, 'kit.mjs'));
  };

  describe.skipIf(!node.ok)(runtimeLabel(node), () => {
    it(`loads msw ${pinned} both in the merchant's test and in the kit, on that Node`, async () => {
      const { node: version, msw, kitMsw } = await kit();
      expect({ major: version.split('.')[0], msw, kitMsw }).toEqual({
        major: node.name.slice('node-'.length),
        msw: pinned,
        kitMsw: pinned,
      });
    });

    it("runs docs/testing.md's msw block as pasted and prints what its comment says", async () => {
      expect((await kit()).docs).toEqual({ received: ['payment.mobile_money.succeeded'], ok: true });
    });

    it('answers the four endpoints like the sandbox and delivers every callback to onCallback', async () => {
      const { endpoints } = await kit();
      expect(endpoints.answers).toEqual({
        cardSucceeded: { message: 'Card Payment Initiated', status: 200 },
        cardDeclined: { message: 'Card Payment Initiated', status: 200 },
        mobileMoney: { message: 'MOBILE-MONEY Payment Initiated', status: 200 },
        mobileMoneyInsufficient: { message: 'MOBILE-MONEY Payment Initiated', status: 200 },
        payout: { message: 'Mobile Payout Initiated', status: 200 },
        payoutOverBalance: { message: 'Mobile Payout Initiated', status: 200 },
      });
      const hooks = 'https://shop.example/hooks';
      const payouts = 'https://shop.example/payouts';
      expect(endpoints.events).toEqual([
        { type: 'payment.card.succeeded', url: hooks },
        { type: 'payment.card.failed', url: hooks },
        { type: 'payment.mobile_money.succeeded', url: hooks },
        { type: 'payment.mobile_money.failed', url: hooks },
        { type: 'payout.succeeded', url: payouts },
        { type: 'payout.failed', url: payouts },
      ]);
      expect(endpoints.reportOk).toBe(true);
      expect(endpoints.walletBalance).toBe(endpoints.expectedWalletBalance);
    });

    it('serves the checkout session and its page, and posts the redirect callback', async () => {
      expect((await kit()).checkout).toEqual({
        status: true,
        orderId: '77',
        linkUnderBaseUrl: true,
        pageStatus: 200,
        pageNamesBrand: true,
        postStatus: 303,
        location: 'https://shop.example/ok',
        events: [{ type: 'checkout.succeeded', url: 'https://shop.example/hooks' }],
      });
    });

    it('honours a path prefix in baseUrl', async () => {
      expect((await kit()).prefix).toEqual({
        events: ['payment.mobile_money.succeeded'],
        linkUnderPrefix: true,
        formPostsToPage: true,
      });
    });

    it('retries when onCallback throws', async () => {
      expect((await kit()).retries).toEqual({ calls: 3, state: 'delivered' });
    });

    it("POSTs callbacks to their URL without onCallback, to the merchant's own msw handler", async () => {
      expect((await kit()).posted).toEqual({
        types: ['payment.mobile_money.succeeded'],
        states: ['delivered'],
        reportOk: true,
      });
    });

    it("answers 400 naming the fields, and a merchant's handler in front of the kit's wins (ApiError)", async () => {
      const { errors } = await kit();
      expect(errors.status).toBe(400);
      expect(errors.fields).toEqual(expect.arrayContaining(['destination', 'transfer', 'webhook_endpoint']));
      expect(errors.clientError).toMatchObject({ name: 'ApiError', status: 503 });
    });

    it("leaves requests it does not serve to msw's onUnhandledFrame: 'error' (refused and reported)", async () => {
      const { unhandled, console: output } = await kit();
      const base = 'https://payments.example.test';
      const refusal = '[MSW] Cannot bypass a request when using the "error" strategy';
      expect(unhandled).toEqual({
        'POST /api/unknown': {
          outcome: 'rejected',
          error: 'TypeError',
          connectionError: false,
          cause: expect.stringContaining(refusal),
          reported: [unhandledReport('POST', `${base}/api/unknown`)],
        },
        'GET on the payment endpoint': {
          outcome: 'rejected',
          error: 'TypeError',
          connectionError: false,
          cause: expect.stringContaining(refusal),
          reported: [unhandledReport('GET', `${base}/api/payment/payment-initiate-callback/`)],
        },
        'the SDK client at another baseUrl': {
          outcome: 'rejected',
          error: 'ConnectionError',
          connectionError: true,
          cause: expect.any(String),
          reported: [
            unhandledReport('POST', 'https://other.example.test/api/payment/payment-initiate-callback/'),
          ],
        },
      });
      // Nothing else went to the console: no warning, no error but those three reports.
      expect(output).toEqual({ errors: 3, warnings: [] });
    });

    it('works from CommonJS too (the kit requires msw 3, which is ESM-only)', async () => {
      if (!node.ok) throw new Error(node.reason);
      expect(await runFixture(node, 'kit.cjs')).toEqual({
        answer: { message: 'MOBILE-MONEY Payment Initiated', status: 200 },
        received: ['payment.mobile_money.succeeded'],
        ok: true,
      });
    });
  });
});
