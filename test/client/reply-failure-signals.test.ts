// A 2xx whose documented fields say "initiated" but whose other keys say the request failed
// (`success: false`, `error: 'card_declined'`, `status_code: 402` or `'402 Payment Required'`,
// `payout_status: 'Failed'`, also in an object it wraps them in: `data: { success: false }`) is
// not an initiation: the service said two things, and which one it meant cannot be known. It is an
// ApiError (the request was answered, so it may still have started the payment: a tracked record
// stays pending), never a resolved call the merchant shows as "a prompt reached your phone".
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, PaymentsClient } from '../../src/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';
import {
  cardPaymentInput,
  checkoutSessionInput,
  mobileMoneyPaymentInput,
  payoutInput,
} from '../helpers/inputs.js';
import { startServer, type TestServer } from '../helpers/servers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A service answering every request 200 with `reply` as JSON. */
async function replying(reply: object): Promise<string> {
  server = await startServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply));
    });
  });
  return server.url;
}

const card = { message: 'Card Payment Initiated', status: 200 };
const mobileMoney = { message: 'MOBILE-MONEY Payment Initiated', status: 200 };
const payout = { message: 'Mobile Payout Initiated', status: 200 };
const checkout = {
  checkout_link: 'https://payments.example.com/checkout/abc',
  status: true,
  order_id: '1003',
};

/** The string values of `value`, of the objects and arrays in it too. */
const valuesOf = (value: unknown): unknown[] =>
  typeof value === 'object' && value !== null ? Object.values(value).flatMap(valuesOf) : [value];

/** The documented fields' values, which the message may quote. */
const documentedFields = { card, mobileMoney, payout, checkout };

type Call = (client: PaymentsClient) => Promise<unknown>;
const calls: Record<'card' | 'mobileMoney' | 'payout' | 'checkout', Call> = {
  card: (client) => client.initiateCardPayment(cardPaymentInput),
  mobileMoney: (client) => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput),
  payout: (client) => client.initiatePayout(payoutInput),
  checkout: (client) => client.createCheckoutSession(checkoutSessionInput),
};

