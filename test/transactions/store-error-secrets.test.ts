// A failing transaction store's error may quote the request it was recording (a driver error with
// its query or connection context): TransactionStoreError keeps it as plain errors with every
// secret of the call taken out — the card number and cvc, the API key (also as `Bearer <key>`)
// and the `hp_sig` the client signed its callback URL with.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { signCallbackUrl } from '../../src/callbacks/index.js';
import { PaymentsClient } from '../../src/client.js';
import { ApiError } from '../../src/errors.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';
import { fakeService } from '../helpers/fake-service.js';
import { cardPaymentInput, cvc } from '../helpers/inputs.js';
import { withoutSourceNoise } from '../helpers/source-noise.js';

const apiKey = 'sk_live_CANARYKEYq7f3a9b21Z';
const secret = 'whsec_store_error_secrets';
const { callback_url: url, transaction_reference: reference } = cardPaymentInput.callback_details;

/** The signature the client signs the card payment's callback URL with. */
const signature = async () =>
  new URL(await signCallbackUrl(url, { secret, reference })).searchParams.get('hp_sig') ?? '';

/** A memory store whose `method` rejects with an error quoting the request's context. */
function failingStore(method: 'insert' | 'update', sig: string): TransactionStore {
  const memory = createMemoryTransactionStore();
  const fail = () =>
    Promise.reject(
      new Error(
        `store down; ctx: card 9999 9999 9999 9995 cvc ${cvc} auth Bearer ${apiKey} cb ${url}?hp_ref=${reference}&hp_sig=${sig}`,
      ),
    );
  return { ...memory, [method]: fail };
}

/** Every text a log line may be made of. */
const dumps = (error: unknown): string =>
  [
    String(error),
    JSON.stringify(error),
    (error as Error).stack,
    inspect(error, { showHidden: true, depth: Infinity }),
  ].join('\n');

/** What of the secrets a text shows, once what a machine writes by chance is out. */
function leaks(text: string, sig: string): string[] {
  const plain = withoutSourceNoise(text);
  return [
    /9999\D{0,3}9999\D{0,3}9999\D{0,3}9995/.test(plain) && 'card number',
    new RegExp(`(?<!\\d)${cvc}(?!\\d)`).test(plain) && 'cvc',
    plain.includes('CANARYKEY') && 'API key',
    plain.includes(sig.slice(0, 10)) && 'hp_sig',
  ].filter((found) => found !== false);
}

describe("a failing store's error", () => {
  it('recording before sending: TransactionStoreError shows no card number, cvc, API key or hp_sig', async () => {
    const sig = await signature();
    const client = new PaymentsClient({
      baseUrl: fakeService(() => Response.json({ message: 'Card Payment Initiated', status: 200 })),
      apiKey,
      transactions: { tracker: createTransactionTracker({ store: failingStore('insert', sig) }), secret },
    });
    const error = await caught(() => client.initiateCardPayment(cardPaymentInput));
    expect(error).toMatchObject({ name: 'TransactionStoreError', sent: false });
    expect((error as Error).message).toContain('store down');
    expect(leaks(dumps(error), sig)).toEqual([]);
  });

  it("expiring after a refusal: the ApiError's TransactionStoreError cause shows none of them", async () => {
    const sig = await signature();
    const client = new PaymentsClient({
      baseUrl: fakeService(
        () =>
          new Response('{"error":"refused"}', {
            status: 400,
            headers: { 'content-type': 'application/json' },
          }),
      ),
      apiKey,
      transactions: { tracker: createTransactionTracker({ store: failingStore('update', sig) }), secret },
    });
    const error = await caught(() => client.initiateCardPayment(cardPaymentInput));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).cause).toMatchObject({ name: 'TransactionStoreError', sent: true });
    expect(leaks(dumps(error), sig)).toEqual([]);
  });
});
