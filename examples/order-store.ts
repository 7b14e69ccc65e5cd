// A merchant's order store: create a pending order, initiate its payment, and mark it paid (or
// failed) from the callback exactly once, however many times the callback arrives.
// Run against a local sandbox: npx tsx examples/order-store.ts   (or set PAYMENTS_BASE_URL)
//
// SQLite through sql.js (SQLite compiled to WebAssembly): it installs with a plain `npm ci` on
// any machine (no native build, no download at install time), which better-sqlite3 cannot
// promise (it compiles from source with node-gyp when no prebuilt binary can be fetched, and
// its install script must be allowed). The SQL is the same for better-sqlite3 or node:sqlite
// (Node 22+); only `openDatabase` changes. Set ORDERS_DB=orders.sqlite to keep the file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import initSqlJs, { type Database } from 'sql.js';
import { PaymentsClient } from 'hosted-payments';
import {
  createCallbackHandler,
  signCallbackUrl,
  toNodeListener,
  type CallbackEvent,
} from 'hosted-payments/callbacks';
import { startSandbox, type Sandbox } from 'hosted-payments/sandbox';

async function openDatabase(file: string | undefined): Promise<Database> {
  const SQL = await initSqlJs();
  const db = new SQL.Database(file && existsSync(file) ? readFileSync(file) : undefined);
  db.run(`
    CREATE TABLE IF NOT EXISTS orders (
      reference      TEXT PRIMARY KEY,
      amount         TEXT NOT NULL,
      currency       TEXT NOT NULL,
      status         TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'failed')),
      transaction_id TEXT,
      updated_at     TEXT NOT NULL
    );
    -- One row per callback event processed: the idempotency record that survives restarts.
    CREATE TABLE IF NOT EXISTS processed_callbacks (
      dedupe_key   TEXT PRIMARY KEY,
      reference    TEXT NOT NULL,
      type         TEXT NOT NULL,
      processed_at TEXT NOT NULL
    );
  `);
  return db;
}

export class OrderStore {
  constructor(private readonly db: Database) {}

  createPendingOrder(reference: string, amount: string, currency: string): void {
    this.db.run(`INSERT INTO orders VALUES (?, ?, ?, 'pending', NULL, ?)`, [
      reference,
      amount,
      currency,
      now(),
    ]);
  }

  find(
    reference: string,
  ): { reference: string; amount: string; currency: string; status: string } | undefined {
    const statement = this.db.prepare(
      'SELECT reference, amount, currency, status FROM orders WHERE reference = ?',
    );
    try {
      statement.bind([reference]);
      return statement.step() ? (statement.getAsObject() as never) : undefined;
    } finally {
      statement.free();
    }
  }

  /**
   * Applies a callback once: the processed_callbacks insert and the order update commit
   * together, so a retry or duplicate (same dedupe key) changes nothing, and only a pending
   * order changes state (a late failure never un-pays a paid order). Returns whether it applied.
   */
  applyCallback(event: CallbackEvent, reference: string, dedupeKey: string): boolean {
    this.db.run('BEGIN');
    try {
      this.db.run('INSERT OR IGNORE INTO processed_callbacks VALUES (?, ?, ?, ?)', [
        dedupeKey,
        reference,
        event.type,
        now(),
      ]);
      if (this.db.getRowsModified() === 0) {
        this.db.run('ROLLBACK');
        return false;
      }
      this.db.run(
        `UPDATE orders SET status = ?, transaction_id = ?, updated_at = ? WHERE reference = ? AND status = 'pending'`,
        [event.paid ? 'paid' : 'failed', event.transactionId ?? null, now(), reference],
      );
      this.db.run('COMMIT');
      return true;
    } catch (error) {
      this.db.run('ROLLBACK');
      throw error;
    }
  }

  all(): { reference: string; amount: string; status: string }[] {
    const [result] = this.db.exec('SELECT reference, amount, status FROM orders ORDER BY reference');
    return (result?.values ?? []).map(([reference, amount, status]) => ({
      reference: String(reference),
      amount: String(amount),
      status: String(status),
    }));
  }

  callbacksProcessed(): number {
    return Number(this.db.exec('SELECT count(*) FROM processed_callbacks')[0]?.values[0]?.[0] ?? 0);
  }
}

const now = () => new Date().toISOString();

// --- the merchant's server: a webhook route, and the checkout step that initiates payments ---

const secret = process.env.WEBHOOK_SECRET ?? 'example-webhook-secret-change-me';
const db = await openDatabase(process.env.ORDERS_DB);
const orders = new OrderStore(db);

const handler = createCallbackHandler({
  secret,
  // The database is the dedupe store: processed_callbacks survives restarts and is shared by
  // every server process, where the default in-memory store is not.
  dedupe: false,
  // Refuse (422) a callback whose amount or currency is not the order's.
  expected: (event, { reference }) => {
    const order = orders.find(reference);
    return order && { amount: order.amount, currency: order.currency };
  },
  onEvent: (event, { reference, dedupeKey }) => {
    const applied = orders.applyCallback(event, reference, dedupeKey);
    console.log(`callback ${event.type} for ${reference}: ${applied ? 'applied' : 'already applied'}`);
  },
});
const server = createServer(toNodeListener(handler));
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/payments`;

// The service: PAYMENTS_BASE_URL, or a sandbox that delivers every callback twice.
let sandbox: Sandbox | undefined;
if (!process.env.PAYMENTS_BASE_URL)
  sandbox = await startSandbox({ callbackDelayMs: 20, duplicateDeliveries: true });
const client = new PaymentsClient({ baseUrl: process.env.PAYMENTS_BASE_URL ?? sandbox!.url });

async function checkout(reference: string, phone: string, total: number): Promise<void> {
  orders.createPendingOrder(reference, String(total), 'KES'); // pending before the money moves
  await client.initiateMobileMoneyPayment({
    customer_details: { full_name: 'Jane Doe', phone_number: phone, email: 'jane@example.com' },
    amount: { delivery_fee: 0, discount_fee: 0, total, currency: 'KES' },
    callback_details: {
      transaction_reference: reference,
      callback_url: await signCallbackUrl(webhookUrl, { secret, reference }),
    },
  });
}

const run = Date.now().toString(36).toUpperCase();
await checkout(`ORD-${run}-1`, '0712345678', 1200);
await checkout(`ORD-${run}-2`, '254700000406', 800); // the sandbox's insufficient-funds number
await checkout(`ORD-${run}-3`, '+254 110 000 000', 2500);

// Wait until no order is pending (the callbacks are asynchronous), at most 15 s.
for (let i = 0; i < 300 && orders.all().some((order) => order.status === 'pending'); i++) {
  await new Promise((done) => setTimeout(done, 50));
}
await sandbox?.waitForIdle();

console.table(orders.all());
console.log(`callbacks processed: ${orders.callbacksProcessed()}`);
if (process.env.ORDERS_DB) writeFileSync(process.env.ORDERS_DB, db.export());
server.closeAllConnections();
server.close();
await sandbox?.close();
db.close();
