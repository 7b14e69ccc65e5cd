// Express 5 webhook route WITH express.json() in front of every route (a common app set-up):
// toNodeListener uses the body express.json() already parsed (req.body) instead of the stream.
// Run against the sandbox: npx tsx examples/try-webhook.ts examples/webhooks/express-json.ts
import express from 'express';
import { createCallbackHandler, toNodeListener } from 'hosted-payments/callbacks';

const secret = process.env.WEBHOOK_SECRET;
if (!secret)
  throw new Error('Set WEBHOOK_SECRET: the secret your callback URLs are signed with (signCallbackUrl)');

const handler = createCallbackHandler({
  secret,
  onEvent: async (event, { reference }) => {
    console.log(
      `webhook: ${event.type} reference=${reference ?? event.reference ?? '-'} amount=${event.amount}`,
    );
  },
});

export const app = express();
app.use(express.json({ limit: '64kb' }));
app.post('/webhooks/payments', toNodeListener(handler));

const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}/webhooks/payments`));
