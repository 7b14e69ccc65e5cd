// The builders' fast input parse must never disagree with zod: whenever it answers, zod succeeds
// with an equal output; every well-formed input takes it (else the speed-up is gone); and every
// input zod rejects falls through to zod, which words the issues.
import fc from 'fast-check';
import * as zm from 'zod/mini';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { FAIL, fastParse } from '../../src/internal/fast-parse.js';
import { parseOrThrow } from '../../src/internal/issues.js';
import { ValidationError } from '../../src/errors.js';
import { cardPaymentInputSchema } from '../../src/requests/card-payment.js';
import { checkoutSessionInputSchema } from '../../src/requests/checkout-session.js';
import { mobileMoneyPaymentInputSchema } from '../../src/requests/mobile-money-payment.js';
import { payoutInputSchema } from '../../src/requests/payout.js';
import {
  builders,
  invalidCase,
  validInput,
  type Builder,
  type Input,
} from '../reliability/arbitraries/requests.js';

const inputSchema: Record<Builder, zm.ZodMiniType> = {
  card: cardPaymentInputSchema,
  mobileMoney: mobileMoneyPaymentInputSchema,
  checkout: checkoutSessionInputSchema,
  payout: payoutInputSchema,
};
const runs = Number(process.env.FUZZ_SCALE ?? 1) * 300;

/** The property: the fast parse answers only where zod succeeds, and with zod's output. */
function expectAgreement(schema: zm.ZodMiniType, input: unknown): 'fast' | 'zod' {
  const fast = fastParse(schema, input);
  const zod = zm.safeParse(schema, input);
  if (fast === FAIL) return 'zod';
  expect(zod.success, `fast path accepted what zod rejects: ${zod.error?.message}`).toBe(true);
  expect(fast).toStrictEqual(zod.data);
  return 'fast';
}

/** Every path into a plain value (objects and arrays), the root excluded. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return keys.flatMap((key) => {
    const path = [...prefix, key];
    return [path, ...pathsOf((value as Record<string | number, unknown>)[key], path)];
  });
}

const junk = fc.oneof(
  fc.anything({ withBigInt: true, withNullPrototype: true, withSparseArray: true, maxDepth: 2 }),
  fc.constantFrom<unknown>(Number.NaN, Infinity, -0, '', ' ', '0', '1e3', 2 ** 53, -1n, true, [], {}),
  fc.string(),
  fc.integer(),
  fc.double(),
);

/** A valid input with one value anywhere replaced by junk, deleted, or joined by an unknown key. */
const mangled = (builder: Builder): fc.Arbitrary<unknown> =>
  validInput[builder].chain((input) => {
    const paths = pathsOf(input);
    return fc
      .tuple(
        fc.constantFrom(...paths),
        fc.constantFrom('replace', 'delete', 'add', 'undefined'),
        junk,
        fc.string(),
      )
      .map(([path, how, value, key]) => {
        const root = structuredClone(input) as Input;
        let parent = root as Record<string | number, unknown>;
        for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
        const last = path[path.length - 1]!;
        if (how === 'replace') parent[last] = value;
        else if (how === 'delete') delete parent[last];
        else if (how === 'undefined') parent[last] = undefined;
        else {
          const target = parent[last];
          if (typeof target === 'object' && target !== null) (target as Record<string, unknown>)[key] = value;
          else parent[last] = value;
        }
        return root;
      });
  });

describe('fastParse of the four builder input schemas', () => {
  for (const builder of builders) {
    describe(builder, () => {
      const schema = inputSchema[builder];

      it('takes every well-formed input, with zod’s exact output', () => {
        fc.assert(
          fc.property(validInput[builder], (input) => {
            expect(expectAgreement(schema, input)).toBe('fast');
          }),
          { numRuns: runs, seed: 1 },
        );
      });

      it('agrees with zod on inputs with one invalidating mutation', () => {
        // Mostly schema errors; a few are the builders' cross-field rules (a card expired this year),
        // which the schema accepts and the builder rejects after it (test/reliability/fuzz-requests).
        const sides = { fast: 0, zod: 0 };
        fc.assert(
          fc.property(invalidCase(builder), (c) => {
            sides[expectAgreement(schema, c.input)]++;
          }),
          { numRuns: runs, seed: 2 },
        );
        expect(sides.zod).toBeGreaterThan(sides.fast);
      });

      it('agrees with zod on inputs with junk anywhere', () => {
        let fast = 0;
        fc.assert(
          fc.property(mangled(builder), (input) => {
            if (expectAgreement(schema, input) === 'fast') fast++;
          }),
          { numRuns: runs, seed: 3 },
        );
        // Some mangled inputs stay valid (an optional key deleted, a product name replaced by a name):
        // the property above was checked on both sides.
        expect(fast).toBeGreaterThan(0);
      });

      it('agrees with zod on anything at all', () => {
        fc.assert(
          fc.property(fc.anything({ withBigInt: true, maxDepth: 3 }), (input) => {
            expect(expectAgreement(schema, input)).toBe('zod');
          }),
          { numRuns: runs, seed: 4 },
        );
      });
    });
  }
});

