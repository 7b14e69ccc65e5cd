// Two ways a callback's amount said something other than what was paid, both accepted (red team):
// - JSON.parse rounds a number to the nearest double before any check sees it: a mobile-money
//   success of `1499.99999999999999999` was read as 1500, one of 12345678901234567890 as another
//   number, and `1e3` (an exponent, which an amount may not have) as 1000. From the callback's own
//   text or bytes, an amount is now read as written: one no double holds exactly, or with an
//   exponent, is refused as `invalid_amount`.
// - A success of zero (amount 0, captured 0) was `paid: true`: a merchant without `expected` or a
//   tracker marked the order paid for nothing. It is refused as `contradictory_outcome`.
import { describe, expect, it } from 'vitest';
import { createCallbackHandler, safeParseCallback } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const mobileMoneySuccess = callbackFixtures['payment.mobile_money.succeeded'];

/** The mobile-money success's text with its two amounts written as `literal`. */
const withAmountText = (literal: string): string =>
  JSON.stringify({ ...mobileMoneySuccess, amount: 0, amount_captured: 0 })
    .replace('"amount":0', `"amount":${literal}`)
    .replace('"amount_captured":0', `"amount_captured":${literal}`);

describe('an amount in the callback text is read as written', () => {
  it.each([
    ['more digits than a double holds', '1499.99999999999999999', 'exact'],
    ['an integer above 2^53 that rounds', '12345678901234567890', 'exact'],
    ['an exponent', '1e3', 'exponent'],
    ['an exponent with a fraction', '1.5E3', 'exponent'],
    // The exponent's sign: `1e+3` and `15E-1` are read as written as well (mutant: MAY_ROUND without [-+]?).
    ['an exponent with a plus sign', '1.5e+3', 'exponent'],
    ['an exponent with a minus sign', '15000E-1', 'exponent'],
  ])('refuses %s as invalid_amount, naming both amounts (text and bytes)', (_, literal, says) => {
    const text = withAmountText(literal);
    for (const body of [text, new TextEncoder().encode(text)]) {
      const result = safeParseCallback(body);
      expect(result.success).toBe(false);
      expect(result.error?.reason).toBe('invalid_amount');
      expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
        'amount',
        'amount_captured',
      ]);
      expect(result.error?.message).toContain(says);
      expect(result.error?.message).not.toContain(literal);
    }
  });

  it('reads a pretty-printed body as written too (blanks around the colon and the value)', () => {
    // JSON.stringify(payload, null, 2), as a proxy or a test tool re-serialises it.
    const pretty = JSON.stringify(JSON.parse(withAmountText('1500')), null, 2)
      .replace('"amount": 1500', '"amount":\t1e3')
      .replace('"amount_captured": 1500', '"amount_captured" :\r\n 1e3');
    expect(pretty).toContain('1e3');
    const result = safeParseCallback(pretty);
    expect(result.event).toBeUndefined();
    expect(result.error?.reason).toBe('invalid_amount');
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['amount', 'amount_captured']);
  });

  it('refuses a key written with escapes as its plain spelling', () => {
    const text = withAmountText('1500').replace('"amount":1500', '"\\u0061mount":1e3');
    expect(safeParseCallback(text).error?.reason).toBe('invalid_amount');
  });

  it.each([
    ['a whole number', '1500', '1500'],
    ['trailing fractional zeros', '1500.0', '1500'],
    ['a fraction a double holds', '1500.5', '1500.5'],
    ['15 significant digits', '123456789012.345', '123456789012.345'],
  ])('accepts %s', (_, literal, amount) => {
    const result = safeParseCallback(withAmountText(literal));
    expect(result.error).toBeUndefined();
    expect(result.event?.amount).toBe(amount);
  });

  it('reads only the payload’s own amounts: a message quoting one, or an amount in a nested object, changes nothing', () => {
    const text = JSON.stringify({
      ...mobileMoneySuccess,
      message: '"amount":1e3',
      extra: { amount: 1 },
    }).replace('"extra":{"amount":1}', '"extra":{"amount":1e3}');
    expect(safeParseCallback(text).event?.amount).toBe('1500');
  });

  it('a payload passed as an object is read as given (its numbers were parsed before it came)', () => {
    expect(
      safeParseCallback({ ...mobileMoneySuccess, amount: 1e3, amount_captured: 1e3 }).event?.amount,
    ).toBe('1000');
  });

  it('the handler refuses it as a bad body: onEvent never runs', async () => {
    const events: unknown[] = [];
    const handler = createCallbackHandler({
      verify: false,
      expected: () => ({ amount: '1500' }),
      onEvent: (event) => void events.push(event),
    });
    const response = await handler(
      new Request('https://shop.example/webhooks', {
        method: 'POST',
        body: withAmountText('1499.99999999999999999'),
      }),
    );
    expect(response.status).toBe(400);
    expect(events).toEqual([]);
  });
});

