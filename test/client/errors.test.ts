// Every error kind that msw can produce: non-2xx with HTML or JSON, 2xx of the wrong shape or
// not JSON, network error, timeout, caller abort; no retry unless opted in.
import { delay, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, PaymentsClient, TimeoutError, ValidationError } from '../../src/index.js';
import { mobileMoneyPaymentInput, payoutInput } from '../helpers/inputs.js';
import { BASE_URL, documentedReplies, useMockService } from '../helpers/msw.js';

const service = useMockService();
const PAYOUT = 'api/payout/mobile-money-payout';
// The opted-in retry tests use a payment: a payout is never retried.
const PAYMENT = 'api/payment/payment-initiate-callback/';
const client = (options: Partial<ConstructorParameters<typeof PaymentsClient>[0]> = {}) =>
  new PaymentsClient({ baseUrl: BASE_URL, ...options });

const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
};

describe('PaymentsClient errors', () => {
  it('turns a 500 with an HTML body into an ApiError with status, raw body and headers', async () => {
    service.on(
      PAYOUT,
      () =>
        new HttpResponse('<html><body>Bad gateway</body></html>', {
          status: 500,
          headers: { 'content-type': 'text/html' },
        }),
    );
    const error = await rejection(client().initiatePayout(payoutInput));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 500,
      body: '<html><body>Bad gateway</body></html>',
      headers: { 'content-type': 'text/html' },
      issues: [],
    });
    expect((error as ApiError).message).toMatch(/HTTP 500.*initiatePayout/);
  });

  it('turns a 400 with a JSON body into an ApiError keeping the raw text', async () => {
    service.on(PAYOUT, () => HttpResponse.json({ error: 'invalid wallet' }, { status: 400 }));
    const error = (await rejection(client().initiatePayout(payoutInput))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.body).toBe('{"error":"invalid wallet"}');
  });

  it.each([
    [
      'an error code',
      '{"error":"duplicate_reference_id","message":"Payout refused"}',
      ': duplicate_reference_id; see error.body',
    ],
    ['a code with a dot and a dash', '{"error":"wallet.not-found"}', ': wallet.not-found; see error.body'],
    ['free text', '{"error":"invalid wallet"}', '; see error.body'],
    [
      'a code with digits (a card number or cvc could hide in one)',
      '{"error":"card_4242424242424242"}',
      '; see error.body',
    ],
    ['a code of 65 characters', `{"error":"${'a'.repeat(65)}"}`, '; see error.body'],
    ['an error that is not a string', '{"error":{"code":"x"}}', '; see error.body'],
  ])(
    'names the error code of a JSON refusal in its message, and nothing else from the body: %s',
    async (_what, body, tail) => {
      service.on(
        PAYOUT,
        () => new HttpResponse(body, { status: 409, headers: { 'content-type': 'application/json' } }),
      );
      const error = (await rejection(client().initiatePayout(payoutInput))) as ApiError;
      expect(error.message).toBe(
        `The service answered HTTP 409 Conflict to initiatePayout (POST ${BASE_URL}/${PAYOUT})${tail}`,
      );
    },
  );

  it('turns a 200 of the wrong shape into an ApiError listing the issues', async () => {
    service.on(PAYOUT, () => HttpResponse.json({ status: 'ok' }));
    const error = (await rejection(client().initiatePayout(payoutInput))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(200);
    expect(error.body).toBe('{"status":"ok"}');
    expect(error.issues.map((issue) => issue.path.join('.'))).toEqual(['message', 'status']);
  });

  it('turns a 200 that is not JSON into an ApiError with an invalid_json issue', async () => {
    service.on(
      PAYOUT,
      () => new HttpResponse('OK', { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    const error = (await rejection(client().initiatePayout(payoutInput))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.issues).toEqual([{ path: [], code: 'invalid_json', message: 'the body is not valid JSON' }]);
    expect(error.cause).toBeUndefined();
  });

  it('sends nothing when the input is invalid', async () => {
    service.documented();
    const error = await rejection(
      client().initiatePayout({ ...payoutInput, transfer: { ...payoutInput.transfer, amount: 12.5 } }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(await service.recorded()).toHaveLength(0);
  });

  it('turns a network error into a ConnectionError', async () => {
    service.on(PAYOUT, () => HttpResponse.error());
    const error = (await rejection(client().initiatePayout(payoutInput))) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.aborted).toBe(false);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('turns a slow response into a TimeoutError (client and per-call timeout)', async () => {
    service.on(PAYOUT, async () => {
      await delay(2_000);
      return HttpResponse.json(documentedReplies.payout);
    });
    const error = (await rejection(client({ timeout: 50 }).initiatePayout(payoutInput))) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.timeout).toBe(50);
    expect(error.cause).toBeInstanceOf(DOMException);
    const perCall = (await rejection(client().initiatePayout(payoutInput, { timeout: 30 }))) as TimeoutError;
    expect(perCall.timeout).toBe(30);
  });

  // What a merchant's log line shows is the message: it names the call, the service and the
  // deadline, and says what to do, as a ConnectionError's does ("Request timed out after 50 ms"
  // said neither which call nor that the payment may have started).
  it('says in its message which call timed out, against which service, and that it may have started', async () => {
    service.on(PAYOUT, async () => {
      await delay(2_000);
      return HttpResponse.json(documentedReplies.payout);
    });
    const perAttempt = (await rejection(client({ timeout: 50 }).initiatePayout(payoutInput))) as TimeoutError;
    expect(perAttempt.message).toBe(
      `initiatePayout to ${new URL(BASE_URL).origin} timed out after 50 ms; the service may have received the request: keep it pending until its callback`,
    );
    const whole = (await rejection(client({ totalTimeout: 60 }).initiatePayout(payoutInput))) as TimeoutError;
    expect(whole.message).toBe(
      `initiatePayout to ${new URL(BASE_URL).origin} did not complete within 60 ms; the service may have received the request: keep it pending until its callback`,
    );
  });

  it("turns the caller's abort into a ConnectionError with aborted: true", async () => {
    service.on(PAYOUT, async () => {
      await delay(2_000);
      return HttpResponse.json(documentedReplies.payout);
    });
    const controller = new AbortController();
    const pending = rejection(client().initiatePayout(payoutInput, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    const error = (await pending) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.aborted).toBe(true);
    const already = (await rejection(
      client().initiatePayout(payoutInput, { signal: AbortSignal.abort() }),
    )) as ConnectionError;
    expect(already.aborted).toBe(true);
  });

  it('never retries a 503 by default', async () => {
    service.on(PAYOUT, () => new HttpResponse('busy', { status: 503, headers: { 'retry-after': '0' } }));
    const error = (await rejection(client().initiatePayout(payoutInput))) as ApiError;
    expect(error.status).toBe(503);
    expect(await service.recorded()).toHaveLength(1);
  });

  it('retries when opted in, then returns the success', async () => {
    let count = 0;
    service.on(PAYMENT, () => {
      count += 1;
      return count < 3
        ? new HttpResponse('busy', { status: 503, headers: { 'retry-after': '0' } })
        : HttpResponse.json(documentedReplies.mobileMoney);
    });
    await expect(client({ retry: 2 }).initiateMobileMoneyPayment(mobileMoneyPaymentInput)).resolves.toEqual(
      documentedReplies.mobileMoney,
    );
    expect(await service.recorded()).toHaveLength(3);
  });

  it('gives up after the retry limit with the last ApiError, and does not retry a 400', async () => {
    service.on(PAYMENT, () => new HttpResponse('busy', { status: 503, headers: { 'retry-after': '0' } }));
    const error = (await rejection(
      client({ retry: { limit: 1 } }).initiateMobileMoneyPayment(mobileMoneyPaymentInput),
    )) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.body).toBe('busy');
    expect(await service.recorded()).toHaveLength(2);
    service.on(PAYMENT, () => HttpResponse.json({ error: 'bad' }, { status: 400 }));
    const bad = (await rejection(
      client({ retry: 3 }).initiateMobileMoneyPayment(mobileMoneyPaymentInput),
    )) as ApiError;
    expect(bad.status).toBe(400);
    expect(await service.recorded()).toHaveLength(3);
  });

  it('honours Retry-After on a 429 when retries are on', async () => {
    let count = 0;
    service.on(PAYMENT, () => {
      count += 1;
      return count === 1
        ? new HttpResponse('slow down', { status: 429, headers: { 'retry-after': '1' } })
        : HttpResponse.json(documentedReplies.mobileMoney);
    });
    const started = Date.now();
    await client({ retry: 1 }).initiateMobileMoneyPayment(mobileMoneyPaymentInput);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
