// trigger prints a one-line excerpt of the route's answer with the webhook secret taken out. A route
// that echoed it escaped — in an HTML page (&amp;, &#97;) or in JSON (\" and \\) — printed it in
// clear once the excerpt decoded the page, or with a backslash added (review).
import { describe, expect, it } from 'vitest';
import { answerExcerpt } from '../../src/cli/answer-excerpt.js';

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
