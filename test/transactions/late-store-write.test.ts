// A store that answers after the call gave up on it (its totalTimeout, its signal): the call fails
// with a TransactionStoreError, nothing sent, and the record the store then writes is this call's
// attempt with nothing in flight. It is expired once written, so a wait on it ends and a payment
// made again is recorded as a new attempt.
import { expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import {
  TransactionStoreError,
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';

it('a record written after the call gave up is expired; the call made again is sent', async () => {
  const memory = createMemoryTransactionStore();
  let slow = true;
  const store: TransactionStore = {
    ...memory,
    async insert(record) {
      if (slow) await new Promise((resolve) => setTimeout(resolve, 200));
      return memory.insert(record);
    },
  };
  const tracker = createTransactionTracker({ store });
  const sent: Request[] = [];
  const baseUrl = fakeService((request) => {
    sent.push(request);
    return Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
  });
  const client = new PaymentsClient({
    baseUrl,
    apiKey: 'sk_test_late_write',
    transactions: { tracker, secret: 'whsec_late_write_0123456789abcdef' },
  });
  const pay = () =>
    client.initiateMobileMoneyPayment(
      {
        customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
        amount: { delivery_fee: 0, discount_fee: 0, total: 900, currency: 'KES' },
        callback_details: {
          transaction_reference: 'ORD-LATE',
          callback_url: 'https://shop.example/webhooks',
        },
      },
      { totalTimeout: 50 },
    );
  const error = await pay().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TransactionStoreError);
  expect(error).toMatchObject({ sent: false });
  await new Promise((resolve) => setTimeout(resolve, 300)); // the store has written it by now
  expect(await tracker.get('ORD-LATE')).toMatchObject({ state: 'expired' });
  await expect(tracker.waitFor('ORD-LATE', { timeout: 1_000 })).resolves.toMatchObject({ state: 'expired' });
  slow = false;
  await expect(pay()).resolves.toMatchObject({ status: 200 });
  expect(sent).toHaveLength(1);
  expect(await tracker.get('ORD-LATE')).toMatchObject({ state: 'pending' });
});
