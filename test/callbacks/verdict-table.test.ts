// The verdict's truth table, generated exhaustively: for each family, every combination of shape
// × payment status × paid × response_status, through parseCallback and through the webhook
// handler. The expected outcome is written out here from the rules a merchant reads in
// docs/webhooks-verdict.md, independently of src/callbacks/verdict.ts.
import { describe, expect, it, vi } from 'vitest';
import {
  createCallbackHandler,
  parseCallback,
  safeParseCallback,
  signCallbackUrl,
  type CallbackEvent,
  type CallbackParseReason,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import { checkoutMobileMoneySuccess } from '../fixtures/described-payloads.js';

const cardSuccess = callbackFixtures['payment.card.succeeded'];
const cardFailure = callbackFixtures['payment.card.failed'];
const mobileMoneySuccess = callbackFixtures['payment.mobile_money.succeeded'];
const mobileMoneyFailure = callbackFixtures['payment.mobile_money.failed'];
const checkoutCardSuccess = callbackFixtures['checkout.succeeded'];
const payoutSuccess = callbackFixtures['payout.succeeded'];
const payoutFailure = callbackFixtures['payout.failed'];

type Payload = Record<string, unknown>;
type Says = 'success' | 'failure' | 'unrecognised' | 'missing';
type Expected =
  | { type: CallbackEvent['type']; warning?: 'paid_flag_contradicts_payment_status' }
  | { reason: CallbackParseReason };

const MISSING = Symbol('missing');
type Value = unknown;

/** Status values: documented, case/blank/dot variants, unrecognised, missing. */
const paymentStatuses: [Value, Says][] = [
  ['Payment complete.', 'success'],
  ['PAYMENT COMPLETE', 'success'],
  ['Payment incomplete.', 'failure'],
  ['Payment Incomplete.', 'failure'],
  [' payment incomplete ', 'failure'],
  ['Payment Failed', 'unrecognised'],
  ['Completed', 'unrecognised'],
  [MISSING, 'missing'],
];
const paidFlags: [Value, Says][] = [
  ['True', 'success'],
  ['False', 'failure'],
  [true, 'success'],
  [false, 'failure'],
  ['true', 'unrecognised'],
  ['yes', 'unrecognised'],
  [1, 'unrecognised'],
  [MISSING, 'missing'],
];
const mobileMoneyResponseStatuses: [Value, Says][] = [
  [200, 'success'],
  ['200', 'success'],
  [406, 'failure'],
  [500, 'failure'],
  ['OK', 'unrecognised'],
  // A code is a whole number from 0 written with at most 9 digits, as a number as in a string.
  [-406, 'unrecognised'],
  ['-406', 'unrecognised'],
  [1_000_000_000, 'unrecognised'],
  [MISSING, 'missing'],
];
const payoutStatuses: [Value, Says][] = [
  ['Success', 'success'],
  ['Failed', 'failure'],
  ['success', 'unrecognised'],
  ['Pending', 'unrecognised'],
  [MISSING, 'missing'],
];
const optionalPaid: [Value, Says][] = [
  ['True', 'success'],
  ['False', 'failure'],
  [MISSING, 'missing'],
];

/** The rules: unrecognised, then missing, then all agree, then the one documented exception. */
function expectedVerdict(
  family: 'card' | 'mobile_money' | 'checkout' | 'payout',
  signals: Says[],
  documentedException: boolean,
): Expected {
  const types = {
    card: ['payment.card.succeeded', 'payment.card.failed'],
    mobile_money: ['payment.mobile_money.succeeded', 'payment.mobile_money.failed'],
    checkout: ['checkout.succeeded', 'checkout.failed'],
    payout: ['payout.succeeded', 'payout.failed'],
  } as const;
  if (signals.includes('unrecognised')) return { reason: 'unrecognised_status' };
  if (signals.includes('missing')) return { reason: 'missing_status' };
  if (signals.every((s) => s === 'success')) return { type: types[family][0] };
  if (signals.every((s) => s === 'failure')) return { type: types[family][1] };
  if (documentedException)
    return { type: 'checkout.succeeded', warning: 'paid_flag_contradicts_payment_status' };
  return { reason: 'contradictory_outcome' };
}

const withValues = (base: object, values: Record<string, Value>): Payload => {
  const out: Payload = { ...(base as Payload) };
  for (const [key, value] of Object.entries(values)) {
    if (value === MISSING) delete out[key];
    else out[key] = value;
  }
  return out;
};

const show = (value: Value) => (value === MISSING ? '(missing)' : JSON.stringify(value));

interface Row {
  name: string;
  payload: Payload;
  expected: Expected;
  reference: string;
}

function rows(): Row[] {
  const out: Row[] = [];
  // Card: the shape ('amount captured' present or not) × 'payment status' × paid × `status`, 200
  // in every documented card callback: it decides nothing, and any other code is unrecognised.
  for (const [base, shape] of [
    [cardSuccess, 'success'],
    [cardFailure, 'failure'],
  ] as const) {
    for (const [status, statusSays] of paymentStatuses) {
      for (const [paid, paidSays] of paidFlags) {
        for (const code of [200, 400]) {
          out.push({
            name: `card, ${shape} shape, payment status ${show(status)}, paid ${show(paid)}, status ${code}`,
            payload: withValues(base, { 'payment status': status, paid, status: code }),
            expected: expectedVerdict(
              'card',
              code === 200 ? [shape, statusSays, paidSays] : [shape, statusSays, paidSays, 'unrecognised'],
              false,
            ),
            reference: 'CARD-ORDER',
          });
        }
      }
    }
  }
  // Mobile money: shape (amount_captured) × its status key × paid × response_status.
  for (const [base, shape, statusKey] of [
    [mobileMoneySuccess, 'success', 'payment_status'],
    [mobileMoneyFailure, 'failure', 'payment status'],
  ] as const) {
    for (const [status, statusSays] of paymentStatuses) {
      for (const [paid, paidSays] of paidFlags) {
        for (const [code, codeSays] of mobileMoneyResponseStatuses) {
          out.push({
            name: `mobile money, ${shape} shape, ${statusKey} ${show(status)}, paid ${show(paid)}, response_status ${show(code)}`,
            payload: withValues(base, { [statusKey]: status, paid, response_status: code }),
            expected: expectedVerdict('mobile_money', [shape, statusSays, paidSays, codeSays], false),
            reference: shape === 'failure' ? mobileMoneyFailure.transaction_reference : 'MM-ORDER',
          });
        }
      }
    }
  }
  // Checkout: payment_status × paid × response_status, by card and by mobile money.
  // response_status is 200 in every documented checkout callback: it decides nothing, and any
  // other code is unrecognised.
  for (const [base, method] of [
    [checkoutCardSuccess, 'card'],
    [checkoutMobileMoneySuccess, 'mobile money'],
  ] as const) {
    for (const [status, statusSays] of paymentStatuses) {
      for (const [paid, paidSays] of paidFlags) {
        for (const responseStatus of [200, 406]) {
          const exception = method === 'card' && statusSays === 'success' && paidSays === 'failure';
          // A checkout has no shape: a failure carries a failure's message, as a success's text
          // on a failure contradicts it (failure-says-success.test.ts).
          const message =
            statusSays === 'failure' && paidSays === 'failure' ? { message: 'Insufficient funds' } : {};
          out.push({
            name: `checkout by ${method}, payment_status ${show(status)}, paid ${show(paid)}, response_status ${responseStatus}`,
            payload: withValues(base, {
              payment_status: status,
              paid,
              response_status: responseStatus,
              ...message,
            }),
            expected: expectedVerdict(
              'checkout',
              responseStatus === 200 ? [statusSays, paidSays] : [statusSays, paidSays, 'unrecognised'],
              exception,
            ),
            reference: base.order_id,
          });
        }
      }
    }
  }
  // Payout: shape (payout_fee) × status × a paid flag the payout does not document.
  for (const [base, shape] of [
    [payoutSuccess, 'success'],
    [payoutFailure, 'failure'],
  ] as const) {
    for (const [status, statusSays] of payoutStatuses) {
      for (const [paid, paidSays] of optionalPaid) {
        const signals: Says[] = [shape, statusSays];
        if (paidSays !== 'missing') signals.push(paidSays);
        out.push({
          name: `payout, ${shape} shape, status ${show(status)}, paid ${show(paid)}`,
          payload: withValues(base, { status, paid }),
          expected: expectedVerdict('payout', signals, false),
          reference: base.reference_id,
        });
      }
    }
  }
  return out;
}

const table = rows();

describe('the verdict truth table, through parseCallback', () => {
  it('covers every combination', () => {
    expect(table.length).toBe(2 * 8 * 8 * 2 + 2 * 8 * 8 * 9 + 2 * 8 * 8 * 2 + 2 * 5 * 3);
  });

  it.each(table.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    const result = safeParseCallback(row.payload);
    if ('reason' in row.expected) {
      expect(result.success).toBe(false);
      expect(result.error?.reason).toBe(row.expected.reason);
      expect(result.error?.name).toBe('CallbackParseError');
      return;
    }
    expect(result.success && result.event.type).toBe(row.expected.type);
    const event = result.event!;
    expect(event.paid).toBe(row.expected.type.endsWith('.succeeded'));
    const codes = event.warnings.map((warning) => warning.code);
    if (row.expected.warning === undefined)
      expect(codes).not.toContain('paid_flag_contradicts_payment_status');
    else expect(codes).toContain(row.expected.warning);
  });

  it("refuses the documented exception too with onContradiction: 'reject'", () => {
    for (const row of table.filter((r) => 'type' in r.expected && r.expected.warning !== undefined)) {
      const result = safeParseCallback(row.payload, { onContradiction: 'reject' });
      expect(result.error?.reason).toBe('contradictory_outcome');
    }
  });

  it('never says paid unless every signal says success, apart from the documented exception', () => {
    let paid = 0;
    for (const row of table) {
      const result = safeParseCallback(row.payload);
      if (!result.success || !result.event.paid) continue;
      paid++;
      const exception = 'type' in row.expected && row.expected.warning !== undefined;
      expect(exception || ('type' in row.expected && row.expected.type.endsWith('.succeeded'))).toBe(true);
    }
    expect(paid).toBeGreaterThan(0);
  });
});

