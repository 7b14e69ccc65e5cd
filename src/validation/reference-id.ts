import { fail, pass, preview, type Check } from './result.js';

/**
 * A fresh payout `reference_id`: 12 random digits, the first not 0 (spec §2.7, §8), from
 * `crypto.getRandomValues`. Store it with the pending payout: the callback echoes it.
 *
 * @example
 * ```ts
 * const reference_id = generateReferenceId(); // e.g. 483920175561
 * await client.initiatePayout({ ...payout, transfer: { ...payout.transfer, reference_id } });
 * ```
 */
export function generateReferenceId(): number {
  const bytes = new Uint32Array(12);
  crypto.getRandomValues(bytes);
  // Rejection-free enough: modulo bias of 2^32 % 10 is ~1e-9 per digit.
  let value = 1 + (bytes[0]! % 9);
  for (let index = 1; index < 12; index += 1) value = value * 10 + (bytes[index]! % 10);
  return value;
}

/** reference_id: 12 digits, first not 0, as number, bigint or digit string → a JSON-safe integer. */
export function checkReferenceId(input: unknown): Check<number> {
  const text = typeof input === 'number' || typeof input === 'bigint' ? String(input) : input;
  if (typeof text !== 'string' || !/^[1-9]\d{11}$/.test(text)) {
    return fail(
      'invalid_reference_id',
      `expected 12 digits, the first not 0 (or omit it and one is generated), got ${preview(input)}`,
    );
  }
  return pass(Number(text));
}
