// A waitForIdle() that stops waiting while the route is still working on a callback (a slow
// onEvent) says so: the callback was sent and no answer came yet, not "not sent yet", and the
// error names the route's slowness and deliveryTimeoutMs, not only the retry settings.
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { amount, closedAfterEach, customer } from './helpers.js';

const opened = closedAfterEach();

describe('waitForIdle while a delivery is in flight', () => {
  it('says the callback was sent and awaits its answer, and names deliveryTimeoutMs', async () => {
    let received = 0;
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const route = await opened.route((req, res) => {
      received += 1;
      req.resume();
      void answered.then(() => res.writeHead(200).end());
    });
    const sandbox = await opened.sandbox({ callbackDelayMs: 0, deliveryRetries: 0, log: false });
    await new PaymentsClient({ baseUrl: sandbox.url }).initiateMobileMoneyPayment({
      customer_details: customer,
      amount,
      callback_details: { transaction_reference: 'ORDER-SLOW', callback_url: route },
    });
    await expect.poll(() => received, { timeout: 5_000 }).toBe(1);
    const error = (await sandbox.waitForIdle({ timeout: 50 }).catch((caught: unknown) => caught)) as Error;
    answer();
    expect(error.message).toMatch(/ORDER-SLOW .*sent, no answer yet \(attempt 1\)/);
    expect(error.message).not.toContain('not sent yet');
    expect(error.message).toContain('deliveryTimeoutMs');
  });
});
