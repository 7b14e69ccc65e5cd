// The secrets the suite feeds the SDK, and a scanner for captured text (errors, hook logs,
// sandbox log lines, CLI output): a card number or cvc found there is a leak.
import { inspect } from 'node:util';

/** Luhn-valid 16-digit test cards the suite uses (the sandbox's documented values among them). */
export const testCards = [
  '4242424242424242',
  '4000000000000002',
  '5555555555554444',
  '4111111111111111',
] as const;
/** The cvc the suite sends; unusual enough that a bare occurrence next to "cvc" is a leak. */
export const testCvc = '947';
export const testCvcs = ['947', '831'] as const;

export interface SecretFinding {
  readonly secret: string;
  readonly source: string;
  readonly excerpt: string;
}

const cardPattern = (card: string) => ({
  card,
  // the digits, also grouped by spaces or dashes
  pattern: new RegExp(card.split('').join('[\\s-]?')),
});
const cardPatterns = testCards.map(cardPattern);

/**
 * Scans captured text. Finds each test card (plain or grouped by spaces or dashes), a run of its
 * first 12 digits, and a test cvc next to the word cvc (`cvc: 947`, `"cvc":947`, `cvc=947`).
 * `cards` replaces the list of cards looked for.
 */
export function findSecrets(
  captured: Iterable<{ source: string; text: string }>,
  options: { cards?: readonly string[] } = {},
): SecretFinding[] {
  const findings: SecretFinding[] = [];
  const patterns = options.cards ? options.cards.map(cardPattern) : cardPatterns;
  for (const { source, text } of captured) {
    for (const { card, pattern } of patterns) {
      const match = pattern.exec(text) ?? new RegExp(card.slice(0, 12)).exec(text);
      if (match) {
        findings.push({ secret: `card ${card.slice(-4)}`, source, excerpt: excerpt(text, match.index) });
      }
    }
    for (const cvc of testCvcs) {
      const near = new RegExp(`cvc["'\\s:=]{0,4}${cvc}\\b`, 'i').exec(text);
      if (near) findings.push({ secret: `cvc ${cvc}`, source, excerpt: excerpt(text, near.index) });
    }
  }
  return findings;
}

const excerpt = (text: string, index: number): string =>
  text.slice(Math.max(0, index - 40), index + 40).replace(/\d{6,}/g, (d) => `${d.slice(0, 2)}…${d.length}d`);

/** Collects captured text for a later scan. */
export class Capture {
  readonly items: { source: string; text: string }[] = [];
  add(source: string, value: unknown): void {
    this.items.push({ source, text: render(value) });
  }
  get size(): number {
    return this.items.length;
  }
  get chars(): number {
    return this.items.reduce((n, i) => n + i.text.length, 0);
  }
}

/** Everything an error exposes: message, String, JSON, inspect, stack, cause chain. */
export function render(value: unknown): string {
  if (typeof value === 'string') return value;
  const parts: string[] = [];
  try {
    parts.push(String(value));
  } catch {
    /* ignore */
  }
  try {
    parts.push(JSON.stringify(value) ?? '');
  } catch {
    /* ignore */
  }
  // util.inspect shows own enumerable fields, e.g. an ApiError's body and headers
  parts.push(inspect(value, { depth: 6 }));
  if (value instanceof Error) {
    parts.push(value.stack ?? '');
    if (value.cause !== undefined) parts.push(render(value.cause));
  }
  return parts.join('\n');
}
