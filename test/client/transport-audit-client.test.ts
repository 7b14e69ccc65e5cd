// Guards of PaymentsClient's options found missing by a hand-made mutation audit of src/client.ts:
// a password without a user name in baseUrl is refused unechoed, and a store that never answers
// is given up on at the call's own totalTimeout, named, and at the caller's abort, nothing sent.
// (A 400 through the merchant's own retrying fetch: test/transactions/custom-fetch-refusal.test.ts.)
import { expect, it } from 'vitest';
import { PaymentsClient, ValidationError } from '../../src/index.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';
import { countingService } from '../helpers/servers.js';

it('refuses a baseUrl holding a password without a user name, without echoing it', () => {
  const error = (() => {
    try {
      new PaymentsClient({ baseUrl: 'https://:hunter2pass@payments.example.com' });
    } catch (thrown) {
      return thrown;
    }
    return undefined;
  })();
  expect(error).toBeInstanceOf(ValidationError);
  expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['baseUrl']]);
  expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain('hunter2pass');
});

/** A client tracking with a store whose insert never answers; `inserting` resolves once it is asked. */
async function clientWithHangingStore() {
  let asked = (): void => undefined;
  const inserting = new Promise<void>((resolve) => (asked = resolve));
  const store: TransactionStore = {
    ...createMemoryTransactionStore(),
    insert: () => {
      asked();
      return new Promise(() => undefined);
    },
  };
  const { url: baseUrl, received } = await countingService();
  const client = new PaymentsClient({
    baseUrl,
    transactions: { tracker: createTransactionTracker({ store }), secret: 'a-webhook-secret-of-some-length' },
  });
  return { client, inserting, received };
}

it("names the call's own totalTimeout when a store that never answers is given up on, nothing sent", async () => {
  const { client, received } = await clientWithHangingStore();
  const error = await client
    .initiateMobileMoneyPayment(mobileMoneyPaymentInput, { totalTimeout: 250 })
    .catch((caught: unknown) => caught);
  expect(error).toMatchObject({ name: 'TransactionStoreError', sent: false });
  expect(String((error as Error).cause)).toContain('250 ms');
  expect(received()).toBe(0);
});

it("gives up on a store that never answers at the caller's abort, nothing sent", async () => {
  const { client, inserting, received } = await clientWithHangingStore();
  const controller = new AbortController();
  void inserting.then(() => controller.abort());
  const error = await client
    .initiateMobileMoneyPayment(mobileMoneyPaymentInput, { signal: controller.signal })
    .catch((caught: unknown) => caught);
  expect(error).toMatchObject({ sent: false });
  expect(received()).toBe(0);
});
