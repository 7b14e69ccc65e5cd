// hosted-payments/redis — a Redis-backed DedupeStore, so several webhook instances behind one URL
// still process every callback exactly once. ioredis is an optional peer dependency: this module
// never imports it at runtime; the merchant passes a client it created (Redis or Cluster).
import { MAX_TTL, type DedupeState, type DedupeStore } from '../callbacks/dedupe.js';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import { randomHex } from '../internal/random.js';
import { wholeNumberOption } from '../internal/whole-number.js';
import { commandTimeoutOption, replyWithin } from './deadline.js';
import { bit, prefixOption, scriptClient } from './options.js';
import { monotonicNow } from '../internal/timers.js';

export type { DedupeState, DedupeStore };

/**
 * The part of an ioredis client (`Redis` or `Cluster`, ioredis ≥ 5) the store uses: `EVAL`.
 * Any client with this method works, e.g. a wrapper around node-redis.
 *
 * @example
 * ```ts
 * const client: RedisScriptClient = redis; // an ioredis Redis or Cluster fits as is
 *
 * // node-redis v4: adapt its eval
 * const wrapped: RedisScriptClient = {
 *   eval: (script, numkeys, ...args) =>
 *     nodeRedis.eval(script, { keys: args.slice(0, numkeys).map(String), arguments: args.slice(numkeys).map(String) }),
 * };
 * ```
 */
