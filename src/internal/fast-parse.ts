/**
 * Internal: the fast path of the request builders' input parse. `zod/mini` interprets a schema
 * node by node with a payload object, an issue array and bookkeeping per key — about 9 µs for a
 * mobile-money input, most of what the SDK adds to a request (bench/experiments/request-parts.mjs).
 * This compiles a schema's structure (strict/strip objects, optional, arrays, unions, pipes,
 * transforms) once into plain closures; every other node — strings with their checks, numbers,
 * e-mail formats, custom checks — runs through zod's own `_zod.run`, so its semantics stay zod's.
 *
 * The fast parse only ever answers "valid, and here is zod's output" or {@link FAIL}: on FAIL the
 * caller runs zod, which finds and words the issues. A property test keeps the two in agreement
 * (test/internal/fast-parse.test.ts): whenever the fast parse returns a value, `z.safeParse`
 * succeeds with an equal one, and every well-formed builder input takes the fast path.
 *
 * @module
 */

/** "Not known to be valid here": the caller must run the zod schema. */
export const FAIL: unique symbol = Symbol('hosted-payments.fast-parse.fail');

type Parse = (value: unknown) => unknown;

/** The slice of a zod v4 schema the compiler reads: `_zod.def` (documented for introspection) and `_zod.run`. */
interface ZodNode {
  readonly _zod: {
    readonly def: {
      readonly type: string;
      readonly checks?: readonly unknown[];
      readonly shape?: Readonly<Record<string, ZodNode>>;
      readonly catchall?: ZodNode;
      readonly innerType?: ZodNode;
      readonly element?: ZodNode;
      readonly options?: readonly ZodNode[];
      readonly inclusive?: boolean;
      readonly discriminator?: string;
      readonly in?: ZodNode;
      readonly out?: ZodNode;
      readonly transform?: (value: unknown, ctx: { value: unknown; issues: unknown[] }) => unknown;
    };
    readonly run: (
      payload: { value: unknown; issues: unknown[] },
      ctx: { async: boolean },
    ) => { value: unknown; issues: readonly unknown[] } | Promise<unknown>;
  };
}

const SYNC = { async: false };
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Runs a node through zod itself: exact semantics for leaves (types with their checks). */
function delegate(node: ZodNode): Parse {
  const zod = node._zod;
  return (value) => {
    const result = zod.run({ value, issues: [] }, SYNC);
    if (result instanceof Promise || result.issues.length > 0) return FAIL;
    return result.value;
  };
}

const primitives: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (value) => typeof value === 'string',
  // zod's number type refuses NaN and ±Infinity.
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  bigint: (value) => typeof value === 'bigint',
  boolean: (value) => typeof value === 'boolean',
};

/**
 * A leaf. A value of the wrong primitive type fails at once (in a union that is the common case,
 * and zod would build an issue object for it); a bare type with nothing more to check passes at
 * once; a type with checks or a format runs through zod.
 */
function compileLeaf(node: ZodNode): Parse {
  const def = node._zod.def as ZodNode['_zod']['def'] & { coerce?: boolean; format?: string };
  const isType = def.coerce ? undefined : primitives[def.type];
  if (isType === undefined) return delegate(node);
  if (def.format === undefined && !def.checks?.length) return (value) => (isType(value) ? value : FAIL);
  const run = delegate(node);
  return (value) => (isType(value) ? run(value) : FAIL);
}

