// The pending-transaction store on Redis: every transition is one Lua script (compare-and-set on
// the record's state, the pending index and the notification in one atomic step), and waitFor in
// any process hears settlements over pub/sub. ioredis is never imported here: the merchant passes
// the client.
import type { TransactionKind, TransactionRecord, TransactionStore } from '../transactions/store.js';
import type { RedisScriptClient } from './index.js';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import { randomHex } from '../internal/random.js';
import { kindOf, wholeNumberOption } from '../internal/whole-number.js';
import { checkPendingQuery } from '../transactions/options.js';
import { commandTimeoutOption, replyWithin } from './deadline.js';
import { bit, prefixOption, scriptClient } from './options.js';

/**
 * The part of an ioredis connection in subscriber mode the store uses. ioredis's `Redis` fits.
 *
 * @example
 * ```ts
 * const subscriber: RedisSubscriberClient = redis.duplicate();
 * ```
 */
export interface RedisSubscriberClient {
  subscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  quit?(): Promise<unknown>;
}

/**
 * Options of {@link createRedisTransactionStore}.
 *
 * @example
 * ```ts
 * const options: RedisTransactionStoreOptions = { client: redis, prefix: 'shop-a:tx:' };
 * ```
 */
export interface RedisTransactionStoreOptions {
  /**
   * An ioredis `Redis` or `Cluster` instance (or anything with an `eval` method; anything else is a
   * `TypeError` at creation). The store never closes it.
   */
  readonly client: RedisScriptClient & {
    duplicate?(options?: { readonly autoResubscribe?: boolean }): RedisSubscriberClient;
  };
  /**
   * The connection that listens for settlements (pub/sub needs a connection of its own).
   * Default: `client.duplicate({ autoResubscribe: false })`, made on the first `waitFor`, which
   * the store resubscribes itself after each reconnection, and closed by `close()`. One you pass
   * in is subscribed once; with ioredis, its `autoResubscribe` renews that after a reconnection.
   */
  readonly subscriber?: RedisSubscriberClient | undefined;
  /**
   * Prefix of every key and of the channel. Default `'hosted-payments:tx:'`; anything but a string
   * is a `TypeError` at creation.
   */
  readonly prefix?: string | undefined;
  /**
   * How long a payment's settled or expired record is kept, ms (a key TTL); a redelivery after
   * that finds no record. Pending records and payout records (in any state: a payout's
   * `reference_id` is refused as long as its record is kept) never expire. Default 7 days. A whole
   * number from 1, else a `TypeError` naming it.
   */
  readonly finishedTtlMs?: number | undefined;
  /**
   * How long the store waits for one reply from Redis, in ms, whatever the client's own settings.
   * Past it the call rejects rather than hold the webhook route, a tracked initiation (a
   * `TransactionStoreError`, `sent: false`) or a `waitFor` read while Redis hangs, or while an
   * ioredis client with `maxRetriesPerRequest: null` queues commands until Redis is back. The
   * command is not withdrawn: it runs if Redis answers after all, and with `maxRetriesPerRequest:
   * null` and Redis down it stays queued in ioredis and runs when Redis is back. A settlement
   * written that way is found by the sender's retry (`settlement: 'duplicate'`); an expiry written
   * that way answers every later `expireIfPending` `'already_expired'`, so a cron tries again a
   * transaction whose expiry rejected and cancels on `record.state`. No `commandTimeout` is needed
   * on the client. Default 2000. A whole number from 1 to 2147483647;
   * another number is a `RangeError`, anything else a `TypeError`, at creation.
   */
  readonly commandTimeoutMs?: number | undefined;
}

/**
 * A {@link TransactionStore} on Redis, with `close()` for the subscriber connection it made.
 *
 * @example
 * ```ts
 * const store: RedisTransactionStore = createRedisTransactionStore({ client: redis });
 * await store.close();
 * ```
 */
export interface RedisTransactionStore extends TransactionStore {
  /** Closes the subscriber connection the store created (not one passed in, not `client`). */
  close(): Promise<void>;
}

// Every check comes before the first write: Redis does not roll a script back, so one that failed
// half-way would leave a record written but not indexed, or settled without its TTL and PUBLISH.
// A score must be a finite number (Redis takes 'inf' as one, and the record would never be
// listed as stale); the pending index must be a sorted set (or absent), not another program's key
// under the same prefix.
const checks = `
local function finite(text)
  local n = tonumber(text)
  return n ~= nil and n == n and n ~= math.huge and n ~= -math.huge
end
local function indexable(key)
  local kind = redis.call('TYPE', key)['ok']
  return kind == 'none' or kind == 'zset'
end
`;

