// The system error code and address behind a failed fetch, for messages that say what failed.

interface NetworkCause {
  code?: unknown;
  address?: unknown;
  port?: unknown;
  /** undici's socket errors say where through the socket's remote end. */
  socket?: { remoteAddress?: unknown; remotePort?: unknown } | undefined;
  cause?: unknown;
  errors?: unknown;
  message?: unknown;
}

/** `127.0.0.1:4010`, `[::1]:4010`: only an IP address (never a name or text) and a port. */
function addressOf(address: unknown, port: unknown): string | undefined {
  if (typeof address !== 'string' || !/^[0-9A-Fa-f:.]{2,45}$/.test(address)) return undefined;
  const host = address.includes(':') ? `[${address}]` : address;
  return Number.isInteger(port) ? `${host}:${String(port)}` : host;
}

/**
 * `ECONNREFUSED 127.0.0.1:4010`: the deepest system error code in the cause chain and the address
 * it concerns. Only a code and an address, never the platform's message (it may quote a header).
 */
export function rootCause(error: unknown, url?: URL): string {
  let code: string | undefined;
  let where: string | undefined;
  let current = error as NetworkCause | undefined;
  try {
    for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
      if (typeof current.code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(current.code))
        code = current.code;
      where =
        addressOf(current.address, current.port) ??
        addressOf(current.socket?.remoteAddress, current.socket?.remotePort) ??
        where;
      // fetch refuses the ports browsers block before connecting, saying only this.
      if (current.message === 'bad port')
        return `fetch refuses port ${url?.port ?? ''}, a port browsers block`;
      const first: unknown = Array.isArray(current.errors) ? current.errors[0] : undefined;
      current = (current.cause ?? first) as NetworkCause | undefined;
    }
  } catch {
    // A property that throws when read (a getter of a custom fetch's error): what was found stays.
  }
  if (code === undefined) return 'network error';
  return where === undefined ? code : `${code} ${where}`;
}
