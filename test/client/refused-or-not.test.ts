// Whether a failed initiation may have started the payment, in one property: `ApiError.mayHaveStarted`.
// Only a refusal the service certainly did not act on is `false`: a 4xx other than 409, answering
// the call's only request, whose body does not say the request was initiated. The API reference
// documents no error responses, so a 4xx whose body is the initiation's success reply
// (`{"message":"Mobile Payout Initiated","status":200}` under HTTP 400) says both: the payment may
// have started, and a tracked record stays pending, as after a 5xx. Read as a refusal, the
// merchant pays the seller again and the first transfer's success is settled as late.
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { ApiError } from '../../src/errors.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { mobileMoneyPaymentInput, payoutInput } from '../helpers/inputs.js';

const secret = 'whsec_refused_or_not_0123456789abcdef';

function service(answer: () => Response) {
  let sent = 0;
  const baseUrl = fakeService(() => {
    sent += 1;
    return answer();
  });
  return { baseUrl, sent: () => sent };
}

const failed = async (call: Promise<unknown>): Promise<ApiError> => {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
};

describe('ApiError.mayHaveStarted', () => {
  it.each([
    [400, { error: 'invalid phone number' }],
    [401, { message: 'Unauthorized' }],
    [422, { message: 'Validation failed', status: 422 }],
    [404, 'Not Found'],
  ])('is false for a %i refusal that says nothing else', async (status, body) => {
    const { baseUrl } = service(() =>
      typeof body === 'string' ? new Response(body, { status }) : Response.json(body, { status }),
    );
    const error = await failed(new PaymentsClient({ baseUrl }).initiatePayout(payoutInput));
    expect(error.mayHaveStarted).toBe(false);
    expect(error.issues).toEqual([]);
  });

  it.each([
    ['a 500', () => Response.json({ error: 'boom' }, { status: 500 })],
    ['a 409', () => Response.json({ error: 'duplicate reference' }, { status: 409 })],
    ['a 2xx of the wrong shape', () => Response.json({ message: 'Mobile Payout Initiated', status: 201 })],
  ])('is true for %s', async (_what, answer) => {
    const { baseUrl } = service(answer);
    const error = await failed(new PaymentsClient({ baseUrl }).initiatePayout(payoutInput));
    expect(error.mayHaveStarted).toBe(true);
  });

  it.each([
    [400, { message: 'Mobile Payout Initiated', status: 200 }],
    [422, { message: 'Mobile Payout Initiated' }],
    [408, { status: 200 }],
    [429, { message: 'Mobile Payout Initiated', status: 200 }],
  ])('is true for a %i whose body says the payout was initiated: %j', async (status, body) => {
    const { baseUrl } = service(() => Response.json(body, { status }));
    const error = await failed(new PaymentsClient({ baseUrl }).initiatePayout(payoutInput));
    expect(error.status).toBe(status);
    expect(error.mayHaveStarted).toBe(true);
    expect(error.issues).toEqual([expect.objectContaining({ code: 'contradictory_reply' })]);
    expect(error.message).toMatch(/may have started/);
  });

  it.each([
    [400, { error: 'duplicate_reference_id' }],
    [422, { error: 'duplicate_transaction', message: 'A payout with this reference_id already exists' }],
    [400, { message: 'Duplicate request' }],
    [400, { error: 'reference_in_use' }],
    [400, { error: 'reference_id has been used' }],
    [400, { error: 'reference_id must be unique' }],
    [422, { error: 'A payout with this reference is being processed' }],
    [400, { error: 'Payout in progress' }],
    [400, { message: 'Transaction exists' }],
    [400, { message: 'A payout with this reference_id exists' }],
    [400, ['duplicate reference_id']],
    [422, [{ field: 'reference_id', error: 'already used' }]],
  ])('is true for a %i whose body says the reference is in use, as a 409 does: %j', async (status, body) => {
    const { baseUrl } = service(() => Response.json(body, { status }));
    const error = await failed(new PaymentsClient({ baseUrl }).initiatePayout(payoutInput));
    expect(error.mayHaveStarted).toBe(true);
    expect(error.issues).toEqual([expect.objectContaining({ code: 'contradictory_reply' })]);
  });

  // Other ways a body says the request went through: a success flag, a status word, a result code
  // of 0 (`ResponseCode: '0'` is an STK push accepted), an acceptance message, or the same one
  // level down (`data`, `result`, `response`). The API reference documents no error replies.
  it.each([
    [400, { success: true }],
    [400, { ok: true, error: 'Bad Request' }],
    [422, { status: 'Success' }],
    [400, { status: 'accepted' }],
    [400, { ResponseCode: '0', ResponseDescription: 'Success. Request accepted for processing' }],
    [400, { ResultCode: 0 }],
    [400, { message: 'Request accepted for processing' }],
    [400, { message: 'Payout queued' }],
    [422, { message: 'Payout Successful' }],
    [400, { data: { status: 200, message: 'Mobile Payout Initiated' } }],
    [400, { result: { success: 'true' } }],
    [400, { ResponseDescription: 'Success. Request accepted for processing' }],
    [400, { CustomerMessage: 'Success. Request accepted for processing' }],
    [400, { message: 'Accept the service request successfully.' }],
    [400, { data: { result: { success: true } } }],
    [400, { response: { body: { ResponseCode: '0' } } }],
    [400, { accepted: true }],
    [400, { initiated: true }],
    // A status under another key (as a 2xx's failure is read), an HTTP status of 2xx, a `detail`.
    [400, { payout_status: 'Success' }],
    [400, { transaction_status: 'completed' }],
    [422, { state: 'success' }],
    [400, { status_code: 200 }],
    [400, { http_status: '202 Accepted' }],
    [400, { data: { payment_status: 'Accepted' } }],
    [400, { detail: 'Mobile Payout Initiated' }],
    // A body that is a JSON array: each item read as a body.
    [400, [{ message: 'Mobile Payout Initiated', status: 200 }]],
    [400, ['Request accepted for processing']],
  ])('is true for a %i whose body says the request went through: %j', async (status, body) => {
    const { baseUrl } = service(() => Response.json(body, { status }));
    const error = await failed(new PaymentsClient({ baseUrl }).initiatePayout(payoutInput));
    expect(error.mayHaveStarted).toBe(true);
    expect(error.issues).toEqual([expect.objectContaining({ code: 'contradictory_reply' })]);
  });

  it.each([
    [400, { success: false, message: 'Invalid phone number' }],
    [400, { status: 'error', message: 'Validation failed' }],
    [400, { ResponseCode: '1', ResponseDescription: 'Rejected' }],
    [400, { message: 'Request not accepted: invalid amount' }],
    [400, { data: { errors: ['amount'] } }],
    [422, { message: 'Payout failed' }],
    [400, { error: 'Wallet does not exist' }],
    [400, { payout_status: 'Failed', status_code: 400 }],
    [422, { state: 'invalid', detail: 'Invalid phone number' }],
    [400, [{ field: 'phone_number', message: 'Invalid phone number' }]],
    [400, { error: 'invalid_phone_number', unique_request_id: 'req_81f2' }],
  ])('stays false for a %i whose body says it was refused: %j', async (status, body) => {
    const { baseUrl } = service(() => Response.json(body, { status }));
    const error = await failed(new PaymentsClient({ baseUrl }).initiatePayout(payoutInput));
    expect(error.mayHaveStarted).toBe(false);
  });

  // The same words in a body that is not JSON (a text/plain or HTML error page says them too).
  it.each([
    [400, 'Mobile Payout Initiated'],
    [400, 'Request accepted for processing'],
    [422, 'Payout Successful'],
    [400, 'Duplicate transaction reference'],
    [400, '<html><body><h1>Reference already in use</h1></body></html>'],
  ])(
    'is true for a %i whose text body says the request went through or its reference is in use: %j',
    async (status, body) => {
      const { baseUrl } = service(
        () => new Response(body, { status, headers: { 'content-type': 'text/plain' } }),
      );
      const error = await failed(new PaymentsClient({ baseUrl }).initiatePayout(payoutInput));
      expect(error.mayHaveStarted).toBe(true);
      expect(error.issues).toEqual([expect.objectContaining({ code: 'contradictory_reply', path: [] })]);
      expect(error.message).toMatch(/may have started/);
    },
  );

  it.each([
    [400, 'Invalid phone number'],
    [400, 'Request not accepted: invalid amount'],
    [404, '<html><body><h1>404 Not Found</h1></body></html>'],
  ])('stays false for a %i whose text body says it was refused: %j', async (status, body) => {
    const { baseUrl } = service(
      () => new Response(body, { status, headers: { 'content-type': 'text/plain' } }),
    );
    const error = await failed(new PaymentsClient({ baseUrl }).initiatePayout(payoutInput));
    expect(error.mayHaveStarted).toBe(false);
  });

  it('is true for a 400 whose body is the mobile-money initiation reply', async () => {
    const { baseUrl } = service(() =>
      Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 }, { status: 400 }),
    );
    const error = await failed(
      new PaymentsClient({ baseUrl }).initiateMobileMoneyPayment(mobileMoneyPaymentInput),
    );
    expect(error.mayHaveStarted).toBe(true);
  });
});