// Each write also stores the call's own random token (field 'write'): a record holding it was
// written by this very command, run before and sent again after its reply was lost (ioredis
// resends a command a dropped connection left unanswered), which answers as its first run did.

// KEYS: record hash, pending index of its kind. ARGV: record JSON, reference, createdAt, the
// call's token. Returns the existing record's JSON, or 1 when it stored this one.
const insertScript = `${checks}
if not finite(ARGV[3]) then return redis.error_reply('createdAt: expected a finite number of ms, got ' .. ARGV[3]) end
if not indexable(KEYS[2]) then return redis.error_reply(KEYS[2] .. ': not a sorted set') end
local existing = redis.call('HGET', KEYS[1], 'record')
if existing then
  if redis.call('HGET', KEYS[1], 'write') == ARGV[4] then return 1 end
  return existing
end
redis.call('HSET', KEYS[1], 'state', 'pending', 'record', ARGV[1], 'write', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
return 1
`;

// KEYS: record hash, pending index of its kind. ARGV: record JSON, from, next state, reference,
// TTL ms for a finished payment record, channel, createdAt, the JSON of the record the write
// replaces ('' for any record in state `from`), the record's kind, the call's token. A record
// made pending again (an expired one re-initiated) goes back into the pending index at its new
// createdAt. A finished payment record expires after the TTL; a payout record never expires,
// whatever its state (its reference_id names one transfer, and is refused only while its record
// is kept). A kind the script does not know is refused, nothing written.
const updateScript = `${checks}
if redis.call('HGET', KEYS[1], 'write') == ARGV[10] then return 1 end
if redis.call('HGET', KEYS[1], 'state') ~= ARGV[2] then return 0 end
if ARGV[8] ~= '' and redis.call('HGET', KEYS[1], 'record') ~= ARGV[8] then return 0 end
local payment = ARGV[9] == 'card' or ARGV[9] == 'mobile_money' or ARGV[9] == 'checkout'
if not payment and ARGV[9] ~= 'payout' then
  return redis.error_reply('kind: expected card, mobile_money, checkout or payout, got ' .. tostring(ARGV[9]))
end
if ARGV[3] == 'pending' then
  if not finite(ARGV[7]) then return redis.error_reply('createdAt: expected a finite number of ms, got ' .. ARGV[7]) end
else
  local ttl = tonumber(ARGV[5])
  if ttl == nil or ttl < 1 or ttl ~= math.floor(ttl) or ttl > 9007199254740991 then
    return redis.error_reply('finishedTtlMs: expected a whole number of ms from 1, got ' .. ARGV[5])
  end
end
if not indexable(KEYS[2]) then return redis.error_reply(KEYS[2] .. ': not a sorted set') end
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'record', ARGV[1], 'write', ARGV[10])
if ARGV[3] == 'pending' then
  redis.call('PERSIST', KEYS[1])
  redis.call('ZADD', KEYS[2], ARGV[7], ARGV[4])
else
  redis.call('ZREM', KEYS[2], ARGV[4])
  if payment then
    redis.call('PEXPIRE', KEYS[1], ARGV[5])
  else
    redis.call('PERSIST', KEYS[1])
  end
end
redis.call('PUBLISH', ARGV[6], ARGV[1])
return 1
`;

const getScript = `return redis.call('HGET', KEYS[1], 'record')`;

// KEYS: pending index, the record keys' common start (passed as a key so that a client's own
// keyPrefix is put before it, as before every other key). ARGV: created-before (exclusive), limit.
// Index entries whose record is gone are removed on the way.
const listPendingScript = `
local refs = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'LIMIT', 0, ARGV[2])
local out = {}
for _, ref in ipairs(refs) do
  local record = redis.call('HGET', KEYS[2] .. ref, 'record')
  if record then table.insert(out, record) else redis.call('ZREM', KEYS[1], ref) end
end
return out
`;

/** The options {@link createRedisTransactionStore} knows; any other key is refused. */
const TRANSACTION_STORE_OPTIONS: OptionNames<RedisTransactionStoreOptions> = {
  client: true,
  subscriber: true,
  prefix: true,
  finishedTtlMs: true,
  commandTimeoutMs: true,
};

