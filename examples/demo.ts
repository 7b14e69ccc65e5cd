// `npm run demo`: every flow of the API, end to end, offline.
//
// Starts the sandbox (a local stand-in for the service) and a small merchant webhook server built
// with createCallbackHandler + toNodeListener and a pending-transaction tracker, then runs every
// flow through a client with the `transactions` option (it signs each callback URL and records
// each transaction): card success and decline, mobile-money success and 406, hosted checkout paid
// by card, by mobile-money and failed (sandbox.completeCheckout submits the page's form as a
// browser would), payout success and an over-balance failure. Each flow waits on
// tracker.waitFor(reference); each callback is printed as it arrives. One more mobile-money
// payment goes to the sandbox's no-callback test phone: its callback never comes, so it is listed
// by tracker.stale and expired with tracker.expireIfPending, as a cron does. The exit code is 0
// only when every expected outcome arrived and the lost payment was found and expired.
//
// It imports the package by name, exactly as your code will; `npm run demo` bundles it from this
// repository's source (tsconfig `paths`), so it needs no build first.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PaymentsClient,
  createCallbackHandler,
  toNodeListener,
  type CallbackEventType,
} from 'hosted-payments';
import { sandboxTestValues, startSandbox } from 'hosted-payments/sandbox';
import {
  TransactionTimeoutError,
  createTransactionTracker,
  type TransactionRecord,
} from 'hosted-payments/transactions';

const SECRET = 'demo-webhook-secret-change-me';
/** How long the demo waits for every expected outcome. */
const TIMEOUT_MS = 12_000;
/** How long the demo waits for the payment whose callback never comes before it gives up on it. */
const GIVE_UP_MS = 1_500;
const LOST_REFERENCE = 'ORDER-MM-3';
const started = Date.now();

interface Expected {
  readonly flow: string;
  readonly type: CallbackEventType;
  readonly reference: string;
  readonly state: 'succeeded' | 'failed';
}

// In memory: one process here. Behind a load balancer, pass the Redis store from hosted-payments/redis.
const tracker = createTransactionTracker();
// Rows that arrive while flows are still being initiated wait here until the table header is out.
let buffered: string[] | undefined = [];
const print = (line: string) => (buffered ? buffered.push(line) : console.log(line));

// --- a readable table, one row per event as it arrives ---
const columns = [
  ['+ms', 6],
  ['event', 32],
  ['reference', 14],
  ['amount', 12],
  ['paid', 5],
  ['tracker', 9],
  ['message', 34],
] as const;
const row = (cells: readonly string[]) =>
  cells
    .map((cell, i) =>
      cell.length > columns[i]![1] ? `${cell.slice(0, columns[i]![1] - 1)}…` : cell.padEnd(columns[i]![1]),
    )
    .join(' │ ');
const printHeader = () => {
  const header = row(columns.map(([name]) => name));
  console.log(`\n${header}\n${'─'.repeat(header.length)}`);
};

