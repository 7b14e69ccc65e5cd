// zod issues → the SDK's ValidationIssue[]: path, code and a message that teaches, never a value
// (zod issues can carry `input`; it is dropped here).
import * as z from 'zod/v4/mini';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { isNameLike, keyShown, typeName } from './values.js';

type ZodIssue = z.core.$ZodIssue;

/** Extra guidance for an unknown key, by key name. */
export type UnknownKeyHints = Readonly<Record<string, string>>;

const pathOf = (path: readonly PropertyKey[]): (string | number)[] =>
  path.filter((segment): segment is string | number => typeof segment !== 'symbol');

/**
 * zod's words for a value of the wrong type, where the schema has no message of its own: zod mini
 * loads no locale, so its own text would be a bare "Invalid input". Never quotes the value.
 */
const typeMessages: z.core.$ZodErrorMap = (issue) =>
  issue.code === 'invalid_type'
    ? issue.input === undefined
      ? `required (expected ${issue.expected})`
      : `expected ${issue.expected}, got ${typeName(issue.input)}`
    : undefined;

/** A zod error for an option that is not valid: its message, and the issue code `invalid_option`. */
export const invalidOption = (message: string) => ({ error: message, params: { code: 'invalid_option' } });

/** `z.safeParse` with messages that name what a wrong-typed or missing value should be. */
export const safeParse = <S extends z.core.$ZodType>(schema: S, input: unknown) =>
  z.safeParse(schema, input, { error: typeMessages });

/** Converts zod issues, one issue per unknown key, with the hint for that key when there is one. */
export function toValidationIssues(
  issues: readonly ZodIssue[],
  hints?: UnknownKeyHints,
  prefix: readonly (string | number)[] = [],
): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...pathOf(issue.path)];
    if (
      issue.code === 'invalid_union' &&
      issue.errors.length > 0 &&
      issue.errors.every((branch) => branch.length > 0)
    ) {
      // An object union (payout: customer_details | client_details): report the branch that came
      // closest — never one the value is not even of the type of (zod before 4.5 lists those
      // too), then the one that finds no key given unknown (the merchant chose its keys), then
      // the one with the fewest issues.
      const rank = (branch: readonly ZodIssue[]) => [
        branch.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0) ? 1 : 0,
        branch.filter((inner) => inner.code === 'unrecognized_keys' && inner.path.length === 0).length,
        branch.length,
      ];
      const closer = (a: number[], b: number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
      const closest = issue.errors.reduce((best, branch) =>
        closer(rank(branch), rank(best)) < 0 ? branch : best,
      );
      if (closest.some((inner) => inner.path.length > 0 || inner.code === 'unrecognized_keys')) {
        out.push(...toValidationIssues(closest, hints, path));
        continue;
      }
    }
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const hint = hints?.[key] ?? 'request objects accept only the documented keys; check the spelling';
        out.push({
          path: isNameLike(key) ? [...path, key] : path,
          code: 'unrecognized_keys',
          message: `unknown key ${keyShown(key)}: ${hint}`,
        });
      }
      continue;
    }
    let message = issue.message;
    if (issue.code === 'invalid_type' && /received undefined$/.test(message)) {
      message = `required (expected ${issue.expected})`;
    }
    const params = (issue as { params?: { code?: unknown } }).params;
    if (issue.code === 'invalid_union') {
      out.push({ path, code: 'invalid_type', message });
      continue;
    }
    const code = issue.code === 'custom' && typeof params?.code === 'string' ? params.code : issue.code;
    out.push({ path, code, message });
  }
  return out;
}

/**
 * Parses `input` with `schema`; on failure throws one ValidationError listing every issue
 * (the schema's and `extra`), each through `conceal` with the value at its path first. On success
 * `extra` issues still throw.
 */
export function parseOrThrow<S extends z.core.$ZodType>(
  schema: S,
  input: unknown,
  options?: {
    extra?: readonly ValidationIssue[];
    hints?: UnknownKeyHints;
    prefix?: string;
    conceal?: (issue: ValidationIssue, value: unknown) => ValidationIssue;
  },
): z.output<S> {
  const extra = options?.extra ?? [];
  const result = safeParse(schema, input);
  if (result.success && extra.length === 0) return result.data;
  const issues = result.success
    ? [...extra]
    : [...toValidationIssues(result.error.issues, options?.hints), ...extra];
  const conceal = options?.conceal;
  const shown = conceal ? issues.map((issue) => conceal(issue, valueAt(input, issue.path))) : issues;
  throw new ValidationError(shown.map(awaitHint(input)), { prefix: options?.prefix });
}

/** The value at `path` in `input`, or undefined (a getter that throws included). */
function valueAt(input: unknown, path: readonly (string | number)[]): unknown {
  try {
    let value = input;
    for (const key of path) value = (value as Record<string | number, unknown> | null | undefined)?.[key];
    return value;
  } catch {
    return undefined;
  }
}

/** An issue whose value is a Promise (an async helper's result, not awaited) says so. */
const awaitHint =
  (input: unknown) =>
  (issue: ValidationIssue): ValidationIssue =>
    typeof (valueAt(input, issue.path) as { then?: unknown } | null | undefined)?.then === 'function'
      ? { ...issue, message: `${issue.message}; got a Promise (missing await?)` }
      : issue;
