// The `transactions` client option is checked at construction like every other option: a missing
// or foreign tracker, or a short secret, is a ValidationError naming the field, and the secret's
// value never appears in it.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PaymentsClient, ValidationError, type ClientOptions } from '../../src/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';

const baseUrl = 'https://payments.example.com';
const secret = 'a-long-enough-callback-secret';

const refusal = (transactions: unknown): ValidationError => {
  try {
    new PaymentsClient({ baseUrl, transactions } as ClientOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected the options to be refused');
};

describe('ClientOptions.transactions', () => {
  it('accepts a tracker and a secret of 16 characters or more', () => {
    const tracker = createTransactionTracker();
    expect(() => new PaymentsClient({ baseUrl, transactions: { tracker, secret } })).not.toThrow();
    expect(
      () => new PaymentsClient({ baseUrl, transactions: { tracker, secret: 'x'.repeat(16) } }),
    ).not.toThrow();
  });

  it.each([
    ['no tracker', { secret }],
    ['a tracker without begin', { tracker: { expire: () => undefined }, secret }],
    ['a store instead of a tracker', { tracker: createTransactionTracker().store, secret }],
  ])('refuses %s, naming transactions.tracker', (_name, transactions) => {
    const error = refusal(transactions);
    expect(error.issues).toEqual([
      expect.objectContaining({ path: ['transactions', 'tracker'], code: 'invalid_option' }),
    ]);
    expect(error.message).toContain('transactions.tracker');
  });

  it('refuses a secret under 16 characters without ever echoing it', () => {
    const short = 'tooShort-s3cr3t';
    const error = refusal({ tracker: createTransactionTracker(), secret: short });
    expect(error.issues).toEqual([
      expect.objectContaining({ path: ['transactions', 'secret'], code: 'invalid_option' }),
    ]);
    expect(error.issues[0]!.message).toMatch(/at least 16 characters/);
    for (const dump of [error.message, String(error), JSON.stringify(error), inspect(error, { depth: 10 })]) {
      expect(dump).not.toContain(short);
    }
  });

  it.each([
    ['a missing secret', { tracker: createTransactionTracker() }],
    ['a secret that is not a string', { tracker: createTransactionTracker(), secret: 12345678901234567n }],
  ])('refuses %s, naming transactions.secret', (_name, transactions) => {
    expect(refusal(transactions).issues).toEqual([
      expect.objectContaining({ path: ['transactions', 'secret'] }),
    ]);
  });

  it('refuses a value that is not an object', () => {
    expect(refusal('yes').issues).toEqual([expect.objectContaining({ path: ['transactions'] })]);
  });
});