/** A stored record's JSON text, read; `what` names it in the error for text that is not JSON. */
const parse = (text: unknown, what = 'a record'): TransactionRecord => {
  let record: unknown;
  try {
    record = typeof text === 'string' ? JSON.parse(text) : undefined;
  } catch (error) {
    throw new Error(
      `Redis transaction store: ${what} is not JSON (is another application using the prefix?)`,
      { cause: error },
    );
  }
  if (typeof record !== 'object' || record === null)
    throw new Error('Redis transaction store: unexpected reply');
  return record as TransactionRecord;
};

/**
 * Creates a {@link RedisTransactionStore} for `createTransactionTracker({ store })`: several
 * webhook instances and the processes that wait share it. Each transition is one Lua script
 * (compare-and-set on the stored state), so a transaction settles once however many instances
 * receive its callback at the same moment; the script also publishes the new record, and the
 * store's subscriber wakes `waitFor` wherever it waits (the tracker also re-reads the store
 * periodically, so a message lost while Redis restarts delays a wake-up, never loses it).
 *
 * Keys: `<prefix>r:<reference>` (a hash; a payment's settled and expired ones expire after
 * `finishedTtlMs`, pending ones and payouts' never), `<prefix>pending:<kind>` (a sorted set by
 * creation time), channel `<prefix>settled`. The listing script reads record keys it derives, so on Redis Cluster put the prefix in a hash tag
 * (`'{hp-tx}:'`), or give the Cluster a `keyPrefix` holding one; where the Cluster's `keyPrefix`
 * followed by `prefix` holds none, creation is a `TypeError`. Run Redis with persistence (AOF) or replication: a Redis that restarts empty
 * forgets pending transactions.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createTransactionTracker } from 'hosted-payments/transactions';
 * import { createRedisTransactionStore } from 'hosted-payments/redis';
 *
 * const redis = new Redis(process.env.REDIS_URL!);
 * const tracker = createTransactionTracker({ store: createRedisTransactionStore({ client: redis }) });
 * ```
 */