describe('a tracked payout answered 4xx with the initiation reply as its body', () => {
  it('stays pending, and its reference is not sent again', async () => {
    const tracker = createTransactionTracker();
    const { baseUrl, sent } = service(() =>
      Response.json({ message: 'Mobile Payout Initiated', status: 200 }, { status: 400 }),
    );
    const client = new PaymentsClient({ baseUrl, transactions: { tracker, secret } });
    const error = await failed(client.initiatePayout(payoutInput));
    expect(error.mayHaveStarted).toBe(true);
    const reference = String(payoutInput.transfer.reference_id);
    expect((await tracker.get(reference))?.state).toBe('pending');
    expect((await tracker.stale({ olderThan: 0 })).map((record) => record.reference)).toContain(reference);
    await client.initiatePayout(payoutInput).catch(() => undefined);
    expect(sent()).toBe(1);
  });

  it('a plain 400 still expires the record it made', async () => {
    const tracker = createTransactionTracker();
    const { baseUrl } = service(() => Response.json({ error: 'invalid destination' }, { status: 400 }));
    const client = new PaymentsClient({ baseUrl, transactions: { tracker, secret } });
    const error = await failed(client.initiatePayout(payoutInput));
    expect(error.mayHaveStarted).toBe(false);
    expect((await tracker.get(String(payoutInput.transfer.reference_id)))?.state).toBe('expired');
  });
});
