/**
 * What the tracker stores and the small interface a store implements. The in-memory store is
 * here; `hosted-payments/redis` has one for several instances; `examples/order-store.ts` backs the
 * interface with SQL.
 *
 * @module
 */
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import { promised } from '../internal/promise.js';
import { TransactionStoreFullError } from './errors.js';
import { wholeNumberOption } from '../internal/whole-number.js';
import { checkPendingQuery } from './options.js';
import { monotonicNow } from '../internal/timers.js';

/**
 * What is being paid or paid out: card payment, mobile-money (STK push) payment, hosted checkout,
 * or payout.
 *
 * @example
 * ```ts
 * const kind: TransactionKind = 'mobile_money';
 * ```
 */
export type TransactionKind = 'card' | 'mobile_money' | 'checkout' | 'payout';

/**
 * Every kind, for exhaustive loops and validation.
 *
 * @example
 * ```ts
 * transactionKinds.includes(input.kind);
 * ```
 */
export const transactionKinds = ['card', 'mobile_money', 'checkout', 'payout'] as const;

/**
 * Where a transaction is: `pending` until its callback settles it as `succeeded` or `failed`
 * (once; but a payment's `failed` is not final: a success of another payment of the reference
 * settles it anew as `succeeded`; a payout's is); `expired` when the merchant gave up waiting or
 * the service refused the initiation (a later genuine callback still settles it, marked `late`; a
 * new initiation under the reference by the client's `transactions` option makes it `pending`
 * again).
 *
 * @example
 * ```ts
 * const done = (state: TransactionState) => state !== 'pending';
 * ```
 */
export type TransactionState = 'pending' | 'succeeded' | 'failed' | 'expired';

/**
 * What settled a transaction, from its callback.
 *
 * @example
 * ```ts
 * const outcome: TransactionOutcome = { eventType: 'payment.mobile_money.succeeded', transactionId: 'QK12', amount: '1500' };
 * ```
 */
export interface TransactionOutcome {
  /** The callback event's `type`, e.g. `'payout.failed'`. */
  readonly eventType?: string | undefined;
  /** The service's transaction id, when the callback carries one. */
  readonly transactionId?: string | undefined;
  /** The amount the callback reported. */
  readonly amount?: string | undefined;
  /** The currency the callback reported, when it carries one. */
  readonly currency?: string | undefined;
  /** The callback's message, e.g. `'Insufficient funds'`. */
  readonly message?: string | undefined;
  /**
   * Which payment of the reference this is, when the webhook handler settled it: a card or
   * mobile-money payment's `id`, a payout's `transaction_id`, and for a checkout (whose callback
   * names none) a digest of its order, payment method, amount and session's signed URL
   * (`callbackDedupeKey`) — for a decline, with `checkout.failed:` before it (the session may
   * still be paid). What tells a redelivery of this payment from another payment of the same
   * reference.
   */
  readonly paymentId?: string | undefined;
}

/**
 * One transaction as the store holds it: plain JSON (times are ms since the epoch), never
 * mutated — every transition writes a new record. `succeeded` and `expired` stay until a callback
 * (expired) or nothing changes them; `failed` does not: another payment of the reference that
 * paid settles it anew as `succeeded`, so a record read as `failed` says what was true then.
 *
 * @example
 * ```ts
 * const record: TransactionRecord = await tracker.waitFor('ORD-1', { timeout: 120_000 });
 * if (record.state === 'succeeded') fulfil(record.reference);
 * // 'failed' may still become 'succeeded' (a second tab may pay): keep the order open
 * else if (record.state === 'failed') notify(record.reference);
 * ```
 */
