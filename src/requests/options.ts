// The builders' options, checked before the input: a key or value a builder does not know is
// refused, naming the option, rather than read as a default (an unknown encoding as "integer", an invalid
// clock as "never expired"). Same issue code as the client's own options.
import * as z from 'zod/v4/mini';
import { invalidOption, parseOrThrow } from '../internal/issues.js';
import { isMethodWordValue, methodWordRule } from '../validation/method.js';

/** An optional option whose value passes `test`; `message` says what it should be. */
const option = <T>(test: (value: unknown) => boolean, message: string) =>
  z.optional(z.custom<T>(test, invalidOption(message)));

/** The options object itself (undefined is the default, `{}`); an unknown key is refused. */
export const buildOptions = <S extends z.core.$ZodLooseShape>(shape: S) =>
  z.optional(z.strictObject(shape, invalidOption('expected an options object (or nothing)')));

/**
 * `paymentMethod`: the `customer_details.payment_method` sent when the input has none, a word
 * ({@link isMethodWordValue}) such as `example`.
 */
export const paymentMethodOption = (example: string) =>
  option<string>(isMethodWordValue, methodWordRule(example));

/** One of the listed strings, exactly. */
export const oneOfOption = <const T extends string>(values: readonly T[]) =>
  option<T>(
    (value) => (values as readonly unknown[]).includes(value),
    `expected ${values.map((value) => `'${value}'`).join(' or ')}`,
  );

/** A clock: a `Date` holding a time (not `new Date(NaN)`). */
export const clockOption = option<Date>(
  (value) => value instanceof Date && !Number.isNaN(value.getTime()),
  'expected a valid Date (the clock the card expiry is checked against)',
);

/**
 * The options as checked (a copy: the builder reads no value twice), or a `ValidationError`
 * (`Invalid <what> options: …`) naming every option that is not valid.
 */
export function checkBuildOptions<T extends object>(
  schema: z.core.$ZodType<T | undefined>,
  options: unknown,
  what: string,
): T | Record<string, never> {
  return parseOrThrow(schema, options, { prefix: `Invalid ${what} options` }) ?? {};
}
