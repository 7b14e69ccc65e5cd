/**
 * Exactly-once processing of callbacks with a sender that retries: the handler claims an
 * event's dedupe key before calling `onEvent`, marks it done after, and releases it when
 * `onEvent` throws so the retry is processed.
 *
 * @module
 */
import type { CallbackEvent } from './events.js';

/**
 * What {@link DedupeStore.begin} found: `'new'` — the caller now holds the claim and must call
 * `complete` or `abandon`; `'in_progress'` — another delivery of the same event is being
 * processed right now; `'done'` — it was processed already.
 *
 * @example
 * ```ts
 * const state: DedupeState = await store.begin(key, 300_000);
 * ```
 */
export type DedupeState = 'new' | 'in_progress' | 'done';

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
 * const options: MemoryDedupeStoreOptions = { maxEntries: 10_000, ttlMs: 3_600_000 };
 * ```
 */
export interface MemoryDedupeStoreOptions {
  /** At most this many keys are remembered; the least recently touched go first. Default 50,000. */
  readonly maxEntries?: number;
  /** Upper bound on how long a key is remembered, whatever `ttlMs` a call passes. Default 24 h. */
  readonly ttlMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

interface Entry {
  state: 'in_progress' | 'done';
  expiresAt: number;
}

/**
 * A {@link DedupeStore} in this process's memory: bounded by `maxEntries` (least recently
 * touched evicted first) and by TTL (expired keys are dropped as new ones arrive). Right for a
 * single instance; behind a load balancer use a shared store (`hosted-payments/redis`).
 *
 * @example
 * ```ts
 * const handler = createCallbackHandler({
 *   secret,
 *   dedupe: createMemoryDedupeStore({ maxEntries: 100_000 }),
 *   onEvent: async (event) => { await record(event); },
 * });
 * ```
 */
export function createMemoryDedupeStore(options: MemoryDedupeStoreOptions = {}): DedupeStore {
  const maxEntries = Math.max(1, Math.floor(options.maxEntries ?? 50_000));
  const maxTtl = Math.max(1, options.ttlMs ?? 24 * 60 * 60 * 1000);
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: re-inserting on every touch makes the first entry the
  // least recently touched. Evicting from the front with a fresh `entries.keys().next()` each time
  // is O(deleted slots): V8 leaves deleted entries as holes at the front of its OrderedHashMap until
  // it rehashes, and every new iterator walks over them (40–60 µs per delivery once the store is
  // full). One long-lived iterator walks each hole once. Expired entries need no sweep: `begin`
  // ignores them and the bound evicts them.
  const entries = new Map<string, Entry>();
  let oldest: Iterator<string> = entries.keys();

  const evictOldest = (): void => {
    let next = oldest.next();
    if (next.done === true) {
      oldest = entries.keys();
      next = oldest.next();
    }
    if (next.done !== true) entries.delete(next.value);
  };
  const set = (key: string, entry: Entry): void => {
    entries.delete(key);
    entries.set(key, entry);
    while (entries.size > maxEntries) evictOldest();
  };
  const ttl = (ttlMs: number): number => Math.min(Math.max(1, ttlMs), maxTtl);

  return {
    async begin(key, ttlMs) {
      const entry = entries.get(key);
      if (entry !== undefined && entry.expiresAt > now()) return entry.state;
      set(key, { state: 'in_progress', expiresAt: now() + ttl(ttlMs) });
      return 'new';
    },
    async complete(key, ttlMs) {
      set(key, { state: 'done', expiresAt: now() + ttl(ttlMs) });
    },
    async abandon(key) {
      if (entries.get(key)?.state === 'in_progress') entries.delete(key);
    },
  };
}

/**
 * The key under which an event is deduplicated: its type plus the identifiers its payload
 * carries. A retried delivery of one callback has the same key; a success after a failure of the
 * same payment has another (the type differs).
 *
 * | type | key |
 * |---|---|
 * | `payment.card.*` | type, `id`, `transaction id` |
 * | `payment.mobile_money.succeeded` | type, `id`, `transaction id` |
 * | `payment.mobile_money.failed` | type, `id`, `transaction_reference` |
 * | `checkout.*` | type, `order_id` (the payload has no other identifier: two failed attempts on one order count as one) |
 * | `payout.*` | type, `transaction_id`, `reference_id` |
 *
 * @example
 * ```ts
 * const key = callbackDedupeKey(event); // 'payout.succeeded:TX9:100000000001'
 * ```
 */
export function callbackDedupeKey(event: CallbackEvent): string {
  const parts: string[] = [event.type];
  switch (event.type) {
    case 'payment.card.succeeded':
    case 'payment.card.failed':
    case 'payment.mobile_money.succeeded':
      parts.push(event.data.id, event.data['transaction id']);
      break;
    case 'payment.mobile_money.failed':
      parts.push(event.data.id, event.data.transaction_reference);
      break;
    case 'checkout.succeeded':
    case 'checkout.failed':
      parts.push(event.data.order_id);
      break;
    case 'payout.succeeded':
    case 'payout.failed':
      parts.push(event.data.transaction_id, event.data.reference_id);
      break;
    default: {
      const unhandled: never = event;
      throw new TypeError(`unknown event ${String(unhandled)}`);
    }
  }
  // encodeURIComponent keeps the parts apart even when an identifier contains ':'.
  return parts.map(encodeURIComponent).join(':');
}
