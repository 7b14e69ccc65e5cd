// A store whose update never applies a write (a SQL store whose WHERE clause cannot match a
// pending → pending rewrite, say): a second initiation under a pending reference tries to record
// its new attempt a bounded number of times, then fails with a TransactionStoreError, nothing
// sent — it never spins without end (on a store that answers at once, such a loop starves the
// event loop: no timeout can fire and the process hangs).
import { expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import {
  TransactionStoreError,
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';

it('a store that never applies the new attempt fails the call, nothing sent', async () => {
  const memory = createMemoryTransactionStore();
  const store: TransactionStore = { ...memory, update: async () => false };
  const tracker = createTransactionTracker({ store });
  const sent: Request[] = [];
  const baseUrl = fakeService((request) => {
    sent.push(request);
    return Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
  });
  const client = new PaymentsClient({
    baseUrl,
    apiKey: 'sk_test_bounded',
    transactions: { tracker, secret: 'whsec_bounded_0123456789abcdef' },
  });
  const pay = () =>
    client.initiateMobileMoneyPayment({
      customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
      amount: { delivery_fee: 0, discount_fee: 0, total: 900, currency: 'KES' },
      callback_details: {
        transaction_reference: 'ORD-BOUNDED',
        callback_url: 'https://shop.example/webhooks',
      },
    });
  await pay();
  const error = await pay().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TransactionStoreError);
  expect(error).toMatchObject({ sent: false });
  expect((error as Error).message).toMatch(/store\.update answered false 32 times/);
  expect(sent).toHaveLength(1);
});
