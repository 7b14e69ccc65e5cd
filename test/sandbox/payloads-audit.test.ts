// The eight callbacks the sandbox posts to a merchant's webhook route, written out key by key as
// the API reference (§2.9) lists them: key names with their spaces, value types (the string '1500'
// is not the number 1500), status words with their capitals and full stops, no key the live service
// would not send, and the documented contradiction of the redirect card success (paid 'False' with
// 'Payment complete.'). A webhook route written against the sandbox then reads what the live
// service sends. The values are spelled out here, not read back from the SDK's builders, so a
// changed word cannot pass unnoticed. The payout fixtures of `hosted-payments/testing` write a
// numeric payout reference as the string the service sends. A merchant whose card payment_method
// word differs from CARD (cardPaymentMethod, compared case-insensitively) still gets the card callback,
// duplicateDeliveries: true posts each callback exactly twice, the copy identical, and a route that
// keeps failing gets the documented first attempt plus five retries; port 65536 is refused by its range,
// and an empty host (an unset HOST variable) is refused rather than read as every interface.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { payoutFailurePayload, payoutSuccessPayload } from '../../src/testing/index.js';
import { amount, closedAfterEach, customer, futureYear, payoutTo } from './helpers.js';

const opened = closedAfterEach();

/** A webhook route answering 200 and keeping every JSON body it receives, in arrival order. */
async function recordingRoute(): Promise<{ url: string; bodies: Record<string, unknown>[] }> {
  const bodies: Record<string, unknown>[] = [];
  const url = await opened.route((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  return { url, bodies };
}

async function setUp(mobileMoneyBrand?: string) {
  const route = await recordingRoute();
  const sandbox = await opened.sandbox({ callbackDelayMs: 0, log: false, mobileMoneyBrand });
  const client = new PaymentsClient({ baseUrl: sandbox.url, mobileMoneyBrand });
  /** The one callback the route received for what `act` did. */
  const callbackOf = async (act: () => Promise<unknown>): Promise<Record<string, unknown>> => {
    const before = route.bodies.length;
    await act();
    await sandbox.waitForIdle();
    expect(route.bodies).toHaveLength(before + 1);
    return route.bodies[before] as Record<string, unknown>;
  };
  const card = (card_number: string) => () =>
    client.initiateCardPayment({
      customer_details: customer,
      amount,
      card_details: { card_number, expiry_month: 12, expiry_year: futureYear, cvc: '123' },
      callback_details: { transaction_reference: 'ORDER-1', callback_url: route.url },
    });
  const mobileMoney = (phone_number: string) => () =>
    client.initiateMobileMoneyPayment({
      customer_details: { ...customer, phone_number },
      amount,
      callback_details: { transaction_reference: 'ORDER-2', callback_url: route.url },
    });
  const checkout =
    (method: 'card' | 'mobile_money', outcome: 'success' | 'failure', order_id: number) => async () => {
      const session = await client.createCheckoutSession({
        customer_details: customer,
        amount: { ...amount, order_id, total: 2500 },
        redirect_urls: {
          success_url: 'http://127.0.0.1:9/success',
          failed_url: 'http://127.0.0.1:9/failed',
          callback_url: route.url,
        },
      });
      await sandbox.completeCheckout(session.checkout_link, { method, outcome });
    };
  const payout = (value: number, reference: number) => () =>
    client.initiatePayout(payoutTo(route.url, value, reference));
  return { callbackOf, card, mobileMoney, checkout, payout };
}

/** Whole seconds of Unix time around `act`, the window a callback's timestamp falls in. */
async function unixSecondsAround<T>(act: () => Promise<T>): Promise<{ result: T; from: number; to: number }> {
  const from = Math.floor(Date.now() / 1000);
  const result = await act();
  return { result, from, to: Math.ceil(Date.now() / 1000) };
}

describe('the card payment callbacks', () => {
  it('success: the eleven keys of §2.9, amounts as strings, status the number 200, timestamp in Unix seconds', async () => {
    const { callbackOf, card } = await setUp();
    const { result: body, from, to } = await unixSecondsAround(() => callbackOf(card('4242424242424242')));
    expect(body).toStrictEqual({
      id: expect.any(String),
      status: 200,
      'payment method': 'CARD',
      message: 'CARD Payment Success',
      amount: '1500',
      currency: 'KES',
      'amount captured': '1500',
      'payment status': 'Payment complete.',
      'transaction id': expect.any(String),
      paid: 'True',
      timestamp: expect.any(Number),
    });
    expect(body.timestamp).toBeGreaterThanOrEqual(from);
    expect(body.timestamp).toBeLessThanOrEqual(to);
  });

  it('failure: no amount captured, CARD Payment Failed, Payment incomplete. (lower-case i), paid False', async () => {
    const { callbackOf, card } = await setUp();
    const { result: body, from, to } = await unixSecondsAround(() => callbackOf(card('4000000000000002')));
    expect(body).toStrictEqual({
      id: expect.any(String),
      status: 200,
      'payment method': 'CARD',
      message: 'CARD Payment Failed',
      amount: '1500',
      currency: 'KES',
      'payment status': 'Payment incomplete.',
      'transaction id': expect.any(String),
      paid: 'False',
      timestamp: expect.any(Number),
    });
    expect(body.timestamp).toBeGreaterThanOrEqual(from);
    expect(body.timestamp).toBeLessThanOrEqual(to);
  });

  it('gives each payment an id and a transaction id of its own', async () => {
    const { callbackOf, card } = await setUp();
    const first = await callbackOf(card('4242424242424242'));
    const second = await callbackOf(card('4242424242424242'));
    expect(first.id).not.toBe(second.id);
    expect(first['transaction id']).not.toBe(second['transaction id']);
  });
});

describe('the mobile-money payment callbacks', () => {
  it('success: amounts as numbers, underscore keys but "transaction id" with a space, the neutral brand word', async () => {
    const { callbackOf, mobileMoney } = await setUp();
    const { result: body, from, to } = await unixSecondsAround(() => callbackOf(mobileMoney('0712345678')));
    expect(body).toStrictEqual({
      id: expect.any(String),
      response_status: 200,
      payment_method: 'MOBILE-MONEY',
      message: 'MOBILE-MONEY Payment Success',
      amount: 1500,
      amount_captured: 1500,
      payment_status: 'Payment complete.',
      'transaction id': expect.any(String),
      paid: 'True',
      timestamp: expect.any(Number),
    });
    expect(body.timestamp).toBeGreaterThanOrEqual(from);
    expect(body.timestamp).toBeLessThanOrEqual(to);
  });

  it('failure: the merchant reference echoed, response_status 406, "payment status" with a space, Payment Incomplete.', async () => {
    const { callbackOf, mobileMoney } = await setUp();
    const { result: body, from, to } = await unixSecondsAround(() => callbackOf(mobileMoney('254700000406')));
    expect(body).toStrictEqual({
      id: expect.any(String),
      transaction_reference: 'ORDER-2',
      response_status: 406,
      amount: 1500,
      paid: 'False',
      'payment status': 'Payment Incomplete.',
      message: 'Insufficient funds',
      timestamp: expect.any(Number),
    });
    expect(body.timestamp).toBeGreaterThanOrEqual(from);
    expect(body.timestamp).toBeLessThanOrEqual(to);
  });

  it('with mobileMoneyBrand M-PESA: the brand word in payment_method and message', async () => {
    const { callbackOf, mobileMoney } = await setUp('M-PESA');
    const body = await callbackOf(mobileMoney('0712345678'));
    expect(body).toMatchObject({ payment_method: 'M-PESA', message: 'M-PESA Payment Success' });
  });
});

describe('the redirect checkout callbacks', () => {
  it('card success: paid False with Payment complete., as §2.9 describes the contradiction', async () => {
    const { callbackOf, checkout } = await setUp();
    expect(await callbackOf(checkout('card', 'success', 1001))).toStrictEqual({
      payment_method: 'CARD',
      paid: 'False',
      response_status: 200,
      order_id: '1001',
      message: 'Card Payment Successful',
      amount: '2500',
      payment_status: 'Payment complete.',
    });
  });

  it('mobile-money success: paid True, the neutral brand word in both payment_method and message', async () => {
    const { callbackOf, checkout } = await setUp();
    expect(await callbackOf(checkout('mobile_money', 'success', 1002))).toStrictEqual({
      payment_method: 'MOBILE-MONEY',
      paid: 'True',
      response_status: 200,
      order_id: '1002',
      message: 'MOBILE-MONEY Payment Successful',
      amount: '2500',
      payment_status: 'Payment complete.',
    });
  });

  it.each([
    ['card', 'CARD', 1003],
    ['mobile_money', 'MOBILE-MONEY', 1004],
  ] as const)(
    '%s failure: paid False, response_status still 200, the reason, Payment Incomplete.',
    async (method, word, orderId) => {
      const { callbackOf, checkout } = await setUp();
      expect(await callbackOf(checkout(method, 'failure', orderId))).toStrictEqual({
        payment_method: word,
        paid: 'False',
        response_status: 200,
        order_id: String(orderId),
        message: 'Insufficient funds',
        amount: '2500',
        payment_status: 'Payment Incomplete.',
      });
    },
  );

  it('with mobileMoneyBrand M-PESA: the brand word in the success message and the failure method', async () => {
    const { callbackOf, checkout } = await setUp('M-PESA');
    expect(await callbackOf(checkout('mobile_money', 'success', 1005))).toMatchObject({
      payment_method: 'M-PESA',
      message: 'M-PESA Payment Successful',
    });
    expect(await callbackOf(checkout('mobile_money', 'failure', 1006))).toMatchObject({
      payment_method: 'M-PESA',
    });
  });
});

describe('the payout callbacks', () => {
  it('success: every value a string, the fee and the balance left after it', async () => {
    const { callbackOf, payout } = await setUp();
    expect(await callbackOf(payout(1000, 123456789012))).toStrictEqual({
      amount: '1000',
      currency: 'KES',
      message: 'Payout Successful',
      payout_fee: '50',
      reference_id: '123456789012',
      status: 'Success',
      transaction_id: expect.any(String),
      wallet_balance: '98950',
    });
  });

  it('failure: no payout_fee, Payout Failed, status Failed, the balance unchanged', async () => {
    const { callbackOf, payout } = await setUp();
    expect(await callbackOf(payout(200_000, 123456789013))).toStrictEqual({
      amount: '200000',
      currency: 'KES',
      message: 'Payout Failed',
      reference_id: '123456789013',
      status: 'Failed',
      transaction_id: expect.any(String),
      wallet_balance: '100000',
    });
  });
});

describe('the payout fixtures of hosted-payments/testing', () => {
  it('write a numeric payout reference as a string in the success and the failure payload', () => {
    const common = { amount: 1000, currency: 'KES', referenceId: 123456789012, walletBalance: 98950 };
    expect(payoutSuccessPayload({ ...common, payoutFee: 50 }).reference_id).toBe('123456789012');
    expect(payoutFailurePayload(common).reference_id).toBe('123456789012');
  });
});

describe("a card payment method word of the merchant's own", () => {
  it('cardPaymentMethod in lower case still makes the request a card payment with the card callback', async () => {
    const route = await recordingRoute();
    const sandbox = await opened.sandbox({ callbackDelayMs: 0, log: false, cardPaymentMethod: 'visa' });
    const client = new PaymentsClient({ baseUrl: sandbox.url, paymentMethods: { card: 'VISA' } });
    await client.initiateCardPayment({
      customer_details: customer,
      amount,
      card_details: {
        card_number: '4242424242424242',
        expiry_month: 12,
        expiry_year: futureYear,
        cvc: '123',
      },
      callback_details: { transaction_reference: 'ORDER-9', callback_url: route.url },
    });
    await sandbox.waitForIdle();
    expect(route.bodies).toEqual([expect.objectContaining({ message: 'CARD Payment Success' })]);
  });
});

describe('duplicateDeliveries: true', () => {
  it('posts the same callback exactly twice: once, and one duplicate', async () => {
    const route = await recordingRoute();
    const sandbox = await opened.sandbox({ callbackDelayMs: 0, log: false, duplicateDeliveries: true });
    await new PaymentsClient({ baseUrl: sandbox.url }).initiatePayout(payoutTo(route.url, 1000));
    await sandbox.waitForIdle();
    expect(route.bodies).toHaveLength(2);
    expect(route.bodies[1]).toEqual(route.bodies[0]);
  });
});

describe('a webhook route that keeps failing', () => {
  it('gets the callback six times by default: the first attempt and five retries', async () => {
    let attempts = 0;
    const url = await opened.route((req, res) => {
      req.resume();
      req.on('end', () => {
        attempts += 1;
        res.writeHead(500).end();
      });
    });
    const sandbox = await opened.sandbox({ callbackDelayMs: 0, retryDelayMs: 0, log: false });
    await new PaymentsClient({ baseUrl: sandbox.url }).initiatePayout(payoutTo(url, 1000));
    await sandbox.waitForIdle();
    expect(attempts).toBe(6);
  });
});

describe('startSandbox port 65536', () => {
  it('is refused as out of range, naming the range, not as a host it cannot listen on', async () => {
    await expect(opened.sandbox({ port: 65_536, log: false })).rejects.toThrow(
      'startSandbox: port must be a whole number from 0 to 65535 (0: a free port), got 65536',
    );
  });
});

describe('startSandbox with an empty host', () => {
  // Node's listen() takes '' as every interface: a HOST variable left empty must not open the
  // sandbox to the network.
  it('is refused with a TypeError naming host', async () => {
    await expect(opened.sandbox({ host: '', log: false })).rejects.toThrow(
      new TypeError("startSandbox: host must be a non-empty string such as '127.0.0.1'"),
    );
  });
});
