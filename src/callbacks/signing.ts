/**
 * Verifiable callback URLs. The service signs nothing, so the SDK signs the callback
 * URL the merchant hands it: `signCallbackUrl` adds the merchant's reference and an HMAC-SHA256
 * of the URL and that reference; the handler checks that HMAC on every delivery.
 *
 * The scheme, exactly (published with test vectors so other languages can verify):
 *
 *     key     = UTF-8 bytes of the secret
 *     message = UTF-8 bytes of  "hosted-payments/v1" LF host path [ "?" query ] LF reference
 *     hp_sig  = base64url of HMAC-SHA256(key, message), without padding (43 characters)
 *
 * `host` is WHATWG `URL.host` (lower-case, punycode, port only when not the scheme's default),
 * `path` is `URL.pathname` (dot segments removed, percent-escapes kept as written), `reference`
 * is the form-decoded `hp_ref`. `query` covers every other query parameter: the pairs as
 * form-decoded, in the order they appear, `hp_ref`/`hp_sig` left out, each written back as
 * `name=value` with RFC 3986 percent-encoding (all but `A-Z a-z 0-9 - . _ ~`, upper-case hex)
 * and joined with `&`; with no other parameter, neither `?` nor `query`. Reading the parameters
 * by value makes the signature survive a client that re-spells `%20` as `+` or `%7E` as `~`.
 *
 * So a signature cannot be moved to another host, path, query or reference. It does not cover
 * the scheme (TLS is often terminated by a proxy, so the handler may see `http:`), user
 * information, the fragment, or the body: anyone who learns a signed URL can post any body to
 * it, which is why the handler cross-checks the payload's reference with the signed one and can
 * check the amount (`expected`), and why deliveries are deduplicated. There is no timestamp,
 * hence no replay window beyond the dedupe store.
 *
 * @module
 */
import type * as NodeCrypto from 'node:crypto';
import { CallbackVerificationError } from '../errors.js';
import { encoder, nodeCrypto } from '../internal/bytes.js';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import { shown } from '../internal/values.js';

/**
 * The query parameters `signCallbackUrl` adds: `hp_ref` (the reference) and `hp_sig` (the
 * base64url HMAC-SHA256).
 *
 * @example
 * ```ts
 * const signedUrl = await signCallbackUrl('https://shop.example/webhooks/payments', { secret, reference: 'ORDER-1' });
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
 * // during a rotation: URLs signed with either secret verify
 * const options: VerifyCallbackUrlOptions = {
 *   secret: [process.env.WEBHOOK_SECRET!, process.env.WEBHOOK_SECRET_PREVIOUS!],
 *   origin: 'https://shop.example',
 * };
 * ```
 */
export interface VerifyCallbackUrlOptions {
  /** The secret, or several during a rotation (any one may match). */
  readonly secret: string | readonly string[];
  /**
   * The public origin the URL was signed with (e.g. `https://shop.example`), when a proxy
   * rewrites the Host the server sees. Default: the URL's own. Read like the handler's
   * `publicOrigin`: `https://shop.example:443` is `https://shop.example`, and anything more than
   * an http(s) origin (a path, query, fragment, userinfo, whitespace) is a `TypeError`.
   */
  readonly origin?: string | undefined;
}

/** The options each function knows; any other key is refused (a misspelt `origin` is not dropped). */
const SIGN_OPTIONS: OptionNames<SignCallbackUrlOptions> = { secret: true, reference: true };
const VERIFY_OPTIONS: OptionNames<VerifyCallbackUrlOptions> = { secret: true, origin: true };

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

const SCHEME = 'hosted-payments/v1';
/** The shortest secret a callback URL is signed or verified with. */
export const MIN_SECRET_LENGTH = 16;

/** What a secret too short to sign with lacks, as the end of a refusal. */
const NEEDS = `it needs at least ${MIN_SECRET_LENGTH} characters`;

/**
 * What is wrong with a webhook secret, as a phrase that follows its name (`secret is too short; …`),
 * or undefined for one that signs and verifies. A blank secret (only Unicode white space) is a
 * misread environment variable, never a key: sixteen spaces are long enough, and anyone can guess
 * them. A padded one (a trailing newline from a secret file or `echo`) signs with another key than a
 * side that reads it trimmed. The phrase never quotes the secret.
 */
