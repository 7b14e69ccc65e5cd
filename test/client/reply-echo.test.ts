// A service that echoes the request in a successful reply (a debug field, a proxy that adds it)
// must not hand the merchant a result holding the card number, the cvc, the API key or a signed
// URL's hp_sig: results get logged as they are. What the reply schema describes (the message, the
// status 200) is checked and stays exactly as the service sent it, even when the cvc is 200.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { bigCardNumber, cardPaymentInput, cvc } from '../helpers/inputs.js';

const apiKey = 'sk_live_reply_echo_0123456789';

/** A client whose service answers the card payment with `extra` made of what it received. */
function echoing(extra: (body: unknown, authorization: string) => Record<string, unknown>) {
  return new PaymentsClient({
    baseUrl: 'https://payments.example.com',
    apiKey,
    fetch: async (request) => {
      const body: unknown = await request.json();
      return Response.json({
        message: 'Card Payment Initiated',
        status: 200,
        ...extra(body, request.headers.get('authorization') ?? ''),
      });
    },
  });
}

const shown = (value: unknown) => `${JSON.stringify(value)}\n${inspect(value, { depth: Infinity })}`;

describe('a successful reply that echoes the request', () => {
  it('keeps the card number, cvc and API key out of the result, and its documented fields as sent', async () => {
    const client = echoing((body, authorization) => ({
      request: body,
      auth: authorization,
      debug: `card ${bigCardNumber} cvc ${cvc}`,
    }));
    const result = await client.initiateCardPayment(cardPaymentInput);
    expect(result).toMatchObject({ message: 'Card Payment Initiated', status: 200 });
    const text = shown(result);
    expect(text).not.toContain(bigCardNumber);
    expect(text).not.toMatch(new RegExp(`(?<!\\d)${cvc}(?!\\d)`));
    expect(text).not.toContain(apiKey);
    expect(text).toContain('9995'); // the card's last four, as everywhere else
  });

  it("redacts a secret used as an extra key's name", async () => {
    const client = echoing((_body, authorization) => ({
      [bigCardNumber]: true,
      [authorization.replace('Bearer ', '')]: 1,
    }));
    const result = await client.initiateCardPayment(cardPaymentInput);
    expect(result).toMatchObject({ message: 'Card Payment Initiated', status: 200 });
    expect(shown(result)).not.toContain(bigCardNumber);
    expect(shown(result)).not.toContain(apiKey);
  });

  it('redacts an extra key named __proto__ too', async () => {
    const client = new PaymentsClient({
      baseUrl: 'https://payments.example.com',
      fetch: async () =>
        new Response(
          `{"message":"Card Payment Initiated","status":200,"__proto__":{"card":"${bigCardNumber}"}}`,
          { headers: { 'content-type': 'application/json' } },
        ),
    });
    const result = await client.initiateCardPayment(cardPaymentInput);
    expect(shown(result)).not.toContain(bigCardNumber);
    expect(shown(Object.getPrototypeOf(result))).not.toContain(bigCardNumber);
  });

  it('leaves a reply without extra keys untouched, also when the cvc is 200', async () => {
    const client = echoing(() => ({}));
    const input = { ...cardPaymentInput, card_details: { ...cardPaymentInput.card_details, cvc: '200' } };
    await expect(client.initiateCardPayment(input)).resolves.toEqual({
      message: 'Card Payment Initiated',
      status: 200,
    });
  });
});
