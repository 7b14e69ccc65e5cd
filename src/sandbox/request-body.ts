/**
 * Reading and refusing the sandbox's JSON request bodies: the content type, the JSON itself
 * (long integers kept as exact digits), and the 4xx bodies that name the fields at fault.
 *
 * @module
 */

import type { Context } from 'hono';
import type * as z from 'zod/v4/mini';
import type { ValidationIssue } from '../errors.js';
import { formatIssuePath } from '../errors.js';
import { safeParse, toValidationIssues, type UnknownKeyHints } from '../internal/issues.js';
import { typeName } from '../internal/values.js';

/** Hono's environment of the sandbox: each route leaves a secret-free summary for the log. */
export interface SandboxEnv {
  Variables: { summary: string };
}

/** A route's request context. */
export type SandboxContext = Context<SandboxEnv>;

const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;
const isNumberPart = (code: number): boolean =>
  isDigit(code) || code === 0x2e || code === 0x2b || code === 0x2d || code === 0x65 || code === 0x45;
const longInteger = /^-?\d{16,}$/;

/**
 * `JSON.parse`, except that integers written with 16 or more digits that a number cannot hold
 * exactly (above 2^53 - 1) come back as exact digit strings (a 16-digit card_number above 2^53
 * keeps every digit); a 16-digit `order_id` a number holds stays one. One pass over the text: strings
 * are skipped by their closing quote, so no input makes it rescan. Throws a `SyntaxError` on
 * invalid JSON, like `JSON.parse`.
 */
