// An ApiError's status describes the last request only. After a retry that followed a request the
// service may have received (a 500, a 503), or through a fetch of the merchant's own (which may
// retry by itself), a 400 does not mean the payment never started: the first request may have
// started it, and marking the order failed invites the customer to pay twice. `onlyAttempt` says
// which case the caller is in.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, PaymentsClient } from '../../src/index.js';
import { caught } from '../helpers/caught.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';
import { startServer, type TestServer } from '../helpers/servers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A service answering each request with the next of `statuses` (JSON bodies, Retry-After: 0). */
async function answering(...statuses: number[]): Promise<{ url: string; requests: () => number }> {
  let received = 0;
  server = await startServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const status = statuses[Math.min(received, statuses.length - 1)]!;
      received++;
      response.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
      response.end(status === 200 ? '{"message":"wrong","status":200}' : `{"error":"status_${status}"}`);
    });
  });
  return { url: server.url, requests: () => received };
}

const apiError = async (client: PaymentsClient): Promise<ApiError> => {
  const error = await caught(() => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput));
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
};

describe("ApiError's onlyAttempt", () => {
  it('is true for a 4xx answering the call’s only request, sent by the built-in fetch', async () => {
    const service = await answering(400);
    const error = await apiError(new PaymentsClient({ baseUrl: service.url, retry: { limit: 2 } }));
    expect(error.status).toBe(400);
    expect(error.onlyAttempt).toBe(true);
    expect(service.requests()).toBe(1);
  });

  it.each([
    ['a 500, then a 400', [500, 400], 400],
    ['a 503, then a 404', [503, 404], 404],
    ['a 503, then a 2xx of the wrong shape', [503, 200], 200],
    ['a 500 twice, then a 422', [500, 500, 422], 422],
  ])('is false after %s: an earlier request may have started the payment', async (_name, statuses, last) => {
    const service = await answering(...statuses);
    const error = await apiError(new PaymentsClient({ baseUrl: service.url, retry: { limit: 2 } }));
    expect(error.status).toBe(last);
    expect(error.onlyAttempt).toBe(false);
    expect(service.requests()).toBe(statuses.length);
  });

  it('is false for a 4xx through a fetch of the merchant’s own, which may have retried by itself', async () => {
    const service = await answering(400);
    const error = await apiError(
      new PaymentsClient({ baseUrl: service.url, fetch: (request) => fetch(request) }),
    );
    expect(error.status).toBe(400);
    expect(error.onlyAttempt).toBe(false);
  });

  it('is kept by JSON.stringify with the status, for a log to show', async () => {
    const service = await answering(500, 400);
    const error = await apiError(new PaymentsClient({ baseUrl: service.url, retry: { limit: 1 } }));
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ status: 400, onlyAttempt: false });
  });
});
