// Express 5 webhook route, with NO body parser in front: the handler reads the raw request body
// itself (capped at 64 KiB). Run against the sandbox: npx tsx examples/try-webhook.ts examples/webhooks/express.ts
import express from 'express';
import { createCallbackHandler, toNodeListener } from 'hosted-payments/callbacks';

const handler = createCallbackHandler({
  // Required: unset, createCallbackHandler throws a TypeError saying how to fix it.
  secret: process.env.WEBHOOK_SECRET,
  // In production, the origin your callback URLs were signed with ('https://shop.example'): the
  // host is then checked against it instead of against the Host header the client sent.
  publicOrigin: process.env.PUBLIC_ORIGIN,
  onEvent: async (event, { reference }) => {
    // Your business logic, e.g. mark the order paid. Duplicates never reach this point twice. The
    // body is not signed: before marking an order paid, have its amount checked with `expected`
    // (docs/webhooks.md) or a tracker (examples/order-store.ts).
    console.log(`webhook: ${event.type} reference=${reference} amount=${event.amount}`);
  },
});

export const app = express();
app.post('/webhooks/payments', toNodeListener(handler));

const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}/webhooks/payments`));
