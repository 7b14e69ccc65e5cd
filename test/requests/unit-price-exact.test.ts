// A card payment's unit_price goes on the wire as a JSON number. A price written with more
// significant digits than a double keeps would be sent as another value (999999999999999.1 for
// '999999999999999.1234567891'): refused, naming the field, and nothing is sent.
import { describe, expect, it, vi } from 'vitest';
import {
  PaymentsClient,
  ValidationError,
  buildCardPaymentRequest,
  buildMobileMoneyPaymentRequest,
} from '../../src/index.js';
import { cardPaymentInput, mobileMoneyPaymentInput } from '../helpers/inputs.js';

const withPrice = (unit_price: string | number) => ({
  ...cardPaymentInput,
  products: [{ product_id: 7, product_name: 'Coffee', quantity: 1, unit_price }],
});

describe('a card unit_price the wire cannot carry exactly', () => {
  it.each(['999999999999999.1234567891', '123456789012345.678', '0.12345678901234567'])(
    'refuses %s with a ValidationError naming products[0].unit_price, and sends nothing',
    async (price) => {
      let error: unknown;
      try {
        buildCardPaymentRequest(withPrice(price));
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]).toMatchObject({
        path: ['products', 0, 'unit_price'],
        code: 'invalid_unit_price',
      });
      const fetch = vi.fn(async () => Response.json({ message: 'Card Payment Initiated', status: 200 }));
      const client = new PaymentsClient({ baseUrl: 'https://payments.example.com', fetch });
      await expect(client.initiateCardPayment(withPrice(price))).rejects.toBeInstanceOf(ValidationError);
      expect(fetch).not.toHaveBeenCalled();
    },
  );

  it.each([
    ['250.50', 250.5],
    ['0.1', 0.1],
    ['123456789012345', 123456789012345],
    ['1500.0000000000', 1500],
  ])('sends %s as the number %d', (price, sent) => {
    expect(buildCardPaymentRequest(withPrice(price)).products?.[0]?.unit_price).toBe(sent);
  });
});

describe('a mobile-money unit_price, which goes on the wire as the string written', () => {
  it('is sent exactly as written, however many digits it has', () => {
    const input = {
      ...mobileMoneyPaymentInput,
      products: [{ product_name: 'Tea', quantity: 1, unit_price: '999999999999999.1234567891' }],
    };
    expect(buildMobileMoneyPaymentRequest(input).products?.[0]?.unit_price).toBe(
      '999999999999999.1234567891',
    );
  });
});

describe('a unit_price longer than the SDK reads', () => {
  it.each([
    ['1234567890123456', 'a 16-digit whole number'],
    [1234567890123456, 'a 16-digit whole JSON number'],
    ['1.12345678901', '11 decimals'],
  ])('refuses %s (%s) with a message naming the digit limits, not the way it is written', (price, _kind) => {
    let error: unknown;
    try {
      buildMobileMoneyPaymentRequest({
        ...mobileMoneyPaymentInput,
        products: [{ product_name: 'Tea', quantity: 1, unit_price: price }],
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    const [issue] = (error as ValidationError).issues;
    expect(issue).toMatchObject({ path: ['products', 0, 'unit_price'], code: 'invalid_unit_price' });
    expect(issue?.message).toContain('at most 15 digits before the decimal point and 10 after it');
  });
});