export interface RedisScriptClient {
  eval(script: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
}

/**
 * Options of {@link createRedisDedupeStore}.
 *
 * @example
 * ```ts
 * const options: RedisDedupeStoreOptions = { client: redis, prefix: 'shop-a:dedupe:', completeRetryMs: 5_000 };
 * ```
 */
export interface RedisDedupeStoreOptions {
  /**
   * An ioredis `Redis` or `Cluster` instance (or anything with an `eval` method; anything else is
   * a `TypeError` at creation). The store never closes it.
   */
  readonly client: RedisScriptClient;
  /**
   * Prefix of every key the store writes, so several applications can share one database.
   * Default `'hosted-payments:dedupe:'`; anything but a string is a `TypeError` at creation.
   */
  readonly prefix?: string | undefined;
  /**
   * How long `complete` keeps retrying while Redis is unreachable, in ms (backoff 50 ms doubling
   * to 1 s). The event has been processed by then; if "done" were never recorded, the claim
   * would expire and a redelivery would be processed again. `complete` takes up to
   * `completeRetryMs` + `commandTimeoutMs` (its last try starts by `completeRetryMs`): keep the
   * handler's `processingTimeoutMs` above your slowest `onEvent` plus that sum (7 s with the
   * defaults), so the claim outlives the processing. Default 5000; 0 tries once. A whole number from 0; another number
   * (`NaN`, `Infinity`, `-5`, `2.5`) is a `RangeError`, anything else (`'5000'`) a `TypeError`, at
   * creation.
   */
  readonly completeRetryMs?: number | undefined;
  /**
   * How long the store waits for one reply from Redis, in ms, whatever the client's own settings.
   * Past it the call rejects (the handler answers 500, so the sender retries) rather than hold the
   * webhook request while Redis hangs, or while an ioredis client with `maxRetriesPerRequest:
   * null` queues commands until Redis is back. The command is not withdrawn: it runs if Redis
   * answers after all, and with `maxRetriesPerRequest: null` and Redis down it stays queued in
   * ioredis and runs when Redis is back. A claim written that way is taken over by the next
   * `begin` of its key on this instance. No `commandTimeout` is needed on the client. Default
   * 2000. A whole number from 1 to 2147483647; another number is a `RangeError`, anything else a
   * `TypeError`, at creation.
   */
  readonly commandTimeoutMs?: number | undefined;
  /**
   * How long a claim lasts unless the instance that made it renews it, in ms. While `onEvent`
   * runs, the store renews its claim every third of this, up to the `ttlMs` of its `begin` (the
   * handler's `processingTimeoutMs`); an instance that dies meanwhile (a deploy, the OOM killer)
   * stops renewing, and its claim lapses within `leaseMs`, so another instance processes the
   * sender's next retry (answered 503 `in_progress` until then). Keep it well inside the sender's
   * retry window: a Redis that loses renewals for more than about two thirds of it, or a process
   * whose event loop is blocked that long (a long GC pause, synchronous work, a paused VM), lets
   * the claim lapse while `onEvent` runs, and a redelivery runs it again. Default 10000, or twice
   * `commandTimeoutMs` when that is longer. A whole number from twice `commandTimeoutMs` to
   * 2147483647; another number is a `RangeError`, anything else a `TypeError`, at creation.
   */
  readonly leaseMs?: number | undefined;
}

/** The options {@link createRedisDedupeStore} knows; any other key is refused. */
const DEDUPE_STORE_OPTIONS: OptionNames<RedisDedupeStoreOptions> = {
  client: true,
  prefix: true,
  completeRetryMs: true,
  commandTimeoutMs: true,
  leaseMs: true,
};

/**
 * A Redis-backed {@link DedupeStore}, with the same contract as the SDK's in-memory one:
 *
 * - `begin(key, ttlMs)` atomically claims the key (`SET … NX PX`): `'new'` means this caller
 *   must process the event, `'in_progress'` that another caller holds it (the handler answers 5xx
 *   so the sender retries), `'done'` that it was processed already (2xx, nothing else happens).
 *   The claim is a lease of `leaseMs` that this instance renews until `ttlMs` has passed, or until
 *   `complete` or `abandon`: an instance that dies frees the event within `leaseMs`.
 * - `complete(key, ttlMs)` marks it processed for `ttlMs`.
 * - `abandon(key)` releases the claim after a failure so the sender's retry gets through. It only
 *   deletes a claim this store instance still holds: if the claim expired and another instance
 *   took it over, that instance's claim is left alone.
 * - A value under its key that it did not write (another application using the prefix) makes
 *   `begin` reject naming the key, so the handler answers 500 `handler_failed` rather than
 *   guess `'in_progress'` or `'done'`.
 * - It keeps a key at most `Number.MAX_SAFE_INTEGER` ms (what Redis's `PX` takes): a longer
 *   `ttlMs` is a `RangeError`, and `createCallbackHandler` refuses a longer `dedupeTtlMs` or
 *   `processingTimeoutMs` with this store at creation (a `TypeError`).
 * - It never answers `'full'`: Redis holds as many claims as its memory allows. Keep Redis's
 *   `maxmemory-policy` at `noeviction`, so a record is never dropped before its TTL (a dropped
 *   "done" lets a replay through). The handler's keys are short and fixed-length
 *   (`callbackDedupeKey`: the type and a SHA-256), so a record costs about the same whatever the
 *   payload carried.
 * - A `begin` whose reply a dropped connection lost, and that the client sends again once
 *   reconnected (ioredis does by default) within `commandTimeoutMs`, finds its own claim: `'new'`,
 *   as its first run answered.
 * - When `begin` fails without a reply (timeout, dropped connection) its claim may have been
 *   written anyway, and when `abandon` fails its claim may still be there; the next `begin` of the
 *   same key on this instance takes such a claim over. Nobody renews it: on another instance it
 *   blocks redeliveries (`'in_progress'`) until its lease runs out.
 *
 * @example
 * ```ts
 * const store: RedisDedupeStore = createRedisDedupeStore({ client: redis });
 * const key = callbackDedupeKey(event, reference, new URL(request.url).searchParams.get('hp_sig') ?? undefined);
 * if ((await store.begin(key, 300_000)) === 'new') {
 *   await settle();
 *   await store.complete(key, 86_400_000);
 * }
 * ```
 */
export type RedisDedupeStore = DedupeStore;

// One round trip, atomic on the server. The claim's value is 'processing:<token>' so abandon can
// tell its own claim from another instance's. After a begin whose reply was lost (a timeout, a
// dropped connection), the next begin of that key on this instance presents the claim values it
// may have left (ARGV[3]…): one written after all has nobody processing under it, so it is taken
// over rather than left to block every redelivery until it expires. So is a claim whose abandon
// failed. A takeover writes the new value (ARGV[1]): an abandon of the old one that Redis runs
// late then finds nothing of its own to delete. The claim value is new for each call, so a key
// holding it was written by this very script run before: the same command sent again after its
// reply was lost (ioredis resends a command a dropped connection left unanswered), 'new' again.
// Its claims always expire: a 'processing:' value that never does is another program's.
const beginScript = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 'new' end
local value = redis.call('GET', KEYS[1])
if value == ARGV[1] then return 'new' end
if value == 'done' then return 'done' end
for i = 3, #ARGV do
  if value == ARGV[i] then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    return 'new'
  end
end
if string.sub(value, 1, 11) == 'processing:' and redis.call('PTTL', KEYS[1]) >= 0 then return 'in_progress' end
return 'foreign'
`;

const completeScript = `
redis.call('SET', KEYS[1], 'done', 'PX', ARGV[1])
return 1
`;

const abandonScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

// Extends a claim by its own value only: one completed, released, lapsed or taken over is left alone.
const renewScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

// The longest TTL written: Redis refuses a PX past its clock's range (about 9.2e18 ms), and a
// number from 1e21 up would be sent as '1e+21'. Declared under MAX_TTL, so the handler refuses a
// longer dedupeTtlMs at creation rather than fail every complete() behind a 200.
const LONGEST_TTL_MS = Number.MAX_SAFE_INTEGER;

const toTtl = (ttlMs: number, name: string): number => {
  if (!Number.isFinite(ttlMs) || ttlMs < 1 || ttlMs > LONGEST_TTL_MS) {
    throw new RangeError(
      `${name}: ttlMs must be a positive number of milliseconds up to ${LONGEST_TTL_MS}, got ${String(ttlMs)}`,
    );
  }
  return Math.ceil(ttlMs);
};

const newToken = (): string => randomHex();

/**
 * Creates a {@link RedisDedupeStore} for `createCallbackHandler({ dedupe })`.
 *
 * A Redis that hangs or is away turns into a 5xx the sender retries within `commandTimeoutMs`
 * (default 2 s) per call, whatever the client's own `commandTimeout` and `maxRetriesPerRequest`.
 * Run Redis with persistence (AOF, `appendfsync everysec` or `always`) or replication, because a
 * Redis that restarts empty forgets which events were done and lets a redelivery through once more.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createCallbackHandler } from 'hosted-payments/callbacks';
 * import { createRedisDedupeStore } from 'hosted-payments/redis';
 *
 * const redis = new Redis(process.env.REDIS_URL!);
 * const handler = createCallbackHandler({
 *   secret: process.env.WEBHOOK_SECRET!,
 *   dedupe: createRedisDedupeStore({ client: redis }),
 *   onEvent: async (event, { reference }) => { if (event.paid) await markPaid(reference, event.amount); },
 * });
 * ```
 */
export function createRedisDedupeStore(options: RedisDedupeStoreOptions): RedisDedupeStore {
  const name = 'createRedisDedupeStore';
  refuseUnknownOptions(name, options, DEDUPE_STORE_OPTIONS);
  // Checked here, not on the first delivery: a client without eval would answer 500 to every
  // callback, and a completeRetryMs of Infinity would make complete() retry for ever.
  const client = scriptClient(name, options?.client);
  const prefix = prefixOption(name, options.prefix, 'hosted-payments:dedupe:');
  const completeRetryMs = wholeNumberOption(name, 'completeRetryMs', options.completeRetryMs, 5_000, {
    min: 0,
  });
  const commandTimeoutMs = commandTimeoutOption(name, options.commandTimeoutMs);
  const defaultLeaseMs = Math.max(10_000, 2 * commandTimeoutMs);
  const leaseMs = wholeNumberOption(name, 'leaseMs', options.leaseMs, defaultLeaseMs, { max: 2_147_483_647 });
  // A shorter lease can lapse while a renewal still waits for its reply, and one of a few ms lapses
  // between renewals on a healthy Redis: every redelivery would run onEvent beside the first.
  if (leaseMs < 2 * commandTimeoutMs) {
    throw new RangeError(
      `${name}: leaseMs must be at least twice commandTimeoutMs (${commandTimeoutMs}), got ${leaseMs}`,
    );
  }
  // Claims this instance holds, key → value written; bounded by the number of events in flight.
  const claims = new Map<string, string>();
  // Claim values whose begin failed without an answer (they may or may not have been written), or
  // whose abandon failed (they may still be there); nobody is processing under them.
  const orphans = new Map<string, readonly string[]>();
  const maxOrphans = 10_000;
  /** How many claim values of one key are kept: a begin that keeps failing adds one each time. */
  const maxOrphanValues = 4;
  const run = (script: string, key: string, ...args: (string | number)[]): Promise<unknown> =>
    replyWithin(client.eval(script, 1, prefix + key, ...args), commandTimeoutMs, 'Redis dedupe store');
  const orphan = (key: string, values: readonly string[]): void => {
    const kept = [...(orphans.get(key) ?? []), ...values];
    orphans.delete(key);
    orphans.set(key, kept.slice(-maxOrphanValues));
    if (orphans.size > maxOrphans) orphans.delete(orphans.keys().next().value as string);
  };

  /**
   * Renews this instance's claim of `key` every third of a lease, until `end` (the monotonic time
   * its begin's `ttlMs` runs out) or until the claim is no longer its own: completed or released
   * here, or found lapsed or taken over in Redis. A renewal that fails is tried again at the next
   * third; the timer does not keep the process alive.
   */
  const renew = (key: string, claim: string, end: number): void => {
    const timer = setTimeout(() => {
      const left = Math.ceil(end - monotonicNow());
      if (claims.get(key) !== claim || left < 1) return;
      run(renewScript, key, claim, Math.min(leaseMs, left)).then(
        (reply) => bit(reply) === 1 && renew(key, claim, end),
        () => renew(key, claim, end),
      );
    }, leaseMs / 3);
    (timer as { unref?: () => void }).unref?.();
  };

  const store: RedisDedupeStore = {
    async begin(key, ttlMs): Promise<DedupeState> {
      const ttl = toTtl(ttlMs, 'begin');
      // Taken out at once, so two concurrent begins here never both present the old claims.
      const orphaned = orphans.get(key) ?? [];
      orphans.delete(key);
      const claim = `processing:${newToken()}`;
      let result: unknown;
      try {
        result = await run(beginScript, key, claim, Math.min(ttl, leaseMs), ...orphaned);
      } catch (error) {
        // The SET may have been applied even though no reply came back: the key may hold the new
        // value or still an old one. Both are kept.
        orphan(key, [...orphaned, claim]);
        throw error;
      }
      if (result === 'new') {
        claims.set(key, claim);
        if (ttl > leaseMs) renew(key, claim, monotonicNow() + ttl);
        return 'new';
      }
      if (result === 'done') return 'done';
      if (result === 'in_progress') return 'in_progress';
      // Not a claim or a record of this store's (another application under the same prefix, a
      // hand-made store's leftover): neither 'done' nor 'in_progress' can be told, so refused.
      if (result === 'foreign') {
        throw new Error(
          `Redis dedupe store: ${prefix + key} holds a value this store did not write (is another application using the prefix '${prefix}'?)`,
        );
      }
      throw new Error(`Redis dedupe store: unexpected reply to begin: ${String(result)}`);
    },

    async complete(key, ttlMs) {
      const ttl = toTtl(ttlMs, 'complete');
      const deadline = monotonicNow() + completeRetryMs;
      try {
        for (let delay = 50; ; delay = Math.min(delay * 2, 1_000)) {
          try {
            const reply = bit(await run(completeScript, key, ttl));
            if (reply !== 1)
              throw new Error(`Redis dedupe store: unexpected reply to complete: ${String(reply)}`);
            return;
          } catch (error) {
            if (monotonicNow() + delay > deadline) throw error;
            await new Promise((resolve) => setTimeout(resolve, delay));
          }
        }
      } finally {
        claims.delete(key);
      }
    },

    async abandon(key) {
      const claim = claims.get(key);
      claims.delete(key);
      if (claim === undefined) return;
      try {
        // 1: released; 0: nothing of its own left (expired, or taken over by another instance).
        const reply = bit(await run(abandonScript, key, claim));
        if (reply !== 0 && reply !== 1) {
          throw new Error(`Redis dedupe store: unexpected reply to abandon: ${String(reply)}`);
        }
      } catch (error) {
        // The claim may still be there, and nobody is processing under it: the next begin of the
        // key on this instance takes it over rather than answer 'in_progress' until it expires.
        orphan(key, [claim]);
        throw error;
      }
    },
  };
  return Object.assign(store, { [MAX_TTL]: LONGEST_TTL_MS });
}

export { createRedisTransactionStore } from './transactions.js';
export type {
  RedisTransactionStore,
  RedisTransactionStoreOptions,
  RedisSubscriberClient,
} from './transactions.js';
