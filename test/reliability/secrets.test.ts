// Secrets in CLI output and sandbox log lines: card payments (valid, declined and malformed) go
// through `hosted-payments sandbox` (run in-process with captured stdout/stderr) and
// `hosted-payments trigger` posts to a webhook; nothing printed may carry a card number or cvc.
// (The other files of this suite scan client errors, hook logs, handler errors and sandbox logs.)
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { PaymentsClient } from '../../src/client.js';
import { callbackEventTypes } from '../../src/callbacks/events.js';
import { recordFigures, resetFigures } from './helpers/figures.js';
import { startMerchant } from './helpers/merchant.js';
import { Capture, findSecrets } from './helpers/secrets.js';

const SECTION = 'secrets';
// Not the sandbox's documented test cards, which its banner lists on purpose: these must never
// appear anywhere, so any occurrence is a leak.
const CARDS = ['5555555555554444', '4111111111111111'];
const BAD_CARD = '5555555555554443'; // fails the Luhn check
const CVC = '831';
const SECRET = 'whsec_reliability_cli_test';
const capture = new Capture();

afterAll(() => {
  recordFigures(SECTION, {
    cliAndSandboxTextsScanned: capture.size,
    secretsFound: findSecrets(capture.items, { cards: [...CARDS, BAD_CARD] }).length,
  });
});

describe('the secrets scanner', () => {
  it('finds a card number plain, grouped or truncated to 12 digits, and a cvc next to its name', () => {
    const found = (text: string) => findSecrets([{ source: 't', text }]).map((f) => f.secret);
    expect(found('pan=4242424242424242')).toEqual(['card 4242']);
    expect(found('4242 4242 4242 4242')).toEqual(['card 4242']);
    expect(found('5555-5555-5555-4444')).toEqual(['card 4444']);
    expect(found('prefix 424242424242')).toEqual(['card 4242']);
    expect(found('{"cvc":947}')).toEqual(['cvc 947']);
    expect(found("cvc: '831'")).toEqual(['cvc 831']);
    expect(found('card **** 4242, port 39471, 947 ms')).toEqual([]);
  });
});

describe('no card number or cvc in CLI output or sandbox log lines', () => {
  it('hosted-payments sandbox prints none while serving valid and malformed card payments', async () => {
    resetFigures(SECTION);
    const out: string[] = [];
    const controller = new AbortController();
    let sandboxUrl = '';
    const listening = new Promise<void>((resolve) => {
      void run(['sandbox', '--port', '0', '--callback-delay', '0', '--duplicates', '1'], {
        stdout: (text) => out.push(text),
        stderr: (text) => out.push(text),
        signal: controller.signal,
        onListening: (url) => {
          sandboxUrl = url;
          resolve();
        },
      }).then((code) => out.push(`exit ${code}`));
    });
    await listening;
    const merchant = await startMerchant({ capture });
    try {
      const client = new PaymentsClient({ baseUrl: sandboxUrl, cardFieldEncoding: 'string' });
      const year = new Date().getUTCFullYear() + 2;
      for (const [i, card] of CARDS.entries()) {
        await client.initiateCardPayment({
          customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
          amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
          card_details: { card_number: card, expiry_month: 12, expiry_year: year, cvc: CVC },
          callback_details: { transaction_reference: `cli-${i}`, callback_url: `${merchant.url}/hooks` },
        });
      }
      // Malformed requests straight to the sandbox (the client would refuse them): a card that
      // fails Luhn, a cvc of the wrong length, an unknown key carrying the card, broken JSON.
      const raw = (body: string) =>
        fetch(`${sandboxUrl}/api/payment/payment-initiate-callback/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }).then(async (r) => capture.add(`sandbox answer ${r.status}`, await r.text()));
      const base = {
        customer_details: {
          payment_method: 'CARD',
          full_name: 'J',
          phone_number: '254712345678',
          email: 'j@example.com',
        },
        callback_details: { transaction_reference: 'x', callback_url: `${merchant.url}/hooks` },
      };
      await raw(
        JSON.stringify({
          ...base,
          card_details: { card_number: BAD_CARD, expiry_month: 12, expiry_year: year, cvc: CVC },
        }),
      );
      await raw(
        JSON.stringify({
          ...base,
          card_details: { card_number: CARDS[0], expiry_month: 12, expiry_year: year, cvc: `${CVC}1` },
        }),
      );
      await raw(
        JSON.stringify({
          ...base,
          card_details: {
            card_number: CARDS[0],
            expiry_month: 12,
            expiry_year: year,
            cvc: CVC,
            pan: CARDS[1],
          },
        }),
      );
      await raw(`{"card_details":{"card_number":${CARDS[0]},"cvc":${CVC}`);
      // wait for the callbacks (and their duplicates) to be delivered and logged
      for (let i = 0; i < 200 && merchant.statuses.get(200) !== CARDS.length * 2; i++)
        await new Promise((r) => setTimeout(r, 25));
    } finally {
      controller.abort();
      await merchant.close();
    }
    await new Promise((r) => setTimeout(r, 50));
    const text = out.join('');
    expect(text).toContain('sandbox listening on');
    expect(text).toContain('**** 4444'); // the log does mention the card, masked
    expect(text).toContain('sandbox stopped');
    capture.add('hosted-payments sandbox output', text);
    expect(findSecrets(capture.items, { cards: [...CARDS, BAD_CARD] })).toEqual([]);
  }, 30_000);

  it('hosted-payments trigger prints none for any event type', async () => {
    const merchant = await startMerchant({ secret: SECRET, capture });
    try {
      for (const type of callbackEventTypes) {
        const out: string[] = [];
        const reference = type.startsWith('payout.')
          ? '123456789012'
          : type.startsWith('checkout.')
            ? '1001'
            : 'ORDER-1';
        const code = await run(
          ['trigger', type, '--url', `${merchant.url}/hooks`, '--secret', SECRET, '--reference', reference],
          {
            stdout: (text) => out.push(text),
            stderr: (text) => out.push(text),
          },
        );
        expect(code, out.join('')).toBe(0);
        capture.add(`hosted-payments trigger ${type}`, out.join(''));
      }
    } finally {
      await merchant.close();
    }
    expect(merchant.ledger.processed.size).toBe(callbackEventTypes.length);
    expect(findSecrets(capture.items, { cards: [...CARDS, BAD_CARD] })).toEqual([]);
  });
});
