/** The chunks of a body read piece by piece, as one byte array (the chunk itself when there is one). */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The UTF-8 encoder the modules share (it holds no state). */
export const encoder = new TextEncoder();

/**
 * `node:crypto` where the runtime offers it (Node ≥ 20.16, through `process.getBuiltinModule`: a
 * function call, not an import, so bundlers for browsers and edge runtimes find nothing to resolve
 * and the module loads everywhere); undefined elsewhere.
 */
export const nodeCrypto = (): unknown =>
  (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
    'node:crypto',
  );
