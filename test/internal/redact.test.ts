import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cardSecretsOf,
  maskCardNumber,
  redactHeaders,
  redactText,
  redactWireBody,
} from '../../src/internal/redact.js';

const body = {
  customer_details: { full_name: 'Jane' },
  card_details: { card_number: '9999999999999995', expiry_month: 7, expiry_year: 2031, cvc: 737 },
};

describe('redaction', () => {
  it('shows a card number one way everywhere: its last four digits, or nothing of a non-number', () => {
    expect(maskCardNumber('4242424242424242')).toBe('**** 4242');
    expect(maskCardNumber(5555555555554444)).toBe('**** 4444');
    expect(maskCardNumber('4242 4242 4242 4242')).toBe('****');
    expect(maskCardNumber('424')).toBe('****');
    expect(maskCardNumber({ toString: () => '4242424242424242' })).toBe('****');
    expect(maskCardNumber(undefined)).toBe('****');
  });

  it('masks card_number to its last four and replaces cvc, without touching the original', () => {
    expect(redactWireBody(body)).toEqual({
      customer_details: { full_name: 'Jane' },
      card_details: {
        card_number: '**** 9995',
        expiry_month: 7,
        expiry_year: 2031,
        cvc: '[redacted]',
      },
    });
    expect(body.card_details.card_number).toBe('9999999999999995');
    const payout = { transfer: { amount: '1' } };
    expect(redactWireBody(payout)).toEqual(payout);
  });

  it('removes an echoed card number (plain or grouped) and cvc from a text', () => {
    const secrets = cardSecretsOf(body);
    const text = redactText(
      '{"error":"card 9999999999999995 / 9999 9999 9999 9995 / 9999-9999-9999-9995 declined","cvc":737,"id":17370}',
      secrets,
    );
    expect(text).not.toMatch(/9999999999999995|9999 9999 9999 9995|9999-9999-9999-9995|\b737\b/);
    expect(text).toContain('**** 9995');
    expect(text).toContain('17370');
  });

  it.each([
    ['double spaces', '9999  9999  9999  9995'],
    ['dots', '9999.9999.9999.9995'],
    ['mixed separators', '9999 -9999.9999/ 9995'],
    ['a no-break space', '9999\u00a09999\u00a09999\u00a09995'],
    ['one separator per digit', '9-9-9-9-9-9-9-9-9-9-9-9-9-9-9-5'],
    ['URL-encoded spaces', '9999%209999%209999%209995'],
    ['lone percent signs', '9999 % 9999 % 9999 % 9995'],
    ['ampersands', '9999&9999&9999&9995'],
    ['eight escaped spaces between two digits', `9999${'%20'.repeat(8)}9999 9999 9995`],
    ['an 8-character character reference', '9999&#00000160;9999&#00000160;9999&#00000160;9995'],
    [
      'table cells whose tag holds 32 characters after its name',
      '<td class="pan-digits-group-three">9999</td><td class="pan-digits-group-three">9999 9999 9995',
    ],
  ])('finds the card number written with %s', (_name, written) => {
    const text = redactText(`{"echo":"${written}"}`, cardSecretsOf(body));
    expect(text).not.toMatch(/9999\D*9999\D*9999\D*9995/);
    expect(text).toContain('**** 9995');
  });

  it('finds the card number whatever non-alphanumeric separators sit between its digits', () => {
    const separators = fc.array(
      fc.constantFrom(' ', '  ', '-', '.', '/', '\u00a0', '\t', '_', '%20', '\\u0020', '&nbsp;', ''),
      { minLength: 15, maxLength: 15 },
    );
    fc.assert(
      fc.property(separators, (between) => {
        const written = [...'9999999999999995'].map((digit, i) => digit + (between[i] ?? '')).join('');
        const text = redactText(`echo: ${written} done`, cardSecretsOf(body));
        expect(text).toBe('echo: **** 9995 done');
      }),
      { seed: 7, numRuns: 500 },
    );
  });

  // 16 plain digits that are the card number are the card number wherever they stand: a service
  // that runs the expiry (or anything else) onto it gives it away all the same.
  it.each([
    ['with the expiry run onto its end', 'pan_exp=99999999999999950731', 'pan_exp=**** 99950731'],
    ['with other digits run onto its start', 'ref 0019999999999999995', 'ref 001**** 9995'],
    // The four 9s before the mask and its last four are eight of this card's digits in a row.
    ['after more of its own digits', 'id 99999999999999999995', 'id **** 9995'],
    [
      'in a bare JSON number, the expiry after it',
      '{"pan_exp":99999999999999951231}',
      '{"pan_exp":"**** 99951231"}',
    ],
  ])('masks the card number %s', (_name, text, masked) => {
    expect(redactText(text, cardSecretsOf(body))).toBe(masked);
  });

  it('leaves a longer run that only holds the number the card rounds to, or the hex digits of an escape', () => {
    // 9999999999999996 is the card only as a double prints it, a number of its own; and the
    // digits of a \\u escape are none of the text's: the 12 after it are the card's last 12.
    const text = 'id 199999999999999961 and {"x":"\\u9999999999999995"}';
    expect(redactText(text, cardSecretsOf(body))).toBe('id 199999999999999961 and {"x":"\\u9999**** 9995"}');
  });

  it('leaves an echoed JSON body JSON: a card number or cvc echoed as a bare number becomes a string', () => {
    const secrets = cardSecretsOf(body);
    const echoed = '{"card_number": 9999999999999995 ,"cvc":737,"fee":737.5,"ids":[737],"n":17370}';
    const text = redactText(echoed, secrets);
    expect(text).toBe(
      '{"card_number": "**** 9995" ,"cvc":"[redacted]","fee":737.5,"ids":["[redacted]"],"n":17370}',
    );
    expect(JSON.parse(text)).toMatchObject({ card_number: '**** 9995', cvc: '[redacted]' });
  });

  it('quotes nothing inside a JSON string or in a text that is not JSON', () => {
    const secrets = cardSecretsOf(body);
    expect(redactText('{"error":"card 9999999999999995, cvc 737, declined"}', secrets)).toBe(
      '{"error":"card **** 9995, cvc [redacted], declined"}',
    );
    expect(redactText('Invalid cvc 737. Card 9999 9999 9999 9995 declined', secrets)).toBe(
      'Invalid cvc [redacted]. Card **** 9995 declined',
    );
  });

  it('keeps an echoed JSON body parseable where the card number and cvc follow a colon inside a string', () => {
    const text = '{"error":"rejected card: 9999999999999995, cvc: 737"}';
    expect(JSON.parse(redactText(text, cardSecretsOf(body)))).toEqual({
      error: 'rejected card: **** 9995, cvc: [redacted]',
    });
  });

  it('reads a body with a string left open in one pass, not once per quote', () => {
    // Scanned once per quote, these 100 kB take seconds; in one pass, well under a millisecond.
    const text = `{"error":"${'\\"'.repeat(50_000)}`;
    const started = performance.now();
    expect(redactText(text, cardSecretsOf(body))).toBe(text);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('removes literal values such as an echoed API key', () => {
    expect(redactText('bad key sk_live_abcdef (Bearer sk_live_abcdef)', { values: ['sk_live_abcdef'] })).toBe(
      'bad key [redacted] (Bearer [redacted])',
    );
  });

  it('redacts the Authorization value in log headers', () => {
    expect(redactHeaders({ authorization: 'Bearer sk_live_123', 'x-a': '1' })).toEqual({
      authorization: 'Bearer [redacted]',
      'x-a': '1',
    });
    expect(redactHeaders({ 'x-echo': '9999 9999  9999 9995', 'x-cvc': '737' }, cardSecretsOf(body))).toEqual({
      'x-echo': '**** 9995',
      'x-cvc': '[redacted]',
    });
  });
});
