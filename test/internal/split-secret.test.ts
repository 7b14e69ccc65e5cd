// A reply cut at 1 MiB may end inside a secret, which no redaction finds there: its end is dropped
// where it may be the start of one, in any spelling the redaction reads, and nothing else.
import { describe, expect, it } from 'vitest';
import { withoutSplitSecret } from '../../src/internal/redact.js';

const secrets = { cardNumber: '4917385127649357', cvc: '857', values: ['sk_live_CANARYKEY/q7f3'] };

describe('withoutSplitSecret', () => {
  it.each([
    ['the card number', 'pad 4917 3851 27', 'pad '],
    ['the card number in character references, cut inside one', 'pad &#52;&#57;&#4', 'pad '],
    ['the card number JSON-escaped, cut inside an escape', 'pad \\u0034\\u0039\\u00', 'pad '],
    ['the key', 'key=sk_live_CANA', 'key='],
    ['the key URL-encoded, cut inside an escape', 'key=sk_live_CANARYKEY%2', 'key='],
    ['the key HTML-escaped', 'key=sk_live_CANARYKEY&#x2F;q7', 'key='],
    ['the cvc', 'cvc 8 5', 'cvc '],
    ['the key, after dropping the start of the card number after it', 'sk_live_CANARYKEY/4917', ''],
    ['the key as \\u{…} escapes, cut inside one', 'key=\\u{73}\\u{6b}\\u{5f}\\u{', 'key='],
    ['the key as \\u{…} escapes, cut inside its digits', 'key=\\u{73}\\u{6b}\\u{5', 'key='],
    ['the key as \\x escapes, cut inside one', 'key=\\x73\\x6b\\x5', 'key='],
    ['the key percent-encoded twice, cut inside an escape', 'key=sk%255Flive%25', 'key='],
    ['the key percent-encoded twice, cut after its first digit', 'key=sk%255Flive%255', 'key='],
    ['the key HTML-escaped twice, cut inside a reference', 'key=sk&amp;lowbar;live&amp;#9', 'key='],
    ['the key HTML-escaped twice, cut after an escaped &', 'key=sk_live&amp;', 'key='],
  ])('drops the start of %s', (_, text, kept) => {
    expect(withoutSplitSecret(text, secrets)).toBe(kept);
  });

  it('drops no more than the last 2 KiB, however many starts of a secret follow each other', () => {
    expect(withoutSplitSecret('4'.repeat(5_000), secrets)).toBe('4'.repeat(5_000 - 2_048));
  });

  it('keeps an end that starts no secret, and a text without secrets', () => {
    expect(withoutSplitSecret('{"error":"too long","pad":"xyz', secrets)).toBe(
      '{"error":"too long","pad":"xyz',
    );
    expect(withoutSplitSecret('card 4917', undefined)).toBe('card 4917');
  });
});