// --- the merchant's side: webhook route + the pages checkout redirects to ---
async function startMerchant(): Promise<{ server: Server; url: string }> {
  const handler = toNodeListener(
    createCallbackHandler({
      secret: SECRET,
      tracker,
      onEvent: (event, context) => {
        const amount = `${event.amount}${event.currency ? ` ${event.currency}` : ''}`;
        const warn =
          event.warnings.length > 0 ? ` ⚠ ${event.warnings.map((warning) => warning.code).join(', ')}` : '';
        print(
          row([
            String(Date.now() - started),
            event.type,
            context.reference ?? '—',
            amount,
            String(event.paid),
            context.transaction?.state ?? '—',
            event.message,
          ]) + warn,
        );
      },
      onError: (error, { reason }) => {
        print(`  ✗ callback refused (${reason}): ${error.message}`);
      },
    }),
  );
  const server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/shop/thanks' || req.url === '/shop/payment-failed')) {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>shop</title><h1>shop</h1>');
      return;
    }
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function main(): Promise<number> {
  // log: false — the table below shows each event; the delivery report closes the run.
  const sandbox = await startSandbox({ callbackDelayMs: 300, retryDelayMs: 100, log: false });
  const merchant = await startMerchant();
  // The client signs each callback URL with its reference and records each transaction in the tracker.
  const client = new PaymentsClient({ baseUrl: sandbox.url, transactions: { tracker, secret: SECRET } });
  const callbackUrl = `${merchant.url}/webhooks/payments`;
  const year = new Date().getFullYear() + 2;
  const customer = { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' };
  const amount = (total: number) => ({ delivery_fee: 100, discount_fee: 50, total, currency: 'KES' });
  const expected: Expected[] = [];
  const step = (text: string) => console.log(`  ${text}`);

  console.log(`sandbox on ${sandbox.url}, merchant webhook on ${callbackUrl} (signed URLs, tracked)\n`);
  console.log('Initiating every flow:');
  try {
    // 1. card payments
    for (const [flow, cardNumber, reference, type, state] of [
      [
        'card payment',
        sandboxTestValues.cards.success,
        'ORDER-CARD-1',
        'payment.card.succeeded',
        'succeeded',
      ],
      [
        'card payment, declined card',
        sandboxTestValues.cards.declined,
        'ORDER-CARD-2',
        'payment.card.failed',
        'failed',
      ],
    ] as const) {
      const response = await client.initiateCardPayment({
        customer_details: customer,
        amount: amount(1500),
        card_details: { card_number: cardNumber, expiry_month: 12, expiry_year: year, cvc: '123' },
        callback_details: { transaction_reference: reference, callback_url: callbackUrl },
      });
      step(`${flow} (${reference}): ${response.message}`);
      expected.push({ flow, type, reference, state });
    }

    // 2. mobile-money (STK push) payments
    for (const [flow, phone, reference, type, state] of [
      ['mobile-money payment', '0712345678', 'ORDER-MM-1', 'payment.mobile_money.succeeded', 'succeeded'],
      [
        'mobile-money payment, insufficient funds',
        sandboxTestValues.phones.insufficientFunds,
        'ORDER-MM-2',
        'payment.mobile_money.failed',
        'failed',
      ],
    ] as const) {
      const response = await client.initiateMobileMoneyPayment({
        customer_details: { ...customer, phone_number: phone },
        amount: amount(800),
        callback_details: { transaction_reference: reference, callback_url: callbackUrl },
      });
      step(`${flow} (${reference}): ${response.message}`);
      expected.push({ flow, type, reference, state });
    }
    // A callback that never comes: the sandbox drops it for this test phone. The tracker finds it.
    const lost = await client.initiateMobileMoneyPayment({
      customer_details: { ...customer, phone_number: sandboxTestValues.phones.noCallback },
      amount: amount(300),
      callback_details: { transaction_reference: LOST_REFERENCE, callback_url: callbackUrl },
    });
    step(
      `mobile-money payment, callback lost (${LOST_REFERENCE}): ${lost.message} — the sandbox drops its callback`,
    );

    // 3. hosted checkout, paid on the page with the same form post a browser makes
    for (const checkout of [
      {
        flow: 'checkout paid by card',
        orderId: 5001,
        type: 'checkout.succeeded',
        method: 'card',
        state: 'succeeded',
      },
      {
        flow: 'checkout paid by mobile-money',
        orderId: 5002,
        type: 'checkout.succeeded',
        method: 'mobile_money',
        state: 'succeeded',
      },
      {
        flow: 'checkout failed (declined card)',
        orderId: 5003,
        type: 'checkout.failed',
        method: 'card',
        outcome: 'failure',
        state: 'failed',
      },
    ] as const) {
      const reference = String(checkout.orderId);
      const session = await client.createCheckoutSession({
        customer_details: customer,
        amount: { ...amount(2500), order_id: checkout.orderId },
        redirect_urls: {
          success_url: `${merchant.url}/shop/thanks`,
          failed_url: `${merchant.url}/shop/payment-failed`,
          callback_url: callbackUrl,
        },
      });
      const done = await sandbox.completeCheckout(session.checkout_link, {
        method: checkout.method,
        outcome: 'outcome' in checkout ? checkout.outcome : 'success',
      });
      step(`${checkout.flow} (order ${reference}): page → ${new URL(done.redirectedTo).pathname}`);
      expected.push({ flow: checkout.flow, type: checkout.type, reference, state: checkout.state });
    }

    // 4. payouts from the sandbox wallet
    for (const [flow, value, referenceId, type, state] of [
      ['payout', 2500, 310000000001, 'payout.succeeded', 'succeeded'],
      [
        'payout above the wallet balance',
        sandboxTestValues.walletBalance * 2,
        310000000002,
        'payout.failed',
        'failed',
      ],
    ] as const) {
      const reference = String(referenceId);
      const response = await client.initiatePayout({
        customer_details: customer,
        destination: {
          type: 'mobile_wallet',
          country_code: 'KE',
          mobile_number: '0712345678',
          wallet_name: 'MOBILE-MONEY',
        },
        transfer: { amount: value, currency: 'KES', reference_id: referenceId, description: 'demo payout' },
        webhook_endpoint: { webhook_url: callbackUrl },
      });
      step(`${flow} (${reference}, ${value} KES): ${response.message}`);
      expected.push({ flow, type, reference, state });
    }

    printHeader();
    for (const line of buffered ?? []) console.log(line);
    buffered = undefined;

    // Every flow awaits its outcome; the lost one is given up on after GIVE_UP_MS.
    const [outcomes, lostWait] = await Promise.all([
      Promise.all(
        expected.map((e) =>
          tracker.waitFor(e.reference, { timeout: TIMEOUT_MS }).then(
            (record): TransactionRecord | undefined => record,
            () => undefined,
          ),
        ),
      ),
      tracker.waitFor(LOST_REFERENCE, { timeout: GIVE_UP_MS }).then(
        (record) => record,
        (error: unknown) => error,
      ),
    ]);
    const missing = expected.filter(
      (e, i) => outcomes[i]?.state !== e.state || outcomes[i]?.outcome?.eventType !== e.type,
    );

    // The payment whose callback never came: still pending, listed as stale, expired.
    console.log(`\nThe payment whose callback never came (${LOST_REFERENCE}):`);
    const gaveUp = lostWait instanceof TransactionTimeoutError;
    console.log(
      gaveUp
        ? `  tracker.waitFor('${LOST_REFERENCE}', { timeout: ${GIVE_UP_MS} }) → TransactionTimeoutError: still pending`
        : `  ✗ tracker.waitFor('${LOST_REFERENCE}') did not time out: ${String(lostWait)}`,
    );
    const stale = await tracker.stale({ olderThan: GIVE_UP_MS });
    for (const record of stale) {
      const age = ((Date.now() - record.createdAt) / 1000).toFixed(1);
      console.log(
        `  tracker.stale({ olderThan: ${GIVE_UP_MS} }) → ${record.reference}: ${record.kind}, ${record.amount} ${record.currency ?? ''}, pending for ${age} s`,
      );
    }
    const staleReferences = stale.map((record) => record.reference);
    // With the listed attempt's createdAt, as a cron does (docs/transactions.md): an attempt the
    // customer initiated again since is left pending ('initiated_again'), and of several instances
    // only one is told 'expired' — the one that cancels the order.
    const listed = stale.find((record) => record.reference === LOST_REFERENCE);
    const expiry =
      listed === undefined
        ? undefined
        : await tracker.expireIfPending(LOST_REFERENCE, { createdAt: listed.createdAt });
    if (expiry !== undefined) {
      console.log(
        `  tracker.expireIfPending('${LOST_REFERENCE}', { createdAt }) → ${expiry.result} (cancel the order on 'expired' only; a late genuine callback would still settle it)`,
      );
    }
    const lostHandled =
      gaveUp &&
      expiry?.result === 'expired' &&
      staleReferences.length === 1 &&
      (await tracker.waitFor(LOST_REFERENCE)).state === 'expired';

    console.log('');
    if (missing.length > 0 || !lostHandled) {
      if (missing.length > 0) {
        console.error(
          `✗ ${missing.length} of ${expected.length} expected outcomes missing after waiting up to ${TIMEOUT_MS} ms:`,
        );
        for (const e of missing) {
          const got = outcomes[expected.indexOf(e)];
          console.error(
            `  - ${e.flow} (${e.reference}): expected ${e.type} → ${e.state}, ${got ? `got ${got.outcome?.eventType ?? 'no event'} → ${got.state}` : 'still pending'}`,
          );
        }
      }
      if (!lostHandled) {
        console.error(
          `✗ the lost payment ${LOST_REFERENCE} was not found stale and expired (stale: ${staleReferences.join(', ') || 'none'})`,
        );
      }
      return 1;
    }
    console.log(
      `✓ all ${expected.length} transactions settled as expected (callbacks verified, parsed, settled once) in ${Date.now() - started} ms`,
    );
    console.log(`✓ ${LOST_REFERENCE}, whose callback never came, was found by tracker.stale and expired`);
    console.log(`  wallet balance after the payouts: ${sandbox.walletBalance} KES`);
    const report = await sandbox.waitForIdle();
    console.log(`  sandbox delivery report: ${report.summary.replaceAll('\n', '\n  ')}`);
    return report.ok ? 0 : 1;
  } finally {
    await sandbox.close();
    const closed = new Promise((resolve) => merchant.server.close(resolve));
    merchant.server.closeAllConnections();
    await closed;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('✗ demo failed:', error);
    process.exitCode = 1;
  },
);
