// A hostile or buggy service may echo what it was sent in forms other than as written: the API key
// upper-cased (in a status line's reason phrase, a body, a header) or the card number in another
// script's decimal digits. Neither may reach what the merchant logs: an ApiError's message, body
// and headers, and the afterResponse event.
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError, PaymentsClient, type ResponseLogEvent } from '../../src/index.js';
import { redactText } from '../../src/internal/redact.js';
import { cardPaymentInput } from '../helpers/inputs.js';
import { BASE_URL, useMockService } from '../helpers/msw.js';

const service = useMockService();
const PAYMENT = 'api/payment/payment-initiate-callback/';
const apiKey = 'sk_live_supersecretkey_9f8e7d6c5b4a';
const cardNumber = '4917385127649357';
const input = {
  ...cardPaymentInput,
  card_details: { ...cardPaymentInput.card_details, card_number: cardNumber },
};

/** The error of a card payment the service answers with `reply`, and the afterResponse events. */
async function answered(reply: () => Response) {
  service.on(PAYMENT, reply);
  const logged: ResponseLogEvent[] = [];
  const client = new PaymentsClient({
    baseUrl: BASE_URL,
    apiKey,
    hooks: { afterResponse: (event) => void logged.push(event) },
  });
  const error = (await client.initiateCardPayment(input).catch((e: unknown) => e)) as ApiError;
  expect(error).toBeInstanceOf(ApiError);
  expect(logged).toHaveLength(1);
  return {
    error,
    dump: [
      error.message,
      error.body,
      JSON.stringify(error.headers),
      JSON.stringify(error),
      JSON.stringify(logged),
    ].join('\n'),
  };
}

/** `text` with every decimal digit of any script as its ASCII digit. */
const asciiDigits = (text: string) =>
  text.replace(/\p{Nd}/gu, (char) => {
    let zero = char.codePointAt(0)!;
    while (/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
    return String((char.codePointAt(0)! - zero) % 10);
  });

describe('the API key echoed upper-cased', () => {
  it('is redacted from the message when the status text echoes it', async () => {
    const { error, dump } = await answered(
      () => new HttpResponse('no', { status: 500, statusText: `Bad key ${apiKey.toUpperCase()}` }),
    );
    expect(error.message).toContain('HTTP 500 Bad key [redacted]');
    expect(dump.toLowerCase()).not.toContain(apiKey);
  });

  it('is redacted from the body, the headers and the afterResponse event', async () => {
    const { error, dump } = await answered(
      () =>
        new HttpResponse(`{"error":"unknown key ${apiKey.toUpperCase()}"}`, {
          status: 401,
          headers: { 'x-echo': `Bearer ${apiKey.toUpperCase()}` },
        }),
    );
    expect(JSON.parse(error.body)).toEqual({ error: 'unknown key [redacted]' });
    expect(error.headers['x-echo']).toBe('[redacted]');
    expect(dump.toLowerCase()).not.toContain(apiKey);
  });
});

describe('the card number echoed in another script', () => {
  it.each([
    ['Arabic-Indic', 0x660],
    ['Extended Arabic-Indic', 0x6f0],
    ['Devanagari', 0x966],
    ['Thai', 0xe50],
    ['mathematical double-struck', 0x1d7d8],
  ])('is masked in %s digits', async (_script, zero) => {
    const spelled = [...cardNumber].map((digit) => String.fromCodePoint(zero + Number(digit))).join('');
    const { error, dump } = await answered(
      () => new HttpResponse(`{"error":"card ${spelled} declined"}`, { status: 402 }),
    );
    expect(JSON.parse(error.body)).toEqual({ error: 'card **** 9357 declined' });
    expect(asciiDigits(dump)).not.toMatch(/4917\D*3851\D*2764/);
  });
});

describe('the API key echoed with its letters and digits escaped', () => {
  /** `apiKey` with the characters at `at` (every one when omitted) written by `escape`. */
  const spelled = (escape: (char: string) => string, at?: number) =>
    [...apiKey].map((char, i) => (at === undefined || i === at ? escape(char) : char)).join('');
  const hex = (char: string) => char.charCodeAt(0).toString(16);
  it.each([
    ['one letter as a JSON \\u escape', spelled((c) => `\\u${hex(c).padStart(4, '0')}`, 3)],
    ['every character as a JSON \\u escape', spelled((c) => `\\u${hex(c).padStart(4, '0')}`)],
    ['one letter as a hex character reference', spelled((c) => `&#x${hex(c)};`, 3)],
    ['every character as a decimal character reference', spelled((c) => `&#${c.charCodeAt(0)};`)],
    ['every character percent-encoded', spelled((c) => `%${hex(c).toUpperCase()}`)],
    ['one digit percent-encoded in lower-case hex', spelled((c) => `%${hex(c)}`, apiKey.length - 1)],
    [
      'in fullwidth letters and digits',
      spelled((c) => (/[0-9A-Za-z]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)),
    ],
  ])('is redacted when written with %s', async (_form, echoed) => {
    const { error, dump } = await answered(
      () =>
        new HttpResponse(`{"error":"unknown key ${echoed}"}`, {
          status: 401,
          // A header holds Latin-1 only: the fullwidth form is echoed in the body alone.
          headers: /^[\x20-\x7e]*$/.test(echoed) ? { 'x-echo': `key=${echoed}` } : {},
        }),
    );
    expect(error.body).toBe('{"error":"unknown key [redacted]"}');
    expect(dump).not.toContain(echoed);
  });
});

describe('an echo that almost spells the API key in fullwidth forms', () => {
  // Each character of a secret is matched in one way only: two alternatives that both match a
  // fullwidth letter (its two cases, which flag `i` folds into one) made a near miss backtrack
  // through every combination, freezing the process for minutes.
  const fullwidth = (text: string) =>
    [...text].map((c) => (/[!-~]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');
  const fullwidthLetters = (text: string) =>
    [...text]
      .map((c) => (/[0-9A-Za-z]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
      .join('');
  it('is answered at once, the near miss shown as sent', () => {
    // A key of 44 letters and digits, as an hp_sig is: 2^44 ways to try, were each ambiguous.
    const key = 'k9Qz7XwV3pLmN7tR2yB4cD8eF1gH6jK0mN5pQ2rS7tUv';
    const nearMiss = fullwidthLetters(`${key.slice(0, -1)}Z`);
    const started = performance.now();
    expect(redactText(`key ${nearMiss}`, { values: [key] })).toBe(`key ${nearMiss}`);
    expect(redactText(`key ${fullwidthLetters(key)}`, { values: [key] })).toBe('key [redacted]');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('is redacted when its symbols are fullwidth too', async () => {
    const { error, dump } = await answered(
      () => new HttpResponse(`{"error":"key ${fullwidth(apiKey)}"}`, { status: 401 }),
    );
    expect(error.body).toBe('{"error":"key [redacted]"}');
    expect(dump).not.toContain(fullwidth(apiKey));
  });
});
