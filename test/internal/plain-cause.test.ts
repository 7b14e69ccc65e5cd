// A failure's cause chain, as an error hands it to the merchant: each cause a plain error whose
// name, message, stack and code have the call's secrets taken out (a fetch wrapper's error may
// quote the request it was sending), its numeric code kept, at most nine errors deep.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { plainCause } from '../../src/internal/redact.js';

const card = '4111111111111111';
const apiKey = 'sk_live_cause_key_1';
const secrets = { cardNumber: card, cvc: '737', values: [apiKey] };

/** Every text the chain shows a merchant's log. */
const dump = (value: unknown) =>
  [String(value), JSON.stringify(value), inspect(value, { depth: 20, showHidden: true })].join('\n');

describe('plainCause', () => {
  it('takes the secrets out of the name, message, stack and code of every error of the chain', () => {
    const root = Object.assign(new Error(`socket wrote ${card} cvc 737`), { code: `E_${apiKey}` });
    root.name = `FetchError ${apiKey}`;
    root.stack = `FetchError: body {"card_number":${card},"cvc":737}\n    at send (${apiKey}.js:1:1)`;
    const top = new Error(`request with ${apiKey} failed`, { cause: root });
    const plain = plainCause(top, secrets) as Error & { cause: Error & { code?: unknown } };
    expect(dump(plain)).not.toMatch(new RegExp(`${card}|${apiKey}|\\b737\\b`));
    expect(plain.message).toBe('request with [redacted] failed');
    expect(plain.cause.message).toBe('socket wrote **** 1111 cvc [redacted]');
    expect(plain.cause.name).toBe('FetchError [redacted]');
    expect(plain.cause.code).toBe('E_[redacted]');
    expect(plain.cause.stack).toContain('**** 1111');
  });

  it('takes the secrets out of a cause that is a string, and keeps a numeric code', () => {
    const error = Object.assign(new Error('refused', { cause: `Authorization: Bearer ${apiKey}` }), {
      code: 503,
    });
    const plain = plainCause(error, secrets) as Error & { code?: unknown };
    expect(plain.cause).toBe('Authorization: Bearer [redacted]');
    expect(plain.code).toBe(503);
  });

  it('keeps a chain nine errors deep and drops what lies deeper', () => {
    let error: Error = new Error('level 11');
    for (let level = 10; level >= 0; level -= 1) error = new Error(`level ${level}`, { cause: error });
    let depth = 0;
    for (let plain = plainCause(error, secrets); plain instanceof Error; plain = plain.cause) depth += 1;
    expect(depth).toBe(9);
  });
});
