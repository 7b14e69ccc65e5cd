// Tests fail on unexpected console output (zod's scripts/fail-on-console.ts): a stray log is
// either a bug or a leak, and in a payments SDK a leak may be a card number.
import { afterEach, beforeEach, vi } from 'vitest';

const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
let calls: string[] = [];

beforeEach(() => {
  calls = [];
  for (const method of methods) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      calls.push(`console.${method}: ${args.map(String).join(' ')}`);
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  if (calls.length > 0) {
    const seen = calls;
    calls = [];
    throw new Error(`Unexpected console output during the test:\n${seen.join('\n')}`);
  }
});