describe('fastParse follows zod’s semantics node by node', () => {
  it('strict objects fail on an unknown key, stripping objects drop it', () => {
    const strict = zm.strictObject({ a: zm.string() });
    expect(fastParse(strict, { a: 'x', b: 1 })).toBe(FAIL);
    expect(fastParse(zm.object({ a: zm.string() }), { a: 'x', b: 1 })).toEqual({ a: 'x' });
    // Inherited enumerable keys count as keys for zod too.
    expect(fastParse(strict, Object.create({ b: 1 }, { a: { value: 'x', enumerable: true } }))).toBe(FAIL);
  });

  it('an optional key present as undefined stays in the output, an absent one does not', () => {
    const schema = zm.strictObject({ a: zm.optional(zm.string()) });
    expect(Object.keys(fastParse(schema, { a: undefined }) as object)).toEqual(['a']);
    expect(Object.keys(fastParse(schema, {}) as object)).toEqual([]);
    expect(expectAgreement(schema, { a: undefined })).toBe('fast');
  });

  it('a required key must be present even when its schema takes undefined', () => {
    const schema = zm.strictObject({ a: zm.union([zm.undefined(), zm.string()]) });
    expect(fastParse(schema, {})).toBe(FAIL);
    expect(expectAgreement(schema, { a: undefined })).toBe('fast');
  });

  it('a union takes the first option that succeeds, in order', () => {
    const schema = zm.union([
      zm.pipe(
        zm.string(),
        zm.transform((s: string) => `first:${s}`),
      ),
      zm.pipe(
        zm.string(),
        zm.transform((s: string) => `second:${s}`),
      ),
    ]);
    expect(fastParse(schema, 'x')).toBe('first:x');
    expect(zm.parse(schema, 'x')).toBe('first:x');
  });

  it('a transform that reports an issue fails, as does an async one', () => {
    const reporting = zm.pipe(
      zm.string(),
      zm.transform((value: string, ctx) => {
        ctx.issues.push({ code: 'custom', message: 'no', input: value });
        return zm.NEVER;
      }),
    );
    expect(fastParse(reporting, 'x')).toBe(FAIL);
    expect(
      fastParse(
        zm.pipe(
          zm.string(),
          zm.transform(async (s: string) => s),
        ),
        'x',
      ),
    ).toBe(FAIL);
  });

  it('leaves run through zod itself: checks, formats, refinements', () => {
    const schema = zm.strictObject({
      email: zm.email(),
      n: zm.number().check(zm.gte(1)),
      s: zm.string().check(zm.refine((v) => v.trim() !== '')),
    });
    expect(expectAgreement(schema, { email: 'a@b.co', n: 1, s: 'x' })).toBe('fast');
    for (const bad of [
      { email: 'nope', n: 1, s: 'x' },
      { email: 'a@b.co', n: 0, s: 'x' },
      { email: 'a@b.co', n: Number.NaN, s: 'x' },
      { email: 'a@b.co', n: 1, s: '  ' },
    ])
      expect(fastParse(schema, bad)).toBe(FAIL);
  });

  it('hands zod what it does not compile: object checks, defaults, loose objects, discriminated unions', () => {
    const refined = zm.strictObject({ a: zm.number(), b: zm.number() }).check(zm.refine((v) => v.a < v.b));
    expect(fastParse(refined, { a: 2, b: 1 })).toBe(FAIL);
    expect(expectAgreement(refined, { a: 1, b: 2 })).toBe('fast');
    const defaulted = zm.strictObject({ a: zm.optional(zm._default(zm.string(), 'd')) });
    expect(expectAgreement(defaulted, {})).toBe('zod');
    expect(parseOrThrow(defaulted, {})).toEqual({ a: 'd' });
    expect(expectAgreement(zm.looseObject({ a: zm.string() }), { a: 'x', extra: 1 })).toBe('fast');
    const tagged = zm.discriminatedUnion('t', [
      zm.object({ t: zm.literal('a'), v: zm.string() }),
      zm.object({ t: zm.literal('b'), v: zm.number() }),
    ]);
    expect(expectAgreement(tagged, { t: 'b', v: 1 })).toBe('fast');
  });

  it('works on classic zod schemas too (same core)', () => {
    const schema = z.strictObject({ a: z.string().min(2), b: z.array(z.number()).optional() });
    expect(expectAgreement(schema as unknown as zm.ZodMiniType, { a: 'xy', b: [1] })).toBe('fast');
    expect(fastParse(schema, { a: 'x' })).toBe(FAIL);
  });
});

describe('parseOrThrow takes the fast path only for valid input', () => {
  it('still lists every issue when the input is invalid', () => {
    const schema = zm.strictObject({ a: zm.string(), b: zm.number() });
    expect(parseOrThrow(schema, { a: 'x', b: 1 })).toEqual({ a: 'x', b: 1 });
    const error = (() => {
      try {
        parseOrThrow(schema, { a: 1, b: 'x', c: true });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path.join('.'))).toEqual(['a', 'b', 'c']);
  });
});