export interface TransactionRecord {
  /** The merchant's reference (the one signed into the callback URL). */
  readonly reference: string;
  readonly kind: TransactionKind;
  /** Whole units, as the wire carries them: `'1500'`. */
  readonly amount: string;
  /** Upper-case ISO 4217 code, when known. */
  readonly currency?: string | undefined;
  readonly state: TransactionState;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** When it was expired (kept after a late settlement). */
  readonly expiredAt?: number | undefined;
  /** When its callback settled it. */
  readonly settledAt?: number | undefined;
  /** True when the callback settled it after it had been expired. */
  readonly late?: boolean | undefined;
  /** Present once settled. */
  readonly outcome?: TransactionOutcome | undefined;
  /**
   * The other payments of the reference whose failure came after the recorded one's, or after the
   * payment that succeeded, by the ids that tell payments apart, the last 16; and, once another
   * payment settles a failed record as succeeded, the failure it had recorded (one more, so it
   * pushes none out). A success of one of them, on a failed or a succeeded record, is the same
   * payment contradicting itself: refused as `conflicting_outcome`, as the recorded payment's is
   * (a checkout decline is named apart from its session's success, which the hosted page may
   * still bring).
   */
  readonly failedPayments?: readonly Pick<TransactionOutcome, 'transactionId' | 'paymentId'>[] | undefined;
  /**
   * True once more failed payments came than `failedPayments` keeps: a success of a payment not in
   * it may be one forgotten, and is refused as `conflicting_outcome` too (reconcile it by hand).
   */
  readonly failedPaymentsDropped?: boolean | undefined;
}

/**
 * Where the tracker keeps transactions. Four operations, each atomic on its own; the tracker
 * builds exactly-once settlement from `insert` and the compare-and-set `update`. A SQL table
 * implements it with `INSERT … ON CONFLICT DO NOTHING` and `UPDATE … WHERE reference = ? AND
 * state = ?` (see `examples/order-store.ts`).
 *
 * @example
 * ```ts
 * const store: TransactionStore = {
 *   async insert(record) {
 *     const { changes } = await db.run('INSERT INTO tx (reference, kind, state, created_at, record) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
 *       [record.reference, record.kind, record.state, record.createdAt, JSON.stringify(record)]);
 *     return changes === 1 ? record : (await this.get(record.reference))!;
 *   },
 *   async get(reference) {
 *     const row = await db.get('SELECT record FROM tx WHERE reference = ?', [reference]);
 *     return row && JSON.parse(row.record);
 *   },
 *   async update(record, from, previous) {
 *     const before = previous === undefined ? null : JSON.stringify(previous);
 *     const { changes } = await db.run('UPDATE tx SET state = ?, created_at = ?, record = ? WHERE reference = ? AND state = ? AND (? IS NULL OR record = ?)',
 *       [record.state, record.createdAt, JSON.stringify(record), record.reference, from, before, before]);
 *     return changes === 1;
 *   },
 *   async listPending({ kind, createdBefore, limit }) {
 *     const rows = await db.all("SELECT record FROM tx WHERE state = 'pending' AND kind = ? AND created_at < ? ORDER BY created_at LIMIT ?", [kind, createdBefore, limit]);
 *     return rows.map((row: { record: string }) => JSON.parse(row.record));
 *   },
 * };
 * ```
 */
