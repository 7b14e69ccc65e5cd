// A store whose update never applies a write (a SQL store whose WHERE clause cannot match a
// pending → pending rewrite, say): a second initiation under a pending reference tries to record
// its new attempt a bounded number of times, then fails with a TransactionStoreError, nothing
// sent — it never spins without end (on a store that answers at once, such a loop starves the
// event loop: no timeout can fire and the process hangs).
import { expect, it } from 'vitest';
import {
  TransactionStoreError,
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { stkPush, trackedClient } from '../helpers/tracked-payment.js';

it('a store that never applies the new attempt fails the call, nothing sent', async () => {
  const memory = createMemoryTransactionStore();
  const store: TransactionStore = { ...memory, update: async () => false };
  const tracker = createTransactionTracker({ store });
  const sent: Request[] = [];
  const baseUrl = fakeService((request) => {
    sent.push(request);
    return Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
  });
  const client = trackedClient(baseUrl, tracker);
  const pay = () => client.initiateMobileMoneyPayment(stkPush('ORD-BOUNDED'));
  await pay();
  const error = await pay().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TransactionStoreError);
  expect(error).toMatchObject({ sent: false });
  expect((error as Error).message).toMatch(/update\("ORD-BOUNDED"\) answered false 32 times/);
  expect(sent).toHaveLength(1);
});