describe('the verdict truth table, through the webhook handler', () => {
  const secret = 'whsec_truth_table_0123456789';
  const route = 'https://shop.example/webhooks/payments';
  const refusalStatus = (reason: CallbackParseReason) =>
    reason === 'contradictory_outcome' || reason === 'unrecognised_status' || reason === 'missing_status'
      ? 422
      : 400;

  it('answers 422 (onEvent not called) for every undecidable row, 200 with the verdict otherwise', async () => {
    const onEvent = vi.fn((_event: CallbackEvent) => undefined);
    const handler = createCallbackHandler({ secret, onEvent, dedupe: false });
    for (const row of table) {
      onEvent.mockClear();
      const url = await signCallbackUrl(route, { secret, reference: row.reference });
      const response = await handler(new Request(url, { method: 'POST', body: JSON.stringify(row.payload) }));
      if ('reason' in row.expected) {
        expect({ row: row.name, status: response.status, body: await response.json() }).toEqual({
          row: row.name,
          status: refusalStatus(row.expected.reason),
          body: { error: row.expected.reason },
        });
        expect(onEvent).not.toHaveBeenCalled();
      } else {
        expect({ row: row.name, status: response.status }).toEqual({ row: row.name, status: 200 });
        expect(onEvent).toHaveBeenCalledTimes(1);
        expect(onEvent.mock.calls[0]![0].type).toBe(row.expected.type);
      }
    }
  });
});

