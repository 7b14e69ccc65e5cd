/**
 * Verifiable callback URLs. The service signs nothing (spec §6), so the SDK signs the callback
 * URL the merchant hands it: `signCallbackUrl` adds the merchant's reference and an HMAC-SHA256
 * over it; the handler checks that HMAC on every delivery. Web Crypto only (`crypto.subtle`,
 * `TextEncoder`): Node ≥ 20, Bun, Deno, Workers.
 *
 * The MAC covers `hosted-payments/v1`, the URL's host (lower-cased, with a non-default port)
 * and path, and the reference — so a signature cannot be moved to another endpoint or another
 * reference. It does not cover the scheme (TLS is often terminated by a proxy, so the handler
 * may see `http:`), the other query parameters, or the body: anyone who learns a signed URL can
 * post any body to it, which is why the handler cross-checks the payload's reference with the
 * signed one and can check the amount (`expected`), and why deliveries are deduplicated. There is
 * no timestamp, hence no replay window beyond the dedupe store.
 *
 * @module
 */
import { CallbackVerificationError } from '../errors.js';

/**
 * The query parameters `signCallbackUrl` adds: `hp_ref` (the reference) and `hp_sig` (the
 * base64url HMAC-SHA256).
 *
 * @example
 * ```ts
 * new URL(signedUrl).searchParams.get(callbackSignatureParams.reference); // 'ORDER-1'
 * ```
 */
export const callbackSignatureParams = { reference: 'hp_ref', signature: 'hp_sig' } as const;

/**
 * Options of {@link signCallbackUrl}.
 *
 * @example
 * ```ts
 * const options: SignCallbackUrlOptions = { secret: process.env.WEBHOOK_SECRET!, reference: 'ORDER-1' };
 * ```
 */
export interface SignCallbackUrlOptions {
  /** The HMAC key; keep it server-side. At least 16 characters. */
  readonly secret: string;
  /** The merchant's reference the callback will be about (transaction_reference, order_id, reference_id). */
  readonly reference: string;
}

/**
 * Options of {@link verifyCallbackUrl}.
 *
 * @example
 * ```ts
 * const options: VerifyCallbackUrlOptions = { secret: [newSecret, oldSecret] };
 * ```
 */
export interface VerifyCallbackUrlOptions {
  /** The secret, or several during a rotation (any one may match). */
  readonly secret: string | readonly string[];
  /**
   * The public origin the URL was signed with (e.g. `https://shop.example`), when a proxy
   * rewrites the Host the server sees. Default: the URL's own.
   */
  readonly origin?: string;
}

/**
 * The result of a successful {@link verifyCallbackUrl}.
 *
 * @example
 * ```ts
 * const { reference }: VerifiedCallbackUrl = await verifyCallbackUrl(request.url, { secret });
 * ```
 */
export interface VerifiedCallbackUrl {
  /** The reference that was signed into the URL. */
  readonly reference: string;
}

const encoder = new TextEncoder();
const MAX_CACHED_KEYS = 16;
const keyCache = new Map<string, Promise<CryptoKey>>();

/** Imports (once per secret, a few secrets cached) the HMAC key. */
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret);
  if (key === undefined) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    if (keyCache.size >= MAX_CACHED_KEYS) keyCache.delete(keyCache.keys().next().value as string);
    keyCache.set(secret, key);
  }
  return key;
}

/** What the MAC covers; see the module comment. */
const signedMessage = (host: string, pathname: string, reference: string): Uint8Array<ArrayBuffer> =>
  encoder.encode(`hosted-payments/v1\n${host}${pathname}\n${reference}`);

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return undefined; // 32 bytes, unpadded
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '=');
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const toUrl = (url: string | URL): URL | undefined => {
  try {
    return new URL(String(url));
  } catch {
    return undefined;
  }
};