export function secretProblem(secret: unknown): string | undefined {
  if (secret === undefined) return `is missing; ${NEEDS}`;
  if (typeof secret !== 'string') return `is not a string; ${NEEDS}`;
  if (secret === '') return `is empty; ${NEEDS}`;
  if (secret.length < MIN_SECRET_LENGTH) return `is too short; ${NEEDS}`;
  const trimmed = secret.trim();
  if (trimmed === '') return `is blank (only white space: a misread environment variable?); ${NEEDS}`;
  if (trimmed !== secret) {
    return 'has white space at its start or end (a trailing newline from a secret file or echo?); trim it where it is read';
  }
  return undefined;
}

/** HMAC-SHA256 of a message under a secret, as base64url without padding (43 characters). */
type Mac = (secret: string, message: string) => string | Promise<string>;

type NodeHmac = Pick<typeof NodeCrypto, 'createHmac'>;

/**
 * `node:crypto` where the runtime offers it (Node ≥ 20.16): a synchronous HMAC of a few
 * microseconds, several times cheaper than `crypto.subtle`, whose every call is a promise answered
 * from the thread pool, and the handler verifies on every delivery. `process.getBuiltinModule` is
 * a function call, not an import, so bundlers for browsers and edge runtimes find nothing to
 * resolve and the module loads everywhere; without it, Web Crypto. Both give the same text.
 */
function nodeMac(): Mac | undefined {
  const createHmac = (nodeCrypto() as Partial<NodeHmac> | undefined)?.createHmac;
  if (typeof createHmac !== 'function') return undefined;
  return (secret, message) => createHmac('sha256', secret).update(message).digest('base64url');
}

function webCryptoMac(): Mac {
  const MAX_CACHED_KEYS = 16;
  const keys = new Map<string, Promise<CryptoKey>>();
  const key = (secret: string): Promise<CryptoKey> => {
    let imported = keys.get(secret);
    if (imported === undefined) {
      const algorithm = { name: 'HMAC', hash: 'SHA-256' };
      imported = crypto.subtle.importKey('raw', encoder.encode(secret), algorithm, false, ['sign']);
      if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value as string);
      keys.set(secret, imported);
    }
    return imported;
  };
  return async (secret, message) =>
    toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', await key(secret), encoder.encode(message))));
}

let macBackend: Mac | undefined;
const mac: Mac = (secret, message) => (macBackend ??= nodeMac() ?? webCryptoMac())(secret, message);

/** RFC 3986 percent-encoding: everything but `A-Z a-z 0-9 - . _ ~`, upper-case hex. */
const percentEncode = (text: string): string =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The URL's query, read once: the `hp_ref` and `hp_sig` values, and every other pair as signed. */
function readQuery(url: URL): { references: string[]; signatures: string[]; signed: string[] } {
  const read = { references: [] as string[], signatures: [] as string[], signed: [] as string[] };
  for (const [name, value] of url.searchParams) {
    if (name === callbackSignatureParams.reference) read.references.push(value);
    else if (name === callbackSignatureParams.signature) read.signatures.push(value);
    else read.signed.push(`${percentEncode(name)}=${percentEncode(value)}`);
  }
  return read;
}

/** What the MAC covers; see the module comment. */
const signedMessage = (host: string, url: URL, signed: readonly string[], reference: string): string =>
  `${SCHEME}\n${host}${url.pathname}${signed.length === 0 ? '' : `?${signed.join('&')}`}\n${reference}`;

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Whether two texts are equal, in a time that depends on their length only, not on where they
 * differ. A signature is compared as text: each 32 bytes have one base64url spelling without
 * padding, so only that spelling can equal the one computed.
 */
function sameText(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return difference === 0;
}

const isHttpUrl = (url: URL): boolean => url.protocol === 'https:' || url.protocol === 'http:';

