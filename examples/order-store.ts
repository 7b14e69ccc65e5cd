// A merchant's order store: the SDK's pending-transaction tracker on the merchant's own SQL
// database. The client's `transactions` option records each order as pending before its payment
// is sent and signs its callback URL; the callback handler settles it exactly once however many
// times the callback arrives; the checkout awaits the outcome with tracker.waitFor.
// Run against a local sandbox: npx tsx examples/order-store.ts   (or set PAYMENTS_BASE_URL)
//
// SQLite through sql.js (SQLite compiled to WebAssembly): it installs with a plain `npm ci` on
// any machine (no native build, no download at install time), which better-sqlite3 cannot
// promise (it compiles from source with node-gyp when no prebuilt binary can be fetched, and
// its install script must be allowed). The SQL is the same for better-sqlite3 or node:sqlite
// (Node 22+), and close to it for Postgres (which needs `CAST(? AS text) IS NULL`) or MySQL. Set
// ORDERS_DB=orders.sqlite to keep the file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import initSqlJs, { type Database } from 'sql.js';
import { PaymentsClient } from 'hosted-payments';
import { createCallbackHandler, toNodeListener } from 'hosted-payments/callbacks';
import { startSandbox, type Sandbox } from 'hosted-payments/sandbox';
import {
  createTransactionTracker,
  type TransactionRecord,
  type TransactionState,
  type TransactionStore,
} from 'hosted-payments/transactions';

async function openDatabase(file: string | undefined): Promise<Database> {
  const SQL = await initSqlJs();
  const db = new SQL.Database(file && existsSync(file) ? readFileSync(file) : undefined);
  db.run(`
    CREATE TABLE IF NOT EXISTS transactions (
      reference  TEXT PRIMARY KEY,
      kind       TEXT NOT NULL,
      state      TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed', 'expired')),
      created_at INTEGER NOT NULL,
      record     TEXT NOT NULL  -- the tracker's record, as JSON
    );
    CREATE INDEX IF NOT EXISTS transactions_pending ON transactions (kind, created_at) WHERE state = 'pending';
  `);
  return db;
}

/**
 * The tracker's store on SQL: four statements. `update` is a compare-and-set on `state`, which is
 * what makes settlement exactly-once even with several server processes on one database.
 */
export class SqlTransactionStore implements TransactionStore {
  constructor(private readonly db: Database) {}

  async insert(record: TransactionRecord): Promise<TransactionRecord> {
    this.db.run('INSERT OR IGNORE INTO transactions VALUES (?, ?, ?, ?, ?)', [
      record.reference,
      record.kind,
      record.state,
      record.createdAt,
      JSON.stringify(record),
    ]);
    // `record` itself when this call stored it: how the tracker tells the call that recorded a
    // transaction from one that found it recorded.
    return this.db.getRowsModified() === 1 ? record : (await this.get(record.reference))!;
  }

  async get(reference: string): Promise<TransactionRecord | undefined> {
    const [row] = this.rows('SELECT record FROM transactions WHERE reference = ?', [reference]);
    return row;
  }

  async update(
    record: TransactionRecord,
    from: TransactionState,
    previous?: TransactionRecord,
  ): Promise<boolean> {
    // created_at too: an expired transaction re-initiated is pending again from a new createdAt.
    // With `previous`, only while the stored record is still the one the tracker read.
    const before = previous === undefined ? null : JSON.stringify(previous);
    this.db.run(
      'UPDATE transactions SET state = ?, created_at = ?, record = ? WHERE reference = ? AND state = ? AND (? IS NULL OR record = ?)',
      [record.state, record.createdAt, JSON.stringify(record), record.reference, from, before, before],
    );
    return this.db.getRowsModified() === 1;
  }

  async listPending(query: {
    kind: TransactionRecord['kind'];
    createdBefore: number;
    limit: number;
  }): Promise<TransactionRecord[]> {
    return this.rows(
      `SELECT record FROM transactions WHERE state = 'pending' AND kind = ? AND created_at < ?
       ORDER BY created_at LIMIT ?`,
      [query.kind, query.createdBefore, query.limit],
    );
  }

