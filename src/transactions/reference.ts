/**
 * Which references the tracker records, in one place for `begin`, the reads and the callback
 * handler's lookup.
 *
 * @module
 */

/**
 * Whether `reference` can be recorded: 1–256 characters of well-formed Unicode without control
 * characters. A lone surrogate is refused: a store keyed by UTF-8 (Redis) turns it into U+FFFD, and
 * two references would share one transaction. A control character is no one's order number, and
 * Postgres `text` refuses NUL: refused at `begin`, not on the first payment in production.
 *
 * @example
 * ```ts
 * isRecordableReference('ORD-1'); // true
 * isRecordableReference('ORD-\uD800'); // false
 * ```
 */
export const isRecordableReference = (reference: unknown): reference is string =>
  typeof reference === 'string' &&
  reference.length > 0 &&
  reference.length <= 256 &&
  !/[\p{Cs}\p{Cc}]/u.test(reference);
