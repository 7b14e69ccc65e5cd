/**
 * Exactly-once processing of callbacks with a sender that retries: the handler claims an
 * event's dedupe key before calling `onEvent`, marks it done after, and releases it when
 * `onEvent` throws so the retry is processed.
 *
 * @module
 */
import type { CallbackEvent } from './events.js';
import { decimalKey } from './amount.js';
import { asciiUpper } from '../internal/values.js';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import { promised } from '../internal/promise.js';
import { monotonicNow } from '../internal/timers.js';
import { wholeNumberOption } from '../internal/whole-number.js';
import { encoder, nodeCrypto } from '../internal/bytes.js';

/**
 * What {@link DedupeStore.begin} found: `'new'` — the caller now holds the claim and must call
 * `complete` or `abandon`; `'in_progress'` — another delivery of the same event is being
 * processed right now; `'done'` — it was processed already; `'full'` — the store cannot take
 * another claim now (the handler answers 503 so the sender retries). A store that never runs out
 * of room, like the Redis one, never answers `'full'`.
 *
 * @example
 * ```ts
 * const store = createMemoryDedupeStore();
 * const signature = new URL(request.url).searchParams.get('hp_sig') ?? undefined; // verified before
 * const state: DedupeState = await store.begin(callbackDedupeKey(event, reference, signature), 300_000);
 * if (state === 'new') await settle(reference);
 * ```
 */
export type DedupeState = 'new' | 'in_progress' | 'done' | 'full';

/**
 * Where the handler records which callbacks it has processed. The in-memory default is
 * {@link createMemoryDedupeStore}; `hosted-payments/redis` has one for several instances.
 *
 * @example
 * ```ts
 * const store: DedupeStore = {
 *   async begin(key, ttlMs) { return (await db.claim(key, ttlMs)) ?? 'new'; },
 *   async complete(key, ttlMs) { await db.markDone(key, ttlMs); },
 *   async abandon(key) { await db.release(key); },
 * };
 * ```
 */
export interface DedupeStore {
  /**
   * Atomically: if `key` is absent (or expired), claim it as in progress for `ttlMs` and answer
   * `'new'`; otherwise answer its state. Two concurrent calls for one key never both get `'new'`.
   * Any other answer (a database's own reply such as Redis's `'OK'` or `null`, passed on as is) is
   * refused: the handler answers 500 `handler_failed` and does not call `onEvent`.
   */
  begin(key: string, ttlMs: number): Promise<DedupeState>;
  /** Marks `key` processed, remembered for `ttlMs`. */
  complete(key: string, ttlMs: number): Promise<void>;
  /** Releases an in-progress claim (processing failed), so the next delivery is processed. */
  abandon(key: string): Promise<void>;
}

/**
 * Options of {@link createMemoryDedupeStore}.
 *
 * @example
 * ```ts
 * const options: MemoryDedupeStoreOptions = { maxEntries: 100_000, maxBytes: 32 * 1024 * 1024 };
 * ```
 */
export interface MemoryDedupeStoreOptions {
  /**
   * At most this many processed events are remembered; beyond it the oldest are forgotten (a
   * replay of a forgotten event is processed again). Default 50,000.
   */
  readonly maxEntries?: number | undefined;
  /**
   * At most this many bytes (estimated: two per key character plus 80 per entry) for processed
   * events and claims together; processed events are forgotten, oldest first, to stay under it.
   * Default 16 MiB. A bound under one entry of the handler's longest key (270 bytes) throws a
   * `RangeError`: it would hold no claim, and every delivery would be answered 503.
   */
  readonly maxBytes?: number | undefined;
  /**
   * At most this many events being processed at once. Claims are never evicted: beyond this,
   * `begin` answers `'full'` (the handler's 503 + `Retry-After`) until one finishes. Default 10,000.
   */
  readonly maxInProgress?: number | undefined;
  /**
   * Upper bound on how long a key is remembered, whatever `ttlMs` a call passes (a call's `ttlMs`
   * that is not a positive number — `NaN`, `undefined`, `0` — rejects with a `RangeError`, as in
   * the Redis store, rather than make a claim that does not hold). Default 24 h.
   * `createCallbackHandler` refuses this store (a `TypeError` at creation) when its `dedupeTtlMs`
   * or `processingTimeoutMs` is longer: set it at least as long as `dedupeTtlMs`.
   */
  readonly ttlMs?: number | undefined;
  /** Clock of its TTLs, for tests. Default: the monotonic clock (`performance.now()`). */
  readonly now?: (() => number) | undefined;
}

