// The two reconciliation jobs of docs/transactions.md (`expireStale`, then `settleOpenOrders`), run
// as pasted against a real redis-server, after the sandbox delivered callbacks to an `onEvent` that
// threw at every attempt until the sandbox gave up. The tracker settled each transaction before
// `onEvent` ran, so the merchant's orders are still open: a paid one must be marked paid (never
// cancelled), a failed one marked failed and left open (another payment may still pay it), and
// one whose callback never came cancelled, also when its expiry was applied by an earlier run
// that no longer exists.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallbackHandler, toNodeListener } from '../../src/callbacks/index.js';
import { PaymentsClient } from '../../src/client.js';
import { createRedisDedupeStore, createRedisTransactionStore } from '../../src/redis/index.js';
import { sandboxTestValues } from '../../src/sandbox/outcomes.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import {
  createTransactionTracker,
  type TransactionRecord,
  type TransactionTracker,
} from '../../src/transactions/index.js';
import { documentedFunction, removeDocumentedFiles, type ExpireStale } from '../helpers/documented.js';
import { useRedis } from '../helpers/redis.js';

interface OpenOrders {
  list(): Promise<string[]>;
  markPaid(reference: string, record: TransactionRecord): Promise<void>;
  markFailed(reference: string, record: TransactionRecord): Promise<void>;
  cancel(reference: string): Promise<void>;
}
type SettleOpenOrders = (tracker: TransactionTracker, orders: OpenOrders) => Promise<void>;

type Status = 'pending' | 'paid' | 'failed' | 'cancelled';
const HOUR = 60 * 60_000;
const secret = 'whsec_open_orders_cron_0123456789';

const redisServer = useRedis();
let sandbox: Sandbox;
let http: Server;
let webhookUrl: string;
/** The shop's side, two hours ago: the client records through it and the handler settles. */
let shop: TransactionTracker;
/** The cron's, now. */
let cron: TransactionTracker;
let client: PaymentsClient;
let store: ReturnType<typeof createRedisTransactionStore>;
let secondTab = '';
const onEventCalls = new Map<string, number>();

/** The merchant's orders table, with the idempotent updates the docs ask for. */
const orders = new Map<string, { status: Status; createdAt: number }>();
const updates: string[] = [];
const openOrders: OpenOrders = {
  list: async () =>
    [...orders]
      .filter(([, o]) => (o.status === 'pending' || o.status === 'failed') && o.createdAt < Date.now() - HOUR)
      .map(([reference]) => reference),
  markPaid: async (reference) => {
    if (orders.get(reference)!.status !== 'paid') updates.push(`${reference} paid`);
    orders.get(reference)!.status = 'paid';
  },
  markFailed: async (reference) => {
    const order = orders.get(reference)!;
    if (order.status === 'pending') {
      order.status = 'failed';
      updates.push(`${reference} failed`);
    }
  },
  cancel: async (reference) => {
    const order = orders.get(reference)!;
    if (order.status === 'pending' || order.status === 'failed') {
      order.status = 'cancelled';
      updates.push(`${reference} cancelled`);
    }
  },
};
const status = (reference: string) => orders.get(reference)?.status;

/** One cron run, in a new process: both jobs loaded afresh, as documented. */
async function cronRun(): Promise<void> {
  const expireStale = await documentedFunction<ExpireStale>('expireStale');
  const settleOpenOrders = await documentedFunction<SettleOpenOrders>('settleOpenOrders');
  // As the docs say: the second job runs also when the first threw.
  try {
    await expireStale(cron, (reference) => openOrders.cancel(reference));
  } finally {
    await settleOpenOrders(cron, openOrders);
  }
}

const customer = (phone_number: string) => ({
  full_name: 'Jane Doe',
  phone_number,
  email: 'jane@example.com',
});
async function payByPhone(reference: string, phone: string): Promise<void> {
  orders.set(reference, { status: 'pending', createdAt: Date.now() - 2 * HOUR });
  await client.initiateMobileMoneyPayment({
    customer_details: customer(phone),
    amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
    callback_details: { transaction_reference: reference, callback_url: webhookUrl },
  });
}
const checkoutSession = (orderId: number) =>
  client.createCheckoutSession({
    customer_details: customer('0712345678'),
    amount: { order_id: orderId, delivery_fee: 100, discount_fee: 50, total: 2500, currency: 'KES' },
    redirect_urls: {
      success_url: 'https://shop.example/thanks',
      failed_url: 'https://shop.example/failed',
      callback_url: webhookUrl,
    },
  });

