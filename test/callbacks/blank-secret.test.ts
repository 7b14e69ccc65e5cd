// A secret of only blanks is a misread environment variable (a padded .env line, a YAML `|` block
// of spaces), not a key: sixteen spaces are 16 characters, yet anyone can guess them and forge a
// callback. Every place that takes the webhook secret refuses it, naming the option, never
// quoting it.
import { describe, expect, it } from 'vitest';
import { thrown } from '../helpers/caught.js';
import { createCallbackHandler } from '../../src/callbacks/handler.js';
import { signCallbackUrl, verifyCallbackUrl } from '../../src/callbacks/signing.js';
import { CallbackVerificationError } from '../../src/errors.js';
import { run, type CliIo } from '../../src/cli/program.js';
import { PaymentsClient, ValidationError } from '../../src/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';

const blanks = [' '.repeat(16), '\t'.repeat(20), ' \n'.repeat(12), '\u00a0'.repeat(16), '\u3000'.repeat(16)];
const route = 'https://shop.example/webhooks/payments';

describe.each(blanks.map((secret) => [JSON.stringify(secret), secret]))(
  'a blank secret %s',
  (_label, secret) => {
    it('is refused by createCallbackHandler, naming secret (alone or in a list)', () => {
      for (const [given, name] of [
        [secret, 'secret'],
        [['a-real-secret-0123456789', secret], 'secret[1]'],
      ] as const) {
        const error = thrown(() => createCallbackHandler({ secret: given, onEvent: () => {} }));
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toContain(`${name} is blank`);
      }
    });

    it('is refused by signCallbackUrl and verifyCallbackUrl', async () => {
      await expect(signCallbackUrl(route, { secret, reference: 'ORD-1' })).rejects.toThrow(/secret.*blank/);
      const signed = await signCallbackUrl(route, { secret: 'a-real-secret-0123456789', reference: 'ORD-1' });
      const error = await verifyCallbackUrl(signed, { secret }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CallbackVerificationError);
      expect(error).toMatchObject({ reason: 'weak_secret' });
      expect((error as Error).message).toMatch(/secret.*blank/);
    });

    it("is refused as the client's transactions.secret", () => {
      const error = thrown(
        () =>
          new PaymentsClient({
            baseUrl: 'https://api.example',
            transactions: { tracker: createTransactionTracker(), secret },
          }),
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toEqual([
        expect.objectContaining({
          path: ['transactions', 'secret'],
          message: expect.stringContaining('blank'),
        }),
      ]);
    });

    it('is refused by `hosted-payments trigger` (exit 2), from --secret and from the environment', async () => {
      for (const [args, env] of [
        [['--secret', secret], {}],
        [[], { HOSTED_PAYMENTS_WEBHOOK_SECRET: secret }],
      ] as const) {
        const err: string[] = [];
        const io: CliIo = { stdout: () => undefined, stderr: (text) => void err.push(text), env };
        const code = await run(
          ['trigger', 'payout.succeeded', '--url', 'http://127.0.0.1:9/hook', ...args],
          io,
        );
        expect(code).toBe(2);
        expect(err.join('')).toMatch(/blank/);
      }
    });
  },
);

// A secret with white space at either end is the same misread (a secret file or `echo` adds a
// trailing newline, a `.env` line keeps its spaces), and the worse for working: the side that
// reads it trimmed (a dotenv loader, another deployment) signs with another key, and every genuine
// callback is a 401 that names no white space. Refused everywhere, as a blank one is.
const padded = [
  'a-real-secret-0123456789\n',
  'a-real-secret-0123456789\r\n',
  ' a-real-secret-0123456789',
  'a-real-secret-0123456789\t',
  '\ufeffa-real-secret-0123456789',
  'a-real-secret-0123456789\u00a0',
];

describe.each(padded.map((secret) => [JSON.stringify(secret), secret]))(
  'a secret with white space at its start or end %s',
  (_label, secret) => {
    it('is refused by createCallbackHandler, naming secret (alone or in a list)', () => {
      for (const [given, name] of [
        [secret, 'secret'],
        [['a-real-secret-0123456789', secret], 'secret[1]'],
      ] as const) {
        const error = thrown(() => createCallbackHandler({ secret: given, onEvent: () => {} }));
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toContain(`${name} has white space at its start or end`);
        expect((error as Error).message).not.toContain('a-real-secret');
      }
    });

    it('is refused by signCallbackUrl and verifyCallbackUrl', async () => {
      await expect(signCallbackUrl(route, { secret, reference: 'ORD-1' })).rejects.toThrow(
        /secret.*white space at its start or end/,
      );
      const signed = await signCallbackUrl(route, { secret: 'a-real-secret-0123456789', reference: 'ORD-1' });
      const error = await verifyCallbackUrl(signed, { secret }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CallbackVerificationError);
      expect(error).toMatchObject({ reason: 'weak_secret' });
      expect((error as Error).message).toMatch(/secret.*white space at its start or end/);
    });

    it("is refused as the client's transactions.secret", () => {
      const error = thrown(
        () =>
          new PaymentsClient({
            baseUrl: 'https://api.example',
            transactions: { tracker: createTransactionTracker(), secret },
          }),
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toEqual([
        expect.objectContaining({
          path: ['transactions', 'secret'],
          message: expect.stringContaining('white space at its start or end'),
        }),
      ]);
    });

    it('is refused by `hosted-payments trigger` (exit 2), from --secret and from the environment', async () => {
      for (const [args, env] of [
        [['--secret', secret], {}],
        [[], { HOSTED_PAYMENTS_WEBHOOK_SECRET: secret }],
      ] as const) {
        const err: string[] = [];
        const io: CliIo = { stdout: () => undefined, stderr: (text) => void err.push(text), env };
        const code = await run(
          ['trigger', 'payout.succeeded', '--url', 'http://127.0.0.1:9/hook', ...args],
          io,
        );
        expect(code).toBe(2);
        expect(err.join('')).toMatch(/white space at its start or end/);
        expect(err.join('')).not.toContain('a-real-secret');
      }
    });
  },
);

describe('a secret with blanks inside it', () => {
  it('is accepted: only its ends are held to no white space', async () => {
    const secret = 'a real secret value with spaces';
    expect(() => createCallbackHandler({ secret, onEvent: () => {} })).not.toThrow();
    const signed = await signCallbackUrl(route, { secret, reference: 'ORD-1' });
    await expect(verifyCallbackUrl(signed, { secret })).resolves.toMatchObject({ reference: 'ORD-1' });
  });
});

describe('an empty secret', () => {
  it('is named empty (an unset variable read as ""), not too short', async () => {
    await expect(signCallbackUrl(route, { secret: '', reference: 'ORD-1' })).rejects.toThrow(
      /secret is empty; it needs at least 16 characters/,
    );
    expect(() => createCallbackHandler({ secret: '', onEvent: () => {} })).toThrow(/secret is empty/);
  });
});
