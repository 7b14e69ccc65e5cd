// The client's `transactions` option against the real sandbox and a real webhook server: the
// callback URL is signed for the reference, the transaction is recorded before the initiation is
// sent, a refusal expires it, and waitFor sees the callback's outcome.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCallbackHandler } from '../../src/callbacks/handler.js';
import { toNodeListener } from '../../src/callbacks/node.js';
import { verifyCallbackUrl } from '../../src/callbacks/signing.js';
import { PaymentsClient, type ClientOptions } from '../../src/client.js';
import { ApiError, ConnectionError, ValidationError } from '../../src/errors.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import {
  TransactionConflictError,
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionTracker,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';

const secret = 'whsec_tracked_client_test';
const tracker = createTransactionTracker();
const refusals: string[] = [];
// Resolves the waiter of a reference when its first delivery reaches the handler, whatever the answer.
const arrivals = new Map<string, () => void>();
const arrived = (reference: string) => new Promise<void>((resolve) => arrivals.set(reference, resolve));
const server = createServer((req, res) => {
  const reference = new URL(req.url ?? '/', 'http://x').searchParams.get('hp_ref');
  res.on('finish', () => (reference === null ? undefined : arrivals.get(reference)?.()));
  void listener(req, res);
});
const listener = toNodeListener(
  createCallbackHandler({
    secret,
    tracker,
    onEvent: () => undefined,
    onError: (_error, { reason }) => {
      refusals.push(reason);
    },
  }),
);
let sandbox: Sandbox;
let webhookUrl: string;
let client: PaymentsClient;

