/**
 * What a value is, for messages that must never show it, and whether an object is a plain one.
 *
 * @module
 */

/** `null`, `array`, or the `typeof` of `value`: the type a message may name instead of the value. */
export const typeName = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** An object literal, or an object without a prototype: one read key by key as it came. */
export const isPlainObject = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * A value in a message, at most `max` characters of it (`…` after): an amount may be hundreds of
 * digits long, a Host header kilobytes.
 */
export const shown = (value: unknown, max = 24): string => {
  const text = String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

/**
 * Whether a key a caller gave that the SDK does not know may be quoted in a message: one that
 * could be a name (letters, `_`, `-`, `.` and spaces, at most 32). A key is whatever was put
 * there, and a card number, API key or webhook secret in a key's place must not reach a message,
 * an issue's path or a log.
 */
export const isNameLike = (key: string): boolean => /^[A-Za-z_][A-Za-z_ .-]{0,31}$/.test(key);

/** An unknown key in a message: `"publicOrign"`, or `of 26 characters (not shown…)`. */
export const keyShown = (key: string): string =>
  isNameLike(key) ? JSON.stringify(key) : `of ${key.length} characters (not shown)`;

/** `text` with its ASCII capitals in lower case, and nothing else changed (no Unicode case folding). */
export const asciiLower = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** `text` with its ASCII small letters in upper case, and nothing else changed. */
export const asciiUpper = (text: string): string => text.replace(/[a-z]/g, (c) => c.toUpperCase());
