// The sandbox's log shows a card number at most as its last four digits (docs/sandbox.md), also
// where a merchant put one in by mistake: as the transaction_reference, or in the callback URL's
// path. Every string of every log event is masked, in the events handed to a custom logger too.
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { createSandboxLogger, type SandboxLogEvent } from '../../src/sandbox/index.js';
import { maskCardNumbers } from '../../src/sandbox/log.js';
import { amount, closedAfterEach, customer, futureYear, refusing } from './helpers.js';

const opened = closedAfterEach();
const CARD = '4242424242424242';

/**
 * What the sandbox logs (its events, and the JSON lines made of them) for one payment whose
 * callback goes to a refusing route at `path` with `reference`: a card payment with `card`, else
 * mobile money.
 */
async function loggedFor(reference: string, path: string, card?: string): Promise<string> {
  const url = (await opened.route(refusing)).replace('/webhooks/', path);
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
  const client = new PaymentsClient({ baseUrl: sandbox.url });
  const callback_details = { transaction_reference: reference, callback_url: url };
  await (card === undefined
    ? client.initiateMobileMoneyPayment({ customer_details: customer, amount, callback_details })
    : client.initiateCardPayment({
        customer_details: customer,
        amount,
        card_details: { card_number: card, expiry_month: 12, expiry_year: futureYear, cvc: '123' },
        callback_details,
      }));
  await sandbox.waitForIdle();
  expect(events.map((event) => event.kind)).toEqual(expect.arrayContaining(['request', 'callback']));
  return `${JSON.stringify(events)}\n${lines.join('')}`;
}

describe('a card number a merchant put into a reference or a callback URL', () => {
  it('reaches neither the log events nor the JSON log line in full', async () => {
    const logged = await loggedFor(CARD, `/${CARD}/`, CARD);
    expect(logged).not.toContain(CARD);
    expect(logged).toContain('**** 4242');
  });

  it('written with spaces or dashes between its digits, reaches no log in full either', async () => {
    const logged = await loggedFor('4242 4242 4242 4242', '/cards/4242-4242-4242-4242/');
    expect(logged).not.toContain('4242 4242 4242 4242');
    expect(logged).not.toContain('4242-4242-4242-4242');
    expect(logged).toContain('**** 4242');
  });

  it('leaves a run of digits that fails the Luhn check, no card number, as it is', async () => {
    expect(await loggedFor('4242424242424241', '/webhooks/')).toContain('4242424242424241');
  });
});

describe('a card number a route echoes with the cvc or the expiry run on after it', () => {
  it.each([
    ['rejected 4111111111111111 987', 'rejected **** 1111 [redacted]'],
    ['rejected 4111 1111 1111 1111 987', 'rejected **** 1111 [redacted]'],
    ['card 4242-4242-4242-4242-12-2030 refused', 'card **** 4242 [redacted] refused'],
    ['card 4242 4242 4242 4242 declined', 'card **** 4242 declined'],
    ['order 1001 4111111111111111 refused', 'order 1001 **** 1111 refused'],
    ['amount 1500 4242424242424242', 'amount 1500 **** 4242'],
    ['1 4111 1111 1111 1111', '1 **** 1111'],
  ])('shows no digit after the card number: %j', (text, shown) => {
    expect(maskCardNumbers(text)).toBe(shown);
  });
});

describe('a long run of short numbers', () => {
  it('is read in time linear in its length (spans of at most 19 digits are tried)', () => {
    // Ones: no span of 13 to 19 of them passes the Luhn check, so every span is tried. Sixteen
    // times the run takes about sixteen times as long when the read is linear, and sixty times or
    // more when each group's start scans every group end before it (quadratic). The two runs are
    // timed in turn, the best of two each, so a machine that slows down weighs on both.
    const run = (ones: number) => Array.from({ length: ones }, () => '1').join(' ');
    const short = run(4_000);
    const long = run(64_000);
    const best = { short: Infinity, long: Infinity };
    for (let round = 0; round < 2; round += 1) {
      for (const [name, text] of [
        ['short', short],
        ['long', long],
      ] as const) {
        const started = performance.now();
        expect(maskCardNumbers(text)).toBe(text);
        best[name] = Math.min(best[name], performance.now() - started);
      }
    }
    expect(best.long / best.short).toBeLessThan(32);
  });
});
