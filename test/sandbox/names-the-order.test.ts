// Two orders whose callbacks fail must be told apart: each log line, each line of the report's
// summary and each delivery names the merchant's own reference (hp_ref of a signed URL, or the
// request's reference), while the URL's hp_sig — a bearer token for that order — is shown nowhere,
// `sandbox.deliveries` included (a test runner prints it in a diff).
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { signCallbackUrl } from '../../src/callbacks/signing.js';
import { formatSandboxLogEvent, sandboxTestValues, type SandboxLogEvent } from '../../src/sandbox/index.js';
import { amount, customer, closedAfterEach, refusing } from './helpers.js';

const SECRET = 'names-the-order-secret-0123456789';
const opened = closedAfterEach();

/** Fails with a message that does not repeat the secret it looked for. */
function expectNoSignature(where: string, text: string, signatures: readonly string[]): void {
  const leaked = signatures.some((signature) => text.includes(signature));
  expect(leaked, `${where} holds an hp_sig value`).toBe(false);
}

const signatureOf = (url: string): string => new URL(url).searchParams.get('hp_sig') ?? '';

describe('two orders whose callbacks are refused', () => {
  it('are told apart by their reference in the log, the summary and the deliveries, and hp_sig is shown nowhere', async () => {
    const url = await opened.route(refusing);
    const logs: SandboxLogEvent[] = [];
    const sandbox = await opened.sandbox({
      callbackDelayMs: 0,
      retryDelayMs: 5,
      deliveryRetries: 1,
      log: (event) => logs.push(event),
    });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    const signed: string[] = [];
    for (const reference of ['ORDER-A', 'ORDER-B']) {
      const callbackUrl = await signCallbackUrl(url, { secret: SECRET, reference });
      signed.push(callbackUrl);
      await client.initiateMobileMoneyPayment({
        customer_details: customer,
        amount,
        callback_details: { transaction_reference: reference, callback_url: callbackUrl },
      });
    }
    const signatures = signed.map(signatureOf);
    const report = await sandbox.waitForIdle();

    expect(report.failed).toBe(2);
    const lines = report.summary.split('\n');
    expect(lines.find((line) => line.includes('ORDER-A'))).toContain('401 invalid_signature');
    expect(lines.find((line) => line.includes('ORDER-B'))).toContain('401 invalid_signature');
    expect(report.failures.map((entry) => entry.reference).sort()).toEqual(['ORDER-A', 'ORDER-B']);
    expectNoSignature('report', JSON.stringify(report), signatures);

    const callbacks = logs.filter((event) => event.kind === 'callback');
    // Two attempts each; the retries' order depends on when each answer came.
    expect(callbacks.map((event) => event.reference).sort()).toEqual([
      'ORDER-A',
      'ORDER-A',
      'ORDER-B',
      'ORDER-B',
    ]);
    expect(formatSandboxLogEvent(callbacks.find((event) => event.reference === 'ORDER-A')!)).toContain(
      'for ORDER-A',
    );
    expectNoSignature('log', logs.map(formatSandboxLogEvent).join('\n'), signatures);
    expectNoSignature('log events', JSON.stringify(logs), signatures);

    expect(sandbox.deliveries.map((delivery) => delivery.reference)).toEqual(['ORDER-A', 'ORDER-B']);
    const shown = new URL(sandbox.deliveries[0]!.redactedUrl);
    expect(shown.searchParams.get('hp_ref')).toBe('ORDER-A');
    expect(shown.searchParams.get('hp_sig')).toBe('[redacted]');
    expectNoSignature('sandbox.deliveries', JSON.stringify(sandbox.deliveries), signatures);
    expectNoSignature('inspected deliveries', inspect(sandbox.deliveries, { depth: 5 }), signatures);
    // what a test that compares the URL it signed reads: the URL the callback was posted to
    expect(sandbox.deliveries[0]!.url === signed[0]).toBe(true);
  });

  it('name the request reference when the callback URL is not signed, dropped callbacks too', async () => {
    const url = await opened.route(refusing);
    const logs: SandboxLogEvent[] = [];
    const sandbox = await opened.sandbox({
      callbackDelayMs: 0,
      deliveryRetries: 0,
      log: (event) => logs.push(event),
    });
    const client = new PaymentsClient({ baseUrl: sandbox.url });
    await client.initiateCardPayment({
      customer_details: customer,
      amount,
      card_details: {
        card_number: sandboxTestValues.cards.success,
        expiry_month: 12,
        expiry_year: new Date().getUTCFullYear() + 2,
        cvc: 123,
      },
      callback_details: { transaction_reference: 'CARD-ORDER-9', callback_url: url },
    });
    await client.initiateMobileMoneyPayment({
      customer_details: { ...customer, phone_number: sandboxTestValues.phones.noCallback },
      amount,
      callback_details: { transaction_reference: 'LOST-ORDER-3', callback_url: url },
    });
    const report = await sandbox.waitForIdle();
    expect(report.summary).toContain('payment.card.succeeded for CARD-ORDER-9 to');
    expect(report.summary).toContain('for LOST-ORDER-3');
    expect(sandbox.deliveries.map((delivery) => delivery.reference)).toEqual([
      'CARD-ORDER-9',
      'LOST-ORDER-3',
    ]);
    expect(sandbox.deliveries[0]!.redactedUrl).toBe(url);
    const dropped = logs.find((event) => event.kind === 'callback_dropped');
    expect(dropped && formatSandboxLogEvent(dropped)).toContain('for LOST-ORDER-3');
  });
});