export function parseJsonKeepingLongIntegers(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      // A string: step over escapes to its closing quote.
      i += 1;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      i += 1;
    } else if (code === 0x2d || isDigit(code)) {
      const start = i;
      i += 1;
      while (i < text.length && isNumberPart(text.charCodeAt(i))) i += 1;
      const token = text.slice(start, i);
      if (longInteger.test(token) && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(copied, start)}"${token}"`;
        copied = i;
      }
    } else {
      i += 1;
    }
  }
  return JSON.parse(out + text.slice(copied));
}

/** `application/json`, or a `+json` type, with or without parameters. */
function isJsonContentType(header: string | undefined): boolean {
  const type = header?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}

/** What came instead of JSON: the media type when it reads as one (never its parameters), or that none did. */
function describeContentType(header: string | undefined): string {
  if (header === undefined || header.trim() === '') return 'no content-type header was sent';
  const type = header.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9!#$&^_.+-]{1,40}\/[a-z0-9!#$&^_.+-]{1,60}$/.test(type)
    ? `got ${type}`
    : 'got a content-type that is not a media type';
}

/** Why a body is not JSON, where the likely mistake is plain: nothing sent, or an object sent as is. */
function describeNotJson(text: string): { summary: string; message: string } {
  if (text.trim() === '') {
    return {
      summary: 'body is empty',
      message: 'The request body is empty: send the request as a JSON object.',
    };
  }
  if (text.startsWith('[object ')) {
    return {
      summary: 'body is "[object Object]"',
      message: `The request body is the text "[object Object]": an object was sent without JSON.stringify.`,
    };
  }
  return { summary: 'body is not JSON', message: 'The request body is not valid JSON.' };
}

/** A 4xx answer in the sandbox's one error shape. */
export function refuse(c: Context, status: 400 | 413 | 415, error: string, message: string) {
  return c.json({ error, message, issues: [] }, status);
}

const kindOf = (value: unknown): string =>
  typeof value === 'number' && !Number.isInteger(value) ? 'a number with a fraction' : typeName(value);

/** The value at `path` in a parsed body, or undefined. */
function valueAt(body: unknown, path: readonly (string | number)[]): unknown {
  let current = body;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/**
 * A wrong-type issue whose message names only the rule ("expected 12 digits, the first not 0")
 * gets the type that came (", got string"): the merchant sent 12 digits, as a string. Only the
 * type, never the value.
 */
function withTypeGot(issue: ValidationIssue, body: unknown): ValidationIssue {
  if (issue.code !== 'invalid_type' || issue.message.startsWith('required') || /, got /.test(issue.message))
    return issue;
  const value = valueAt(body, issue.path);
  return value === undefined ? issue : { ...issue, message: `${issue.message}, got ${kindOf(value)}` };
}

/**
 * Reads a JSON object body (every request of the service is one; `what` names it in a refusal).
 * Anything but a JSON content type is refused with 415 (a web page can post `text/plain` across
 * origins without asking; the service's clients always send JSON), a body that is not JSON with
 * 400, and JSON that is not an object (an array, `null`) with 400 saying what came instead.
 */
export async function readJsonBody(
  c: SandboxContext,
  what: string,
): Promise<{ ok: true; body: Record<string, unknown> } | { ok: false; response: Response }> {
  const contentType = c.req.header('content-type');
  if (!isJsonContentType(contentType)) {
    const came = describeContentType(contentType);
    c.set('summary', `refused: content-type is not application/json (${came})`);
    const response = refuse(
      c,
      415,
      'unsupported_media_type',
      `Send the body as JSON with the header content-type: application/json (${came}).`,
    );
    return { ok: false, response };
  }
  const text = await c.req.text();
  let body: unknown;
  try {
    body = parseJsonKeepingLongIntegers(text);
  } catch {
    const { summary, message } = describeNotJson(text);
    c.set('summary', summary);
    return { ok: false, response: refuse(c, 400, 'invalid_json', message) };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const message = `expected a JSON object, got ${kindOf(body)}`;
    return { ok: false, response: refuseInvalid(c, what, [{ path: [], code: 'invalid_type', message }]) };
  }
  return { ok: true, body: body as Record<string, unknown> };
}

/**
 * 409 for a valid request that what the sandbox already accepted refuses (a payout reference_id
 * used before), in the shape of {@link refuseInvalid}: the field at fault, its code and message.
 * The caller sets the log summary.
 */
export function refuseConflict(c: SandboxContext, message: string, issue: ValidationIssue) {
  const field = formatIssuePath(issue.path);
  return c.json(
    {
      error: issue.code,
      message,
      issues: [{ field, path: issue.path, code: issue.code, message: issue.message }],
    },
    409,
  );
}

/**
 * Checks a parsed body with a request's wire schema and, at once, the sandbox's own rules
 * (`extra`): the data, or every issue, the schema's first. `hints` explain unknown keys. Issues
 * read as the client's ValidationError reads them: "required (expected string)" for a missing key,
 * "expected string, got number" for a wrong type.
 */
export function checkBody<S extends z.core.$ZodType>(
  schema: S,
  body: unknown,
  options: { extra?: readonly ValidationIssue[]; hints?: UnknownKeyHints } = {},
): { ok: true; data: z.output<S> } | { ok: false; issues: ValidationIssue[] } {
  const extra = options.extra ?? [];
  const parsed = safeParse(schema, body);
  if (parsed.success && extra.length === 0) return { ok: true, data: parsed.data };
  const issues = parsed.success ? [] : toValidationIssues(parsed.error.issues, options.hints);
  return { ok: false, issues: [...issues.map((issue) => withTypeGot(issue, body)), ...extra] };
}

/**
 * Messages never carry values, but an unknown key is named, and a key can be anything the body
 * holds: no run of digits long enough to be a card number leaves the sandbox, in a path, a field
 * name or a message.
 */
const redactDigits = (text: string): string => text.replace(/\d{12,19}/g, '[redacted]');

/** 400 naming each field at fault, with its code and message. Never a value. */
export function refuseInvalid(c: SandboxContext, what: string, issues: readonly ValidationIssue[]) {
  const paths = issues.map((issue) =>
    issue.path.map((segment) => (typeof segment === 'string' ? redactDigits(segment) : segment)),
  );
  const fields = paths.map((path) => formatIssuePath(path));
  c.set('summary', `invalid: ${fields.join(', ')}`);
  return c.json(
    {
      error: 'invalid_request',
      message: `Invalid ${what}: ${fields.join(', ')}`,
      issues: issues.map((issue, index) => ({
        field: fields[index],
        path: paths[index],
        code: issue.code,
        message: redactDigits(issue.message),
      })),
    },
    400,
  );
}