export interface TransactionStore {
  /**
   * Stores `record` (always `pending`) unless its reference is present; resolves with the stored
   * record — `record` itself (the same object) when this call stored it, the existing one
   * otherwise (left unchanged). The client's `transactions` option counts the initiation that
   * recorded a transaction as its owner only when it gets its own object back: a store that
   * answers with a copy makes no initiation the owner, so a refusal then leaves the record pending,
   * and every payout is refused as `payout_already_sent` (nothing sent): return the object given.
   */
  insert(record: TransactionRecord): Promise<TransactionRecord>;
  /** The stored record, or `undefined`. */
  get(reference: string): Promise<TransactionRecord | undefined>;
  /**
   * Atomically replaces the stored record of `record.reference` with `record` if, and only if, its
   * stored state is still `from`; resolves with whether it did. Two concurrent updates from one
   * state never both succeed. An `expired` or `pending` record may become `pending` again, with a
   * new `createdAt` (a new attempt): `listPending` lists it from then on. When `previous` is given
   * (the record `get` answered, or an equal copy of it), only if the stored record is still that
   * one, unchanged: the tracker passes it with every write, each built from the record it read —
   * a failed record's state alone does not show that another payment's failure was written
   * meanwhile, nor a pending or expired one's that another attempt was started meanwhile (compare
   * the stored JSON text with `JSON.stringify(previous)`, which needs the record kept as
   * `JSON.stringify(record)` wrote it, byte for byte; a Postgres `jsonb`
   * column reorders keys, so compare it as jsonb, `record = $n::jsonb`, never as text). The
   * parameter is optional in the types, yet honouring it is required for correctness: a store that
   * ignores it may, of two such writes at the same moment, keep one failure only, apply a
   * payment's success together with its own failure, or expire or settle an attempt just started
   * as the one before it (its createdAt lost). It answers `true` or `false`: any other answer (a
   * driver's `'QUEUED'`, a row count passed on) is a store error, never taken for a write.
   */
  update(record: TransactionRecord, from: TransactionState, previous?: TransactionRecord): Promise<boolean>;
  /**
   * Pending records of `kind` created before `createdBefore` (ms since the epoch), oldest first, at
   * most `limit` (a whole number from 1; the stores here refuse anything else with a `TypeError`).
   */
  listPending(query: {
    readonly kind: TransactionKind;
    readonly createdBefore: number;
    readonly limit: number;
  }): Promise<TransactionRecord[]>;
  /**
   * Optional: calls `listener` with every record an `update` writes from now on for `reference`,
   * in any process sharing the store (the Redis store uses pub/sub). Resolves, once listening, with
   * the function that stops it. A call only wakes `waitFor`, which then reads the record with
   * `get` (a channel may carry another store's record of a reference of the same name). Without
   * it, `waitFor` in another process notices by polling.
   */
  watch?(reference: string, listener: (record: TransactionRecord) => void): Promise<() => void>;
}

/**
 * Options of {@link createMemoryTransactionStore}.
 *
 * @example
 * ```ts
 * const options: MemoryTransactionStoreOptions = { maxEntries: 200_000, finishedTtlMs: 3_600_000 };
 * ```
 */
export interface MemoryTransactionStoreOptions {
  /** At most this many records. Default 100,000. Each number option is a whole number from 1 (else a `TypeError` naming it). */
  readonly maxEntries?: number | undefined;
  /** At most about this many bytes of records (UTF-16 string sizes plus a fixed overhead each). Default 64 MiB. */
  readonly maxBytes?: number | undefined;
  /**
   * How long a payment's settled or expired record is kept, ms; earlier when room is needed
   * (oldest first, never the record being written). Pending records and payout records (in any
   * state: a payout's `reference_id` is refused as long as its record is kept) are never dropped.
   * Default 24 h.
   */
  readonly finishedTtlMs?: number | undefined;
  /** Clock of its TTLs, for tests. Default: the monotonic clock (`performance.now()`). */
  readonly now?: (() => number) | undefined;
}

/**
 * The in-memory store, with its size for monitoring.
 *
 * @example
 * ```ts
 * const store: MemoryTransactionStore = createMemoryTransactionStore();
 * const { entries, pending, payouts, bytes } = store.stats();
 * console.log(`transaction store: ${entries} records (${pending} pending, ${payouts} payouts), ${bytes} bytes`);
 * ```
 */
export interface MemoryTransactionStore extends TransactionStore {
  /**
   * What it holds: `entries` records, `pending` of them pending, `payouts` of them payout records
   * (in any state; a pending payout counts in both), and their estimated size in `bytes`. Pending
   * and payout records are never dropped: when they fill `maxEntries` or `maxBytes`, writes are
   * refused with `TransactionStoreFullError`.
   */
  stats(): {
    readonly entries: number;
    readonly pending: number;
    readonly payouts: number;
    readonly bytes: number;
  };
}