/**
 * Where a store this SDK makes says how long at most it keeps a key (ms), so that the handler can
 * refuse a `dedupeTtlMs` the store would cut short. `Symbol.for`: the same key in every loaded copy.
 */
export const MAX_TTL = Symbol.for('hosted-payments.dedupeMaxTtlMs');

/** The options {@link createMemoryDedupeStore} knows; any other key is refused. */
const MEMORY_STORE_OPTIONS: OptionNames<MemoryDedupeStoreOptions> = {
  maxEntries: true,
  maxBytes: true,
  maxInProgress: true,
  ttlMs: true,
  now: true,
};

const ENTRY_OVERHEAD_BYTES = 80;
const entryBytes = (key: string): number => key.length * 2 + ENTRY_OVERHEAD_BYTES;
/** One entry of the longest key {@link callbackDedupeKey} makes (`payment.mobile_money.succeeded:` + 64 hex digits). */
const ONE_ENTRY_BYTES = 95 * 2 + ENTRY_OVERHEAD_BYTES;

/**
 * A {@link DedupeStore} in this process's memory. Two tables: claims (events being processed) and
 * processed events. Claims are never evicted — when `maxInProgress` claims are held (or they alone
 * fill `maxBytes`), `begin` answers `'full'` and the handler 503s so the sender retries. Processed
 * events are bounded by `maxEntries` and `maxBytes` together with the claims, and forgotten oldest
 * first (and after their TTL): a replay of a forgotten event runs `onEvent` again. Right for a single
 * instance; behind a load balancer use a shared store (`hosted-payments/redis`).
 *
 * @example
 * ```ts
 * const handler = createCallbackHandler({
 *   secret,
 *   dedupe: createMemoryDedupeStore({ maxEntries: 100_000 }),
 *   onEvent: async (event, { reference }) => { await orders.settle(reference, event); },
 * });
 * ```
 */
export function createMemoryDedupeStore(options: MemoryDedupeStoreOptions = {}): DedupeStore {
  const name = 'createMemoryDedupeStore';
  refuseUnknownOptions(name, options, MEMORY_STORE_OPTIONS);
  const maxEntries = wholeNumberOption(name, 'maxEntries', options.maxEntries, 50_000);
  const maxBytes = wholeNumberOption(name, 'maxBytes', options.maxBytes, 16 * 1024 * 1024);
  // Under one entry every begin would answer 'full': the sender retries and then gives up.
  if (maxBytes < ONE_ENTRY_BYTES) {
    throw new RangeError(
      `${name}: maxBytes must hold at least one entry (${ONE_ENTRY_BYTES} bytes), got ${maxBytes}`,
    );
  }
  const maxInProgress = wholeNumberOption(name, 'maxInProgress', options.maxInProgress, 10_000);
  const maxTtl = wholeNumberOption(name, 'ttlMs', options.ttlMs, 86_400_000);
  const now = options.now ?? monotonicNow;
  // key → expiry. A Map iterates in insertion order: re-inserting on every write makes the first
  // entry of `done` the oldest. Evicting from the front with a fresh `done.keys().next()` each time
  // is O(deleted slots): V8 leaves deleted entries as holes at the front of its OrderedHashMap until
  // it rehashes, and every new iterator walks over them (40–60 µs per delivery once the store is
  // full). One long-lived iterator walks each hole once. Expired entries need no sweep: `begin`
  // ignores them and the bounds evict them.
  const claims = new Map<string, number>();
  const done = new Map<string, number>();
  let claimBytes = 0;
  let doneBytes = 0;
  let oldest: Iterator<string> = done.keys();

  const dropDone = (key: string): void => {
    if (done.delete(key)) doneBytes -= entryBytes(key);
  };
  const dropClaim = (key: string): void => {
    if (claims.delete(key)) claimBytes -= entryBytes(key);
  };
  const evictDone = (): void => {
    while (done.size > 0 && (done.size > maxEntries || claimBytes + doneBytes > maxBytes)) {
      let next = oldest.next();
      if (next.done === true) {
        oldest = done.keys();
        next = oldest.next();
      }
      if (next.done !== true) dropDone(next.value);
    }
  };
  // A TTL that is not a positive number would make a claim that never holds (NaN: every
  // concurrent begin answered 'new') or a 1 ms one: refused, as the Redis store refuses it.
  const ttl = (ttlMs: number, call: string): number => {
    if (typeof ttlMs !== 'number' || !(ttlMs > 0)) {
      throw new RangeError(`${call}: ttlMs must be a positive number of milliseconds, got ${String(ttlMs)}`);
    }
    return Math.min(Math.max(1, ttlMs), maxTtl);
  };
  const roomForClaim = (size: number): boolean =>
    claims.size < maxInProgress && claimBytes + size <= maxBytes;

  const claim = (key: string, ttlMs: number): DedupeState => {
    const expiresIn = ttl(ttlMs, 'begin');
    const at = now();
    if ((done.get(key) ?? 0) > at) return 'done';
    if ((claims.get(key) ?? 0) > at) return 'in_progress';
    dropClaim(key);
    const size = entryBytes(key);
    if (!roomForClaim(size)) {
      // Only when full: claims of crashed deliveries expire rather than hold the table forever.
      for (const [held, expiresAt] of claims) if (expiresAt <= at) dropClaim(held);
      if (!roomForClaim(size)) return 'full';
    }
    claims.set(key, at + expiresIn);
    claimBytes += size;
    evictDone();
    return 'new';
  };

  const store: DedupeStore = {
    begin: (key, ttlMs) => promised(() => claim(key, ttlMs)),
    complete: (key, ttlMs) =>
      promised(() => {
        const expiresIn = ttl(ttlMs, 'complete');
        dropClaim(key);
        dropDone(key);
        done.set(key, now() + expiresIn);
        doneBytes += entryBytes(key);
        evictDone();
      }),
    abandon: (key) => promised(() => dropClaim(key)),
  };
  return Object.assign(store, { [MAX_TTL]: maxTtl });
}