function compileObject(node: ZodNode): Parse {
  const def = node._zod.def;
  const catchall = def.catchall?._zod.def.type;
  // Strict (`never`) and stripping (none) objects only; a loose or typed catchall goes to zod.
  if (catchall !== undefined && catchall !== 'never') return delegate(node);
  const strict = catchall === 'never';
  const shape = def.shape ?? {};
  const fields = Object.keys(shape).map((key) => {
    const field = shape[key] as ZodNode;
    const optional =
      field._zod.def.type === 'optional' &&
      !field._zod.def.checks?.length &&
      (field._zod.def.innerType as { _zod: { optin?: string } })._zod.optin !== 'defaulted';
    return {
      key,
      optional,
      parse: compile(optional ? (field._zod.def.innerType as ZodNode) : field),
    };
  });
  const known = new Set(Object.keys(shape));
  return (value) => {
    if (!isRecord(value)) return FAIL;
    // zod looks for unknown keys with for…in (inherited enumerable keys included).
    if (strict) for (const key in value) if (!known.has(key)) return FAIL;
    const out: Record<string, unknown> = {};
    for (const { key, optional, parse } of fields) {
      const item = value[key];
      if (item === undefined && optional) {
        if (key in value) out[key] = undefined;
        continue;
      }
      // A required key must be present (zod reports a missing one even where its schema takes undefined).
      if (!(key in value)) return FAIL;
      const parsed = parse(item);
      if (parsed === FAIL) return FAIL;
      out[key] = parsed;
    }
    return out;
  };
}

function compileArray(node: ZodNode): Parse {
  const element = compile(node._zod.def.element as ZodNode);
  return (value) => {
    if (!Array.isArray(value)) return FAIL;
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const parsed = element(value[i]);
      if (parsed === FAIL) return FAIL;
      out[i] = parsed;
    }
    return out;
  };
}

function compileUnion(node: ZodNode): Parse {
  const options = (node._zod.def.options ?? []).map(compile);
  // zod takes the first option that succeeds, in order.
  return (value) => {
    for (const option of options) {
      const parsed = option(value);
      if (parsed !== FAIL) return parsed;
    }
    return FAIL;
  };
}

function compilePipe(node: ZodNode): Parse {
  const input = compile(node._zod.def.in as ZodNode);
  const output = compile(node._zod.def.out as ZodNode);
  return (value) => {
    const left = input(value);
    return left === FAIL ? FAIL : output(left);
  };
}

function compileTransform(node: ZodNode): Parse {
  const transform = node._zod.def.transform;
  if (transform === undefined) return delegate(node);
  return (value) => {
    // The transform gets the payload as its context, as in zod; one that reports an issue fails.
    const payload = { value, issues: [] as unknown[] };
    const out = transform(value, payload);
    if (out instanceof Promise || payload.issues.length > 0) return FAIL;
    return out;
  };
}

function compile(node: ZodNode): Parse {
  const def = node._zod.def;
  if (def.type in primitives) return compileLeaf(node);
  // A structural node with checks of its own (refinements on an object, array lengths) goes to zod whole.
  if (def.checks !== undefined && def.checks.length > 0) return delegate(node);
  switch (def.type) {
    case 'object':
      return compileObject(node);
    case 'array':
      return compileArray(node);
    case 'union':
      // Exclusive (z.xor) and discriminated unions keep zod's own selection.
      return def.inclusive === false || def.discriminator !== undefined ? delegate(node) : compileUnion(node);
    case 'pipe':
      return compilePipe(node);
    case 'transform':
      return compileTransform(node);
    case 'optional': {
      // An optional around a default substitutes for undefined: zod's business.
      if ((def.innerType as { _zod: { optin?: string } })._zod.optin === 'defaulted') return delegate(node);
      const inner = compile(def.innerType as ZodNode);
      return (value) => (value === undefined ? undefined : inner(value));
    }
    case 'custom': {
      // z.custom(fn): the value passes when fn says so (zod runs fn as the schema's only check).
      const fn = (def as { fn?: (value: unknown) => unknown }).fn;
      if (fn === undefined) return delegate(node);
      return (value) => {
        const ok = fn(value);
        return ok instanceof Promise ? FAIL : ok ? value : FAIL;
      };
    }
    default:
      return delegate(node);
  }
}

const compiled = new WeakMap<object, Parse>();

/**
 * Parses `input` with `schema`'s compiled fast path: zod's output when the input is valid, or
 * {@link FAIL} when it is not (or may not be) — then run zod for the verdict and the issues.
 * Compiled once per schema. Never throws: a node that throws counts as FAIL.
 */
export function fastParse(schema: object, input: unknown): unknown {
  let parse = compiled.get(schema);
  if (parse === undefined) compiled.set(schema, (parse = compile(schema as ZodNode)));
  try {
    return parse(input);
  } catch {
    return FAIL;
  }
}