describe('a number standing for a documented string is read as written too', () => {
  const checkoutText = (literal: string) =>
    JSON.stringify({ ...callbackFixtures['checkout.succeeded'], order_id: 0 }).replace(
      '"order_id":0',
      `"order_id":${literal}`,
    );
  const payoutText = (literal: string) =>
    JSON.stringify({ ...callbackFixtures['payout.succeeded'], reference_id: 0 }).replace(
      '"reference_id":0',
      `"reference_id":${literal}`,
    );

  it.each([
    ['a checkout order_id with an exponent', checkoutText('1e3'), 'order_id'],
    ['a checkout order_id JSON.parse rounds', checkoutText('1003.00000000000000000001'), 'order_id'],
    ['a payout reference_id JSON.parse rounds', payoutText('483920175561.0000000000001'), 'reference_id'],
  ])('refuses %s (it would name another order)', (_, text, field) => {
    const result = safeParseCallback(text);
    expect(result.success).toBe(false);
    expect(result.error?.reason).toBe('invalid_payload');
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([field]);
  });

  it('converts an exact one, with a value_converted warning', () => {
    const event = safeParseCallback(checkoutText('1003')).event;
    expect(event?.reference).toBe('1003');
    expect(event?.warnings).toContainEqual(
      expect.objectContaining({ code: 'value_converted', path: ['order_id'] }),
    );
  });
});

describe('an integer field is read as written too (an outcome signal among them)', () => {
  const text = (type: keyof typeof callbackFixtures, key: string, literal: string) =>
    JSON.stringify({ ...callbackFixtures[type], [key]: 0 }).replace(`"${key}":0`, `"${key}":${literal}`);

  it.each([
    [
      'a mobile-money success whose response_status rounds to 200',
      text('payment.mobile_money.succeeded', 'response_status', '199.99999999999999999'),
      'response_status',
    ],
    [
      'a checkout success whose response_status rounds to 200',
      text('checkout.succeeded', 'response_status', '199.99999999999999999'),
      'response_status',
    ],
    [
      'a mobile-money failure whose response_status rounds to 406',
      text('payment.mobile_money.failed', 'response_status', '405.99999999999999999'),
      'response_status',
    ],
    [
      'a response_status with an exponent',
      text('payment.mobile_money.succeeded', 'response_status', '2e2'),
      'response_status',
    ],
    ['a card status with an exponent', text('payment.card.succeeded', 'status', '2E2'), 'status'],
    [
      'a negative timestamp with an exponent',
      text('payment.mobile_money.succeeded', 'timestamp', '-1.7172e9'),
      'timestamp',
    ],
    [
      'a timestamp that rounds',
      text('payment.card.succeeded', 'timestamp', '1717200000.0000000000000001'),
      'timestamp',
    ],
  ])('refuses %s (review)', (_, body, field) => {
    const result = safeParseCallback(body);
    expect(result.success).toBe(false);
    expect(result.error?.reason).toBe('invalid_payload');
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([field]);
  });

  it('-0 is 0: nothing was rounded, so a timestamp written -0 is the epoch, not a refusal', () => {
    // A long numeric id makes the body's number literals worth reading.
    const body = JSON.stringify({ ...mobileMoneySuccess, id: '1717200000123456', timestamp: 0 }).replace(
      '"timestamp":0',
      '"timestamp":-0',
    );
    const event = safeParseCallback(body).event;
    expect(event?.paid).toBe(true);
    expect(event?.occurredAt).toEqual(new Date(0));
  });

  it('200.0 is 200', () => {
    expect(
      safeParseCallback(text('payment.mobile_money.succeeded', 'response_status', '200.0')).event?.paid,
    ).toBe(true);
  });
});

describe('a success of zero', () => {
  const zero: [string, object][] = [
    ['card', { ...callbackFixtures['payment.card.succeeded'], amount: '0', 'amount captured': '0' }],
    ['mobile-money', { ...mobileMoneySuccess, amount: 0, amount_captured: 0 }],
    ['mobile-money, 0.00', { ...mobileMoneySuccess, amount: '0.00', amount_captured: '0.00' }],
    ['checkout', { ...callbackFixtures['checkout.succeeded'], amount: '0' }],
    ['payout', { ...callbackFixtures['payout.succeeded'], amount: '0' }],
  ];

  it.each(zero)('%s: refused as contradictory_outcome, never paid', (_, payload) => {
    const result = safeParseCallback(JSON.stringify(payload));
    expect(result.event).toBeUndefined();
    expect(result.error?.reason).toBe('contradictory_outcome');
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['amount'] })]);
  });

  it('the handler without expected or a tracker answers 422, onEvent not called', async () => {
    const handler = createCallbackHandler({
      verify: false,
      onEvent: () => {
        throw new Error('a success of zero must never reach onEvent');
      },
    });
    const response = await handler(
      new Request('https://shop.example/webhooks', {
        method: 'POST',
        body: JSON.stringify({ ...mobileMoneySuccess, amount: 0, amount_captured: 0 }),
      }),
    );
    expect(response.status).toBe(422);
  });

  it.each([
    ['payment.card.failed', { amount: '0' }],
    ['payment.mobile_money.failed', { amount: 0 }],
    ['checkout.failed', { amount: '0' }],
    ['payout.failed', { amount: '0' }],
  ] as const)('a failure of zero (%s) is still a failure: no money moved either way', (type, amount) => {
    const result = safeParseCallback(JSON.stringify({ ...callbackFixtures[type], ...amount }));
    expect(result.event?.type).toBe(type);
    expect(result.event?.paid).toBe(false);
  });
});
