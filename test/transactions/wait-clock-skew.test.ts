// waitFor on instance X while the customer pays again through instance Y, whose clock is 50 ms
// behind: the new attempt's createdAt is older than the first attempt's, and its success must
// still end the wait (a success or failure of any attempt settles the transaction; only a late
// expiry of an earlier attempt is not the wait's answer).
import { expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionTracker,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';

it('resolves with the success of an attempt recorded by an instance whose clock is behind', async () => {
  let t = 1_700_000_000_000;
  const store = createMemoryTransactionStore();
  const x = createTransactionTracker({ store, now: () => t, pollIntervalMs: 20 });
  const y = createTransactionTracker({ store, now: () => t - 50 });
  const baseUrl = fakeService(() =>
    Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 }),
  );
  const pay = (tracker: TransactionTracker) =>
    new PaymentsClient({
      baseUrl,
      apiKey: 'sk_test_skew',
      transactions: { tracker, secret: 'whsec_skew_0123456789abcdef0123' },
    }).initiateMobileMoneyPayment({
      customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
      amount: { delivery_fee: 0, discount_fee: 0, total: 900, currency: 'KES' },
      callback_details: { transaction_reference: 'ORD-SKEW', callback_url: 'https://shop.example/webhooks' },
    });
  await pay(x);
  const wait = x.waitFor('ORD-SKEW', { timeout: 2_000 }).then(
    (record) => record,
    (error: unknown) => error,
  );
  // The wait has read the first attempt (it polls every 20 ms).
  await new Promise((resolve) => setTimeout(resolve, 60));
  t += 20; // Pay pressed again, served by instance y
  await pay(y);
  await new Promise((resolve) => setTimeout(resolve, 60)); // and the wait has read the new attempt
  await y.settle('ORD-SKEW', { outcome: 'succeeded', amount: '900', currency: 'KES' });
  expect(await wait).toMatchObject({ state: 'succeeded' });
});
