// Internal audit: what the shared helpers promise the messages a merchant reads — a missing key
// says "required", a custom rule keeps its own code, a hint for an unknown key reaches the error,
// a Promise passed without `await` is named, an unknown option is refused by name — and that
// nothing of a value (a card number in a key's place) is quoted.
import * as z from 'zod/v4';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { promised } from '../../src/internal/promise.js';
import { invalidOption, parseOrThrow, toValidationIssues } from '../../src/internal/issues.js';

const validationErrorOf = (run: () => unknown): ValidationError => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  return expect.unreachable('expected a ValidationError');
};

describe('parseOrThrow audit', () => {
  it('says "required" with the expected type for a missing key', () => {
    const error = validationErrorOf(() => parseOrThrow(z.object({ email: z.string() }), {}));
    expect(error.issues).toEqual([
      { path: ['email'], code: 'invalid_type', message: 'required (expected string)' },
    ]);
  });

  it('gives the hint for an unknown key', () => {
    const error = validationErrorOf(() =>
      parseOrThrow(
        z.strictObject({ a: z.string() }),
        { a: 'x', client_details: {} },
        {
          hints: { client_details: 'use payoutRecipientKey' },
        },
      ),
    );
    expect(error.message).toContain('use payoutRecipientKey');
  });

  it("keeps the code 'invalid_option' of a rule made with invalidOption", () => {
    const schema = z
      .number()
      .check(z.refine((n: number) => n > 0, invalidOption('expected a number above 0')));
    const error = validationErrorOf(() => parseOrThrow(schema, -1));
    expect(error.issues).toEqual([
      { path: [], code: 'invalid_option', message: 'expected a number above 0' },
    ]);
  });

  it('keeps the code a custom rule gives in its params', () => {
    const schema = z.string().check(
      z.refine((s: string) => s.startsWith('254'), {
        error: 'expected 2547XXXXXXXX',
        params: { code: 'invalid_phone_number' },
      }),
    );
    const error = validationErrorOf(() => parseOrThrow(schema, '0712'));
    expect(error.issues[0]!.code).toBe('invalid_phone_number');
  });

  it('says a Promise was given where a value was expected (a missing await)', () => {
    const error = validationErrorOf(() =>
      parseOrThrow(z.object({ amount: z.string() }), { amount: Promise.resolve('1500') }),
    );
    expect(error.message).toContain('got a Promise (missing await?)');
  });

  it('still throws the ValidationError when a getter on the path of an issue throws', () => {
    const input = {
      get card_details(): unknown {
        throw new Error('getter failed');
      },
    };
    const extra = [{ path: ['card_details', 'cvc'], message: 'expected 3 or 4 digits', code: 'x' }];
    const error = validationErrorOf(() => parseOrThrow(z.unknown(), input, { extra }));
    expect(error.issues).toEqual(extra);
  });

  it('reports a value of neither type of a union of plain types as one invalid_type issue', () => {
    const result = z.union([z.string(), z.number()]).safeParse(true);
    const issues = toValidationIssues(result.error!.issues);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: [], code: 'invalid_type' });
    expect(issues[0]!.message).not.toContain('expected string');
  });

  it('drops symbol segments from an issue path', () => {
    const issues = toValidationIssues([
      { code: 'custom', path: ['metadata', Symbol('internal')], message: 'not allowed', input: undefined },
    ]);
    expect(issues).toEqual([{ path: ['metadata'], code: 'custom', message: 'not allowed' }]);
  });
});

describe('promised audit', () => {
  it('hands back a throw of the work as a rejection, never a synchronous throw', async () => {
    const failure = new Error('store down');
    let call: Promise<unknown> | undefined;
    expect(() => {
      call = promised(() => {
        throw failure;
      });
    }).not.toThrow();
    await expect(call).rejects.toBe(failure);
  });
});
