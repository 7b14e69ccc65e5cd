// A secret of only blanks is a misread environment variable (a padded .env line, a YAML `|` block
// of spaces), not a key: sixteen spaces are 16 characters, yet anyone can guess them and forge a
// callback. Every place that takes the webhook secret refuses it, naming the option, never
// quoting it.
import { describe, expect, it } from 'vitest';
import { createCallbackHandler } from '../../src/callbacks/handler.js';
import { signCallbackUrl, verifyCallbackUrl } from '../../src/callbacks/signing.js';
import { CallbackVerificationError } from '../../src/errors.js';
import { run, type CliIo } from '../../src/cli/program.js';
import { PaymentsClient, ValidationError } from '../../src/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';

const blanks = [' '.repeat(16), '\t'.repeat(20), ' \n'.repeat(12), '\u00a0'.repeat(16), '\u3000'.repeat(16)];
const route = 'https://shop.example/webhooks/payments';
const caught = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe.each(blanks.map((secret) => [JSON.stringify(secret), secret]))(
  'a blank secret %s',
  (_label, secret) => {
    it('is refused by createCallbackHandler, naming secret (alone or in a list)', () => {
      for (const [given, name] of [
        [secret, 'secret'],
        [['a-real-secret-0123456789', secret], 'secret[1]'],
      ] as const) {
        const error = caught(() => createCallbackHandler({ secret: given, onEvent: () => {} }));
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
      const error = caught(
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

describe('a secret with blanks in it', () => {
  it('is accepted when something else is in it too', async () => {
    const secret = '  padded but real secret value  ';
    expect(() => createCallbackHandler({ secret, onEvent: () => {} })).not.toThrow();
    const signed = await signCallbackUrl(route, { secret, reference: 'ORD-1' });
    await expect(verifyCallbackUrl(signed, { secret })).resolves.toMatchObject({ reference: 'ORD-1' });
  });
});
