// Next.js App Router route: app/api/webhooks/payments/route.ts. The handler is a Fetch API
// route already, so POST just hands it the Request.
// Run against the sandbox (without Next.js): npx tsx examples/try-webhook.ts examples/nextjs/app/api/webhooks/payments/route.ts
import { createCallbackHandler, type CallbackHandler } from 'hosted-payments/callbacks';

// Made on the first request, not at import: `next build` imports route modules, often without
// the runtime's secrets, and createCallbackHandler throws a TypeError (saying how to fix it) when
// the secret is unset. A deployment without it then answers 500 (a status a sender retries, if it
// retries) until it is set: watch your error rate after a deploy.
let handler: CallbackHandler | undefined;

export async function POST(request: Request): Promise<Response> {
  handler ??= createCallbackHandler({
    secret: process.env.WEBHOOK_SECRET,
    // In production, the origin your callback URLs were signed with ('https://shop.example'): the
    // host is then checked against it instead of against the Host the request arrived with.
    publicOrigin: process.env.PUBLIC_ORIGIN,
    onEvent: async (event, { reference }) => {
      console.log(`webhook: ${event.type} reference=${reference} amount=${event.amount}`);
    },
  });
  return handler(request);
}
