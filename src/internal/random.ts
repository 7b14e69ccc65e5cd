/**
 * Random tokens from the runtime's CSPRNG (`crypto.getRandomValues`, on every supported runtime).
 *
 * @module
 */

/** `bytes` random bytes as lower-case hex (24 digits for the default 12). */
export function randomHex(bytes = 12): string {
  const values = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  let out = '';
  for (const byte of values) out += byte.toString(16).padStart(2, '0');
  return out;
}
