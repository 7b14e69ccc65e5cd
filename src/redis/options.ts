// The option checks both Redis stores share, so each refuses a wrong value with the same error,
// at creation rather than on the first callback or tracked payment.
import type { RedisScriptClient } from './index.js';

/** `client` when it has an `eval` method, else a `TypeError` naming `client`. */
export function scriptClient<Client>(where: string, client: Client): Client & RedisScriptClient {
  if (typeof (client as Partial<RedisScriptClient> | null | undefined)?.eval !== 'function') {
    throw new TypeError(
      `${where}: client must be an ioredis Redis or Cluster, or an object with an eval(script, numkeys, ...args) method`,
    );
  }
  return client as Client & RedisScriptClient;
}

/** `prefix`, or `fallback` when it is `undefined`; anything but a string is a `TypeError`. */
export function prefixOption(where: string, prefix: unknown, fallback: string): string {
  if (prefix === undefined) return fallback;
  if (typeof prefix !== 'string')
    throw new TypeError(`${where}: prefix must be a string, got ${typeof prefix}`);
  return prefix;
}

/**
 * A script's 0 or 1 reply as a number: ioredis with `stringNumbers: true` hands integer replies
 * over as strings. Any other reply is returned as it is.
 */
export const bit = (reply: unknown): unknown => (reply === '0' ? 0 : reply === '1' ? 1 : reply);
