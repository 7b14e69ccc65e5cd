// trigger prints 200 characters of the route's answer, yet stripped the tags of the whole answer,
// rescanning to its end from every unclosed '<': an answer of 400 KB of them held the CLI for
// minutes after the POST (second review). Only the head of the answer is read; a secret or an
// hp_sig anywhere in it is still redacted.
import { describe, expect, it } from 'vitest';
import { answerExcerpt } from '../../src/sandbox/answer-excerpt.js';

describe('answerExcerpt of a long answer', () => {
  it.each([
    ['unclosed "<"', '<'.repeat(400_000)],
    ['unclosed "<script"', '<script'.repeat(60_000)],
  ])('of %s returns one short line', (_label, body) => {
    expect(answerExcerpt(body, 'text/html').length).toBeLessThanOrEqual(201);
  });

  it('still redacts the posted signature and an hp_sig near the head', () => {
    const body = `<p>bad ?hp_ref=A&hp_sig=abcdef123 sig s3cr3t-signature</p>${'<'.repeat(100_000)}`;
    const text = answerExcerpt(body, 'text/html', ['s3cr3t-signature']);
    expect(text).not.toContain('abcdef123');
    expect(text).not.toContain('s3cr3t-signature');
  });
});
