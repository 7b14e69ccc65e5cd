// Next.js App Router route: app/api/webhooks/payments/route.ts. The handler is a Fetch API
// route already, so POST just hands it the Request.
// Run against the sandbox (without Next.js): npx tsx examples/try-webhook.ts examples/nextjs/app/api/webhooks/payments/route.ts
import { createCallbackHandler } from 'hosted-payments/callbacks';

const handler = createCallbackHandler({
  // Required: unset, createCallbackHandler throws a TypeError saying how to fix it.
  secret: process.env.WEBHOOK_SECRET,
  // In production, the origin your callback URLs were signed with ('https://shop.example'): the
  // host is then checked against it instead of against the Host the request arrived with.
  publicOrigin: process.env.PUBLIC_ORIGIN,
  onEvent: async (event, { reference }) => {
    console.log(`webhook: ${event.type} reference=${reference} amount=${event.amount}`);
  },
});

export async function POST(request: Request): Promise<Response> {
  return handler(request);
}