beforeAll(async () => {
  const redis = redisServer.client();
  store = createRedisTransactionStore({ client: redis, prefix: 'open-orders:' });
  shop = createTransactionTracker({ store, now: () => Date.now() - 2 * HOUR });
  cron = createTransactionTracker({ store });
  const handler = createCallbackHandler({
    secret,
    tracker: shop,
    dedupe: createRedisDedupeStore({ client: redis, prefix: 'open-orders:dedupe:' }),
    onEvent: async (_event, { reference }) => {
      onEventCalls.set(reference, (onEventCalls.get(reference) ?? 0) + 1);
      throw new Error('the orders database is down');
    },
  });
  http = createServer(toNodeListener(handler));
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  webhookUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/webhooks/payments`;
  sandbox = await startSandbox({ callbackDelayMs: 10, deliveryRetries: 2, retryDelayMs: 10, log: false });
  client = new PaymentsClient({ baseUrl: sandbox.url, transactions: { tracker: shop, secret } });
}, 20_000);

afterAll(async () => {
  await sandbox?.close();
  http?.closeAllConnections();
  await new Promise((done) => http?.close(done));
  await store?.close();
  await removeDocumentedFiles();
});

describe("the docs' expireStale and settleOpenOrders, onEvent failing at every delivery until the sender gave up", () => {
  it('marks the paid order paid, the declined one failed (still open), and cancels the one never called back', async () => {
    await payByPhone('ORD-PAID', '0712345678');
    await payByPhone('ORD-LOST', sandboxTestValues.phones.noCallback);
    await payByPhone('ORD-LOST-EARLIER', sandboxTestValues.phones.noCallback);
    orders.set('6006', { status: 'pending', createdAt: Date.now() - 2 * HOUR });
    const declined = await checkoutSession(6006);
    secondTab = (await checkoutSession(6006)).checkout_link;
    await sandbox.completeCheckout(declined.checkout_link, { method: 'card', outcome: 'failure' });

    // Every attempt reached onEvent and was answered 500; the sandbox gave up on both.
    const report = await sandbox.waitForIdle();
    expect(report.ok).toBe(false);
    const sent = () => sandbox.deliveries.filter((d) => d.state !== 'dropped');
    expect(sent().map((d) => [d.state, d.attempts.map((a) => a.status)])).toEqual([
      ['failed', [500, 500, 500]],
      ['failed', [500, 500, 500]],
    ]);
    expect(onEventCalls).toEqual(
      new Map([
        ['ORD-PAID', 3],
        ['6006', 3],
      ]),
    );
    // The transactions settled before onEvent ran; the orders are all still open, and stale() lists
    // only the two never called back: a job cancelling old unpaid orders would cancel ORD-PAID.
    expect((await cron.get('ORD-PAID'))?.state).toBe('succeeded');
    expect((await cron.get('6006'))?.state).toBe('failed');
    expect((await cron.stale()).map((r) => r.reference).sort()).toEqual(['ORD-LOST', 'ORD-LOST-EARLIER']);
    expect([...orders.values()].every((o) => o.status === 'pending')).toBe(true);

    // An earlier run, in a process now gone, expired ORD-LOST-EARLIER and lost the reply before
    // cancelling its order: stale() no longer lists it.
    await cron.expire('ORD-LOST-EARLIER');

    await cronRun();
    expect(status('ORD-PAID')).toBe('paid');
    expect(status('6006')).toBe('failed');
    expect(status('ORD-LOST')).toBe('cancelled');
    expect(status('ORD-LOST-EARLIER')).toBe('cancelled');
  }, 20_000);

  it('marks the failed order paid once another payment of it succeeds, its onEvent failing too; further runs change nothing', async () => {
    // The customer's second tab, opened before the first was declined, pays.
    await sandbox.completeCheckout(secondTab, { method: 'card' });
    await sandbox.waitForIdle();
    const sent = sandbox.deliveries.filter((d) => d.state !== 'dropped');
    expect(sent.map((d) => d.state)).toEqual(['failed', 'failed', 'failed']);
    expect(sent[2]!.attempts.map((a) => a.status)).toEqual([500, 500, 500]);
    expect(onEventCalls.get('6006')).toBe(6);
    expect((await cron.get('6006'))?.state).toBe('succeeded');
    expect(status('6006')).toBe('failed');

    await cronRun();
    expect(status('6006')).toBe('paid');
    const applied = [...updates];
    await cronRun();
    await cronRun();
    expect(updates).toEqual(applied);
    expect(applied.sort()).toEqual([
      '6006 failed',
      '6006 paid',
      'ORD-LOST cancelled',
      'ORD-LOST-EARLIER cancelled',
      'ORD-PAID paid',
    ]);
  }, 20_000);
});
