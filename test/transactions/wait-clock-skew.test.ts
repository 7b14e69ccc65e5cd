// waitFor on instance X while the customer pays again through instance Y, whose clock is 50 ms
// behind: the new attempt's createdAt is older than the first attempt's, and its success must
// still end the wait (a success or failure of any attempt settles the transaction; only a late
// expiry of an earlier attempt is not the wait's answer).
import { expect, it } from 'vitest';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionTracker,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { stkPush, trackedClient } from '../helpers/tracked-payment.js';

it('resolves with the success of an attempt recorded by an instance whose clock is behind', async () => {
  let t = 1_700_000_000_000;
  const store = createMemoryTransactionStore();
  const x = createTransactionTracker({ store, now: () => t, pollIntervalMs: 20 });
  const y = createTransactionTracker({ store, now: () => t - 50 });
  const baseUrl = fakeService(() =>
    Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 }),
  );
  const pay = (tracker: TransactionTracker) =>
    trackedClient(baseUrl, tracker).initiateMobileMoneyPayment(stkPush('ORD-SKEW'));
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
