// A transaction_reference holding a control character (a line break, a tab, NUL) is no one's
// order number: the tracker refuses to record one, and a builder without a tracker refused it
// nowhere, so it went to the service, into the signed callback URL and back into the merchant's
// logs. It is refused before anything is sent, naming the field.
import { describe, expect, it } from 'vitest';
import { buildCardPaymentRequest, buildMobileMoneyPaymentRequest, ValidationError } from '../../src/index.js';
import { caught } from '../helpers/caught.js';
import { cardPaymentInput, mobileMoneyPaymentInput } from '../helpers/inputs.js';

describe('a transaction_reference with a control character', () => {
  it.each([
    ['a line break', 'order-1\nX-Injected: 1'],
    ['a tab', 'order\t1'],
    ['NUL', 'order-1\u0000'],
    ['DEL', 'order-1\u007f'],
    ['a C1 control', 'order-1\u0085'],
  ])('is refused with %s, naming the field', async (_name, reference) => {
    for (const build of [
      () =>
        buildCardPaymentRequest({
          ...cardPaymentInput,
          callback_details: { ...cardPaymentInput.callback_details, transaction_reference: reference },
        }),
      () =>
        buildMobileMoneyPaymentRequest({
          ...mobileMoneyPaymentInput,
          callback_details: { ...mobileMoneyPaymentInput.callback_details, transaction_reference: reference },
        }),
    ]) {
      const error = await caught(build);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toContainEqual(
        expect.objectContaining({
          path: ['callback_details', 'transaction_reference'],
          code: 'control_character',
        }),
      );
    }
  });

  it('a reference with spaces, unicode letters or punctuation is sent as given', () => {
    const reference = 'Bestellung 42 / Ünïcode #7';
    const request = buildCardPaymentRequest({
      ...cardPaymentInput,
      callback_details: { ...cardPaymentInput.callback_details, transaction_reference: reference },
    });
    expect(request.callback_details.transaction_reference).toBe(reference);
  });
});
