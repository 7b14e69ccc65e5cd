// Exact JSON for card numbers. The API reference types card_number as a JSON integer, and 16-digit
// numbers above 2^53 (e.g. starting with 9) cannot pass through a JS number unrounded. Node 20
// has no JSON.rawJSON, so the serialiser writes the digits itself and the parser keeps long
// integers as strings. And what both readers of the service's JSON (initiation replies and
// callbacks) refuse a body for: one that writes a key twice in one object, and the number
// literals they read as written.

/** How the card fields of a body are encoded; see the client option `cardFieldEncoding`. */
export type WireCardEncoding = 'integer' | 'string';

const digitsOnly = /^\d+$/;

/** `{"key":value,…}` of the defined values, each written by `write`. */
function stringifyObject(
  record: Record<string, unknown>,
  write: (key: string, value: unknown) => string,
): string {
  let out = '';
  for (const key in record) {
    const value = record[key];
    if (value !== undefined) out += `${out === '' ? '' : ','}${JSON.stringify(key)}:${write(key, value)}`;
  }
  return `{${out}}`;
}

const stringifyCardDetails = (card: Record<string, unknown>, encoding: WireCardEncoding): string =>
  stringifyObject(card, (key, value) => {
    if (
      key !== 'card_number' ||
      encoding !== 'integer' ||
      typeof value !== 'string' ||
      !digitsOnly.test(value)
    ) {
      return JSON.stringify(value);
    }
    // A JSON integer cannot start with 0: the builder refuses such a number before it gets here.
    if (value.startsWith('0')) {
      throw new RangeError(
        "a card number starting with 0 cannot be written as a JSON integer; use cardFieldEncoding: 'string'",
      );
    }
    return value;
  });

/**
 * Serialises a wire body to JSON text, writing `card_details.card_number` (a digit string in
 * the builders' output) as a bare JSON integer with its exact digits. The other card fields are
 * written as they are (the builder already encoded them). The encoding defaults to `'string'`
 * when the body's `expiry_month` is a string, else `'integer'`.
 */
export function stringifyWireBody(body: object, options?: { cardFieldEncoding?: WireCardEncoding }): string {
  const card = (body as { card_details?: unknown }).card_details;
  if (typeof card !== 'object' || card === null) return JSON.stringify(body);
  const encoding =
    options?.cardFieldEncoding ??
    (typeof (card as { expiry_month?: unknown }).expiry_month === 'string' ? 'string' : 'integer');
  return stringifyObject(body as Record<string, unknown>, (key, value) =>
    key === 'card_details'
      ? stringifyCardDetails(value as Record<string, unknown>, encoding)
      : JSON.stringify(value),
  );
}

// A JSON string token, or a number token; strings are matched first so digits inside them are skipped.
const tokens = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const longInteger = /^-?\d{16,}$/;

/**
 * `JSON.parse`, except that integers written with more than 15 digits come back as exact digit
 * strings instead of rounded numbers (so a 16-digit card_number keeps every digit). Throws a
 * `SyntaxError` on invalid JSON, like `JSON.parse`.
 */
export function parseJsonExact(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const quoted = text.replace(tokens, (token) => (longInteger.test(token) ? `"${token}"` : token));
  return JSON.parse(quoted);
}

/** The index of the quote that closes the JSON string whose opening quote is at `start`. */
export function closingQuote(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/**
 * Whether `text` (valid JSON: parsed already into `value`) writes a key twice in one object, which
 * `JSON.parse` resolved by keeping the last value: the text writes more keys (strings followed by
 * a colon; strings skipped whole, so a key's name inside a value is none) than `value`'s objects
 * hold.
 */
export function repeatsAKey(text: string, value: object): boolean {
  let keys = 0;
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at + 1)) {
    at = closingQuote(text, at);
    let next = at + 1;
    while (text[next] === ' ' || text[next] === '\n' || text[next] === '\r' || text[next] === '\t') next += 1;
    if (text[next] === ':') keys += 1;
  }
  // A stack, not recursion: a body may nest as deep as JSON.parse allows.
  const stack: unknown[] = [value];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item !== 'object' || item === null) continue;
    if (!Array.isArray(item)) keys -= Object.keys(item).length;
    for (const inner of Object.values(item)) stack.push(inner);
  }
  return keys !== 0;
}

/** What a number that `JSON.parse` reads other than written must hold: an exponent, or 16 digits. */
const MAY_ROUND = /\d[eE][-+]?\d|[\d.]{16}/;

/** A JSON number, read where one starts. */
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The number literals of the top-level object's own keys, as `text` (valid JSON: parsed already)
 * writes them — `{"amount":1e3}` → `amount` → `'1e3'` — the last of a key written twice, as
 * `JSON.parse` keeps it; a key written with escapes under its plain spelling. One pass, strings
 * skipped with `indexOf`: linear in the text's length, whatever it holds.
 */
export function numberLiteralsOf(text: string): Map<string, string> | undefined {
  // Only a literal with an exponent or more than 15 significant digits reads other than it was
  // written; a text with neither anywhere (inside strings included) has none to tell.
  if (!MAY_ROUND.test(text)) return undefined;
  let literals: Map<string, string> | undefined;
  let depth = 0;
  let stringStart = -1; // the quotes of the last string read
  let stringEnd = -1;
  let key: string | undefined; // set by a colon of the top-level object: the next token is its value
  for (let at = 0; at < text.length;) {
    const char = text[at]!;
    if (char === ' ' || char === '\n' || char === '\r' || char === '\t') {
      at += 1;
      continue;
    }
    const valueOf = key;
    key = undefined;
    if (char === '"') {
      stringStart = at;
      stringEnd = closingQuote(text, at);
      at = stringEnd + 1;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      NUMBER.lastIndex = at;
      const literal = NUMBER.exec(text)![0];
      if (valueOf !== undefined) (literals ??= new Map()).set(valueOf, literal);
      at += literal.length;
    } else {
      if (char === ':' && depth === 1) {
        const raw = text.slice(stringStart + 1, stringEnd);
        key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
      } else if (char === '{' || char === '[') depth += 1;
      else if (char === '}' || char === ']') depth -= 1;
      at += 1;
    }
  }
  return literals;
}

/**
 * The `error` of a JSON body when it is a code (`invalid_signature`, `duplicate_reference_id`:
 * letters, `_`, `.`, `-`, at most 64), else undefined: no free text and no digit of the body (a
 * card number, cvc or signature a service or route echoed could hide there). The client names it
 * in an `ApiError`'s message, the sandbox in a delivery's log line.
 */
export function jsonErrorCode(text: string): string | undefined {
  return errorCodeOf(parsedOrText(text));
}

/** {@link jsonErrorCode} of a body already parsed ({@link parsedOrText}). */
export function errorCodeOf(reply: unknown): string | undefined {
  const error =
    typeof reply === 'object' && reply !== null ? (reply as { error?: unknown }).error : undefined;
  return typeof error === 'string' && /^[a-z][a-z_.-]{0,63}$/i.test(error) ? error : undefined;
}

/** A body's JSON value, or the text itself when it is not JSON. */
export function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
