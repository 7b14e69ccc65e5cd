// Two merchant mistakes whose refusals said less than they could (testing evaluation): a body that
// a framework turned into the text "[object Object]" (String(req.body) on a parsed object) was only
// "not valid JSON"; a request field given a Promise (a callback_url from an async helper, not
// awaited) was "got object". Each message now names the likely mistake, never the value.
import { describe, expect, it } from 'vitest';
import { parseCallback, CallbackParseError } from '../../src/callbacks/index.js';
import { buildMobileMoneyPaymentRequest, ValidationError } from '../../src/index.js';

describe('refusals that name the likely mistake', () => {
  it('a body that reads "[object Object]" says an object was turned into text', () => {
    let error: unknown;
    try {
      parseCallback('[object Object]');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CallbackParseError);
    expect((error as CallbackParseError).reason).toBe('invalid_json');
    expect((error as Error).message).toMatch(/\[object Object\] is an object turned into text/);
  });

  it('a Promise where a field is expected says it was not awaited', () => {
    let error: unknown;
    try {
      buildMobileMoneyPaymentRequest({
        customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
        amount: { delivery_fee: 100, discount_fee: 50, total: 900, currency: 'KES' },
        callback_details: {
          transaction_reference: 'ORD-1',
          callback_url: Promise.resolve('https://shop.example/webhooks/payments') as unknown as string,
        },
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    const issue = (error as ValidationError).issues.find(
      (i) => i.path.join('.') === 'callback_details.callback_url',
    );
    expect(issue?.message).toMatch(/Promise.*await/);
  });
});
