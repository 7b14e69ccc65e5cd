// AWS Lambda webhook function behind API Gateway: a REST API (payload format 1.0) or an HTTP API
// (payload format 2.0), Lambda proxy integration. No AWS SDK needed; the few event fields it
// reads are typed below. Environment:
// - WEBHOOK_SECRET: the secret the callback URLs are signed with.
// - CALLBACK_URL: the URL, without query, that you sign (signCallbackUrl) and hand to the service
//   for this function, exactly: https://pay.shop.example/webhooks/payments behind a custom domain,
//   or https://abc123.execute-api.eu-west-1.amazonaws.com/prod/webhooks/payments with the stage.
//   The URL verified is rebuilt from it, not from the event's path and Host: which of the event's
//   fields holds the stage or the custom domain's API mapping depends on the API type, the
//   endpoint called and its mappings, and a path that differs from the signed one by a byte
//   answers 401 to every genuine callback. Per-order data goes in the query, verified as sent.
// - REDIS_URL: each instance of a function has its own memory, so the dedupe store lives in Redis
//   (or another store with an atomic claim), or two warm instances each run onEvent for one event.
// Tested with realistic events by test/examples/aws-lambda.test.ts.
import { Redis } from 'ioredis';
import { createCallbackHandler } from 'hosted-payments/callbacks';
import { createRedisDedupeStore } from 'hosted-payments/redis';

/** The fields of an API Gateway proxy event this function reads, in payload format 1.0 or 2.0. */
export interface ApiGatewayEvent {
  readonly body?: string | null;
  readonly isBase64Encoded?: boolean;
  readonly headers?: Readonly<Record<string, string | undefined>> | null;
  /** 1.0 */
  readonly httpMethod?: string;
  /** 1.0: the query, decoded and grouped by name. */
  readonly multiValueQueryStringParameters?: Readonly<Record<string, readonly string[] | undefined>> | null;
  /** 2.0: the query as sent. */
  readonly rawQueryString?: string;
  /** `http` in 2.0; `stage` is in both (and lets either format's event type be passed). */
  readonly requestContext?: { readonly http?: { readonly method?: string }; readonly stage?: string };
}

export interface ApiGatewayResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

const callbackUrl = new URL(process.env.CALLBACK_URL ?? '');
// Exported so that a graceful shutdown (or a test) can quit it.
export const redis = new Redis(process.env.REDIS_URL ?? '');

const webhook = createCallbackHandler({
  secret: process.env.WEBHOOK_SECRET,
  publicOrigin: callbackUrl.origin,
  dedupe: createRedisDedupeStore({ client: redis }),
  onEvent: async (event, { reference }) => {
    console.log(`webhook: ${event.type} reference=${reference} amount=${event.amount}`);
  },
});

/** The query string as sent (2.0), or rebuilt from the decoded parameters (1.0). */
function queryOf(event: ApiGatewayEvent): string {
  if (event.rawQueryString !== undefined) return event.rawQueryString;
  const query = new URLSearchParams();
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {}))
    for (const value of values ?? []) query.append(name, value);
  return query.toString();
}

export async function handler(event: ApiGatewayEvent): Promise<ApiGatewayResult> {
  const url = new URL(callbackUrl);
  url.search = queryOf(event);
  const method = event.requestContext?.http?.method ?? event.httpMethod ?? 'POST';
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {}))
    if (value !== undefined) headers.set(name, value);
  // API Gateway hands a body it did not take for text to the function base64-encoded.
  const body =
    event.body == null || method === 'GET' || method === 'HEAD'
      ? null
      : event.isBase64Encoded
        ? new Uint8Array(Buffer.from(event.body, 'base64'))
        : event.body;
  const response = await webhook(new Request(url, { method, headers, body }));
  return {
    statusCode: response.status,
    headers: Object.fromEntries(response.headers),
    body: await response.text(), // empty on the 200: never response.json()
  };
}
