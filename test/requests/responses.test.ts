import { describe, expect, it } from 'vitest';
import {
  cardPaymentResponseSchema,
  checkoutSessionResponseSchema,
  mobileMoneyPaymentResponseSchema,
  payoutResponseSchema,
} from '../../src/index.js';
import { mobileMoneyPaymentResponseSchemaFor } from '../../src/requests/responses.js';

describe('initiation response schemas (spec §2.8)', () => {
  it('accept the documented replies, whatever the brand word', () => {
    expect(cardPaymentResponseSchema.parse({ message: 'Card Payment Initiated', status: 200 })).toEqual({
      message: 'Card Payment Initiated',
      status: 200,
    });
    expect(
      mobileMoneyPaymentResponseSchema.parse({ message: 'M-PESA Payment Initiated', status: 200 }).status,
    ).toBe(200);
    expect(payoutResponseSchema.parse({ message: 'Mobile Payout Initiated', status: 200, extra: 1 })).toEqual(
      {
        message: 'Mobile Payout Initiated',
        status: 200,
        extra: 1,
      },
    );
  });

  it('reject a status other than 200 or a missing message', () => {
    expect(cardPaymentResponseSchema.safeParse({ message: 'x', status: 400 }).success).toBe(false);
    expect(payoutResponseSchema.safeParse({ status: 200 }).success).toBe(false);
    expect(mobileMoneyPaymentResponseSchema.safeParse({ message: 'x', status: '200' }).success).toBe(false);
  });

  it('reject the documented message with a status other than the number 200', () => {
    for (const status of [201, 400, '200', 200.5]) {
      for (const [schema, message] of [
        [cardPaymentResponseSchema, 'Card Payment Initiated'],
        [mobileMoneyPaymentResponseSchema, 'M-PESA Payment Initiated'],
        [payoutResponseSchema, 'Mobile Payout Initiated'],
      ] as const) {
        const result = schema.safeParse({ message, status });
        expect(result.success).toBe(false);
        expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['status']);
      }
    }
  });

  // A 200 whose message is not the documented text is not a reply the service describes as
  // "initiated": it must not resolve as one.
  it.each([
    ['card', 'Card Payment Failed', cardPaymentResponseSchema],
    ['card', '', cardPaymentResponseSchema],
    ['card', 'card payment initiated', cardPaymentResponseSchema],
    ['card', 'Card Payment Initiated, then declined', cardPaymentResponseSchema],
    ['card', 'Card Payment Initiated\n', cardPaymentResponseSchema],
    ['payout', 'Mobile Payout Initiated: insufficient balance', payoutResponseSchema],
    ['mobile-money', 'M-PESA Payment Initiated - request failed', mobileMoneyPaymentResponseSchema],
    ['payout', 'Mobile Payout Failed', payoutResponseSchema],
    ['payout', 'Initiated', payoutResponseSchema],
    ['mobile-money', 'M-PESA Payment Failed', mobileMoneyPaymentResponseSchema],
    ['mobile-money', ' Payment Initiated', mobileMoneyPaymentResponseSchema],
    ['mobile-money', 'Insufficient funds', mobileMoneyPaymentResponseSchema],
  ])('refuses a %s reply with status 200 and the message %j', (_name, message, schema) => {
    const result = schema.safeParse({ message, status: 200 });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['message']);
    expect(result.error?.issues[0]?.message).toMatch(/^expected .*(Payment|Payout) Initiated/);
  });

  // Spec §2.8: the message is "<brand> Payment Initiated". Words that are no brand before
  // " Payment Initiated" — a failure, a negation, a sentence — do not say a prompt reached the phone.
  it.each([
    'No Payment Initiated',
    'no Payment Initiated',
    'Failed: Payment Initiated',
    'Duplicate request - no Payment Initiated',
    'Duplicate Payment Initiated',
    'Not Payment Initiated',
    'None Payment Initiated',
    'Never Payment Initiated',
    'Error Payment Initiated',
    'M-PESA Failed Payment Initiated',
    'Insufficient funds Payment Initiated',
    'Payment Declined - M-PESA Payment Initiated',
    'Cancelled Payment Initiated',
    'Refused Payment Initiated',
    'Blocked Payment Initiated',
    'Aborted Payment Initiated',
    'Account Suspended Payment Initiated',
    'Stop Payment Initiated',
    'Stopped Payment Initiated',
    'Pending Payment Initiated',
    'Unknown Payment Initiated',
    'Unavailable Payment Initiated',
    'Forbidden Payment Initiated',
    'Unauthorized Payment Initiated',
    'M-PESA  Payment Initiated',
    'Airtel  Money Payment Initiated',
    'M--PESA Payment Initiated',
    'M-PESA (test) Payment Initiated',
    'M-PESA. Payment Initiated',
    '-MPESA Payment Initiated',
    '2024 Payment Initiated',
    `${'M'.repeat(33)} Payment Initiated`,
    // What a success callback's message may not say either: `false`, and words of a refusal or of
    // a request not done.
    'False Payment Initiated',
    'Null Payment Initiated',
    'undefined Payment Initiated',
    'Err Payment Initiated',
    'Errored Payment Initiated',
    'NOTSENT Payment Initiated',
    'Unsent Payment Initiated',
    'UNDELIVERED Payment Initiated',
    'Unprocessed Payment Initiated',
    'Nope Payment Initiated',
    'Offline Payment Initiated',
    'Busy Payment Initiated',
    'Throttled Payment Initiated',
    'Rate-Limited Payment Initiated',
    'Queued Payment Initiated',
    'Retry Payment Initiated',
    'Dropped Payment Initiated',
    'Skipped Payment Initiated',
    'Ignored Payment Initiated',
    'Rolled Back Payment Initiated',
    'Maintenance Payment Initiated',
    'Denial Payment Initiated',
  ])('refuses a mobile-money reply whose brand part is no brand word: %j', (message) => {
    const result = mobileMoneyPaymentResponseSchema.safeParse({ message, status: 200 });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['message']);
    expect(result.error?.issues[0]?.message).toMatch(/^expected '<brand> Payment Initiated'/);
  });

  it.each([
    'MOBILE-MONEY Payment Initiated',
    'M-PESA Payment Initiated',
    'Airtel Money Payment Initiated',
    'MTN MoMo Payment Initiated',
    'T-Kash Payment Initiated',
    'EcoCash Payment Initiated',
    'Tigo Pesa Payment Initiated',
    'Orange Money Payment Initiated',
    'Vodafone Cash Payment Initiated',
    'Wave Payment Initiated',
    `${'M'.repeat(32)} Payment Initiated`,
  ])('takes a mobile-money reply with a brand word: %j', (message) => {
    expect(mobileMoneyPaymentResponseSchema.parse({ message, status: 200 })).toEqual({
      message,
      status: 200,
    });
  });

  it('refuses a mobile-money reply of two lines, even one whose brand part is the word the call sent', () => {
    const schema = mobileMoneyPaymentResponseSchemaFor(['M-PESA\nKE']);
    const result = schema.safeParse({ message: 'M-PESA\nKE Payment Initiated', status: 200 });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['message']);
  });

  it('takes a checkout reply, tolerating a numeric order_id', () => {
    const reply = { checkout_link: 'https://pay.example/c/1', status: true, order_id: 1003 };
    expect(checkoutSessionResponseSchema.parse(reply)).toEqual({ ...reply, order_id: '1003' });
    expect(
      checkoutSessionResponseSchema.safeParse({ ...reply, checkout_link: 'javascript:alert(1)' }).success,
    ).toBe(false);
    expect(checkoutSessionResponseSchema.safeParse({ ...reply, status: 'true' }).success).toBe(false);
    expect(checkoutSessionResponseSchema.safeParse({ ...reply, order_id: 1003.5 }).success).toBe(false);
  });
});
