import * as z from 'zod/v4';
import { describe, expect, it } from 'vitest';
import { ValidationError, formatIssues } from '../../src/errors.js';
import { parseOrThrow, toValidationIssues } from '../../src/internal/issues.js';
import { buildPayoutRequest, payoutRequestSchema } from '../../src/requests/payout.js';
import { payoutInput } from '../helpers/inputs.js';

describe('toValidationIssues', () => {
  it('gives each unknown key its own issue, with a hint when there is one', () => {
    const result = z.strictObject({ a: z.string() }).safeParse({ a: 'x', b: 1, client_details: {} });
    expect(result.success).toBe(false);
    const issues = toValidationIssues(result.error!.issues, { client_details: 'use payoutRecipientKey' });
    expect(issues).toEqual([
      { path: ['b'], code: 'unrecognized_keys', message: expect.stringContaining('unknown key "b"') },
      {
        path: ['client_details'],
        code: 'unrecognized_keys',
        message: expect.stringContaining('use payoutRecipientKey'),
      },
    ]);
  });

  it('says "required" for a missing key and drops the input value', () => {
    const result = z.strictObject({ a: z.string() }).safeParse({});
    const [issue] = toValidationIssues(result.error!.issues);
    expect(issue).toEqual({ path: ['a'], code: 'invalid_type', message: 'required (expected string)' });
  });

  it('reports the closest branch of an object union', () => {
    const schema = z.union([
      z.strictObject({ a: z.string(), n: z.number() }),
      z.strictObject({ b: z.string(), n: z.number() }),
    ]);
    const result = schema.safeParse({ a: 'x', n: 'one' });
    expect(toValidationIssues(result.error!.issues)).toEqual([
      { path: ['n'], code: 'invalid_type', message: expect.any(String) },
    ]);
  });

  // zod 4.1 to 4.4 (inside the peer range ^4.1.0) report a union of a number and an object
  // given an object with an unknown key as an invalid_union holding both branches; newer zod
  // reports the object branch's issue alone (4.5 on). Both must name the unknown key: `retry:
  // { limit: 2, statusCode: [503] }` was "expected a retry limit or { … }" on zod 4.1.
  it('reports the object branch of a union given an object, whichever way zod reports it', () => {
    const unknownKey = {
      code: 'unrecognized_keys',
      keys: ['statusCode'],
      path: [],
      message: 'Invalid input',
    };
    const asZod41 = [
      {
        code: 'invalid_union',
        errors: [
          [{ code: 'invalid_type', expected: 'number', path: [], message: 'Invalid input' }],
          [unknownKey],
        ],
        path: [],
        message: 'Invalid input',
      },
    ] as unknown as Parameters<typeof toValidationIssues>[0];
    const asNewerZod = [unknownKey] as unknown as Parameters<typeof toValidationIssues>[0];
    for (const issues of [asZod41, asNewerZod]) {
      expect(toValidationIssues(issues, undefined, ['retry'])).toEqual([
        {
          path: ['retry', 'statusCode'],
          code: 'unrecognized_keys',
          message: expect.stringContaining('"statusCode"'),
        },
      ]);
    }
  });
});

describe('the words of an issue a merchant reads', () => {
  it('says an array is an array, not an object', () => {
    const schema = z.strictObject({ customer_details: z.strictObject({ full_name: z.string() }) });
    expect(() => parseOrThrow(schema, { customer_details: [] })).toThrow(
      /customer_details: expected object, got array/,
    );
  });

  it('reports the payout branch whose recipient key was given, not the one that wants another key', () => {
    const body = { ...buildPayoutRequest(payoutInput), customer_details: {} };
    const result = payoutRequestSchema.safeParse(body);
    expect(result.success).toBe(false);
    const paths = toValidationIssues(result.error!.issues).map((issue) => issue.path.join('.'));
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((path) => path.startsWith('customer_details.'))).toBe(true);
  });
});

describe('parseOrThrow', () => {
  it('lists schema issues and extra issues in one ValidationError', () => {
    const schema = z.strictObject({ a: z.string() });
    try {
      parseOrThrow(schema, { a: 1 }, { extra: [{ path: ['x'], code: 'c', message: 'm' }], prefix: 'Bad' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((issue) => issue.path.join('.'))).toEqual(['a', 'x']);
      expect((error as ValidationError).message).toMatch(/^Bad: a: /);
    }
  });

  it('throws for extra issues even when the schema passes', () => {
    expect(() => parseOrThrow(z.string(), 'ok', { extra: [{ path: [], code: 'c', message: 'm' }] })).toThrow(
      ValidationError,
    );
    expect(parseOrThrow(z.string(), 'ok')).toBe('ok');
  });
});

describe('formatIssues', () => {
  it('writes every path the same way: brackets for array indexes, dots between keys', () => {
    expect(
      formatIssues([
        { path: ['products', 0, 'quantity'], code: 'too_small', message: 'expected at least 1' },
        { path: [], code: 'invalid_type', message: 'expected an object' },
      ]),
    ).toBe('products[0].quantity: expected at least 1; (root): expected an object');
  });
});

describe('messages a merchant reads', () => {
  it('name the rule without pointing at a document the merchant does not have', () => {
    const result = z.strictObject({ a: z.string() }).safeParse({ a: 'x', colour: 1 });
    const [issue] = toValidationIssues(result.error!.issues);
    expect(issue!.message).toBe(
      'unknown key "colour": request objects accept only the documented keys; check the spelling',
    );
    expect(issue!.message).not.toMatch(/spec|§/);
  });
});
