// A mobile-money payment_method with blanks around it or a control or invisible character in it
// (which the service would have to guess about, and which the sandbox refuses as a brand) is
// refused before anything is sent, naming the field or the option. The card method word is sent as
// written: spec §4 rule 1 makes a request without card_details a mobile-money payment whatever its
// payment_method. The card method itself (the builder option, the client's paymentMethods.card)
// is held to the same: under a word the service does not read as the card method, a card payment
// would be taken for mobile money.
import { describe, expect, it } from 'vitest';
import {
  buildCardPaymentRequest,
  buildMobileMoneyPaymentRequest,
  PaymentsClient,
  ValidationError,
} from '../../src/index.js';
import { caught } from '../helpers/caught.js';
import { cardPaymentInput, mobileMoneyPaymentInput } from '../helpers/inputs.js';

const bad = [
  ['blanks around it', ' M-PESA '],
  ['a line break', 'MOBILE-MONEY\n'],
  ['a NUL', 'M-PE\u0000SA'],
  ['an invisible character', 'M-PESA\u200b'],
] as const;

describe('a mobile-money payment_method', () => {
  it.each(bad)('is refused in the input with %s, naming the field', async (_name, method) => {
    const error = await caught(() =>
      buildMobileMoneyPaymentRequest({
        ...mobileMoneyPaymentInput,
        customer_details: { ...mobileMoneyPaymentInput.customer_details, payment_method: method },
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toContainEqual(
      expect.objectContaining({ path: ['customer_details', 'payment_method'] }),
    );
  });

  it.each(bad)('is refused as the builder option with %s, naming it', async (_name, method) => {
    const error = await caught(() =>
      buildMobileMoneyPaymentRequest(mobileMoneyPaymentInput, { paymentMethod: method }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toContainEqual(
      expect.objectContaining({ path: ['paymentMethod'] }),
    );
  });

  it.each(bad)(
    'is refused as the client option paymentMethods.mobileMoney with %s',
    async (_name, method) => {
      const error = await caught(
        () => new PaymentsClient({ baseUrl: 'http://127.0.0.1:1', paymentMethods: { mobileMoney: method } }),
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toContainEqual(
        expect.objectContaining({ path: ['paymentMethods', 'mobileMoney'] }),
      );
    },
  );

  it.each(bad)('is refused as the client option mobileMoneyBrand with %s', async (_name, method) => {
    const error = await caught(
      () => new PaymentsClient({ baseUrl: 'http://127.0.0.1:1', mobileMoneyBrand: method }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toContainEqual(
      expect.objectContaining({ path: ['mobileMoneyBrand'] }),
    );
  });

  it.each([['M-PESA'], ['M-PESA (KE)'], ['Orange Money CI.'], ['MPESA_KE'], ['CARD']])(
    'is sent as written: %s',
    (method) => {
      const body = buildMobileMoneyPaymentRequest({
        ...mobileMoneyPaymentInput,
        customer_details: { ...mobileMoneyPaymentInput.customer_details, payment_method: method },
      });
      expect(body.customer_details.payment_method).toBe(method);
      expect(
        () => new PaymentsClient({ baseUrl: 'http://127.0.0.1:1', paymentMethods: { mobileMoney: method } }),
      ).not.toThrow();
    },
  );
});

describe('the card method', () => {
  it.each(bad)('is refused as the builder option with %s, naming it', async (_name, method) => {
    const error = await caught(() => buildCardPaymentRequest(cardPaymentInput, { paymentMethod: method }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toContainEqual(
      expect.objectContaining({ path: ['paymentMethod'] }),
    );
  });

  it.each(bad)('is refused as the client option paymentMethods.card with %s', async (_name, method) => {
    const error = await caught(
      () => new PaymentsClient({ baseUrl: 'http://127.0.0.1:1', paymentMethods: { card: method } }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toContainEqual(
      expect.objectContaining({ path: ['paymentMethods', 'card'] }),
    );
  });

  it.each([['VISA'], ['Card Payment']])('is sent as written: %s', (method) => {
    const body = buildCardPaymentRequest(cardPaymentInput, { paymentMethod: method });
    expect(body.customer_details.payment_method).toBe(method);
    expect(
      () => new PaymentsClient({ baseUrl: 'http://127.0.0.1:1', paymentMethods: { card: method } }),
    ).not.toThrow();
  });
});
