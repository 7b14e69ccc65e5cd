// The tracker's store on Postgres, to copy. It runs on a `pg` Pool (node-postgres) or on PGlite
// as it is: both have `query(text, params)` answering `{ rows }`. test/examples/
// order-store-postgres.test.ts runs it on PGlite (Postgres compiled to WebAssembly) through the
// tracker: settlement, expiry, stale, a failed payment then another payment's success, races.
//
//   const store = new PostgresTransactionStore(new pg.Pool({ connectionString }), { listen });
//   await createTransactionsTable(store.db);
//   const tracker = createTransactionTracker({ store });
//
// What differs from the SQLite store (examples/order-store.ts):
// - created_at is bigint: ms since the epoch overflow Postgres' 32-bit integer.
// - record is text, not jsonb: `update` compares the stored text with JSON.stringify(previous),
//   which only matches text kept as written. On jsonb, compare as jsonb (`record = $7::jsonb`),
//   never `record::text = $7`: jsonb reorders keys and adds spaces, so that never matches: no
//   record could be settled or expired, and no payment made again recorded. jsonb also refuses
//   "\u0000" in a string.
// - a parameter only tested for NULL needs a type: `CAST($6 AS text) IS NULL`.
// - rows changed are counted with RETURNING: pg reports them as rowCount, PGlite as affectedRows.
// - pg parses json and jsonb columns into objects itself: parse only a string.
// - watch: `update` NOTIFYs the reference only (a payload is at most 8000 bytes) and the listener
//   reads the record again; LISTEN needs a connection of its own (see Listen). Without it waitFor
//   polls the table (pollIntervalMs).
import type {
  TransactionKind,
  TransactionRecord,
  TransactionState,
  TransactionStore,
} from 'hosted-payments/transactions';

/** What the store needs of the database: a `pg` Pool, Client or PGlite. */
export interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Subscribes to a NOTIFY channel on a connection of its own (a pooled one may be handed to another
 * query, or closed while idle, and its notifications are lost). With `pg`:
 *
 *   const listener = new pg.Client(config);
 *   await listener.connect();
 *   const listen: Listen = async (channel, onPayload) => {
 *     listener.on('notification', (message) => {
 *       if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
 *     });
 *     await listener.query(`LISTEN ${channel}`);
 *   };
 *
 * With PGlite: `const listen: Listen = (channel, onPayload) => db.listen(channel, onPayload);`
 */
export type Listen = (channel: string, onPayload: (payload: string) => void) => Promise<unknown>;

export const transactionsTable = `
  CREATE TABLE IF NOT EXISTS transactions (
    reference  text PRIMARY KEY,
    kind       text NOT NULL,
    state      text NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed', 'expired')),
    created_at bigint NOT NULL,
    record     text NOT NULL  -- JSON.stringify(record), byte for byte: update compares it
  );
  CREATE INDEX IF NOT EXISTS transactions_pending ON transactions (kind, created_at) WHERE state = 'pending';
`;

export async function createTransactionsTable(db: Queryable): Promise<void> {
  for (const statement of transactionsTable.split(';').filter((sql) => sql.trim() !== '')) {
    await db.query(statement);
  }
}

// A text column answers a string; a json or jsonb one an object (pg and PGlite parse those).
const parse = (value: unknown): TransactionRecord =>
  (typeof value === 'string' ? JSON.parse(value) : value) as TransactionRecord;

export class PostgresTransactionStore implements TransactionStore {
  private readonly listeners = new Map<string, Set<(record: TransactionRecord) => void>>();
  private listening: Promise<unknown> | undefined;

  constructor(
    readonly db: Queryable,
    private readonly options: { listen?: Listen } = {},
  ) {}

  async insert(record: TransactionRecord): Promise<TransactionRecord> {
    const { rows } = await this.db.query(
      `INSERT INTO transactions (reference, kind, state, created_at, record) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (reference) DO NOTHING RETURNING 1`,
      [record.reference, record.kind, record.state, record.createdAt, JSON.stringify(record)],
    );
    // `record` itself when this call stored it: how the tracker tells the initiation that
    // recorded a transaction from one that found it recorded.
    return rows.length === 1 ? record : (await this.get(record.reference))!;
  }

  async get(reference: string): Promise<TransactionRecord | undefined> {
    const { rows } = await this.db.query('SELECT record FROM transactions WHERE reference = $1', [reference]);
    const [row] = rows as { record: unknown }[];
    return row === undefined ? undefined : parse(row.record);
  }

  /**
   * The compare-and-set exactly-once settlement rests on: only while the stored state is `from`
   * and, when `previous` is given, the stored record is still that one. Without the `previous`
   * clause this still compiles, and a failed payment's success and its failure, arriving at the
   * same moment, can both be accepted. The NOTIFY is part of the statement: sent at commit, only
   * when the row changed.
   */
  async update(
    record: TransactionRecord,
    from: TransactionState,
    previous?: TransactionRecord,
  ): Promise<boolean> {
    const before = previous === undefined ? null : JSON.stringify(previous);
    const { rows } = await this.db.query(
      `WITH changed AS (
         UPDATE transactions SET state = $1, created_at = $2, record = $3
         WHERE reference = $4 AND state = $5 AND (CAST($6 AS text) IS NULL OR record = $7)
         RETURNING reference
       )
       SELECT pg_notify('transactions_updated', reference) FROM changed`,
      [record.state, record.createdAt, JSON.stringify(record), record.reference, from, before, before],
    );
    return rows.length === 1;
  }

  async listPending(query: {
    kind: TransactionKind;
    createdBefore: number;
    limit: number;
  }): Promise<TransactionRecord[]> {
    // Postgres would read LIMIT 0 as "none" and LIMIT NULL as "all": refuse both, as the SDK's stores do.
    if (!Number.isSafeInteger(query.limit) || query.limit < 1) {
      throw new RangeError(`listPending: limit must be a whole number from 1, got ${query.limit}`);
    }
    const { rows } = await this.db.query(
      `SELECT record FROM transactions WHERE state = 'pending' AND kind = $1 AND created_at < $2
       ORDER BY created_at, reference LIMIT $3`,
      [query.kind, query.createdBefore, query.limit],
    );
    return (rows as { record: unknown }[]).map((row) => parse(row.record));
  }

  async watch(reference: string, listener: (record: TransactionRecord) => void): Promise<() => void> {
    const { listen } = this.options;
    // Without a listening connection waitFor polls (pollIntervalMs).
    if (listen === undefined) return () => undefined;
    this.listening ??= listen('transactions_updated', (notified) => {
      const listeners = this.listeners.get(notified);
      if (listeners === undefined) return;
      // A read that fails is left to waitFor's next poll.
      this.get(notified).then(
        (stored) => {
          if (stored !== undefined) for (const call of listeners) call(stored);
        },
        () => undefined,
      );
    }).catch((error: unknown) => {
      this.listening = undefined; // the next watch tries again
      throw error;
    });
    await this.listening;
    const listeners = this.listeners.get(reference) ?? new Set();
    this.listeners.set(reference, listeners.add(listener));
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.listeners.delete(reference);
    };
  }
}
