// The sandbox's log shows a card number at most as its last four digits (docs/sandbox.md), also
// where a merchant put one in by mistake: as the transaction_reference, or in the callback URL's
// path. Every string of every log event is masked, in the events handed to a custom logger too.
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { createSandboxLogger, type SandboxLogEvent } from '../../src/sandbox/index.js';
import { amount, closedAfterEach, customer, futureYear, refusing } from './helpers.js';

const opened = closedAfterEach();
const CARD = '4242424242424242';

describe('a card number a merchant put into a reference or a callback URL', () => {
  it('reaches neither the log events nor the JSON log line in full', async () => {
    const url = await opened.route(refusing);
    const events: SandboxLogEvent[] = [];
    const lines: string[] = [];
    const json = createSandboxLogger('json', (line) => void lines.push(line));
    const sandbox = await opened.sandbox({
      callbackDelayMs: 0,
      deliveryRetries: 0,
      log: (event) => {
        events.push(event);
        json(event);
      },
    });
    await new PaymentsClient({ baseUrl: sandbox.url }).initiateCardPayment({
      customer_details: customer,
      amount,
      card_details: { card_number: CARD, expiry_month: 12, expiry_year: futureYear, cvc: '123' },
      callback_details: { transaction_reference: CARD, callback_url: url.replace('/webhooks/', `/${CARD}/`) },
    });
    await sandbox.waitForIdle();
    expect(events.map((event) => event.kind)).toEqual(expect.arrayContaining(['request', 'callback']));
    const logged = `${JSON.stringify(events)}\n${lines.join('')}`;
    expect(logged).not.toContain(CARD);
    expect(logged).toContain('**** 4242');
  });

  it('written with spaces or dashes between its digits, reaches no log in full either', async () => {
    const url = await opened.route(refusing);
    const events: SandboxLogEvent[] = [];
    const sandbox = await opened.sandbox({
      callbackDelayMs: 0,
      deliveryRetries: 0,
      log: (e) => events.push(e),
    });
    await new PaymentsClient({ baseUrl: sandbox.url }).initiateMobileMoneyPayment({
      customer_details: customer,
      amount,
      callback_details: {
        transaction_reference: '4242 4242 4242 4242',
        callback_url: url.replace('/webhooks/', '/cards/4242-4242-4242-4242/'),
      },
    });
    await sandbox.waitForIdle();
    const logged = JSON.stringify(events);
    expect(logged).not.toContain('4242 4242 4242 4242');
    expect(logged).not.toContain('4242-4242-4242-4242');
    expect(logged).toContain('**** 4242');
  });

  it('leaves a run of digits that fails the Luhn check, no card number, as it is', async () => {
    const url = await opened.route(refusing);
    const events: SandboxLogEvent[] = [];
    const sandbox = await opened.sandbox({
      callbackDelayMs: 0,
      deliveryRetries: 0,
      log: (e) => events.push(e),
    });
    await new PaymentsClient({ baseUrl: sandbox.url }).initiateMobileMoneyPayment({
      customer_details: customer,
      amount,
      callback_details: { transaction_reference: '4242424242424241', callback_url: url },
    });
    await sandbox.waitForIdle();
    expect(JSON.stringify(events)).toContain('4242424242424241');
  });
});
