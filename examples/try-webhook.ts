// Runs one webhook route example against a local sandbox, with one command:
//   npx tsx examples/try-webhook.ts examples/webhooks/express.ts
// Starts the sandbox (delivering every callback twice, as real providers sometimes do), starts
// the route (a server example listens on PORT itself; a Next.js route.ts or a Worker is hosted
// here on Node's Fetch API), initiates a successful mobile-money payment and a declined card
// payment with signed callback URLs, waits for the deliveries and reports what the route
// answered (the sandbox also logs each delivery attempt as it happens). Exits 1 unless every
// delivery got a 2xx.
import { connect, createServer } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { PaymentsClient } from 'hosted-payments';
import { signCallbackUrl } from 'hosted-payments/callbacks';
import { sandboxTestValues, startSandbox } from 'hosted-payments/sandbox';

const file = process.argv[2];
if (!file) throw new Error('usage: npx tsx examples/try-webhook.ts <route example file>');

const secret = (process.env.WEBHOOK_SECRET ??= 'example-webhook-secret-change-me');
const host = '127.0.0.1';
// A port that is free right now (the route example reads PORT).
const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
const port = Number((process.env.PORT ??= String(await freePort())));

const canConnect = () =>
  new Promise<boolean>((done) => {
    const socket = connect(port, host, () => done(socket.end() !== undefined)).on('error', () => done(false));
  });

const sandbox = await startSandbox({ callbackDelayMs: 20, retryDelayMs: 100, duplicateDeliveries: true });
const route = (await import(pathToFileURL(resolve(file)).href)) as {
  POST?: (request: Request) => Promise<Response>;
  default?: {
    fetch?: (request: Request, env: { WEBHOOK_SECRET: string; PUBLIC_ORIGIN?: string }) => Promise<Response>;
  };
};

let path = '/webhooks/payments';
const { POST } = route;
const worker = route.default?.fetch;
if (POST) {
  path = '/api/webhooks/payments'; // where app/api/webhooks/payments/route.ts answers in Next.js
  serve({ fetch: (request) => POST(request), port, hostname: host });
} else if (worker) {
  const env = { WEBHOOK_SECRET: secret, PUBLIC_ORIGIN: process.env.PUBLIC_ORIGIN };
  serve({ fetch: (request) => worker(request, env), port, hostname: host });
}
for (let i = 0; !(await canConnect()); i++) {
  if (i > 100) throw new Error(`${file} is not listening on ${host}:${port}`);
  await new Promise((done) => setTimeout(done, 50));
}

const client = new PaymentsClient({ baseUrl: sandbox.url });
const webhook = `http://${host}:${port}${path}`;
const customer = { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' };
const amount = { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' };

await client.initiateMobileMoneyPayment({
  customer_details: customer,
  amount,
  callback_details: {
    transaction_reference: 'ORDER-2001',
    callback_url: await signCallbackUrl(webhook, { secret, reference: 'ORDER-2001' }),
  },
});
await client.initiateCardPayment({
  customer_details: customer,
  amount,
  card_details: {
    card_number: sandboxTestValues.cards.declined,
    expiry_month: 12,
    expiry_year: 2030,
    cvc: '123',
  },
  callback_details: {
    transaction_reference: 'ORDER-2002',
    callback_url: await signCallbackUrl(webhook, { secret, reference: 'ORDER-2002' }),
  },
});
// The report says which callbacks the route refused, and why (e.g. `401 invalid_signature`).
const report = await sandbox.waitForIdle();

for (const delivery of sandbox.deliveries) {
  const answers = delivery.attempts
    .map((attempt) => attempt.error ?? [attempt.status, attempt.reason].filter(Boolean).join(' '))
    .join(', ');
  console.log(
    `sandbox: ${delivery.type}${delivery.copy ? ' (duplicate)' : ''} ${delivery.state}: ${answers}`,
  );
}
await sandbox.close();
console.log(report.ok ? 'every callback was accepted' : `some callbacks were refused:\n${report.summary}`);
process.exit(report.ok ? 0 : 1);