  /** The merchant's own view of its orders. */
  orders(): { reference: string; amount: string; status: string }[] {
    const [result] = this.db.exec('SELECT record FROM transactions ORDER BY reference');
    return (result?.values ?? []).map(([json]) => {
      const record = JSON.parse(String(json)) as TransactionRecord;
      const status = record.state === 'succeeded' ? 'paid' : record.state;
      return { reference: record.reference, amount: record.amount, status };
    });
  }

  private rows(sql: string, params: (string | number)[]): TransactionRecord[] {
    const statement = this.db.prepare(sql);
    try {
      statement.bind(params);
      const out: TransactionRecord[] = [];
      while (statement.step()) out.push(JSON.parse(String(statement.get()[0])) as TransactionRecord);
      return out;
    } finally {
      statement.free();
    }
  }
}

// --- the merchant's server: a webhook route, and the checkout step that initiates payments ---

const secret = process.env.WEBHOOK_SECRET ?? 'example-webhook-secret-change-me';
const db = await openDatabase(process.env.ORDERS_DB);
const store = new SqlTransactionStore(db);
const tracker = createTransactionTracker({ store });

const handler = createCallbackHandler({
  secret,
  // The tracker settles each transaction once in the database, which survives restarts and is
  // shared by every server process; a redelivery reaches onEvent marked 'duplicate' (a second
  // payment of the order 'another_payment': refund it). It also
  // refuses (409) a callback for an order it never recorded, and (422) one whose amount or
  // currency is not the order's.
  tracker,
  dedupe: false,
  onEvent: (event, { reference, settlement }) => {
    const applied =
      settlement === 'duplicate'
        ? 'already applied'
        : settlement === 'another_payment'
          ? `another payment of the order, nothing applied${event.paid ? ': refund it' : ''}`
          : 'applied';
    console.log(`callback ${event.type} for ${reference}: ${applied}`);
  },
});
const server = createServer(toNodeListener(handler));
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/payments`;

// The service: PAYMENTS_BASE_URL, or a sandbox that delivers every callback twice.
let sandbox: Sandbox | undefined;
if (!process.env.PAYMENTS_BASE_URL)
  sandbox = await startSandbox({ callbackDelayMs: 20, duplicateDeliveries: true });
// Each initiation is recorded in the tracker (before it is sent) and its callback URL signed.
const client = new PaymentsClient({
  baseUrl: process.env.PAYMENTS_BASE_URL ?? sandbox!.url,
  transactions: { tracker, secret },
});

/** Initiates the order's payment (recorded as pending first), and resolves with the outcome. */
async function checkout(reference: string, phone: string, total: number): Promise<TransactionRecord> {
  await client.initiateMobileMoneyPayment({
    customer_details: { full_name: 'Jane Doe', phone_number: phone, email: 'jane@example.com' },
    amount: { delivery_fee: 100, discount_fee: 50, total, currency: 'KES' },
    callback_details: { transaction_reference: reference, callback_url: webhookUrl },
  });
  return tracker.waitFor(reference, { timeout: 15_000 });
}

const run = Date.now().toString(36).toUpperCase();
await Promise.all([
  checkout(`ORD-${run}-1`, '0712345678', 1200),
  checkout(`ORD-${run}-2`, '254700000406', 800), // the sandbox's insufficient-funds number
  checkout(`ORD-${run}-3`, '+254 110 000 000', 2500),
]);
await sandbox?.waitForIdle(); // let the duplicate deliveries arrive too

// An STK push whose callback never came would show up here after 5 minutes (the mobile-money
// default); a cron job expires that attempt (docs/transactions.md has the whole job), and a
// callback that comes later still settles it.
for (const stale of await tracker.stale()) {
  await tracker.expireIfPending(stale.reference, { createdAt: stale.createdAt });
}

const orders = store.orders();
console.table(orders);
console.log(`callbacks processed: ${orders.filter((order) => order.status !== 'pending').length}`);
if (process.env.ORDERS_DB) writeFileSync(process.env.ORDERS_DB, db.export());
server.closeAllConnections();
server.close();
await sandbox?.close();
db.close();