describe('the payloads a merchant must never see as paid', () => {
  const secret = 'whsec_regressions_0123456789';
  const route = 'https://shop.example/webhooks/payments';

  async function deliver(payload: object, reference: string) {
    const onEvent = vi.fn((_event: CallbackEvent) => undefined);
    const expected = vi.fn(() => ({ amount: '1500', currency: 'KES' }));
    const handler = createCallbackHandler({ secret, onEvent, expected });
    const url = await signCallbackUrl(route, { secret, reference });
    const response = await handler(new Request(url, { method: 'POST', body: JSON.stringify(payload) }));
    return { status: response.status, body: (await response.json()) as unknown, onEvent };
  }

  it("a card failure that also carries 'amount captured': '0'", async () => {
    const payload = { ...cardFailure, 'amount captured': '0' };
    const error = safeParseCallback(payload).error;
    expect(error?.reason).toBe('contradictory_outcome');
    expect(error?.message).toMatch(
      /amount captured present says success; payment status 'Payment incomplete.' says failure; paid 'False' says failure/,
    );
    const answer = await deliver(payload, 'ORDER-7');
    expect(answer).toMatchObject({ status: 422, body: { error: 'contradictory_outcome' } });
    expect(answer.onEvent).not.toHaveBeenCalled();
  });

  it("a card success shape with 'Payment incomplete.' and paid 'True', even with onContradiction: 'reject'", () => {
    const payload = { ...cardSuccess, 'payment status': 'Payment incomplete.' };
    expect(safeParseCallback(payload).error?.reason).toBe('contradictory_outcome');
    expect(safeParseCallback(payload, { onContradiction: 'reject' }).error?.reason).toBe(
      'contradictory_outcome',
    );
  });

  it("a mobile-money success shape with 'Payment Incomplete.', paid 'False' and amount_captured 0", () => {
    const payload = {
      ...mobileMoneySuccess,
      payment_status: 'Payment Incomplete.',
      paid: 'False',
      amount_captured: 0,
    };
    expect(safeParseCallback(payload).error?.reason).toBe('contradictory_outcome');
  });

  it.each(['Payment Failed', 'Completed'])('a checkout payment_status %j with paid True', async (status) => {
    const payload = { ...checkoutMobileMoneySuccess, payment_status: status, paid: 'True' };
    const error = safeParseCallback(payload).error;
    expect(error?.reason).toBe('unrecognised_status');
    expect(error?.message).toContain(`payment_status '${status}'`);
    const answer = await deliver(payload, checkoutMobileMoneySuccess.order_id);
    expect(answer).toMatchObject({ status: 422, body: { error: 'unrecognised_status' } });
    expect(answer.onEvent).not.toHaveBeenCalled();
  });
});