// SHA-256 (FIPS 180-4) in plain JS, so the dedupe key stays synchronous on every runtime (Web
// Crypto's digest is async). Where the runtime offers `node:crypto` (through
// `process.getBuiltinModule`, a function call bundlers for browsers and edge runtimes find nothing to
// resolve in) its `hash` (or `createHash`) is used instead: the same digest for a fraction of the CPU, on every
// delivery. Both are checked against each other in the tests.
interface NodeHashing {
  /** One-shot digest (Node ≥ 20.12): no Hash object per call. */
  hash?: ((algorithm: 'sha256', text: string, encoding: 'hex') => string) | undefined;
  createHash?:
    ((algorithm: 'sha256') => { update(text: string): { digest(encoding: 'hex'): string } }) | undefined;
}

function nodeSha256(): ((text: string) => string) | undefined {
  const { hash, createHash } = (nodeCrypto() as NodeHashing | undefined) ?? {};
  if (typeof hash === 'function') return (text) => hash('sha256', text, 'hex');
  return typeof createHash === 'function'
    ? (text) => createHash('sha256').update(text).digest('hex')
    : undefined;
}

let sha256Backend: ((text: string) => string) | undefined;
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const schedule = new Int32Array(64);
let buffer = new Uint8Array(1024);
let view = new DataView(buffer.buffer);

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/**
 * The SHA-256 digest of `text`'s UTF-8 bytes, as 64 lower-case hex digits: `node:crypto` where
 * the runtime has it, {@link sha256HexPortable} elsewhere.
 *
 * @example
 * ```ts
 * sha256Hex('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export function sha256Hex(text: string): string {
  return (sha256Backend ??= nodeSha256() ?? sha256HexPortable)(text);
}

/**
 * {@link sha256Hex} in plain JS, for runtimes without `node:crypto`.
 *
 * @example
 * ```ts
 * sha256HexPortable('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export function sha256HexPortable(text: string): string {
  // One reused buffer (grown when a message needs more): a typed-array allocation per key costs
  // more than the hashing itself.
  if (buffer.length < text.length * 3 + 72) {
    buffer = new Uint8Array(Math.ceil((text.length * 3 + 72) / 64) * 64);
    view = new DataView(buffer.buffer);
  }
  const length = encoder.encodeInto(text, buffer).written;
  const blocks = Math.ceil((length + 9) / 64);
  buffer.fill(0, length, blocks * 64);
  buffer[length] = 0x80;
  view.setUint32(blocks * 64 - 8, Math.floor(length / 0x20000000));
  view.setUint32(blocks * 64 - 4, (length * 8) >>> 0);
  // The hash state H0…H7, summed modulo 2^32 by the Int32Array itself.
  const state = new Int32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = schedule;
  for (let block = 0; block < blocks; block++) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block * 64 + i * 4);
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!;
      const y = w[i - 2]!;
      const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
      const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = state[0]!;
    let b = state[1]!;
    let c = state[2]!;
    let d = state[3]!;
    let e = state[4]!;
    let f = state[5]!;
    let g = state[6]!;
    let h = state[7]!;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    state[0]! += a;
    state[1]! += b;
    state[2]! += c;
    state[3]! += d;
    state[4]! += e;
    state[5]! += f;
    state[6]! += g;
    state[7]! += h;
  }
  let hex = '';
  for (const word of state) hex += (word >>> 0).toString(16).padStart(8, '0');
  return hex;
}

/**
 * The key under which an event is deduplicated: its type, then the SHA-256 of the identifiers
 * its payload carries and of the reference signed into the callback URL — a fixed 78 to 95
 * characters however long the identifiers are. A retried delivery of one callback to the same URL
 * has the same key; a success after a failure of the same payment has another (the type differs),
 * and so does the same payload posted to another order's URL (the signed reference differs: a
 * genuine callback posted to the wrong order first cannot make the right order's delivery a
 * "duplicate").
 *
 * | type | identifiers hashed (with the signed reference) |
 * |---|---|
 * | `payment.card.*` | `id`, `transaction id` |
 * | `payment.mobile_money.succeeded` | `id`, `transaction id` |
 * | `payment.mobile_money.failed` | `id`, `transaction_reference` |
 * | `checkout.*` | `order_id`, `payment_method` (ASCII case and blanks around it ignored), `amount` (as a decimal: `'2500.00'` is `2500`), and the URL's `signature` when given (the payload has no transaction id: what tells two sessions of one order paid by the same method and amount apart is the URL each was signed for — the client's `transactions` option signs each session's URL with a value of its own, `hp_try`) |
 * | `payout.*` | `transaction_id`, `reference_id` |
 *
 * @param reference - the reference signed into the callback URL (`context.reference`); omit it
 *   only for a handler created with `verify: false`.
 * @param signature - the callback URL's verified `hp_sig`; only a checkout's key uses it.
 *
 * @example
 * ```ts
 * const key = callbackDedupeKey(event, context.reference); // 'payout.succeeded:3f1a…' (64 hex digits)
 * ```
 */
