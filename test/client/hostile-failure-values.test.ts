// An abort reason, or what a custom fetch rejects with, is the merchant's own value and may be
// anything: a Proxy whose traps throw (an instrumentation wrapper's, a revoked one). The call still
// ends as a ConnectionError that says whether the request went out, and the trap's own error, which
// may quote the request being sent, never reaches the merchant.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConnectionError, PaymentsClient, type CardPaymentInput } from '../../src/index.js';
import { plainCause } from '../../src/internal/redact.js';
import { abortedOnceSent } from '../helpers/aborted.js';
import { caught } from '../helpers/caught.js';

const card = '4917385127649357';
const apiKey = 'sk_live_CANARYKEYq7f3a9b21Z';

const input = {
  customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
  amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
  card_details: { card_number: card, expiry_month: 12, expiry_year: 2030, cvc: '857' },
  callback_details: { transaction_reference: 'ORDER-77', callback_url: 'https://shop.example/hooks' },
} satisfies CardPaymentInput;

const traps = ['getPrototypeOf', 'get', 'has', 'ownKeys', 'getOwnPropertyDescriptor'] as const;

/** A value whose `trap` throws an error quoting the request; `revoked`: one every use of throws. */
function hostile(trap: (typeof traps)[number] | 'revoked', target: object = {}): object {
  if (trap === 'revoked') {
    const { proxy, revoke } = Proxy.revocable(target, {});
    revoke();
    return proxy;
  }
  return new Proxy(target, {
    [trap]() {
      throw new Error(`${trap} trap: card ${card} key ${apiKey}`);
    },
  });
}

const kinds = [...traps, 'revoked' as const].flatMap((trap) => [
  [`a Proxy whose ${trap} trap throws`, () => hostile(trap)] as const,
  [`an Error in a Proxy whose ${trap} trap throws`, () => hostile(trap, new Error('net'))] as const,
]);

/** Every text a log line may be made of; it must show neither the card number nor the key. */
function expectNoSecret(error: unknown): void {
  const text = [
    String(error),
    JSON.stringify(error),
    (error as Error | undefined)?.stack,
    inspect(error, { showHidden: true, depth: Infinity }),
  ].join('\n');
  expect(text).not.toContain(card.slice(4, 12));
  expect(text).not.toContain('CANARYKEY');
}

describe('plainCause', () => {
  it.each(kinds)('neither throws nor shows a secret for %s', (_, make) => {
    const plain = plainCause(make(), { cardNumber: card, values: [apiKey] });
    expect(plain === undefined || plain instanceof Error).toBe(true);
    expectNoSecret(plain);
  });

  it('keeps an error whose cause is such a value, without that cause', () => {
    const plain = plainCause(new Error('net', { cause: hostile('getPrototypeOf') }), { values: [apiKey] });
    expect(plain).toBeInstanceOf(Error);
    expect((plain as Error).message).toBe('net');
    expect((plain as Error).cause).toBeUndefined();
  });
});

describe('a call aborted with a hostile reason', () => {
  it.each(kinds)('before sending, %s: a ConnectionError, nothing sent', async (_, make) => {
    let fetched = 0;
    const client = new PaymentsClient({
      baseUrl: 'https://api.example/',
      apiKey,
      fetch: () => {
        fetched += 1;
        return new Promise<Response>(() => undefined);
      },
    });
    const controller = new AbortController();
    controller.abort(make());
    const error = await caught(() => client.initiateCardPayment(input, { signal: controller.signal }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ aborted: true, sent: false });
    expect(fetched).toBe(0);
    expectNoSecret(error);
  });

  it.each(kinds)('once sent, %s: a ConnectionError, maybe received', async (_, make) => {
    const error = await abortedOnceSent(input, apiKey, make());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ aborted: true, sent: true });
    expectNoSecret(error);
  });
});

describe('a custom fetch rejecting with a hostile value', () => {
  it.each(kinds)('%s: a ConnectionError, maybe received', async (_, make) => {
    const client = new PaymentsClient({
      baseUrl: 'https://api.example/',
      apiKey,
      fetch: () => Promise.reject(make()),
    });
    const error = await caught(() => client.initiateCardPayment(input));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ sent: true });
    expectNoSecret(error);
  });

  it('with retries opted in: a ConnectionError, sent once', async () => {
    let fetched = 0;
    const client = new PaymentsClient({
      baseUrl: 'https://api.example/',
      apiKey,
      retry: { limit: 2, backoffLimit: 1 },
      fetch: () => {
        fetched += 1;
        return Promise.reject(hostile('getPrototypeOf', new Error('net')));
      },
    });
    const error = await caught(() => client.initiateCardPayment(input));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ sent: true });
    expect(fetched).toBe(1);
    expectNoSecret(error);
  });
});