// A record's footprint: its strings at two bytes a character plus the object, Map entries and
// numbers around them. An estimate that only has to grow with what is stored.
const RECORD_OVERHEAD = 320;
const FAILED_PAYMENT_OVERHEAD = 64;
const recordBytes = (record: TransactionRecord): number => {
  let chars = record.reference.length * 2 + record.amount.length + (record.currency?.length ?? 0);
  const o = record.outcome;
  if (o !== undefined) {
    chars += (o.eventType?.length ?? 0) + (o.transactionId?.length ?? 0);
    chars += (o.amount?.length ?? 0) + (o.currency?.length ?? 0) + (o.message?.length ?? 0);
  }
  const failed = record.failedPayments ?? [];
  for (const payment of failed)
    chars += (payment.transactionId?.length ?? 0) + (payment.paymentId?.length ?? 0);
  return RECORD_OVERHEAD + failed.length * FAILED_PAYMENT_OVERHEAD + chars * 2;
};

interface Slot {
  record: TransactionRecord;
  bytes: number;
}

/** A finished payment record's place in the drop queue. */
interface Drop {
  readonly reference: string;
  readonly dropAt: number;
}

/**
 * Whether a finished record may be dropped: a payment's. A payout's is kept whatever its state,
 * and so is a record of a kind this store does not know.
 */
const droppable = (record: TransactionRecord): boolean =>
  record.kind === 'card' || record.kind === 'mobile_money' || record.kind === 'checkout';

/** The options {@link createMemoryTransactionStore} knows; any other key is refused. */
const MEMORY_STORE_OPTIONS: OptionNames<MemoryTransactionStoreOptions> = {
  maxEntries: true,
  maxBytes: true,
  finishedTtlMs: true,
  now: true,
};

/**
 * A {@link TransactionStore} in this process's memory, the tracker's default. Bounded by entries
 * and by bytes: a payment's settled and expired records age out after `finishedTtlMs`, or earlier
 * (oldest first) when room is needed, never the record being written; pending records and payout
 * records, whatever their state, are never dropped (a payout's `reference_id` names one transfer,
 * and the client refuses to send one recorded only while its record is kept). When nothing else
 * can make room, the write is refused with {@link TransactionStoreFullError} and nothing changes:
 * `insert` (`begin`), and `update` for a settlement, whose record is larger than the pending one
 * (the transaction stays pending; the callback's retry settles it once there is room). It keeps
 * a copy of each record it is given and hands out a copy of what it holds, as a database does: a
 * caller that changes a record it got (from `get`, `listPending`, the tracker's `begin`, `settle`,
 * `waitFor`) changes its own object only. Right for one process; behind a load balancer use a
 * shared store (`hosted-payments/redis`).
 *
 * @example
 * ```ts
 * const tracker = createTransactionTracker({ store: createMemoryTransactionStore({ maxEntries: 20_000 }) });
 * ```
 */
