// Every example runs as examples/README.md shows (`npx tsx <file>`, here `node --import tsx`),
// against the BUILT package: the endpoint scripts and the order store against a sandbox started
// here (startSandbox from src/sandbox, via PAYMENTS_BASE_URL), each webhook route through
// examples/try-webhook.ts, which starts its own sandbox with duplicate deliveries.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { describeRun, ensureBuilt, root, run } from '../runtimes/harness.js';

await ensureBuilt();

const runExample = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const result = await run(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1', ...env },
    timeoutMs: 45_000,
  });
  expect(result.code, describeRun(args.join(' '), result)).toBe(0);
  expect(result.stderr, describeRun(args.join(' '), result)).toBe('');
  return result.stdout;
};

describe('endpoint examples against a sandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ callbackDelayMs: 10 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  const env = () => ({ PAYMENTS_BASE_URL: sandbox.url });

  it('card-payment.ts initiates a card payment and receives its success callback', async () => {
    const stdout = await runExample(['examples/card-payment.ts'], env());
    expect(stdout).toContain('initiated: Card Payment Initiated');
    expect(stdout).toContain('callback: payment.card.succeeded paid=true amount=1500 KES');
  });

  it('mobile-money-payment.ts receives a success, and a failure for the insufficient-funds phone', async () => {
    expect(await runExample(['examples/mobile-money-payment.ts'], env())).toContain(
      'callback: payment.mobile_money.succeeded amount=2600',
    );
    const failed = await runExample(['examples/mobile-money-payment.ts'], {
      ...env(),
      PHONE: '254700000406',
    });
    expect(failed).toMatch(/callback: payment\.mobile_money\.failed reference=ORDER-\d+ reason=/);
  });

  it('checkout-session.ts prints a checkout link and, paying on the page, gets the checkout callback', async () => {
    const stdout = await runExample(['examples/checkout-session.ts'], { ...env(), PAY: '1' });
    expect(stdout).toMatch(new RegExp(`checkout link for order \\d+: ${sandbox.url}/checkout/`));
    expect(stdout).toMatch(/callback: checkout\.succeeded order=\d+ paid=true/);
  });

  it('payout.ts pays out and reads the fee and balance; a payout above the wallet fails', async () => {
    expect(await runExample(['examples/payout.ts'], env())).toMatch(
      /callback: payout\.succeeded fee=50 balance=\d+/,
    );
    expect(await runExample(['examples/payout.ts'], { ...env(), AMOUNT: '50000000' })).toMatch(
      /callback: payout\.failed reference=\d{12} message=Payout Failed/,
    );
  });

  it('order-store.ts marks each order once, ignoring duplicate deliveries', async () => {
    // A sandbox of its own (no PAYMENTS_BASE_URL): it delivers every callback twice.
    const stdout = await runExample(['examples/order-store.ts']);
    expect(stdout.match(/: applied$/gm)).toHaveLength(3);
    expect(stdout.match(/: already applied$/gm)).toHaveLength(3);
    expect(stdout).toMatch(/'ORD-\w+-1'\s*│\s*'1200'\s*│\s*'paid'/);
    expect(stdout).toMatch(/'ORD-\w+-2'\s*│\s*'800'\s*│\s*'failed'/);
    expect(stdout).toMatch(/'ORD-\w+-3'\s*│\s*'2500'\s*│\s*'paid'/);
    expect(stdout).toContain('callbacks processed: 3');
  });
});

describe('webhook route examples through try-webhook.ts', () => {
  const routes = [
    'examples/webhooks/express.ts',
    'examples/webhooks/express-json.ts',
    'examples/webhooks/fastify.ts',
    'examples/webhooks/hono.ts',
    'examples/nextjs/app/api/webhooks/payments/route.ts',
    'examples/cloudflare-worker.ts',
  ];
  for (const route of routes) {
    it(`${route} accepts each callback, and handles its duplicate once`, async () => {
      const stdout = await runExample([join('examples', 'try-webhook.ts'), route]);
      // One line per event from the route's onEvent, although each callback arrived twice.
      expect(stdout.match(/^webhook: /gm)).toHaveLength(2);
      expect(stdout).toContain('webhook: payment.mobile_money.succeeded reference=ORDER-2001 amount=1500');
      expect(stdout).toContain('webhook: payment.card.failed reference=ORDER-2002 amount=1500');
      expect(stdout.match(/^sandbox: .* delivered: 200$/gm)).toHaveLength(4);
      expect(stdout).toContain('every callback was accepted');
    });
  }
});