const customer = { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' };
const amount = (total: number) => ({ delivery_fee: 100, discount_fee: 50, total, currency: 'KES' });
const initiated = () => Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
const refusedAs = (status: number) => () => new Response('{"error":"refused"}', { status });
const stkPush = (reference: string) => ({
  customer_details: customer,
  amount: amount(900),
  callback_details: { transaction_reference: reference, callback_url: webhookUrl },
});
const destination = {
  type: 'mobile',
  country_code: 'KE',
  mobile_number: '0712345678',
  wallet_name: 'MOBILE-MONEY',
};

/**
 * A client whose service answers `response` (or fails as a fetch that throws it), through the
 * built-in fetch, and keeps the requests that reached it; `options` are further client options.
 */
const clientAnswering = (
  response: () => Response | Promise<Response>,
  use: TransactionTracker = tracker,
  options: Partial<ClientOptions> = {},
) => {
  const sent: Request[] = [];
  const fake = new PaymentsClient({
    ...options,
    baseUrl: fakeService(async (request) => {
      sent.push(request);
      return response();
    }),
    transactions: { tracker: use, secret },
  });
  return { client: fake, sent };
};

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/payments`;
  sandbox = await startSandbox({ callbackDelayMs: 20, retryDelayMs: 50, log: false });
  client = new PaymentsClient({ baseUrl: sandbox.url, transactions: { tracker, secret } });
});
afterAll(async () => {
  await sandbox?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  refusals.length = 0;
});

describe('PaymentsClient({ transactions }): initiate, then await the outcome', () => {
  it('the three-line snippet: a mobile-money success, and an insufficient-funds failure', async () => {
    {
      // As docs/transactions.md has it.
      const baseUrl = sandbox.url;
      const apiKey = 'sk_test_snippet';
      const customer_details = customer;
      const amount = { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' };
      const callback_url = webhookUrl;
      const client = new PaymentsClient({ baseUrl, apiKey, transactions: { tracker, secret } });
      await client.initiateMobileMoneyPayment({
        customer_details,
        amount,
        callback_details: { transaction_reference: 'ORD-1', callback_url },
      });
      const { state } = await tracker.waitFor('ORD-1', { timeout: 120_000 }); // 'succeeded' | 'failed' | 'expired'
      expect(state).toBe('succeeded');
    }
    expect(await tracker.get('ORD-1')).toMatchObject({
      kind: 'mobile_money',
      amount: '1500',
      currency: 'KES',
    });

    await client.initiateMobileMoneyPayment({
      customer_details: { ...customer, phone_number: '254700000406' },
      amount: amount(800),
      callback_details: { transaction_reference: 'TRK-2', callback_url: webhookUrl },
    });
    await expect(tracker.waitFor('TRK-2', { timeout: 10_000 })).resolves.toMatchObject({
      state: 'failed',
      outcome: { eventType: 'payment.mobile_money.failed' },
    });
    expect(refusals).toEqual([]);
  });

  it('signs each kind of callback URL with the reference the callback carries, and settles it', async () => {
    await client.initiateCardPayment({
      customer_details: customer,
      amount: amount(1200),
      card_details: { card_number: '4242 4242 4242 4242', expiry_month: 12, expiry_year: 2099, cvc: '123' },
      callback_details: { transaction_reference: 'TRK-CARD', callback_url: webhookUrl },
    });
    const session = await client.createCheckoutSession({
      customer_details: customer,
      amount: { ...amount(2500), order_id: 7001 },
      redirect_urls: {
        success_url: 'https://shop.example/thanks',
        failed_url: 'https://shop.example/failed',
        callback_url: webhookUrl,
      },
    });
    await sandbox.completeCheckout(session.checkout_link, { method: 'card', outcome: 'success' });
    await client.initiatePayout({
      customer_details: customer,
      destination,
      transfer: { amount: 1000, currency: 'KES', reference_id: '483920175561', description: 'Refund' },
      webhook_endpoint: { webhook_url: webhookUrl },
    });

    for (const [reference, kind, total] of [
      ['TRK-CARD', 'card', '1200'],
      ['7001', 'checkout', '2500'],
      ['483920175561', 'payout', '1000'],
    ] as const) {
      await expect(tracker.waitFor(reference, { timeout: 10_000 })).resolves.toMatchObject({
        kind,
        amount: total,
        currency: 'KES',
        state: 'succeeded',
      });
      const sent = sandbox.deliveries.find((d) => new URL(d.url).searchParams.get('hp_ref') === reference);
      expect(sent, reference).toBeDefined();
      await expect(verifyCallbackUrl(sent!.url, { secret })).resolves.toEqual({ reference });
    }
    expect(refusals).toEqual([]);
  });

  it('records before sending: a callback that beats the response settles, never 409 unknown_reference', async () => {
    // The response is held back until the callback has been answered.
    const racing = new PaymentsClient({
      baseUrl: sandbox.url,
      transactions: { tracker, secret },
      fetch: async (request) => {
        const callback = arrived('TRK-RACE');
        const response = await fetch(request);
        await callback;
        return response;
      },
    });
    await racing.initiateMobileMoneyPayment({
      customer_details: customer,
      amount: amount(700),
      callback_details: { transaction_reference: 'TRK-RACE', callback_url: webhookUrl },
    });
    await expect(tracker.waitFor('TRK-RACE', { timeout: 10_000 })).resolves.toMatchObject({
      state: 'succeeded',
    });
    expect(refusals).toEqual([]);
  });
});

describe('PaymentsClient({ transactions }): what is recorded when the initiation does not go through', () => {
  it('a refusal (4xx) expires the record, so waitFor does not hang; the ApiError reaches the caller', async () => {
    const { client: refusing, sent } = clientAnswering(
      () => new Response('{"error":"bad phone"}', { status: 400 }),
    );
    await expect(
      refusing.initiateMobileMoneyPayment({
        customer_details: customer,
        amount: amount(900),
        callback_details: { transaction_reference: 'TRK-400', callback_url: webhookUrl },
      }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(sent).toHaveLength(1);
    await expect(tracker.waitFor('TRK-400', { timeout: 1_000 })).resolves.toMatchObject({
      state: 'expired',
      amount: '900',
    });
  });

  // A 4xx answering a retry proves nothing about the attempt before it: a 409 "duplicate reference"
  // is what a service answers when the first attempt went through.
  it.each([
    ['a 503', () => refusedAs(503)(), 400, 'TRK-RETRY-503'],
    ['a 504', () => refusedAs(504)(), 409, 'TRK-RETRY-504'],
  ] as const)(
    'with retries on, a 4xx answering the retry after %s leaves the record pending: the first attempt may have charged',
    async (_name, first, status, reference) => {
      let calls = 0;
      const { client: retrying, sent } = clientAnswering(
        () => {
          calls += 1;
          return calls === 1 ? first() : refusedAs(status)();
        },
        tracker,
        { retry: { limit: 1, backoffLimit: 1 } },
      );
      const error = await retrying.initiateMobileMoneyPayment(stkPush(reference)).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ApiError', status });
      expect(sent).toHaveLength(2);
      expect(await tracker.get(reference)).toMatchObject({ state: 'pending' });
    },
  );

  // A lost connection may follow a request the service received: even with retries on it is not
  // sent again (only one that provably never went out is).
  it('with retries on, a lost connection is not retried: a ConnectionError, one request, the record pending', async () => {
    const { client: retrying, sent } = clientAnswering(
      () => {
        throw new TypeError('fetch failed');
      },
      tracker,
      { retry: { limit: 1, backoffLimit: 1 } },
    );
    const error = await retrying
      .initiateMobileMoneyPayment(stkPush('TRK-RETRY-CONN'))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ConnectionError', sent: true });
    expect(sent).toHaveLength(1);
    expect(await tracker.get('TRK-RETRY-CONN')).toMatchObject({ state: 'pending' });
  });

  it.each([
    ['a 5xx', () => new Response('down', { status: 503 }), ApiError, 'TRK-503'],
    ['a 500', () => new Response('oops', { status: 500 }), ApiError, 'TRK-500'],
    [
      'a lost connection',
      () => {
        throw new TypeError('fetch failed');
      },
      ConnectionError,
      'TRK-CONN',
    ],
  ] as const)(
    'after %s the payment may be under way: the record stays pending, and stale lists it',
    async (_name, answer, errorClass, reference) => {
      const { client: failing } = clientAnswering(answer);
      await expect(
        failing.initiateCardPayment({
          customer_details: customer,
          amount: amount(1500),
          card_details: {
            card_number: '4242 4242 4242 4242',
            expiry_month: 12,
            expiry_year: 2099,
            cvc: '123',
          },
          callback_details: { transaction_reference: reference, callback_url: webhookUrl },
        }),
      ).rejects.toBeInstanceOf(errorClass);
      expect(await tracker.get(reference)).toMatchObject({ state: 'pending', kind: 'card' });
      // Pending for longer than 0 ms: once the clock has moved on from the moment it was recorded.
      await expect
        .poll(async () => (await tracker.stale({ olderThan: 0 })).map((r) => r.reference))
        .toContain(reference);
    },
  );

  it('invalid input: a ValidationError, nothing recorded, nothing sent', async () => {
    const { client: fake, sent } = clientAnswering(() => Response.json({}));
    await expect(
      fake.initiateMobileMoneyPayment({
        customer_details: { ...customer, email: 'not-an-email' },
        amount: amount(900),
        callback_details: { transaction_reference: 'TRK-INVALID', callback_url: webhookUrl },
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toHaveLength(0);
    expect(await tracker.get('TRK-INVALID')).toBeUndefined();
  });

  it('requires a payout reference_id (the one to wait on, as without a tracker), and sends nothing without one', async () => {
    const { client: fake, sent } = clientAnswering(() => Response.json({}));
    const error = await fake
      .initiatePayout({
        customer_details: customer,
        destination,
        // A JavaScript caller's input: the types refuse it.
        transfer: { amount: 1000, currency: 'KES', description: 'Refund' } as never,
        webhook_endpoint: { webhook_url: webhookUrl },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['transfer', 'reference_id'], code: 'required' }),
    ]);
    expect(sent).toHaveLength(0);
  });

  it('names a missing payout reference_id together with the input’s other problems, in one ValidationError', async () => {
    const { client: fake, sent } = clientAnswering(() => Response.json({}));
    const error = await fake
      .initiatePayout({
        customer_details: customer,
        destination,
        transfer: { amount: 0, currency: 'KES', description: 'Refund' } as never,
        webhook_endpoint: { webhook_url: webhookUrl },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path.join('.'))).toEqual([
      'transfer.amount',
      'transfer.reference_id',
    ]);
    expect((error as ValidationError).message).toMatch(
      /^Invalid payout: transfer\.amount: .+; transfer\.reference_id: required/,
    );
    expect(sent).toHaveLength(0);
  });

  it.each([
    ['missing at the first read only', [undefined, '483920175561']],
    ['missing at the second read only', ['483920175561', undefined]],
  ])('sends no made-up reference_id when the input’s reference is %s (a getter)', async (_, answers) => {
    const { client: fake, sent } = clientAnswering(() =>
      Response.json({ message: 'Mobile Payout Initiated', status: 200 }),
    );
    let reads = 0;
    const transfer = {
      amount: 1000,
      currency: 'KES',
      description: 'Refund',
      get reference_id() {
        return answers[Math.min(reads++, answers.length - 1)];
      },
    };
    const error = await fake
      .initiatePayout({
        customer_details: customer,
        destination,
        transfer,
        webhook_endpoint: { webhook_url: webhookUrl },
      } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['transfer', 'reference_id'], code: 'required' }),
    ]);
    expect(sent).toHaveLength(0);
  });

  it('requires the amount of a payment (the callback is checked against it), and sends nothing without one', async () => {
    const { client: fake, sent } = clientAnswering(() => Response.json({}));
    const error = await fake
      .initiateMobileMoneyPayment({
        customer_details: customer,
        callback_details: { transaction_reference: 'TRK-NOAMOUNT', callback_url: webhookUrl },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]).toMatchObject({
      path: ['amount', 'total'],
      code: 'required_for_tracking',
    });
    expect(sent).toHaveLength(0);
    expect(await tracker.get('TRK-NOAMOUNT')).toBeUndefined();
  });

  // The tracked call signs the URL; a query whose percent-escapes are no UTF-8 would be signed and
  // sent as the runtime writes it back (workerd keeps `%C3`, Node writes `%EF%BF%BD`).
  it('refuses a callback URL whose query holds a percent-escape that is no UTF-8 character, naming the field, and sends nothing', async () => {
    const { client: fake, sent } = clientAnswering(initiated);
    const error = await fake
      .initiateMobileMoneyPayment({
        customer_details: customer,
        amount: amount(500),
        callback_details: { transaction_reference: 'TRK-BADQUERY', callback_url: `${webhookUrl}?w=%C3` },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({
        path: ['callback_details', 'callback_url'],
        code: 'required_for_tracking',
        message: expect.stringContaining('percent-encoded UTF-8'),
      }),
    ]);
    expect(sent).toHaveLength(0);
    expect(await tracker.get('TRK-BADQUERY')).toBeUndefined();
  });

  it('refuses to initiate again under the reference of a settled transaction, and sends nothing', async () => {
    await tracker.begin({ reference: 'TRK-PAID', kind: 'mobile_money', amount: 500, currency: 'KES' });
    await tracker.settle('TRK-PAID', { outcome: 'succeeded' });
    const { client: fake, sent } = clientAnswering(() => Response.json({}));
    const error = await fake
      .initiateMobileMoneyPayment({
        customer_details: customer,
        amount: amount(500),
        callback_details: { transaction_reference: 'TRK-PAID', callback_url: webhookUrl },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionConflictError);
    expect(error).toMatchObject({ reason: 'already_settled', reference: 'TRK-PAID' });
    expect(sent).toHaveLength(0);
  });

  it('refuses the same reference with another amount (reference_in_use), and sends nothing', async () => {
    await tracker.begin({ reference: 'TRK-OTHER', kind: 'mobile_money', amount: 500, currency: 'KES' });
    const { client: fake, sent } = clientAnswering(() => Response.json({}));
    await expect(
      fake.initiateMobileMoneyPayment({
        customer_details: customer,
        amount: amount(5000),
        callback_details: { transaction_reference: 'TRK-OTHER', callback_url: webhookUrl },
      }),
    ).rejects.toMatchObject({ name: 'TransactionConflictError', reason: 'reference_in_use' });
    expect(sent).toHaveLength(0);
  });

  it('sends nothing when the transaction cannot be recorded (the store is unreachable)', async () => {
    const down = createTransactionTracker({
      store: {
        insert: () => Promise.reject(new Error('store unreachable')),
        get: () => Promise.resolve(undefined),
        update: () => Promise.resolve(false),
        listPending: () => Promise.resolve([]),
      },
    });
    const { client: fake, sent } = clientAnswering(() => Response.json({}), down);
    await expect(
      fake.initiateMobileMoneyPayment({
        customer_details: customer,
        amount: amount(500),
        callback_details: { transaction_reference: 'TRK-DOWN', callback_url: webhookUrl },
      }),
    ).rejects.toThrow('store unreachable');
    expect(sent).toHaveLength(0);
  });
});

describe('PaymentsClient({ transactions }): a call that fails before sending records nothing', () => {
  it.each([
    ['per-call headers of null', { headers: null }, ['headers'], 'TRK-OPT-NULL'],
    ['per-call headers of a string', { headers: 'abc' }, ['headers'], 'TRK-OPT-STRING'],
    [
      'a per-call header value HTTP cannot carry',
      { headers: { 'x-a': 'b\r\nc' } },
      ['headers', 'x-a'],
      'TRK-OPT-CRLF',
    ],
    ['a negative per-call timeout', { timeout: -1 }, ['timeout'], 'TRK-OPT-TIMEOUT'],
    ['a per-call totalTimeout of 0', { totalTimeout: 0 }, ['totalTimeout'], 'TRK-OPT-TOTAL'],
    ['a per-call signal that is not an AbortSignal', { signal: 'stop' }, ['signal'], 'TRK-OPT-SIGNAL'],
  ] as const)(
    '%s: a ValidationError naming it, nothing recorded, nothing sent',
    async (_name, options, path, reference) => {
      const { client: fake, sent } = clientAnswering(initiated);
      const error = await fake
        .initiateMobileMoneyPayment(stkPush(reference), options as never)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([path]);
      expect(await tracker.get(reference)).toBeUndefined();
      expect(sent).toHaveLength(0);
    },
  );

  it('a headers function that returns null: a ValidationError naming headers, nothing recorded, nothing sent', async () => {
    const { client: fake, sent } = clientAnswering(initiated, tracker, { headers: (() => null) as never });
    const error = await fake.initiateMobileMoneyPayment(stkPush('TRK-HEADERS-FN')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['headers']]);
    expect(await tracker.get('TRK-HEADERS-FN')).toBeUndefined();
    expect(sent).toHaveLength(0);
  });

  it("a throwing beforeRequest hook: the hook's error, nothing recorded, nothing sent", async () => {
    const hookError = new Error('log sink down');
    const { client: fake, sent } = clientAnswering(initiated, tracker, {
      hooks: {
        beforeRequest: () => {
          throw hookError;
        },
      },
    });
    await expect(fake.initiateMobileMoneyPayment(stkPush('TRK-HOOK'))).rejects.toBe(hookError);
    expect(await tracker.get('TRK-HOOK')).toBeUndefined();
    expect(sent).toHaveLength(0);
  });

  it("an already-aborted signal: the aborted ConnectionError, nothing recorded, the client's fetch never called", async () => {
    const { client: fake, sent } = clientAnswering(initiated);
    const error = await fake
      .initiateMobileMoneyPayment(stkPush('TRK-ABORTED'), { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ aborted: true });
    expect(await tracker.get('TRK-ABORTED')).toBeUndefined();
    expect(sent).toHaveLength(0);
  });

  it('records after the beforeRequest hook, before the first request, and once however many attempts', async () => {
    const seen: unknown[] = [];
    let calls = 0;
    const { client: fake, sent } = clientAnswering(
      async () => {
        calls += 1;
        seen.push((await tracker.get('TRK-ORDER'))?.state);
        return calls === 1 ? refusedAs(503)() : initiated();
      },
      tracker,
      {
        retry: { limit: 1, backoffLimit: 1 },
        hooks: {
          beforeRequest: async () => void seen.push((await tracker.get('TRK-ORDER'))?.state ?? 'none'),
        },
      },
    );
    await fake.initiateMobileMoneyPayment(stkPush('TRK-ORDER'));
    expect(sent).toHaveLength(2);
    // hook (attempt 1), request 1, hook (attempt 2), request 2: recorded once, after the first hook
    expect(seen).toEqual(['none', 'pending', 'pending', 'pending']);
  });

  it('a store that fails to record: a TransactionStoreError carrying its message, never retried, nothing sent', async () => {
    let inserts = 0;
    const down = createTransactionTracker({
      store: {
        insert: () => {
          inserts += 1;
          return Promise.reject(new Error('store unreachable'));
        },
        get: () => Promise.resolve(undefined),
        update: () => Promise.resolve(false),
        listPending: () => Promise.resolve([]),
      },
    });
    const { client: fake, sent } = clientAnswering(initiated, down, {
      retry: { limit: 3, backoffLimit: 1 },
    });
    const error = await fake.initiateMobileMoneyPayment(stkPush('TRK-DOWN-RETRY')).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TransactionStoreError', sent: false });
    expect((error as Error).message).toContain('store unreachable');
    expect(inserts).toBe(1);
    expect(sent).toHaveLength(0);
  });

  it('a conflicting reference with retries on: the TransactionConflictError, never retried, nothing sent', async () => {
    await tracker.begin({
      reference: 'TRK-CONFLICT-RETRY',
      kind: 'mobile_money',
      amount: 1,
      currency: 'KES',
    });
    const { client: fake, sent } = clientAnswering(initiated, tracker, { retry: 3 });
    await expect(fake.initiateMobileMoneyPayment(stkPush('TRK-CONFLICT-RETRY'))).rejects.toBeInstanceOf(
      TransactionConflictError,
    );
    expect(sent).toHaveLength(0);
  });
});

describe('PaymentsClient({ transactions }): initiating again under a recorded reference', () => {
  it('after a refusal, a corrected re-send records the transaction pending again, and its callback settles it', async () => {
    const { client: refusing } = clientAnswering(refusedAs(400));
    await expect(refusing.initiateMobileMoneyPayment(stkPush('TRK-RESEND'))).rejects.toBeInstanceOf(ApiError);
    expect(await tracker.get('TRK-RESEND')).toMatchObject({ state: 'expired' });

    await client.initiateMobileMoneyPayment(stkPush('TRK-RESEND'));
    // Not 'expired' at once while the payment is under way: the callback's outcome, and not late.
    const record = await tracker.waitFor('TRK-RESEND', { timeout: 10_000 });
    expect(record).toMatchObject({ state: 'succeeded', amount: '900' });
    expect(record.late).toBeUndefined();
    expect(record.expiredAt).toBeUndefined();
    expect(refusals).toEqual([]);
  });

  it('a re-send that is refused in turn expires the record it made pending again', async () => {
    const { client: refusing, sent } = clientAnswering(refusedAs(400));
    await refusing.initiateMobileMoneyPayment(stkPush('TRK-TWICE')).catch(() => undefined);
    const { client: fake } = clientAnswering(initiated);
    await fake.initiateMobileMoneyPayment(stkPush('TRK-TWICE'));
    expect(await tracker.get('TRK-TWICE')).toMatchObject({ state: 'pending' });
    await tracker.expire('TRK-TWICE');
    await expect(refusing.initiateMobileMoneyPayment(stkPush('TRK-TWICE'))).rejects.toBeInstanceOf(ApiError);
    expect(sent).toHaveLength(2);
    expect(await tracker.get('TRK-TWICE')).toMatchObject({ state: 'expired' });
  });

  it.each([
    ['refused by the service (409)', undefined],
    ['a ValidationError of its own options', { timeout: -5 }],
  ] as const)(
    "a second call while the first is in flight, %s, leaves the first one's record pending",
    async (_name, options) => {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let calls = 0;
      const { client: fake, sent } = clientAnswering(async () => {
        calls += 1;
        if (calls > 1) return refusedAs(409)();
        await held;
        return initiated();
      });
      const reference = options === undefined ? 'TRK-INFLIGHT-409' : 'TRK-INFLIGHT-OPTS';
      const first = fake.initiateMobileMoneyPayment(stkPush(reference));
      await expect.poll(() => sent.length).toBe(1);

      const second = await fake
        .initiateMobileMoneyPayment(stkPush(reference), options)
        .catch((e: unknown) => e);
      expect(second).toBeInstanceOf(options === undefined ? ApiError : ValidationError);
      expect(await tracker.get(reference)).toMatchObject({ state: 'pending' });

      release();
      await expect(first).resolves.toMatchObject({ status: 200 });
      expect(await tracker.get(reference)).toMatchObject({ state: 'pending' });
    },
  );

  it('the first call refused after a second one went out leaves the record pending (that payment may be under way)', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const { client: fake, sent } = clientAnswering(async () => {
      calls += 1;
      if (calls > 1) return initiated();
      await held;
      return refusedAs(409)();
    });
    const first = fake.initiateMobileMoneyPayment(stkPush('TRK-OVERTAKEN')).catch((e: unknown) => e);
    await expect.poll(() => sent.length).toBe(1);
    await fake.initiateMobileMoneyPayment(stkPush('TRK-OVERTAKEN'));
    release();
    expect(await first).toBeInstanceOf(ApiError);
    expect(await tracker.get('TRK-OVERTAKEN')).toMatchObject({ state: 'pending' });
  });

  it('after an uncertain failure the record stays pending; a re-send goes out, and its refusal leaves the record alone', async () => {
    const { client: failing } = clientAnswering(refusedAs(503));
    await expect(failing.initiateMobileMoneyPayment(stkPush('TRK-UNSURE'))).rejects.toBeInstanceOf(ApiError);
    expect(await tracker.get('TRK-UNSURE')).toMatchObject({ state: 'pending' });

    // docs/transactions.md: re-initiating a pending reference is allowed, and the first callback settles it.
    const { client: refusing, sent } = clientAnswering(refusedAs(400));
    await expect(refusing.initiateMobileMoneyPayment(stkPush('TRK-UNSURE'))).rejects.toBeInstanceOf(ApiError);
    expect(sent).toHaveLength(1);
    expect(await tracker.get('TRK-UNSURE')).toMatchObject({ state: 'pending' });
  });
});

describe('PaymentsClient({ transactions }): a 200 that does not say initiated', () => {
  it('is an ApiError, and the record stays pending: the service may have started the payment', async () => {
    const { client: vague, sent } = clientAnswering(() =>
      Response.json({ message: 'Payment Failed', status: 200 }),
    );
    await expect(vague.initiateMobileMoneyPayment(stkPush('TRK-VAGUE-200'))).rejects.toBeInstanceOf(ApiError);
    expect(sent).toHaveLength(1);
    expect(await tracker.get('TRK-VAGUE-200')).toMatchObject({ state: 'pending' });
  });
});

describe('PaymentsClient({ transactions }): when the tracker cannot follow a refusal', () => {
  it("a refusal whose record the store cannot expire: the ApiError, carrying a TransactionStoreError with the store's error; the record stays pending", async () => {
    const store = createMemoryTransactionStore();
    const storeError = new Error('store unreachable');
    const flaky = createTransactionTracker({
      store: { ...store, update: () => Promise.reject(storeError) },
    });
    const { client: refusing, sent } = clientAnswering(refusedAs(400), flaky);
    const error = await refusing
      .initiateMobileMoneyPayment(stkPush('TRK-NO-EXPIRE'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400 });
    expect((error as ApiError).cause).toMatchObject({ name: 'TransactionStoreError', sent: true });
    expect(((error as ApiError).cause as Error).cause).toMatchObject({ message: storeError.message });
    expect(sent).toHaveLength(1);
    expect(await flaky.get('TRK-NO-EXPIRE')).toMatchObject({ state: 'pending' });
  });
});

describe("PaymentsClient({ transactions }): the tracker's clock", () => {
  it("an expired reference initiated again is recorded pending at the tracker's time", async () => {
    let now = 1_000;
    const clocked = createTransactionTracker({ now: () => now });
    const { client: refusing } = clientAnswering(refusedAs(400), clocked);
    await refusing.initiateMobileMoneyPayment(stkPush('TRK-CLOCK')).catch(() => undefined);
    expect(await clocked.get('TRK-CLOCK')).toMatchObject({ state: 'expired', createdAt: 1_000 });

    now = 5_000;
    const { client: fake } = clientAnswering(initiated, clocked);
    await fake.initiateMobileMoneyPayment(stkPush('TRK-CLOCK'));
    expect(await clocked.get('TRK-CLOCK')).toMatchObject({
      state: 'pending',
      createdAt: 5_000,
      updatedAt: 5_000,
    });
    expect((await clocked.stale({ olderThan: 0 })).map((r) => r.reference)).toEqual([]);
    now += 5 * 60_000 + 1;
    expect((await clocked.stale()).map((r) => r.reference)).toEqual(['TRK-CLOCK']);
  });
});

describe('PaymentsClient({ transactions }): store round trips and ownership', () => {
  it('records a new transaction with one store call before sending: the insert', async () => {
    const store = createMemoryTransactionStore();
    const calls: string[] = [];
    const counted = createTransactionTracker({
      store: {
        insert: (record) => (calls.push('insert'), store.insert(record)),
        get: (reference) => (calls.push('get'), store.get(reference)),
        update: (record, from) => (calls.push('update'), store.update(record, from)),
        listPending: (query) => store.listPending(query),
      },
    });
    const { client: fake } = clientAnswering(() => {
      calls.push('sent');
      return initiated();
    }, counted);
    await fake.initiateMobileMoneyPayment(stkPush('TRK-ONE-TRIP'));
    expect(calls).toEqual(['insert', 'sent']);
    // The call still owns what it recorded: its refusal expires it.
    const { client: refusing } = clientAnswering(refusedAs(400), counted);
    await expect(refusing.initiateMobileMoneyPayment(stkPush('TRK-ONE-TRIP-400'))).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(await counted.get('TRK-ONE-TRIP-400')).toMatchObject({ state: 'expired' });
  });

  it("a transaction recorded with tracker.begin before the initiation is not the call's: its refusal leaves it pending", async () => {
    await tracker.begin({ reference: 'TRK-BEGUN', kind: 'mobile_money', amount: 900, currency: 'KES' });
    const { client: refusing, sent } = clientAnswering(refusedAs(400));
    await expect(refusing.initiateMobileMoneyPayment(stkPush('TRK-BEGUN'))).rejects.toBeInstanceOf(ApiError);
    expect(sent).toHaveLength(1);
    expect(await tracker.get('TRK-BEGUN')).toMatchObject({ state: 'pending' });
  });

  it("a duplicate submission stamped in the same millisecond is refused without expiring the first one's record", async () => {
    // A clock that does not move between the two calls (an injected one, or a coarse runtime clock).
    const frozen = createTransactionTracker({ now: () => 1_000 });
    const { client: accepting } = clientAnswering(initiated, frozen);
    await accepting.initiateMobileMoneyPayment(stkPush('TRK-SAME-MS'));
    const { client: refusing } = clientAnswering(refusedAs(409), frozen);
    await expect(refusing.initiateMobileMoneyPayment(stkPush('TRK-SAME-MS'))).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(await frozen.get('TRK-SAME-MS')).toMatchObject({ state: 'pending' });
  });
});
