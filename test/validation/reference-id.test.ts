import { describe, expect, it } from 'vitest';
import { checkReferenceId, generateReferenceId } from '../../src/validation/reference-id.js';

describe('generateReferenceId', () => {
  it('makes a string of 12 digits, the first not 0, safe as a JSON integer', () => {
    for (let index = 0; index < 500; index += 1) {
      const id = generateReferenceId();
      expect(id).toMatch(/^[1-9]\d{11}$/);
      expect(Number.isSafeInteger(Number(id))).toBe(true);
    }
  });

  it('does not repeat itself', () => {
    const ids = new Set(Array.from({ length: 1000 }, generateReferenceId));
    expect(ids.size).toBe(1000);
  });
});

describe('checkReferenceId', () => {
  it('accepts a number, bigint or digit string', () => {
    expect(checkReferenceId(483920175561)).toEqual({ ok: true, value: 483920175561 });
    expect(checkReferenceId(483920175561n)).toEqual({ ok: true, value: 483920175561 });
    expect(checkReferenceId('483920175561')).toEqual({ ok: true, value: 483920175561 });
  });

  it.each(['083920175561', '48392017556', '4839201755611', 48392017556.1, 'abc'])('rejects %j', (input) => {
    expect(checkReferenceId(input).ok).toBe(false);
  });
});
