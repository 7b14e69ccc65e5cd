// Hono webhook route: Hono speaks the Fetch API, so the handler takes the raw Request as is.
// The same app runs on Bun (export default app), Deno (Deno.serve(app.fetch)) or Workers.
// Run against the sandbox: npx tsx examples/try-webhook.ts examples/webhooks/hono.ts
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createCallbackHandler } from 'hosted-payments/callbacks';

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

export const app = new Hono();
app.post('/webhooks/payments', (c) => handler(c.req.raw));

const port = Number(process.env.PORT ?? 3000);
serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () =>
  console.log(`listening on http://127.0.0.1:${port}/webhooks/payments`),
);