const toHttpUrl = (url: string | URL): URL | undefined => {
  try {
    const parsed = new URL(String(url));
    return isHttpUrl(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Whether a URL's query is percent-encoded UTF-8. A `%` that starts no escape (`50%`, `%zz`) or
 * escapes that make no UTF-8 character (`%C3` alone) read as themselves or U+FFFD, and runtimes
 * write such a query back differently (workerd keeps `%C3`, Node, Bun and Deno write
 * `%EF%BF%BD`): the signed URL would depend on where it was signed.
 */
export const isUtf8Query = (url: URL): boolean => {
  try {
    decodeURIComponent(url.search);
    return true;
  } catch {
    return false;
  }
};

/** What {@link isUtf8Query} asks of a query, for refusals. */
export const UTF8_QUERY_RULE =
  "must be percent-encoded UTF-8 (a '%' starts the escape of a UTF-8 byte; a percent sign is %25)";

/** What `publicOrigin` and `origin` must be; anything else is a `TypeError` naming the option. */
export const ORIGIN_RULE =
  "must be an http(s) origin such as 'https://shop.example' (scheme and host, no path)";

/**
 * The WHATWG origin of an http(s) origin option (lower-case, default port dropped, an IDN in
 * punycode: the host `signCallbackUrl` signs), or `undefined` when it is anything more than an
 * origin (a path, query, fragment, userinfo, whitespace or control characters) or not a string.
 */
export const originOf = (value: unknown): string | undefined => {
  // Spaces and control characters: the URL parser would drop them, not refuse them.
  if (typeof value !== 'string' || /[\p{Cc} ]/u.test(value)) return undefined;
  try {
    const url = new URL(value);
    return isHttpUrl(url) && url.href === `${url.origin}/` ? url.origin : undefined;
  } catch {
    return undefined;
  }
};

// The handler verifies every delivery against the same `origin`: its host is read once.
let lastOrigin: { readonly origin: string; readonly host: string | undefined } | undefined;

/** The host of an origin {@link originOf} accepts, or undefined for any other value. */
function originHost(origin: string): string | undefined {
  if (lastOrigin?.origin !== origin) lastOrigin = { origin, host: originOf(origin)?.split('//')[1] };
  return lastOrigin.host;
}

/** The secrets to verify with; an unset (undefined or empty) entry of a rotation list is skipped. */
function verificationSecrets(secret: unknown): string[] {
  const list: readonly unknown[] = Array.isArray(secret) ? secret : [secret];
  const secrets: string[] = [];
  for (const [index, entry] of list.entries()) {
    if (entry === undefined || entry === '') continue;
    const field = Array.isArray(secret) ? `secret[${index}]` : 'secret';
    const problem = secretProblem(entry);
    if (problem !== undefined) {
      throw new CallbackVerificationError('weak_secret', `${field} ${problem}`);
    }
    secrets.push(entry as string);
  }
  if (secrets.length === 0) {
    throw new CallbackVerificationError(
      'no_secret',
      'No secret to verify the callback URL (secret is unset or empty)',
    );
  }
  return secrets;
}

/**
 * Returns `url` with the reference and its HMAC-SHA256 added as `hp_ref` and `hp_sig` (an
 * earlier `hp_ref`/`hp_sig` is replaced, every other query parameter kept and signed too, so
 * add them before signing). Hand the result to the service as `callback_url` / `webhook_url`;
 * `createCallbackHandler({ secret })` verifies it.
 *
 * @throws {TypeError} for a URL that is not an absolute `http:` or `https:` URL, a reference
 *   that is empty or not well-formed Unicode, a secret shorter than 16 characters, or an option
 *   it does not know.
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
  refuseUnknownOptions('signCallbackUrl', options, SIGN_OPTIONS);
  const parsed = toHttpUrl(url);
  if (parsed === undefined) throw new TypeError('signCallbackUrl: url must be an absolute http or https URL');
  const { reference, secret } = options;
  if (typeof reference !== 'string' || reference === '') {
    throw new TypeError('signCallbackUrl: reference must be a non-empty string');
  }
  // A lone surrogate would be signed and sent as U+FFFD, so the signed reference would not be the
  // one the payload carries.
  if (/\p{Cs}/u.test(reference)) {
    throw new TypeError('signCallbackUrl: reference must be well-formed Unicode (it has a lone surrogate)');
  }
  const problem = secretProblem(secret);
  if (problem !== undefined) throw new TypeError(`signCallbackUrl: secret ${problem}`);
  if (!isUtf8Query(parsed)) throw new TypeError(`signCallbackUrl: url's query ${UTF8_QUERY_RULE}`);
  parsed.searchParams.delete(callbackSignatureParams.reference);
  parsed.searchParams.delete(callbackSignatureParams.signature);
  const signature = await mac(
    secret,
    signedMessage(parsed.host, parsed, readQuery(parsed).signed, reference),
  );
  parsed.searchParams.append(callbackSignatureParams.reference, reference);
  parsed.searchParams.append(callbackSignatureParams.signature, signature);
  return parsed.href;
}

/**
 * Checks the signature `signCallbackUrl` put into a callback URL and returns the signed
 * reference. The comparison is constant-time, and only the canonical spelling of a signature is
 * accepted; during a secret rotation pass both secrets and either one is accepted (an unset entry
 * of the list is skipped).
 *
 * @throws {CallbackVerificationError} with `reason` `invalid_url`, `missing_reference`,
 *   `missing_signature` or `bad_signature` for the URL; `no_secret` (no secret set) or
 *   `weak_secret` (one shorter than 16 characters) for the options.
 * @throws {TypeError} for an option it does not know (a misspelt `origin` would otherwise leave
 *   the host unpinned), or an `origin` that is not an http(s) origin (`'shop.example'`,
 *   `'https://shop.example/webhooks'`, `'https://user@shop.example'`).
 *
 * @example
 * ```ts
 * // createCallbackHandler does all of this (and deduplicates); by hand:
 * export async function POST(request: Request): Promise<Response> {
 *   const secrets = [process.env.WEBHOOK_SECRET!, process.env.WEBHOOK_SECRET_PREVIOUS!];
 *   let reference: string;
 *   try {
 *     ({ reference } = await verifyCallbackUrl(request.url, { secret: secrets, origin: 'https://shop.example' }));
 *   } catch (error) {
 *     // 401 (not retried) only for the request's faults; no_secret / weak_secret are this deploy's
 *     // configuration: rethrown, a 500 the sender retries once the secret is fixed.
 *     const requestFaults = ['invalid_url', 'missing_reference', 'missing_signature', 'bad_signature'];
 *     if (error instanceof CallbackVerificationError && requestFaults.includes(error.reason)) {
 *       return new Response(null, { status: 401 });
 *     }
 *     throw error;
 *   }
 *   await settle(reference, parseCallback(await request.text())); // by event.paid, once per callbackDedupeKey
 *   return new Response(null, { status: 200 });
 * }
 * ```
 */
export async function verifyCallbackUrl(
  url: string | URL,
  options: VerifyCallbackUrlOptions,
): Promise<VerifiedCallbackUrl> {
  const { reference } = await verifySignedUrl(url, options);
  return { reference };
}

/**
 * {@link verifyCallbackUrl}, also giving the verified `hp_sig`: the handler keys a checkout
 * callback by it.
 */
export async function verifySignedUrl(
  url: string | URL,
  options: VerifyCallbackUrlOptions,
): Promise<VerifiedCallbackUrl & { readonly signature: string }> {
  refuseUnknownOptions('verifyCallbackUrl', options, VERIFY_OPTIONS);
  const pinned = options.origin === undefined ? undefined : originHost(options.origin);
  if (options.origin !== undefined && pinned === undefined) {
    throw new TypeError(`verifyCallbackUrl: origin ${ORIGIN_RULE}`);
  }
  const secrets = verificationSecrets(options.secret);
  // A URL object is read as it is (verification never changes it), not parsed again.
  const parsed = url instanceof URL ? (isHttpUrl(url) ? url : undefined) : toHttpUrl(url);
  if (parsed === undefined) {
    throw new CallbackVerificationError('invalid_url', 'Callback URL is not an absolute http or https URL');
  }
  const host = pinned ?? parsed.host;
  const { references, signatures, signed } = readQuery(parsed);
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
  const signature = signatures[0]!;
  const message = signedMessage(host, parsed, signed, reference);
  for (const secret of secrets) {
    if (sameText(signature, await mac(secret, message))) return { reference, signature };
  }
  throw new CallbackVerificationError(
    'bad_signature',
    `Callback URL signature does not match for host ${shown(host, 64)} and path ${shown(parsed.pathname, 128)}: a wrong secret, or the reference, path or query was changed; ${
      pinned === undefined
        ? "the host was taken from the request: behind a proxy that changes it, set publicOrigin (verifyCallbackUrl's origin)"
        : 'the host is the origin given: a URL signed for another host does not verify'
    }`,
  );
}
