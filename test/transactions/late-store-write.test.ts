// A store that answers after the call gave up on it (its totalTimeout, its signal): the call fails
// with a TransactionStoreError, nothing sent, and the record the store then writes is this call's
// attempt with nothing in flight. It is expired once written, so a wait on it ends and a payment
// made again is recorded as a new attempt.
import { expect, it } from 'vitest';
import {
  TransactionStoreError,
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { stkPush, trackedClient } from '../helpers/tracked-payment.js';

it('a record written after the call gave up is expired; the call made again is sent', async () => {
  const memory = createMemoryTransactionStore();
  let slow = false;
  const store: TransactionStore = {
    ...memory,
    async insert(record) {
      if (slow) await new Promise((resolve) => setTimeout(resolve, 400));
      return memory.insert(record);
    },
  };
  const tracker = createTransactionTracker({ store });
  const sent: Request[] = [];
  const baseUrl = fakeService((request) => {
    sent.push(request);
    return Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
  });
  const client = trackedClient(baseUrl, tracker);
  // A first payment loads what the client loads once, so the deadline below falls while the
  // store is writing, not while the client starts.
  await expect(client.initiateMobileMoneyPayment(stkPush('ORD-WARM'))).resolves.toMatchObject({
    status: 200,
  });
  slow = true;
  const pay = () => client.initiateMobileMoneyPayment(stkPush('ORD-LATE'), { totalTimeout: 100 });
  const error = await pay().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TransactionStoreError);
  expect(error).toMatchObject({ sent: false });
  await new Promise((resolve) => setTimeout(resolve, 500)); // the store has written it by now
  expect(await tracker.get('ORD-LATE')).toMatchObject({ state: 'expired' });
  await expect(tracker.waitFor('ORD-LATE', { timeout: 1_000 })).resolves.toMatchObject({ state: 'expired' });
  slow = false;
  await expect(pay()).resolves.toMatchObject({ status: 200 });
  expect(sent).toHaveLength(2); // the first payment and this one, not the call that gave up
  expect(await tracker.get('ORD-LATE')).toMatchObject({ state: 'pending' });
});
