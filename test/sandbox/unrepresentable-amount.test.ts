// A mobile-money callback carries its amount as a JSON number (API reference §2.9). A total the
// sandbox cannot write exactly that way (above 2^53 - 1) is refused with a 400 naming it, rather
// than answered 200 and followed by a callback whose amount is another number (9007199254740993
// written as 9007199254740992) or 1e+21, which the SDK's own parser refuses: a merchant's test
// would fail at the webhook, far from the cause.
import { describe, expect, it } from 'vitest';
import { postPayment } from './helpers.js';

const post = postPayment;

const payment = (amount: object | undefined, products?: object[]) => ({
  customer_details: {
    payment_method: 'MOBILE-MONEY',
    full_name: 'Jane Doe',
    phone_number: '254712345678',
    email: 'jane@example.com',
  },
  ...(amount === undefined ? {} : { amount }),
  ...(products === undefined ? {} : { products }),
  callback_details: { transaction_reference: 'ORDER-BIG', callback_url: 'https://shop.example/hooks' },
});

describe('a mobile-money total the callback cannot carry exactly', () => {
  it.each(['9007199254740993', '1000000000000000000000'])('%s: 400 naming amount.total', async (total) => {
    const answer = await post(payment({ delivery_fee: '100', discount_fee: '50', total, currency: 'KES' }));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({
      issues: [expect.objectContaining({ field: 'amount.total', code: 'too_big' })],
    });
  });

  // The refusal is redacted of any run of digits as long as a card number; the limit is written
  // so that it survives, and the merchant reads what the largest total is.
  it('says what the largest total is', async () => {
    const answer = await post(
      payment({ delivery_fee: '100', discount_fee: '50', total: '9007199254740993', currency: 'KES' }),
    );
    const { issues } = JSON.parse(answer.text) as { issues: { message: string }[] };
    expect(issues[0]?.message).toBe(
      'expected at most 9,007,199,254,740,991 (2^53 - 1): the mobile-money callback carries the amount as a JSON number',
    );
  });

  it('the largest it can carry is answered 200', async () => {
    const answer = await post(
      payment({ delivery_fee: '100', discount_fee: '50', total: '9007199254740991', currency: 'KES' }),
    );
    expect(answer.status).toBe(200);
  });
});