export function createRedisTransactionStore(options: RedisTransactionStoreOptions): RedisTransactionStore {
  const name = 'createRedisTransactionStore';
  refuseUnknownOptions(name, options, TRANSACTION_STORE_OPTIONS);
  const client = scriptClient(name, options?.client);
  const prefix = prefixOption(name, options.prefix, 'hosted-payments:tx:');
  // Each script touches a record and its kind's index: on a Cluster they must share a hash slot,
  // which only a hash tag in the keys' common start gives them (else every call fails with
  // CROSSSLOT). That start is the Cluster's own keyPrefix, then the prefix. Redis hashes what
  // lies between the key's first '{' and the first '}' after it, when not empty.
  const cluster = client as { isCluster?: unknown; options?: { keyPrefix?: unknown } };
  if (cluster.isCluster === true) {
    const keyPrefix = cluster.options?.keyPrefix;
    const start = (typeof keyPrefix === 'string' ? keyPrefix : '') + prefix;
    const tagStart = start.indexOf('{');
    if (tagStart < 0 || start.indexOf('}', tagStart + 1) <= tagStart + 1) {
      throw new TypeError(
        "createRedisTransactionStore: on a Redis Cluster, prefix must hold a hash tag, such as '{hp-tx}:', unless the Cluster's keyPrefix does, so that a transaction's keys share one hash slot (Redis hashes the first tag of keyPrefix + prefix; '{}' is no tag)",
      );
    }
  }
  const finishedTtlMs = wholeNumberOption(
    name,
    'finishedTtlMs',
    options.finishedTtlMs,
    7 * 24 * 60 * 60 * 1000,
  );
  const commandTimeoutMs = commandTimeoutOption(name, options.commandTimeoutMs);
  const given: unknown = options.subscriber;
  if (
    given !== undefined &&
    !(
      typeof given === 'object' &&
      given !== null &&
      typeof (given as RedisSubscriberClient).subscribe === 'function' &&
      typeof (given as RedisSubscriberClient).on === 'function'
    )
  ) {
    throw new TypeError(
      `${name}: subscriber must be a connection to subscribe on, with subscribe() and on() (an ioredis client.duplicate()), got ${kindOf(given)}`,
    );
  }
  const run = (script: string, numkeys: number, ...args: (string | number)[]): Promise<unknown> =>
    replyWithin(client.eval(script, numkeys, ...args), commandTimeoutMs, 'Redis transaction store');
  const channel = `${prefix}settled`;
  const recordKey = (reference: string) => `${prefix}r:${reference}`;
  /** A record read back from Redis, an error naming its key when it is not one. */
  const readRecord = (reply: unknown, reference: string) =>
    parse(reply, `${recordKey(reference)} holds a record that`);
  const pendingKey = (kind: TransactionKind) => `${prefix}pending:${kind}`;

  const listeners = new Map<string, Set<(record: TransactionRecord) => void>>();
  let subscriber: RedisSubscriberClient | undefined = options.subscriber;
  const ownSubscriber = options.subscriber === undefined;
  let subscribed: Promise<unknown> | undefined;
  let attached: RedisSubscriberClient | undefined;

  const listen = (): Promise<unknown> => {
    if (subscribed !== undefined) return subscribed;
    if (subscriber === undefined) {
      if (client.duplicate === undefined) {
        return Promise.reject(
          new Error('Redis transaction store: pass `subscriber` (client has no duplicate())'),
        );
      }
      // ioredis's own resubscription after a reconnection is a promise nobody handles: when the
      // connection drops again before it completes (Redis restarting), the process would see an
      // unhandled rejection. The store resubscribes itself instead, and handles the failure.
      const own = client.duplicate({ autoResubscribe: false });
      subscriber = own;
      // Its own connection errors (Redis restarting) are not the merchant's to handle: ioredis
      // reconnects, the store resubscribes, and waitFor re-reads the store meanwhile.
      own.on('error', () => undefined);
      own.on('ready', () => {
        own.subscribe(channel).catch(() => undefined);
      });
    }
    if (attached !== subscriber) {
      attached = subscriber;
      subscriber.on('message', (from, message) => {
        if (from !== channel) return;
        let record: TransactionRecord;
        try {
          record = parse(message);
        } catch {
          return;
        }
        for (const listener of listeners.get(record.reference) ?? []) listener(record);
      });
    }
    subscribed = subscriber.subscribe(channel).catch((error: unknown) => {
      subscribed = undefined;
      throw error;
    });
    return subscribed;
  };

  return {
    async insert(record) {
      const reply = await run(
        insertScript,
        2,
        recordKey(record.reference),
        pendingKey(record.kind),
        JSON.stringify(record),
        record.reference,
        record.createdAt,
        randomHex(),
      );
      return bit(reply) === 1 ? record : readRecord(reply, record.reference);
    },

    async get(reference) {
      const reply = await run(getScript, 1, recordKey(reference));
      return reply === null || reply === undefined ? undefined : readRecord(reply, reference);
    },

    async update(record, from, previous) {
      const reply = bit(
        await run(
          updateScript,
          2,
          recordKey(record.reference),
          pendingKey(record.kind),
          JSON.stringify(record),
          from,
          record.state,
          record.reference,
          finishedTtlMs,
          channel,
          record.createdAt,
          // The stored text is JSON.stringify's, and `previous` was parsed from it: the same text
          // again unless another write replaced it.
          previous === undefined ? '' : JSON.stringify(previous),
          record.kind,
          randomHex(),
        ),
      );
      // 0: the stored state was not `from`. Any other reply (from a client wrapper, a proxy) says
      // nothing about the write: an error, never read as a refusal to retry.
      if (reply !== 0 && reply !== 1) throw new Error('Redis transaction store: unexpected reply');
      return reply === 1;
    },

    async listPending({ kind, createdBefore, limit }) {
      checkPendingQuery('listPending', { createdBefore, limit });
      const reply = await run(listPendingScript, 2, pendingKey(kind), recordKey(''), createdBefore, limit);
      if (!Array.isArray(reply)) throw new Error('Redis transaction store: unexpected reply');
      return reply.map((text) => parse(text, `a record listed in ${pendingKey(kind)}`));
    },

    async watch(reference, listener) {
      let set = listeners.get(reference);
      if (set === undefined) listeners.set(reference, (set = new Set()));
      set.add(listener);
      const stop = () => {
        const current = listeners.get(reference);
        current?.delete(listener);
        if (current?.size === 0) listeners.delete(reference);
      };
      try {
        await listen();
      } catch (error) {
        stop();
        throw error;
      }
      return stop;
    },

    async close() {
      listeners.clear();
      const own = ownSubscriber ? subscriber : undefined;
      subscriber = ownSubscriber ? undefined : subscriber;
      subscribed = undefined;
      await own?.quit?.();
    },
  };
}
