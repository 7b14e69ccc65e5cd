// Cloudflare Worker webhook route (wrangler: main = "examples/cloudflare-worker.ts", a secret
// WEBHOOK_SECRET and, in production, a variable PUBLIC_ORIGIN: the origin your callback URLs were
// signed with, e.g. https://shop.example, when the Worker sees requests on another). Imports only `hosted-payments/callbacks`, which has no ky or Node API in
// its import graph. The default dedupe store lives in the isolate's memory: for exactly-once
// across isolates, pass a `dedupe` store backed by a Durable Object or D1 (KV cannot claim atomically).
// Run against the sandbox (on Node's Fetch API): npx tsx examples/try-webhook.ts examples/cloudflare-worker.ts
import { createCallbackHandler, type CallbackHandler } from 'hosted-payments/callbacks';

export interface Env {
  readonly WEBHOOK_SECRET: string;
  readonly PUBLIC_ORIGIN?: string;
}

let handler: CallbackHandler | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (new URL(request.url).pathname !== '/webhooks/payments')
      return new Response('Not found', { status: 404 });
    handler ??= createCallbackHandler({
      secret: env.WEBHOOK_SECRET,
      publicOrigin: env.PUBLIC_ORIGIN,
      onEvent: async (event, { reference }) => {
        console.log(`webhook: ${event.type} reference=${reference} amount=${event.amount}`);
      },
    });
    return handler(request);
  },
};
