// Next.js App Router route: app/api/webhooks/payments/route.ts. The handler is a Fetch API
// route already, so POST just hands it the Request. Behind a proxy that rewrites the Host,
// pass `publicOrigin: 'https://shop.example'` so the signed URL is checked against your domain.
// Run against the sandbox (without Next.js): npx tsx examples/try-webhook.ts examples/nextjs/app/api/webhooks/payments/route.ts
import { createCallbackHandler } from 'hosted-payments/callbacks';

const handler = createCallbackHandler({
  secret: process.env.WEBHOOK_SECRET!,
  onEvent: async (event, { reference }) => {
    console.log(
      `webhook: ${event.type} reference=${reference ?? event.reference ?? '-'} amount=${event.amount}`,
    );
  },
});

export async function POST(request: Request): Promise<Response> {
  return handler(request);
}