/**
 * Returns `url` with the reference and its HMAC-SHA256 added as `hp_ref` and `hp_sig` (an
 * earlier `hp_ref`/`hp_sig` is replaced, every other query parameter kept). Hand the result to
 * the service as `callback_url` / `webhook_url`; `createCallbackHandler({ secret })` verifies it.
 *
 * @throws {TypeError} for a URL that does not parse, an empty reference or a secret shorter
 *   than 16 characters.
 *
 * @example
 * ```ts
 * const callback_url = await signCallbackUrl('https://shop.example/webhooks/payments', {
 *   secret: process.env.WEBHOOK_SECRET!,
 *   reference: 'ORDER-1001',
 * });
 * // https://shop.example/webhooks/payments?hp_ref=ORDER-1001&hp_sig=…
 * ```
 */
export async function signCallbackUrl(url: string | URL, options: SignCallbackUrlOptions): Promise<string> {
  const parsed = toUrl(url);
  if (parsed === undefined) throw new TypeError('signCallbackUrl: url is not an absolute URL');
  if (typeof options.reference !== 'string' || options.reference === '') {
    throw new TypeError('signCallbackUrl: reference must be a non-empty string');
  }
  if (typeof options.secret !== 'string' || options.secret.length < 16) {
    throw new TypeError('signCallbackUrl: secret must be a string of at least 16 characters');
  }
  const key = await hmacKey(options.secret);
  const mac = await crypto.subtle.sign(
    'HMAC',
    key,
    signedMessage(parsed.host, parsed.pathname, options.reference),
  );
  parsed.searchParams.delete(callbackSignatureParams.reference);
  parsed.searchParams.delete(callbackSignatureParams.signature);
  parsed.searchParams.append(callbackSignatureParams.reference, options.reference);
  parsed.searchParams.append(callbackSignatureParams.signature, toBase64Url(new Uint8Array(mac)));
  return parsed.href;
}

/**
 * Checks the signature `signCallbackUrl` put into a callback URL and returns the signed
 * reference. Constant-time (Web Crypto's HMAC verify); during a secret rotation pass both
 * secrets and either one is accepted.
 *
 * @throws {CallbackVerificationError} with `reason` `invalid_url`, `missing_reference`,
 *   `missing_signature`, `bad_signature` or `no_secret`.
 *
 * @example
 * ```ts
 * try {
 *   const { reference } = await verifyCallbackUrl(request.url, { secret: [current, previous] });
 * } catch (error) {
 *   if (error instanceof CallbackVerificationError) return new Response(null, { status: 401 });
 *   throw error;
 * }
 * ```
 */
export async function verifyCallbackUrl(
  url: string | URL,
  options: VerifyCallbackUrlOptions,
): Promise<VerifiedCallbackUrl> {
  const secrets = (typeof options.secret === 'string' ? [options.secret] : options.secret).filter(
    (secret) => typeof secret === 'string' && secret !== '',
  );
  if (secrets.length === 0)
    throw new CallbackVerificationError('no_secret', 'No secret to verify the callback URL');
  const parsed = toUrl(url);
  if (parsed === undefined)
    throw new CallbackVerificationError('invalid_url', 'Callback URL is not an absolute URL');
  let host = parsed.host;
  if (options.origin !== undefined) {
    const origin = toUrl(options.origin);
    if (origin === undefined)
      throw new CallbackVerificationError('invalid_url', 'The origin option is not a URL');
    host = origin.host;
  }
  const references = parsed.searchParams.getAll(callbackSignatureParams.reference);
  const signatures = parsed.searchParams.getAll(callbackSignatureParams.signature);
  if (references.length !== 1 || references[0] === '') {
    throw new CallbackVerificationError(
      'missing_reference',
      `Callback URL must carry exactly one ${callbackSignatureParams.reference} parameter`,
    );
  }
  if (signatures.length !== 1 || signatures[0] === '') {
    throw new CallbackVerificationError(
      'missing_signature',
      `Callback URL must carry exactly one ${callbackSignatureParams.signature} parameter`,
    );
  }
  const reference = references[0]!;
  const signature = fromBase64Url(signatures[0]!);
  if (signature !== undefined) {
    const message = signedMessage(host, parsed.pathname, reference);
    for (const secret of secrets) {
      if (await crypto.subtle.verify('HMAC', await hmacKey(secret), signature, message)) return { reference };
    }
  }
  throw new CallbackVerificationError(
    'bad_signature',
    'Callback URL signature does not match (wrong secret, or the reference, host or path was changed)',
  );
}