describe("outcome signals outside the family's table are read too", () => {
  // A status key another family documents, or a signal key spelt another way (case, blanks, '_'
  // or '-'), can only agree with the family's signals or make the payload undecidable: it never
  // turns a failure into a success, and a failure it reports is never ignored.
  it.each([
    ['a card success with response_status 406', { ...cardSuccess, response_status: 406 }],
    ["a card success with response_status '406'", { ...cardSuccess, response_status: '406' }],
    ["a checkout success with status 'Failed'", { ...checkoutMobileMoneySuccess, status: 'Failed' }],
    ["a mobile-money success with status 'Failed'", { ...mobileMoneySuccess, status: 'Failed' }],
    ['a mobile-money success with status 500', { ...mobileMoneySuccess, status: 500 }],
    ['a payout success with response_status 406', { ...payoutSuccess, response_status: 406 }],
    ["a card success with Paid 'False'", { ...cardSuccess, Paid: 'False' }],
    ["a card success with PAID 'False'", { ...cardSuccess, PAID: 'False' }],
    ["a card success with 'paid ' 'False'", { ...cardSuccess, 'paid ': 'False' }],
    [
      "a card success with 'Payment Status' 'Payment incomplete.'",
      { ...cardSuccess, 'Payment Status': 'Payment incomplete.' },
    ],
    [
      "a card success with 'payment  status' 'Payment incomplete.'",
      { ...cardSuccess, 'payment  status': 'Payment incomplete.' },
    ],
    [
      "a card success with paymentStatus 'Payment incomplete.'",
      { ...cardSuccess, paymentStatus: 'Payment incomplete.' },
    ],
    [
      "a card success with 'payment-status' 'Payment incomplete.'",
      { ...cardSuccess, 'payment-status': 'Payment incomplete.' },
    ],
    ["a mobile-money success with 'response status' 406", { ...mobileMoneySuccess, 'response status': 406 }],
    ['a mobile-money success with responseStatus 406', { ...mobileMoneySuccess, responseStatus: 406 }],
    // However long the spelling: a key padded past 32 characters was skipped.
    [
      'a card success with a payment status key padded to 33 characters',
      { ...cardSuccess, ['Payment_Status' + '_'.repeat(19)]: 'Payment incomplete.' },
    ],
    [
      "a card success with 'paid' and 40 blanks 'False'",
      { ...cardSuccess, ['paid' + ' '.repeat(40)]: 'False' },
    ],
    [
      "a payout success with 'STATUS' and 30 dashes 'Failed'",
      { ...payoutSuccess, ['STATUS' + '-'.repeat(30)]: 'Failed' },
    ],
    [
      "a checkout success with 'Paid' and 100 underscores 'False'",
      { ...checkoutMobileMoneySuccess, ['Paid' + '_'.repeat(100)]: 'False' },
    ],
  ] as const)('%s is refused as contradictory (422, onEvent not called)', async (_name, payload) => {
    const error = safeParseCallback(payload).error;
    expect(error?.reason).toBe('contradictory_outcome');
    // The added key comes last: the one the message must name.
    const field = Object.keys(payload).at(-1)!;
    expect(error?.message).toContain(field);
    const handler = createCallbackHandler({ verify: false, onEvent: vi.fn() });
    const response = await handler(
      new Request('https://shop.example/webhooks', { method: 'POST', body: JSON.stringify(payload) }),
    );
    expect(response.status).toBe(422);
  });

  it('a signal key spelt another way is read after a thousand other keys were seen', () => {
    for (let at = 0; at < 1000; at += 100) {
      const extra = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`extra_key_${at + i}`, 'x']));
      expect(parseCallback({ ...cardSuccess, ...extra }).type).toBe('payment.card.succeeded');
    }
    expect(
      safeParseCallback({ ...cardSuccess, 'PaYmEnT -_ StAtUs': 'Payment incomplete.' }).error?.reason,
    ).toBe('contradictory_outcome');
  });

  it('an extra signal that agrees changes nothing', () => {
    expect(parseCallback({ ...cardSuccess, response_status: 200 }).type).toBe('payment.card.succeeded');
    expect(parseCallback({ ...cardFailure, Paid: 'False' }).type).toBe('payment.card.failed');
    expect(parseCallback({ ...mobileMoneyFailure, status: 'Failed' }).type).toBe(
      'payment.mobile_money.failed',
    );
    expect(parseCallback({ ...payoutFailure, response_status: 406 }).type).toBe('payout.failed');
  });

  it('an extra signal whose value is not recognised makes the outcome unknown', () => {
    const error = safeParseCallback({ ...cardSuccess, Paid: 'maybe' }).error;
    expect(error?.reason).toBe('unrecognised_status');
    expect(error?.message).toContain("Paid 'maybe'");
  });

  it('the card status and the checkout response_status, 200 in every described case, are still not signals', () => {
    expect(parseCallback({ ...cardFailure, status: 200 }).type).toBe('payment.card.failed');
    expect(parseCallback({ ...checkoutCardSuccess }).type).toBe('checkout.succeeded');
    expect(parseCallback({ ...checkoutMobileMoneySuccess, response_status: 200 }).type).toBe(
      'checkout.succeeded',
    );
  });
});

