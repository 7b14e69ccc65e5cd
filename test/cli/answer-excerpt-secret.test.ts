// trigger prints a one-line excerpt of the route's answer with the webhook secret taken out. A route
// that echoed it escaped — in an HTML page (&amp;, &#97;) or in JSON (\" and \\) — printed it in
// clear once the excerpt decoded the page, or with a backslash added (review).
import { describe, expect, it } from 'vitest';
import { answerExcerpt } from '../../src/sandbox/answer-excerpt.js';

const secret = 'whsec_a&b<c>"d\\e-0123456789';

describe('the answer excerpt never shows the secret, however the route escaped it', () => {
  it.each([
    ['as is, in text', `bad secret ${secret}`, 'text/plain'],
    ['JSON-escaped', JSON.stringify({ error: 'bad', secret }), 'application/json'],
    [
      'HTML-escaped',
      `<html><body><pre>secret: ${secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}</pre></body></html>`,
      'text/html',
    ],
    [
      'HTML-escaped as numeric entities',
      `<html><body><pre>secret: ${[...secret].map((c) => `&#${c.codePointAt(0)};`).join('')}</pre></body></html>`,
      'text/html',
    ],
  ])('%s', (_, body, type) => {
    const excerpt = answerExcerpt(body, type, [secret]);
    expect(excerpt).toContain('[redacted]');
    expect(excerpt).not.toContain('0123456789');
  });
});

describe('a base64 secret (/, +, =) echoed the ways common encoders write it (review)', () => {
  const base64 = 'whsec_Ab/Cd+Ef=0123456789<&>';
  it.each([
    ['PHP json_encode (\\/)', JSON.stringify({ secret: base64 }).replaceAll('/', '\\/'), 'application/json'],
    [
      'Go encoding/json (\\u003c, \\u0026)',
      JSON.stringify({ secret: base64 }).replace(
        /[<>&]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      ),
      'application/json',
    ],
    [
      'hex entities (&#x2F;, &#x3D;)',
      `<html><body>${base64.replace(/[/=+<>&]/g, (c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`)}</body></html>`,
      'text/html',
    ],
  ])('%s', (_, body, type) => {
    const excerpt = answerExcerpt(body, type, [base64]);
    expect(excerpt).toContain('[redacted]');
    expect(excerpt).not.toContain('0123456789');
  });
});

describe('more escapes, and a secret cut at the end of what is read (review 3)', () => {
  const base64 = 'whsec_Ab/Cd+Ef=0123456789<&>';
  const hex = (text: string) => [...text].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('');

  it.each([
    [
      'PHP JSON_HEX_TAG (\\u003C, upper case)',
      JSON.stringify({ secret: base64 }).replace(
        /[<>&]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
      ),
      'application/json',
    ],
    [
      'HTML5 named entities (&sol; &equals; &plus;)',
      `<p>${base64.replace(/[/=+<&>]/g, (c) => ({ '/': '&sol;', '=': '&equals;', '+': '&plus;', '<': '&lt;', '&': '&amp;', '>': '&gt;' })[c]!)}</p>`,
      'text/html',
    ],
  ])('%s', (_, body, type) => {
    const excerpt = answerExcerpt(body, type, [base64]);
    expect(excerpt).toContain('[redacted]');
    expect(excerpt).not.toContain('0123456789');
  });

  it('a secret written as entities across the end of what is read shows none of it', () => {
    const head = `<html><head><style>${'x'.repeat(16384 - 19 - 8 - 21 - 60)}</style></head><body>`;
    const excerpt = answerExcerpt(`${head}secret: ${hex(base64)}</body></html>`, 'text/html', [base64]);
    expect(excerpt).not.toContain('whsec_');
  });
});
