/**
 * Internal: the fast checker behind `parseCallback`. Each variant's rules are compiled once, at
 * load time, from its zod schema in `schemas.ts` (the single source of truth), into a flat list
 * of `{ key, kind }` that one loop checks with `typeof` — no schema is tried in turn, no zod
 * error objects are built, and an invalid payload costs about what a valid one does.
 *
 * The checker applies the documented tolerances: a number where a string is documented, a
 * numeric string where a number is, a boolean for `'True'`/`'False'` — each converted and
 * recorded as a warning.
 *
 * @module
 */
import type { ValidationIssue } from '../errors.js';

/** What a key's value must be: the zod types the callback schemas use, and nothing else. */
type RuleKind = 'string' | 'number' | 'int' | 'enum';

/** One key's rule. */
export interface FieldRule {
  readonly key: string;
  readonly kind: RuleKind;
  readonly optional: boolean;
  /** Allowed values for `enum` (z.enum and z.literal). */
  readonly values: readonly string[];
  /** Human wording of what is expected, for issues. */
  readonly expected: string;
}

/** The slice of a zod schema's internals the compiler reads. */
interface ZodLike {
  readonly _zod: {
    readonly def: {
      readonly type: string;
      readonly innerType?: ZodLike;
      readonly values?: readonly unknown[];
      readonly entries?: Readonly<Record<string, unknown>>;
      /** `safeint` / `int32` / … for z.int() and friends. */
      readonly format?: string;
    };
  };
}

/**
 * Compiles a `z.looseObject` shape into rules. Throws at load time on a zod type it does not
 * know, so a schema change that the checker cannot follow fails every test at once.
 */
export function compileRules(shape: Readonly<Record<string, unknown>>): readonly FieldRule[] {
  return Object.keys(shape).map((key) => {
    let schema = shape[key] as ZodLike;
    let optional = false;
    if (schema._zod.def.type === 'optional' && schema._zod.def.innerType) {
      optional = true;
      schema = schema._zod.def.innerType;
    }
    const def = schema._zod.def;
    switch (def.type) {
      case 'string':
        return { key, kind: 'string', optional, values: [], expected: 'string' };
      case 'number':
        return (def.format ?? '').includes('int')
          ? { key, kind: 'int', optional, values: [], expected: 'integer' }
          : { key, kind: 'number', optional, values: [], expected: 'number' };
      case 'enum':
      case 'literal': {
        const values = (def.type === 'enum' ? Object.values(def.entries ?? {}) : (def.values ?? [])).map(
          String,
        );
        return {
          key,
          kind: 'enum',
          optional,
          values,
          expected: values.map((value) => `'${value}'`).join(' or '),
        };
      }
      default:
        throw new TypeError(`callback schema key ${key}: unsupported zod type ${def.type}`);
    }
  });
}

/** One tolerated value, converted. */
interface Conversion {
  readonly key: string;
  readonly value: unknown;
  readonly warning: string;
}

/** What {@link checkRules} found. */
export interface CheckResult {
  /** Problems that make the payload invalid; undefined when there are none. */
  readonly issues: ValidationIssue[] | undefined;
  /** Tolerated values, converted to the documented type; undefined when there are none. */
  readonly conversions: Conversion[] | undefined;
}

const OK: CheckResult = { issues: undefined, conversions: undefined };
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const INTEGER = /^-?\d+$/;

const typeName = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/**
 * Checks `payload` against `rules` in one pass. Never throws for a plain object (the caller
 * guards against hostile getters). Issues name the key and what was expected, never the value.
 */
export function checkRules(rules: readonly FieldRule[], payload: Record<string, unknown>): CheckResult {
  let issues: ValidationIssue[] | undefined;
  let conversions: Conversion[] | undefined;
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    const value = payload[rule.key];
    let converted: unknown;
    let warning: string | undefined;
    switch (rule.kind) {
      case 'string':
        if (typeof value === 'string') continue;
        if (typeof value === 'number' && Number.isFinite(value)) {
          converted = String(value);
          warning = `${rule.key}: number converted to string`;
        }
        break;
      case 'number':
        if (typeof value === 'number' && Number.isFinite(value)) continue;
        // Finite only: '1' followed by 400 zeros matches DECIMAL but is Infinity as a double.
        if (typeof value === 'string' && DECIMAL.test(value) && Number.isFinite(Number(value))) {
          converted = Number(value);
          warning = `${rule.key}: numeric string converted to number`;
        }
        break;
      case 'int':
        if (typeof value === 'number' && Number.isSafeInteger(value)) continue;
        if (typeof value === 'string' && INTEGER.test(value) && Number.isSafeInteger(Number(value))) {
          converted = Number(value);
          warning = `${rule.key}: numeric string converted to integer`;
        }
        break;
      case 'enum':
        if (typeof value === 'string' && rule.values.includes(value)) continue;
        if (typeof value === 'boolean') {
          const word = value ? 'True' : 'False';
          if (rule.values.includes(word)) {
            converted = word;
            warning = `${rule.key}: boolean converted to string`;
          }
        }
        break;
    }
    if (warning !== undefined) {
      (conversions ??= []).push({ key: rule.key, value: converted, warning });
      continue;
    }
    if (value === undefined) {
      if (rule.optional) continue;
      (issues ??= []).push({ path: [rule.key], message: 'required key is missing', code: 'missing_key' });
      continue;
    }
    const got = typeName(value);
    (issues ??= []).push(
      rule.kind === 'enum' && got === 'string'
        ? { path: [rule.key], message: `expected ${rule.expected}`, code: 'invalid_value' }
        : { path: [rule.key], message: `expected ${rule.expected}, got ${got}`, code: 'invalid_type' },
    );
  }
  return issues === undefined && conversions === undefined ? OK : { issues, conversions };
}

/** How many of the rules' keys the payload has (for "closest variant"). */
export function countPresent(rules: readonly FieldRule[], payload: Record<string, unknown>): number {
  let count = 0;
  for (const rule of rules) if (payload[rule.key] !== undefined) count++;
  return count;
}