describe('a success captures the whole amount', () => {
  it.each([
    ["card, 'amount captured' '0'", { ...cardSuccess, 'amount captured': '0' }],
    ["card, 'amount captured' '1'", { ...cardSuccess, 'amount captured': '1' }],
    ["card, 'amount captured' '1600' (more than amount)", { ...cardSuccess, 'amount captured': '1600' }],
    ['mobile money, amount_captured 0', { ...mobileMoneySuccess, amount_captured: 0 }],
    ['mobile money, amount_captured 1499.5', { ...mobileMoneySuccess, amount_captured: 1499.5 }],
  ] as const)('%s is refused as contradictory, the amounts not shown', async (_name, payload) => {
    const error = safeParseCallback(payload).error;
    expect(error?.reason).toBe('contradictory_outcome');
    expect(error?.message).toMatch(/captured/);
    expect(error?.message).not.toMatch(/1500|1600|1499/);
    const onEvent = vi.fn();
    const handler = createCallbackHandler({ verify: false, onEvent });
    const response = await handler(
      new Request('https://shop.example/webhooks', { method: 'POST', body: JSON.stringify(payload) }),
    );
    expect(response.status).toBe(422);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('the same amount written another way is the whole amount', () => {
    expect(parseCallback({ ...cardSuccess, 'amount captured': '1500.00' }).paid).toBe(true);
    expect(parseCallback({ ...mobileMoneySuccess, amount_captured: '1500' }).paid).toBe(true);
  });
});

describe('amounts are plain decimals', () => {
  it.each([
    ['1500', '1500', []],
    ['1500.50', '1500.50', []],
    ['0', '0', []],
    [1500, '1500', ['value_converted']],
    [1500.5, '1500.5', ['value_converted']],
  ] as const)('accepts amount %j as %j', (amount, text, warnings) => {
    // A failure: a success of zero is refused (it says paid for nothing).
    const event = parseCallback({ ...(Number(amount) === 0 ? payoutFailure : payoutSuccess), amount });
    expect(event.amount).toBe(text);
    expect(event.warnings.map((warning) => warning.code)).toEqual(warnings);
  });

  it.each([
    ['', 'an empty string'],
    ['1,500.00', 'a grouped number'],
    ['1.5e3', 'a number with an exponent'],
    ['0x5dc', 'a hexadecimal number'],
    ['-5', 'a signed number'],
    ['+5', 'a signed number'],
    [' 1500', 'a padded string'],
    ['01500', 'a zero-padded number'],
    ['1500.', 'text that is not a number'],
    ['NaN', 'text that is not a number'],
    ['Infinity', 'text that is not a number'],
    ['9'.repeat(400), 'a number too large to be finite'],
    [-5, 'a negative number'],
    [1e21, 'a number that does not print as an exact plain decimal'],
  ] as const)('refuses amount %j, naming the field', (amount, kind) => {
    for (const base of [payoutSuccess, cardSuccess, checkoutMobileMoneySuccess] as Payload[]) {
      const error = safeParseCallback({ ...base, amount }).error;
      expect(error?.reason).toBe('invalid_amount');
      expect(error?.message).toContain(
        `amount: expected a plain decimal number such as 1500 or 1500.50, got ${kind}`,
      );
      expect(error?.issues).toEqual([expect.objectContaining({ path: ['amount'], code: 'invalid_amount' })]);
    }
  });

  it('checks the captured amount and the payout fee too', () => {
    expect(safeParseCallback({ ...cardSuccess, 'amount captured': '' }).error?.reason).toBe('invalid_amount');
    expect(safeParseCallback({ ...mobileMoneySuccess, amount_captured: '1,0' }).error?.reason).toBe(
      'invalid_amount',
    );
    expect(safeParseCallback({ ...payoutSuccess, payout_fee: '5e1' }).error?.reason).toBe('invalid_amount');
  });
});

describe('occurredAt', () => {
  it('is absent, with a warning, when the timestamp is out of the range of a date', () => {
    const event = parseCallback({ ...cardSuccess, timestamp: 9_000_000_000_000 });
    expect(event.occurredAt).toBeUndefined();
    expect('occurredAt' in event).toBe(false);
    expect(event.warnings).toEqual([
      { code: 'timestamp_out_of_range', path: ['timestamp'], message: expect.stringContaining('timestamp') },
    ]);
  });

  it('is a valid Date otherwise', () => {
    const event = parseCallback(mobileMoneyFailure);
    expect(event.occurredAt).toBeInstanceOf(Date);
    expect(Number.isNaN(event.occurredAt!.getTime())).toBe(false);
  });
});

describe('the handler compares expected amounts as decimals', () => {
  const secret = 'whsec_expected_0123456789';
  const route = 'https://shop.example/webhooks/payments';

  async function status(expectedAmount: string | number, currency = 'KES', amount = '5000') {
    const handler = createCallbackHandler({
      secret,
      onEvent: () => undefined,
      dedupe: false,
      expected: () => ({ amount: expectedAmount, currency }),
    });
    const url = await signCallbackUrl(route, { secret, reference: payoutSuccess.reference_id });
    const body = JSON.stringify({ ...payoutSuccess, amount });
    return (await handler(new Request(url, { method: 'POST', body }))).status;
  }

  it('treats 5000, "5000" and "5000.00" as the same amount', async () => {
    expect(await status(5000)).toBe(200);
    expect(await status('5000.00')).toBe(200);
    expect(await status('5000', 'KES', '5000.0')).toBe(200);
  });

  it('never matches a different amount (422), and takes one that is not a plain decimal for a bug in expected (500)', async () => {
    expect(await status('5e3')).toBe(500);
    expect(await status('5,000')).toBe(500);
    expect(await status(' 5000')).toBe(500);
    expect(await status('5000.01')).toBe(422);
    expect(await status('50000')).toBe(422);
  });

  it('compares currencies ignoring ASCII case only', async () => {
    expect(await status(5000, 'kes')).toBe(200);
    expect(await status(5000, 'ＫＥＳ')).toBe(422);
    expect(await status(5000, 'KES ')).toBe(422);
  });

  // Mobile-money and checkout callbacks document no currency; one that carries a currency all the
  // same is compared with the expected one rather than ignored.
  it.each([
    ['mobile money', mobileMoneySuccess, 'ORD-MM'],
    ['checkout', checkoutMobileMoneySuccess, checkoutMobileMoneySuccess.order_id],
  ] as const)(
    'compares a currency a %s callback carries though it documents none',
    async (_name, payload, reference) => {
      const answer = async (currency: unknown) => {
        const handler = createCallbackHandler({
          secret,
          onEvent: () => undefined,
          dedupe: false,
          expected: () => ({ amount: String(payload.amount), currency: 'KES' }),
        });
        const url = await signCallbackUrl(route, { secret, reference });
        const body = JSON.stringify(currency === undefined ? payload : { ...payload, currency });
        const response = await handler(new Request(url, { method: 'POST', body }));
        return {
          status: response.status,
          body: response.status === 200 ? undefined : ((await response.json()) as unknown),
        };
      };
      expect(await answer(undefined)).toEqual({ status: 200, body: undefined });
      expect(await answer('kes')).toEqual({ status: 200, body: undefined });
      expect(await answer('USD')).toEqual({ status: 422, body: { error: 'currency_mismatch' } });
      // No currency code: the payload is refused as invalid before anything is compared.
      expect(await answer(840)).toEqual({ status: 400, body: { error: 'invalid_payload' } });
      expect(await answer('')).toEqual({ status: 400, body: { error: 'invalid_payload' } });
    },
  );
});

describe('context.reference', () => {
  const secret = 'whsec_reference_0123456789';
  const route = 'https://shop.example/webhooks/payments';

  it.each([
    ['payment.card.succeeded', cardSuccess],
    ['payment.card.failed', cardFailure],
    ['payment.mobile_money.succeeded', mobileMoneySuccess],
    ['payment.mobile_money.failed', mobileMoneyFailure],
    ['checkout.succeeded', checkoutMobileMoneySuccess],
    [
      'checkout.failed',
      {
        ...checkoutMobileMoneySuccess,
        payment_status: 'Payment Incomplete.',
        paid: 'False',
        message: 'Insufficient funds',
      },
    ],
    ['payout.succeeded', payoutSuccess],
    ['payout.failed', payoutFailure],
  ] as const)('is the signed order reference for %s', async (type, payload) => {
    const own =
      (payload as Payload).transaction_reference ??
      (payload as Payload).order_id ??
      (payload as Payload).reference_id;
    const reference = typeof own === 'string' ? own : 'ORDER-42';
    const seen: [string, string][] = [];
    const handler = createCallbackHandler({
      secret,
      onEvent: (event, context) => {
        seen.push([event.type, context.reference]);
      },
    });
    const url = await signCallbackUrl(route, { secret, reference });
    const response = await handler(new Request(url, { method: 'POST', body: JSON.stringify(payload) }));
    expect(response.status).toBe(200);
    expect(seen).toEqual([[type, reference]]);
  });
});
