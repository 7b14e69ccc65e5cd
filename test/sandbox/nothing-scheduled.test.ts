// waitForIdle() called before any callback was scheduled — most often right after an initiation
// the test forgot to await — resolves at once; its summary must say that nothing was scheduled
// rather than read as a clean run.
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { amount, customer } from './helpers.js';

let sandbox: Sandbox | undefined;

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const payment = (callbackUrl: string, reference: string) => ({
  customer_details: customer,
  amount,
  callback_details: { transaction_reference: reference, callback_url: callbackUrl },
});

describe('waitForIdle() with no callback scheduled', () => {
  it('says none was scheduled and asks whether the initiation was awaited', async () => {
    sandbox = await startSandbox({ callbackDelayMs: 10, log: false });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    const forgotten = client.initiateMobileMoneyPayment(payment('http://127.0.0.1:9/webhooks', 'ORDER-1'));
    const report = await sandbox.waitForIdle();
    expect(report.summary).toMatch(/^0 callbacks: none was scheduled/);
    expect(report.summary).toContain('await');
    await forgotten;
  });
});
