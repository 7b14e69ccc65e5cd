/**
 * Which references the tracker records, in one place for `begin`, the reads and the callback
 * handler's lookup.
 *
 * @module
 */

/**
 * Whether `reference` can name a transaction: 1–256 characters of well-formed Unicode. A lone
 * surrogate is refused: a store keyed by UTF-8 (Redis) turns it into U+FFFD, and two references
 * would share one transaction.
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
  !/\p{Cs}/u.test(reference);

/**
 * Whether `begin` records `reference`: one {@link isRecordableReference} accepts, without control
 * characters. A control character is no one's order number, and Postgres `text` refuses NUL:
 * refused when the transaction is recorded, not on the first payment in production. A record an
 * earlier version stored under one is still read, settled and expired.
 */
export const isNewReference = (reference: unknown): reference is string =>
  isRecordableReference(reference) && !/\p{Cc}/u.test(reference);
