// Fastify 5 webhook route. Fastify parses JSON bodies by default; inside this plugin the JSON
// body is kept as the raw string and handed to the Fetch API handler untouched.
// Run against the sandbox: npx tsx examples/try-webhook.ts examples/webhooks/fastify.ts
import Fastify from 'fastify';
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

export const app = Fastify({ bodyLimit: 64 * 1024 });

await app.register(async (webhooks) => {
  // Encapsulated: only routes in this plugin see JSON as a string; the rest of the app is unchanged.
  webhooks.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  webhooks.post('/webhooks/payments', async (request, reply) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const response = await handler(
      new Request(`${request.protocol}://${request.host}${request.url}`, {
        method: request.method,
        headers,
        body: typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? null),
      }),
    );
    reply.status(response.status).headers(Object.fromEntries(response.headers));
    return reply.send(await response.text());
  });
});

const port = Number(process.env.PORT ?? 3000);
await app.listen({ port, host: '127.0.0.1' });
console.log(`listening on http://127.0.0.1:${port}/webhooks/payments`);
