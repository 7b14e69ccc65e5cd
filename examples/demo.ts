// `npm run demo`: every flow of the API, end to end, offline.
//
// Starts the sandbox (a local stand-in for the service) and a small merchant webhook server built
// with createCallbackHandler + toNodeListener (a secret, signed callback URLs), then runs every
// flow: card success and decline, mobile-money success and 406 (and one whose callback the sandbox
// drops), hosted checkout paid by card, by mobile-money and failed (sandbox.completeCheckout submits
// the page's form as a browser would), payout success and an over-balance failure. Each callback is
// printed as it arrives; the exit code is 0 only when every expected event arrived.
//
// It imports the package by name, exactly as your code will; `npm run demo` bundles it from this
// repository's source (tsconfig `paths`), so it needs no build first.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PaymentsClient,
  createCallbackHandler,
  signCallbackUrl,
  toNodeListener,
  type CallbackEvent,
  type CallbackEventType,
} from 'hosted-payments';
import { sandboxTestValues, startSandbox } from 'hosted-payments/sandbox';

const SECRET = 'demo-webhook-secret-change-me';
const TIMEOUT_MS = 12_000;
const started = Date.now();

interface Expected {
  readonly flow: string;
  readonly type: CallbackEventType;
  readonly reference: string;
}

const received = new Map<string, CallbackEvent>();
const key = (type: string, reference: string | undefined) => `${type} ${reference ?? ''}`;
let notify: () => void = () => undefined;
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
      onEvent: (event, context) => {
        const reference = context.reference;
        received.set(key(event.type, reference), event);
        const amount = `${event.amount}${event.currency ? ` ${event.currency}` : ''}`;
        const warn =
          event.warnings.length > 0 ? ` ⚠ ${event.warnings.map((warning) => warning.code).join(', ')}` : '';
        print(
          row([
            String(Date.now() - started),
            event.type,
            reference ?? '—',
            amount,
            String(event.paid),
            event.message,
          ]) + warn,
        );
        notify();
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
  const client = new PaymentsClient({ baseUrl: sandbox.url });
  const hook = (reference: string) =>
    signCallbackUrl(`${merchant.url}/webhooks/payments`, { secret: SECRET, reference });
  const year = new Date().getFullYear() + 2;
  const customer = { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' };
  const amount = (total: number) => ({ delivery_fee: 0, discount_fee: 0, total, currency: 'KES' });
  const expected: Expected[] = [];
  const step = (text: string) => console.log(`  ${text}`);

  console.log(
    `sandbox on ${sandbox.url}, merchant webhook on ${merchant.url}/webhooks/payments (signed URLs)\n`,
  );
  console.log('Initiating every flow:');
  try {
    // 1. card payments
    for (const [flow, cardNumber, reference, type] of [
      ['card payment', sandboxTestValues.cards.success, 'ORDER-CARD-1', 'payment.card.succeeded'],
      [
        'card payment, declined card',
        sandboxTestValues.cards.declined,
        'ORDER-CARD-2',
        'payment.card.failed',
      ],
    ] as const) {
      const response = await client.initiateCardPayment({
        customer_details: customer,
        amount: amount(1500),
        card_details: { card_number: cardNumber, expiry_month: 12, expiry_year: year, cvc: '123' },
        callback_details: { transaction_reference: reference, callback_url: await hook(reference) },
      });
      step(`${flow} (${reference}): ${response.message}`);
      expected.push({ flow, type, reference });
    }

    // 2. mobile-money (STK push) payments
    for (const [flow, phone, reference, type] of [
      ['mobile-money payment', '0712345678', 'ORDER-MM-1', 'payment.mobile_money.succeeded'],
      [
        'mobile-money payment, insufficient funds',
        sandboxTestValues.phones.insufficientFunds,
        'ORDER-MM-2',
        'payment.mobile_money.failed',
      ],
    ] as const) {
      const response = await client.initiateMobileMoneyPayment({
        customer_details: { ...customer, phone_number: phone },
        amount: amount(800),
        callback_details: { transaction_reference: reference, callback_url: await hook(reference) },
      });
      step(`${flow} (${reference}): ${response.message}`);
      expected.push({ flow, type, reference });
    }
    // A callback that never comes: the sandbox drops it for this test phone. A pending-payment
    // tracker is what finds such a payment; here it is only counted.
    const lost = await client.initiateMobileMoneyPayment({
      customer_details: { ...customer, phone_number: sandboxTestValues.phones.noCallback },
      amount: amount(300),
      callback_details: { transaction_reference: 'ORDER-MM-3', callback_url: await hook('ORDER-MM-3') },
    });
    step(
      `mobile-money payment, callback lost (ORDER-MM-3): ${lost.message} — the sandbox drops its callback`,
    );

    // 3. hosted checkout, paid on the page with the same form post a browser makes
    for (const checkout of [
      { flow: 'checkout paid by card', orderId: 5001, type: 'checkout.succeeded', method: 'card' },
      {
        flow: 'checkout paid by mobile-money',
        orderId: 5002,
        type: 'checkout.succeeded',
        method: 'mobile_money',
      },
      {
        flow: 'checkout failed (declined card)',
        orderId: 5003,
        type: 'checkout.failed',
        method: 'card',
        outcome: 'failure',
      },
    ] as const) {
      const reference = String(checkout.orderId);
      const session = await client.createCheckoutSession({
        customer_details: customer,
        amount: { ...amount(2500), order_id: checkout.orderId },
        redirect_urls: {
          success_url: `${merchant.url}/shop/thanks`,
          failed_url: `${merchant.url}/shop/payment-failed`,
          callback_url: await hook(reference),
        },
      });
      const done = await sandbox.completeCheckout(session.checkout_link, {
        method: checkout.method,
        outcome: 'outcome' in checkout ? checkout.outcome : 'success',
      });
      step(`${checkout.flow} (order ${reference}): page → ${new URL(done.redirectedTo).pathname}`);
      expected.push({ flow: checkout.flow, type: checkout.type, reference });
    }

    // 4. payouts from the sandbox wallet
    for (const [flow, value, referenceId, type] of [
      ['payout', 2500, 310000000001, 'payout.succeeded'],
      ['payout above the wallet balance', sandboxTestValues.walletBalance * 2, 310000000002, 'payout.failed'],
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
        webhook_endpoint: { webhook_url: await hook(reference) },
      });
      step(`${flow} (${reference}, ${value} KES): ${response.message}`);
      expected.push({ flow, type, reference });
    }

    printHeader();
    for (const line of buffered ?? []) console.log(line);
    buffered = undefined;
    const missing = () => expected.filter((e) => !received.has(key(e.type, e.reference)));
    const done = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), TIMEOUT_MS);
      notify = () => {
        if (missing().length === 0) {
          clearTimeout(timer);
          resolve(true);
        }
      };
      notify();
    });

    console.log('');
    if (!done) {
      console.error(
        `✗ ${missing().length} of ${expected.length} expected callbacks did not arrive within ${TIMEOUT_MS} ms:`,
      );
      for (const e of missing()) console.error(`  - ${e.flow}: ${e.type} (${e.reference})`);
      return 1;
    }
    console.log(
      `✓ all ${expected.length} callbacks arrived, verified and parsed in ${Date.now() - started} ms`,
    );
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
