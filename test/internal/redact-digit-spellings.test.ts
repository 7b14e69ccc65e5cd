// A card number a server echoes with its digits spelled otherwise than in ASCII: JSON `\u0034`
// escapes (an encoder set to escape everything outside a safe set), HTML character references
// (`&#52;`, `&#x34;`) or fullwidth digits (a CJK-locale template). Each spelling of each digit is
// the card's digit, so the number comes back whole and must be masked like the ASCII one.
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/internal/redact.js';

const cardNumber = '4111111111111111';
const secrets = { cardNumber, cvc: '737' };
const spell = (digits: string, each: (digit: string) => string) => [...digits].map(each).join('');

describe('an echoed card number with its digits spelled otherwise', () => {
  it.each([
    ['as JSON \\u escapes', (d: string) => `\\u00${(0x30 + Number(d)).toString(16)}`],
    ['as decimal character references', (d: string) => `&#${0x30 + Number(d)};`],
    ['as hex character references', (d: string) => `&#x${(0x30 + Number(d)).toString(16)};`],
    ['as upper-case hex character references', (d: string) => `&#X${(0x30 + Number(d)).toString(16)};`],
    ['in fullwidth', (d: string) => String.fromCodePoint(0xff10 + Number(d))],
    [
      'mixed with ASCII digits',
      (d: string) => (Number(d) % 2 === 0 ? d : String.fromCodePoint(0xff10 + Number(d))),
    ],
  ])('is masked %s', (_name, each) => {
    const echoed = `{"error":"card ${spell(cardNumber, each)} declined"}`;
    const redacted = redactText(echoed, secrets);
    expect(redacted).toBe('{"error":"card **** 1111 declined"}');
  });

  it('is masked in fullwidth with spaces between its groups', () => {
    const groups = cardNumber
      .match(/.{4}/g)!
      .map((group) => spell(group, (d) => String.fromCodePoint(0xff10 + Number(d))));
    expect(redactText(`card ${groups.join('\u3000')}`, secrets)).toBe('card **** 1111');
  });

  it('leaves other fullwidth or escaped numbers alone', () => {
    const text = 'order \uff11\uff12\uff13\uff14 total \\u0031\\u0035\\u0030\\u0030';
    expect(redactText(text, secrets)).toBe(text);
  });
});

describe('an echoed cvc spelled otherwise', () => {
  it.each([
    ['as JSON \\u escapes', '\\u0037\\u0033\\u0037'],
    ['in fullwidth', '\uff17\uff13\uff17'],
    ['as character references', '&#55;&#51;&#55;'],
  ])('is removed %s', (_name, cvc) => {
    expect(redactText(`{"error":"cvc ${cvc} wrong"}`, secrets)).toBe('{"error":"cvc [redacted] wrong"}');
  });
});

describe('a text that almost holds the card number in escapes', () => {
  it('is read in linear time, not by trying every split of its escapes', () => {
    // Every `\u0031` is a digit 1 and nothing else: a near-match of a long run fails at once.
    const text = '\\u0031'.repeat(4_000);
    expect(redactText(text, { cardNumber: '1111111111111112' })).toBe(text);
  });
});

/** Each character of `text` as a JSON `\uXXXX` escape: an encoder that escapes everything. */
const escaped = (text: string) =>
  [...text].map((char) => `\\u${char.codePointAt(0)!.toString(16).padStart(4, '0')}`).join('');

describe('the text next to an echoed card number or cvc', () => {
  it.each([
    [
      'every character escaped, the space before as \\u0020',
      `{"error":"${escaped(`card ${cardNumber} declined`)}"}`,
    ],
    [
      'a no-break space as \\u00a0 before the digits (Python json.dumps)',
      `{"error":"Carte\\u00a0${cardNumber}"}`,
    ],
    ['a no-break space as \\u00a0 before escaped digits', `{"error":"card\\u00a0${escaped(cardNumber)}"}`],
  ])('does not hide the card number: %s', (_name, text) => {
    const redacted = redactText(text, secrets);
    expect(JSON.parse(redacted).error).toContain('**** 1111');
    expect(JSON.parse(redacted).error).not.toContain(cardNumber);
  });

  it.each([
    ['every character escaped', `{"error":"${escaped('cvc 737 wrong')}"}`],
    ['after a no-break space as \\u00a0', '{"error":"cvc\\u00a0737"}'],
  ])('does not hide the cvc: %s', (_name, text) => {
    expect(JSON.parse(redactText(text, secrets)).error).toContain('[redacted]');
  });

  it.each([
    ['escaped', `{"amount":"${escaped('7374')}"}`],
    ['escaped, the cvc at its end', `{"amount":"${escaped('1737')}"}`],
    ['as character references', 'total &#49;&#55;&#51;&#55;'],
    ['fullwidth', 'total \uff17\uff13\uff17\uff14 JPY'],
    ['fullwidth, the cvc at its end', 'total \uff11\uff17\uff13\uff17 JPY'],
  ])('leaves a larger number holding the cvc digits alone: %s', (_name, text) => {
    expect(redactText(text, secrets)).toBe(text);
  });
});

describe('numbers next to each other that together hold the card digits', () => {
  // Sixteen digits of the card run on in one number are the card; spread over two numbers of a
  // list, or split by a separator inside a longer number, they are not, and masking them broke
  // the JSON (two numbers became one masked text).
  it.each([
    ['two numbers of a list', '{"ids":[1004111111,1111111110]}'],
    ['two numbers of a list, a space between', '{"ids":[1004111111, 1111111110]}'],
    ['two numbers inside a text, a dash between', '{"note":"1004111111-1111111110"}'],
  ])('leaves them alone: %s', (_name, text) => {
    expect(redactText(text, secrets)).toBe(text);
  });

  it('masks the card run on in one number (a PAN with the expiry after it)', () => {
    expect(redactText(`pan_exp=${cardNumber}1231`, secrets)).toBe('pan_exp=**** 11111231');
  });
});

describe('a reply that nearly holds the card number again and again', () => {
  // Each gap between two digits has one reading: `&1;` is an entity, never `&`, `1`, `;` as well,
  // and `%11` an escape, so a near match fails without trying every split of the gaps. 1 MiB is
  // the most the client reads; trying every split took over ten seconds, one reading well under one.
  // A run of the card's own digits starts a match at each of them (the card is masked inside a
  // longer run), and each fails within the card's length.
  // Fullwidth ones with spaces between are also the card's first 15 digits (a number cut short),
  // masked again and again; the other texts hold no part of the card.
  it.each([
    ['4111111111111111', `4${'&1;'.repeat(14)}x`, 'kept'],
    ['4111111111111111', `4${'%11'.repeat(7)}x`, 'kept'],
    ['1111111111111112', '1', 'kept'],
    ['1111111111111112', '\\u0031', 'kept'],
    ['1111111111111112', '&#49;', 'kept'],
    ['1111111111111112', '\uff11 ', 'masked'],
  ])('is read in linear time: card %s, %s…', (card, unit, outcome) => {
    const text = unit.repeat(Math.ceil((1 << 20) / unit.length));
    const start = performance.now();
    const redacted = redactText(text, { cardNumber: card });
    expect(performance.now() - start).toBeLessThan(2_000);
    if (outcome === 'kept') expect(redacted).toBe(text);
    else expect(redacted).not.toContain(unit.repeat(12));
  });
});