export function createMemoryTransactionStore(
  options: MemoryTransactionStoreOptions = {},
): MemoryTransactionStore {
  refuseUnknownOptions('createMemoryTransactionStore', options, MEMORY_STORE_OPTIONS);
  const where = 'createMemoryTransactionStore';
  const maxEntries = wholeNumberOption(where, 'maxEntries', options.maxEntries, 100_000);
  const maxBytes = wholeNumberOption(where, 'maxBytes', options.maxBytes, 64 * 1024 * 1024);
  const finishedTtlMs = wholeNumberOption(where, 'finishedTtlMs', options.finishedTtlMs, 24 * 60 * 60 * 1000);
  const now = options.now ?? monotonicNow;
  const slots = new Map<string, Slot>();
  // Settled and expired payment references in the order they finished, each with its drop time:
  // the front is the first to go. Payout records never enter it: they are kept, as pending ones
  // are. `finished` holds the current entry of each; an entry that is no longer current (the
  // record was settled after it expired, or made pending again) is passed over. A plain array
  // with a moving head: deleting from the front of a Map leaves holes every new iterator walks.
  const finished = new Map<string, Drop>();
  let queue: Drop[] = [];
  let head = 0;
  let bytes = 0;
  // The bytes of the records in `finished` (payment records only): what dropping every one of them
  // would free.
  let finishedBytes = 0;
  let pending = 0;
  let payouts = 0;

  const front = (): Drop | undefined => {
    while (head < queue.length) {
      const entry = queue[head]!;
      if (finished.get(entry.reference) === entry) return entry;
      head++;
    }
    return undefined;
  };
  const drop = (entry: Drop): void => {
    head++;
    finished.delete(entry.reference);
    const slot = slots.get(entry.reference);
    if (slot !== undefined) {
      slots.delete(entry.reference);
      bytes -= slot.bytes;
      finishedBytes -= slot.bytes;
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  };
  // Every call drops what has aged out first: a record past its finishedTtlMs is gone for all of
  // them, as a Redis key is once its TTL ends.
  const dropAged = (): void => {
    const cutoff = now();
    for (let entry = front(); entry !== undefined && entry.dropAt <= cutoff; entry = front()) drop(entry);
  };
  const makeRoom = (reference: string, extraBytes: number): void => {
    while (slots.size >= maxEntries || bytes + extraBytes > maxBytes) {
      const entry = front();
      if (entry === undefined) {
        if (slots.size >= maxEntries)
          throw new TransactionStoreFullError('maxEntries', maxEntries, reference);
        throw new TransactionStoreFullError('maxBytes', maxBytes, reference);
      }
      drop(entry);
    }
  };

  return {
    insert: (record) =>
      promised(() => {
        dropAged();
        const existing = slots.get(record.reference);
        if (existing !== undefined) return structuredClone(existing.record);
        const size = recordBytes(record);
        makeRoom(record.reference, size);
        slots.set(record.reference, { record: structuredClone(record), bytes: size });
        bytes += size;
        if (record.state === 'pending') pending++;
        if (record.kind === 'payout') payouts++;
        return record;
      }),
    get: (reference) =>
      promised(() => {
        dropAged();
        const slot = slots.get(reference);
        return slot === undefined ? undefined : structuredClone(slot.record);
      }),
    update: (record, from, previous) =>
      promised(() => {
        dropAged();
        const { reference } = record;
        const slot = slots.get(reference);
        if (slot === undefined || slot.record.state !== from) return false;
        // `previous` is a copy (every read hands one out), compared as the JSON text, as the other
        // stores compare it. Another write replaced it.
        if (previous !== undefined && JSON.stringify(slot.record) !== JSON.stringify(previous)) {
          return false;
        }
        const size = recordBytes(record);
        const wasFinished = finished.has(reference);
        // A settled record is larger than the pending one it replaces. The room comes from other
        // finished payment records (`finishedBytes`, which holds no payout record), never from
        // this one: without enough of them, nothing is written.
        const others = finishedBytes - (wasFinished ? slot.bytes : 0);
        if (bytes - slot.bytes + size - others > maxBytes) {
          throw new TransactionStoreFullError('maxBytes', maxBytes, reference);
        }
        bytes += size - slot.bytes;
        if (wasFinished) finishedBytes -= slot.bytes;
        if (from === 'pending') pending--;
        if (record.state === 'pending') pending++;
        if (slot.record.kind === 'payout') payouts--;
        if (record.kind === 'payout') payouts++;
        slots.set(reference, { record: structuredClone(record), bytes: size });
        finished.delete(reference);
        if (record.state !== 'pending' && droppable(record)) {
          // Never earlier than the last entry, so the queue stays in drop order with any clock.
          const entry = {
            reference,
            dropAt: Math.max(now() + finishedTtlMs, queue.at(-1)?.dropAt ?? -Infinity),
          };
          finished.set(reference, entry);
          queue.push(entry);
          finishedBytes += size;
        }
        for (
          let entry = front();
          bytes > maxBytes && entry !== undefined && entry.reference !== reference;
          entry = front()
        ) {
          drop(entry);
        }
        return true;
      }),
    listPending: ({ kind, createdBefore, limit }) =>
      promised(() => {
        checkPendingQuery('listPending', { createdBefore, limit });
        const out: TransactionRecord[] = [];
        for (const { record } of slots.values()) {
          if (record.state === 'pending' && record.kind === kind && record.createdAt < createdBefore) {
            out.push(record);
          }
        }
        return out
          .sort((a, b) => a.createdAt - b.createdAt)
          .slice(0, limit)
          .map((record) => structuredClone(record));
      }),
    stats: () => ({ entries: slots.size, pending, payouts, bytes }),
  };
}
