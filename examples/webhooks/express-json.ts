// Express 5 webhook route WITH express.json() in front of every route (a common app set-up).
// express.json() keeps the bytes it read as req.rawBody (its `verify` hook), and toNodeListener
// reads those: the parsed req.body no longer holds the numbers and keys as sent (JSON.parse rounds
// long numbers and keeps only the last of a repeated key), so without req.rawBody the route
// answers 500 handler_failed and onError says how to fix it.
// Run against the sandbox: npx tsx examples/try-webhook.ts examples/webhooks/express-json.ts
import type { IncomingMessage } from 'node:http';
import express from 'express';
import { createCallbackHandler, toNodeListener } from 'hosted-payments/callbacks';

const handler = createCallbackHandler({
  // Required: unset, createCallbackHandler throws a TypeError saying how to fix it.
  secret: process.env.WEBHOOK_SECRET,
  // In production, the origin your callback URLs were signed with ('https://shop.example'): the
  // host is then checked against it instead of against the Host header the client sent.
  publicOrigin: process.env.PUBLIC_ORIGIN,
  onEvent: async (event, { reference }) => {
    console.log(`webhook: ${event.type} reference=${reference} amount=${event.amount}`);
  },
});

export const app = express();
app.use(
  express.json({
    limit: '64kb',
    verify: (req: IncomingMessage & { rawBody?: Buffer }, _res, buf) => {
      req.rawBody = buf; // the posted bytes, for the webhook route
    },
  }),
);
app.post('/webhooks/payments', toNodeListener(handler));

const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}/webhooks/payments`));
