// msw server helpers for client tests: one server per test file, every request recorded with
// its raw body text (so exact digits can be checked) and parsed with parseJsonExact.
import { http, HttpResponse, type HttpResponseResolver } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { parseJsonExact } from '../../src/internal/json.js';

export const BASE_URL = 'https://payments.test';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly text: string;
  readonly json: unknown;
}

/** The documented replies of spec §2.8. */
export const documentedReplies = {
  card: { message: 'Card Payment Initiated', status: 200 },
  mobileMoney: { message: 'MOBILE-MONEY Payment Initiated', status: 200 },
  checkout: { checkout_link: 'https://payments.test/checkout/abc', status: true, order_id: '1003' },
  payout: { message: 'Mobile Payout Initiated', status: 200 },
} as const;

/** Starts an msw server for the file; `recorded()` gives every request that reached it. */
export function useMockService() {
  const pending: Promise<RecordedRequest>[] = [];
  const server = setupServer();
  server.events.on('request:start', ({ request }) => {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const { method, url } = request;
    pending.push(
      request
        .clone()
        .text()
        .then((text) => {
          let json: unknown;
          try {
            json = parseJsonExact(text);
          } catch {
            json = undefined;
          }
          return { method, url, headers, text, json };
        }),
    );
  });
  /** Every request that reached the server in this test, bodies read. */
  const recorded = () => Promise.all(pending);
  beforeAll(() => server.listen({ onUnhandledRequest: () => undefined }));
  afterEach(() => {
    server.resetHandlers();
    pending.length = 0;
  });
  afterAll(() => server.close());

  /** Answers POSTs to `path` under BASE_URL (or a full URL) with `resolver`. */
  const on = (path: string, resolver: HttpResponseResolver) =>
    server.use(http.post(path.startsWith('http') ? path : `${BASE_URL}/${path}`, resolver));

  /** Answers every endpoint with its documented reply. */
  const documented = () => {
    on('api/payment/payment-initiate-callback/', async ({ request }) => {
      const body = (await request.clone().json()) as { card_details?: unknown };
      return HttpResponse.json(body.card_details ? documentedReplies.card : documentedReplies.mobileMoney);
    });
    on('checkout.sessions/hosted/redirect/session', () => HttpResponse.json(documentedReplies.checkout));
    on('api/payout/mobile-money-payout', () => HttpResponse.json(documentedReplies.payout));
  };

  return { server, recorded, on, documented };
}
