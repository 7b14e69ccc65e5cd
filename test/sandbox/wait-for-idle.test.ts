// A test runner gives a test 5 s, while a refused callback is retried for about 16 s with the
// default settings: waitForIdle({ timeout }) must fail first, saying which callback is still
// pending and what the route answered, not leave the runner to say "timed out".
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { createSandboxApp } from '../../src/sandbox/index.js';
import { createPaymentsHandlers } from '../../src/testing/msw/index.js';
import { amount, customer, closedAfterEach, refusing } from './helpers.js';

const opened = closedAfterEach();

const payment = (callbackUrl: string, reference: string) => ({
  customer_details: customer,
  amount,
  callback_details: { transaction_reference: reference, callback_url: callbackUrl },
});

describe('waitForIdle({ timeout })', () => {
  it('rejects in time with the pending callback, its reference and the last answer, with default retries', async () => {
    const url = await opened.route(refusing);
    const sandbox = await opened.sandbox({ callbackDelayMs: 0, log: false });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    await client.initiateMobileMoneyPayment(payment(url, 'ORDER-SLOW'));
    const started = Date.now();
    const error = await sandbox.waitForIdle({ timeout: 300 }).then(
      () => undefined,
      (reason: unknown) => reason as Error & { report?: { ok: boolean; pending: number } },
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(Error);
    expect(error?.message).toContain('still pending after 300 ms');
    expect(error?.message).toContain('1 pending');
    expect(error?.message).toMatch(
      /payment\.mobile_money\.succeeded for ORDER-SLOW to .* pending after 1 attempt: 401 invalid_signature/,
    );
    expect(error?.message).toContain('retryDelayMs');
    expect(error?.report).toMatchObject({ ok: false, pending: 1 });
  });

  it('resolves as before when everything ends in time', async () => {
    const url = await opened.route(refusing);
    const sandbox = await opened.sandbox({
      callbackDelayMs: 0,
      retryDelayMs: 1,
      deliveryRetries: 1,
      log: false,
    });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    await client.initiateMobileMoneyPayment(payment(url, 'ORDER-FAST'));
    const report = await sandbox.waitForIdle({ timeout: 4000 });
    expect(report).toMatchObject({ ok: false, failed: 1, pending: 0 });
  });

  it('rejects when its signal aborts, with the summary and the reason as cause', async () => {
    const url = await opened.route(refusing);
    const sandbox = await opened.sandbox({ callbackDelayMs: 0, log: false });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    await client.initiateMobileMoneyPayment(payment(url, 'ORDER-ABORT'));
    const controller = new AbortController();
    const waiting = sandbox.waitForIdle({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('test over')), 100);
    const error = (await waiting.catch((reason: unknown) => reason)) as Error;
    expect(error.message).toContain('ORDER-ABORT');
    expect((error.cause as Error).message).toBe('test over');
  });

  it('refuses a timeout that is not a number of ms, and an unknown option', async () => {
    const sandbox = await opened.sandbox({ log: false });
    await expect(sandbox.waitForIdle({ timeout: -1 })).rejects.toThrow(/timeout must be/);
    await expect(sandbox.waitForIdle({ timeout: '5s' as unknown as number })).rejects.toThrow(
      /timeout must be/,
    );
    await expect(sandbox.waitForIdle({ timout: 5 } as never)).rejects.toThrow(/timout/);
  });

  it('takes the same options on createSandboxApp and the msw handlers', async () => {
    const app = createSandboxApp({ log: false });
    await expect(app.waitForIdle({ timeout: 100 })).resolves.toMatchObject({ ok: true });
    app.close();
    const payments = createPaymentsHandlers({ baseUrl: 'https://payments.example.test', log: false });
    await expect(payments.waitForIdle({ timeout: 100 })).resolves.toMatchObject({ ok: true });
    payments.close();
  });
});