export function callbackDedupeKey(event: CallbackEvent, reference?: string, signature?: string): string {
  const fields: string[] = [];
  switch (event.type) {
    case 'payment.card.succeeded':
    case 'payment.card.failed':
    case 'payment.mobile_money.succeeded':
      fields.push('id', 'transaction id');
      break;
    case 'payment.mobile_money.failed':
      fields.push('id', 'transaction_reference');
      break;
    case 'checkout.succeeded':
    case 'checkout.failed':
      // No transaction id: how, how much and the session's URL tell two payments of one order apart.
      fields.push('order_id', 'payment_method', 'amount');
      break;
    case 'payout.succeeded':
    case 'payout.failed':
      fields.push('transaction_id', 'reference_id');
      break;
    default: {
      const unhandled: never = event;
      throw new TypeError(`unknown event ${String(unhandled)}`);
    }
  }
  const data = event.data as Readonly<Record<string, string>>;
  // A checkout's amount and method (no other type hashes them) are one payment however written:
  // `'2500.00'` is `2500`, `' card'` is `CARD` (ASCII case and blanks around it ignored, as the
  // verdict reads a method).
  const part = (field: string): string => {
    const value = data[field]!;
    if (field === 'amount') return decimalKey(value) ?? value;
    if (field === 'payment_method') return asciiUpper(value.replace(/^[\t-\r ]+|[\t-\r ]+$/g, ''));
    return value;
  };
  const encoded = fields.map((field) => encodedPart(part(field), `event.data['${field}']`));
  encoded.push(reference === undefined ? '%' : encodedPart(reference, 'reference'));
  if (signature !== undefined && event.type.startsWith('checkout.'))
    encoded.push(encodedPart(signature, 'signature'));
  return `${event.type}:${sha256Hex(encoded.join(':'))}`;
}

function encodedPart(value: string, name: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    throw new TypeError(`callbackDedupeKey: ${name} is not Unicode text (it holds a lone surrogate)`);
  }
}