describe('a 2xx initiation reply whose other keys say the request failed', () => {
  it.each([
    ['card', { ...card, success: false, error: 'card_declined' }, 'success'],
    ['card', { ...card, status_code: 402 }, 'status_code'],
    ['card', { ...card, errors: ['card declined'] }, 'errors'],
    ['mobileMoney', { ...mobileMoney, ok: 'false' }, 'ok'],
    [
      'mobileMoney',
      { ...mobileMoney, ResultCode: 1032, ResultDesc: 'Request cancelled by user' },
      'ResultCode',
    ],
    ['mobileMoney', { ...mobileMoney, transaction_status: 'Failed' }, 'transaction_status'],
    [
      'payout',
      { ...payout, payout_status: 'Failed', error_message: 'Insufficient wallet balance' },
      'payout_status',
    ],
    ['payout', { ...payout, declined: true }, 'declined'],
    ['checkout', { ...checkout, error: 'session_expired' }, 'error'],
    ['card', { ...card, status_code: 402, paid: 'False' }, 'status_code'],
    // A status code written with its reason phrase is read by its number.
    ['card', { ...card, status_code: '402 Payment Required' }, 'status_code'],
    ['mobileMoney', { ...mobileMoney, http_status: '429 Too Many Requests' }, 'http_status'],
    ['payout', { ...payout, payout_status: '409 Conflict' }, 'payout_status'],
    // In an object the reply wraps them in, as the callback verdict reads a success's.
    ['card', { ...card, data: { success: false, error: 'card_declined' } }, 'data.success'],
    ['mobileMoney', { ...mobileMoney, data: { result: { ResultCode: 1032 } } }, 'data.result.ResultCode'],
    ['payout', { ...payout, result: { payout_status: 'Failed' } }, 'result.payout_status'],
    ['checkout', { ...checkout, data: { error: 'session_expired' } }, 'data.error'],
    // A flag of any success form, and a failure beside a word of a payment not final yet.
    ['card', { ...card, succeeded: false }, 'succeeded'],
    ['card', { ...card, transaction_status: 'AuthorizationFailed' }, 'transaction_status'],
    ['mobileMoney', { ...mobileMoney, state: 'authorization_declined' }, 'state'],
    ['payout', { ...payout, payout_status: 'PROCESSING_FAILED' }, 'payout_status'],
    // An HTTP status outside 2xx, whether a number, its digits or a status line.
    ['card', { ...card, status_code: 0 }, 'status_code'],
    ['checkout', { ...checkout, http_status: '402 Payment Required' }, 'http_status'],
    ['payout', { ...payout, httpStatusCode: '503' }, 'httpStatusCode'],
    // A response or return code other than 0 or 2xx, as M-Pesa's initiation replies carry one.
    ['mobileMoney', { ...mobileMoney, ResponseCode: '1032' }, 'ResponseCode'],
    ['card', { ...card, return_code: '05' }, 'return_code'],
    ['checkout', { ...checkout, ResponseDescription: 'Invalid Access Token' }, 'ResponseDescription'],
    // A flag of the request taken on that does not say yes: the request was not accepted.
    ['card', { ...card, accepted: false }, 'accepted'],
    ['mobileMoney', { ...mobileMoney, is_initiated: 'false' }, 'is_initiated'],
    ['payout', { ...payout, data: { accepted: 0 } }, 'data.accepted'],
  ] as const)('is an ApiError naming the key, not an initiation (%s: %j)', async (kind, reply, key) => {
    const baseUrl = await replying(reply);
    const error = await caught(() => calls[kind](new PaymentsClient({ baseUrl })));
    expect(error).toBeInstanceOf(ApiError);
    const { status, issues, message } = error as ApiError;
    expect(status).toBe(200);
    expect(issues).toEqual([expect.objectContaining({ path: key.split('.'), code: 'contradictory_reply' })]);
    // The message names the key, never its value. The URL it names is left out: its port is
    // random and may hold a value's digits ("05", "1032").
    expect(message).toContain(key);
    const said = message.replaceAll(baseUrl, '');
    expect(said).not.toBe(message);
    for (const value of valuesOf(reply)) {
      if (
        typeof value === 'string' &&
        !Object.values(documentedFields)
          .flatMap((fields) => Object.values(fields))
          .includes(value)
      ) {
        expect(said).not.toContain(value);
      }
    }
  });

  it.each([
    ['card', { ...card, paid: false }],
    ['card', { ...card, success: true, error: null, errors: [] }],
    ['mobileMoney', { ...mobileMoney, transaction_status: 'Pending', ResultCode: 0 }],
    ['mobileMoney', { ...mobileMoney, state: 'Initiated', status_text: 'Request accepted for processing' }],
    ['payout', { ...payout, payout_status: 'Processing', status_code: 202, unpaid: true }],
    ['payout', { ...payout, description: 'Failed payouts are reversed' }],
    ['checkout', { ...checkout, error_code: '00', completed: false }],
    ['card', { ...card, paid: false, payment_status: 'pending', error: null, errors: [] }],
    ['mobileMoney', { ...mobileMoney, transaction_status: 'Initiated', status_code: '202 Accepted' }],
    ['checkout', { ...checkout, description: 'Failed orders are refunded' }],
    ['card', { ...card, data: { paid: 'False', status: 'pending', error: null } }],
    // An array may list earlier attempts or line items: not read, as the verdict does not.
    ['payout', { ...payout, attempts: [{ status: 'failed' }] }],
    // A status text of a payment not final yet, however the service spells it.
    ['card', { ...card, transaction_status: 'PAYMENT_PENDING', http_status: '201 Created' }],
    ['mobileMoney', { ...mobileMoney, state: 'STK_PUSH_INITIATED', ResultCode: '0' }],
    ['payout', { ...payout, payout_status: 'awaiting-approval', status_code: 202 }],
    [
      'mobileMoney',
      { ...mobileMoney, ResponseCode: '0', ResponseDescription: 'Success. Request accepted for processing' },
    ],
  ] as const)('resolves when they say nothing against it (%s: %j)', async (kind, reply) => {
    const baseUrl = await replying(reply);
    await expect(calls[kind](new PaymentsClient({ baseUrl }))).resolves.toEqual(reply);
  });

  it('keeps a tracked payment pending: the request was answered, and may have started it', async () => {
    const baseUrl = await replying({ ...mobileMoney, success: false });
    const tracker = createTransactionTracker();
    const client = new PaymentsClient({
      baseUrl,
      transactions: { tracker, secret: 'whsec_reply_failure_signals_0123' },
    });
    const error = await caught(() =>
      client.initiateMobileMoneyPayment({
        ...mobileMoneyPaymentInput,
        callback_details: {
          transaction_reference: 'ORD-SAYS-FAILED',
          callback_url: 'https://shop.example/hooks',
        },
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(await tracker.get('ORD-SAYS-FAILED')).toMatchObject({ state: 'pending' });
  });

  it('keeps a tracked card payment pending when its status says the authorisation failed', async () => {
    const baseUrl = await replying({ ...card, transaction_status: 'AuthorisationFailed' });
    const tracker = createTransactionTracker();
    const client = new PaymentsClient({
      baseUrl,
      transactions: { tracker, secret: 'whsec_reply_failure_signals_0123' },
    });
    const error = await caught(() =>
      client.initiateCardPayment({
        ...cardPaymentInput,
        callback_details: {
          transaction_reference: 'ORD-CARD-AUTH-FAILED',
          callback_url: 'https://shop.example/hooks',
        },
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).issues).toEqual([
      expect.objectContaining({ path: ['transaction_status'], code: 'contradictory_reply' }),
    ]);
    expect(await tracker.get('ORD-CARD-AUTH-FAILED')).toMatchObject({ state: 'pending' });
  });
});
