/**
 * What a route answered, as `trigger` prints it and the sandbox's delivery log and report quote it:
 * one short line, whatever the body was.
 *
 * @module
 */

import { escapeForLog, maskCardNumbers, redactSignature } from './log.js';

/** The longest excerpt printed, in characters. */
export const MAX_EXCERPT = 200;

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  sol: '/',
  equals: '=',
  plus: '+',
  colon: ':',
  num: '#',
};

/**
 * `secret` as written and as JSON encoders write it: escaped as `JSON.stringify` does, with `/` as
 * `\/` (PHP), and with `<`, `>`, `&` as `\u003c`… (Go).
 */
function jsonForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const go = json.replace(/[<>&]/g, (char) => `\\u00${char.charCodeAt(0).toString(16)}`);
  const upper = json.replace(/[<>&]/g, (char) => `\\u00${char.charCodeAt(0).toString(16).toUpperCase()}`);
  const forms = [secret, json, go, upper];
  return [...new Set([...forms, ...forms.map((form) => form.replaceAll('/', '\\/'))])];
}

/**
 * `text` with each of `secrets` (a delivery's signature, the API key the sandbox received), as
 * written and as JSON encoders escape it, replaced by `[redacted]`.
 *
 * @example
 * ```ts
 * redactSecrets('refused sk_live_abc', ['sk_live_abc']); // 'refused [redacted]'
 * ```
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return secrets
    .filter((secret) => secret !== '')
    .flatMap(jsonForms)
    .reduce((rest, form) => rest.replaceAll(form, '[redacted]'), text);
}

/**
 * `text` without the run of HTML character references at its end: cut there, the run may hold the
 * first part of a secret that only decoding would show (each reference is looked at once).
 */
function withoutTrailingReferences(text: string): string {
  let end = text.length;
  for (;;) {
    const amp = text.lastIndexOf('&', end - 1);
    if (amp < 0 || end - amp > 12 || !/^&#?[\da-z]*;?$/i.test(text.slice(amp, end)))
      return text.slice(0, end);
    end = amp;
  }
}

/** How much of an answer is read for its excerpt. */
const MAX_READ = 16_384;

/** The text an HTML page shows: head, scripts, styles and tags dropped, the common entities decoded. */
function pageText(html: string): string {
  return html
    .replace(/<(head|script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[\da-f]{1,6}|#\d{1,6}|[a-z]+);/gi, (entity, name: string) => {
      if (/^#x/i.test(name)) return String.fromCodePoint(Math.min(parseInt(name.slice(2), 16), 0x10ffff));
      if (name.startsWith('#')) return String.fromCodePoint(Math.min(Number(name.slice(1)), 0x10ffff));
      return ENTITIES[name.toLowerCase()] ?? entity;
    });
}

/**
 * The body as one line of at most {@link MAX_EXCERPT} characters: an HTML page (an Express or
 * nginx error page) as its text, whitespace runs as one space, control characters escaped, a
 * card number as its last four (`**** 4242`), and the value of any `hp_sig` (and each of
 * `secrets`, such as the signature posted and the API key the sandbox received) as `[redacted]`.
 *
 * @example
 * ```ts
 * answerExcerpt('<!DOCTYPE html>\n<html><body><pre>Cannot POST /hooks</pre></body></html>', 'text/html');
 * // 'Cannot POST /hooks'
 * ```
 */
export function answerExcerpt(
  body: string,
  contentType: string | null,
  secrets: readonly string[] = [],
): string {
  // Each secret as written and as JSON encoders escape it (a route echoing it in a JSON body).
  const takeOut = (text: string): string => redactSecrets(text, secrets);
  // Secrets out of the whole answer (linear), then only its head is read: stripping tags rescans
  // from every unclosed '<', and 200 characters are shown.
  const whole = redactSignature(takeOut(body));
  const redacted = whole.length > MAX_READ ? withoutTrailingReferences(whole.slice(0, MAX_READ)) : whole;
  const html = /html/i.test(contentType ?? '') || /^\s*</.test(redacted);
  // Again once the page's entities are decoded (hp_sig&#61;…, a secret written as &amp; or &#97;).
  const text = escapeForLog(
    maskCardNumbers(
      redactSignature(
        takeOut(html ? pageText(redacted) : redacted)
          .replace(/\s+/g, ' ')
          .trim(),
      ),
    ),
  );
  return text.length > MAX_EXCERPT ? `${text.slice(0, MAX_EXCERPT)}…` : text;
}
