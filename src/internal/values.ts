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
