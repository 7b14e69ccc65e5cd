// A full memory store refuses a new record, or a settlement that would grow it, with
// TransactionStoreFullError. Like every tracker error it names the transaction (docs/transactions.md,
// "Errors"): a merchant catching it from an initiation or a webhook can tell which order was not
// recorded or not settled.
import { expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  TransactionStoreFullError,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { stkPush } from '../helpers/tracked-payment.js';

const payment = (reference: string) =>
  ({ reference, kind: 'mobile_money', amount: '1500', currency: 'KES' }) as const;

it('names the reference it could not record, from the tracker and from the client', async () => {
  const tracker = createTransactionTracker({ store: createMemoryTransactionStore({ maxEntries: 1 }) });
  await tracker.begin(payment('ORD-1'));
  const error = await tracker.begin(payment('ORD-2')).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(TransactionStoreFullError);
  expect(error).toMatchObject({ reference: 'ORD-2', limit: 'maxEntries' });
  expect((error as Error).message).toContain('ORD-2');

  const client = new PaymentsClient({
    baseUrl: fakeService(() => Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 })),
    transactions: { tracker, secret: 'whsec_store_full_reference_0123' },
  });
  const refused = await client
    .initiateMobileMoneyPayment(stkPush('ORD-3'))
    .catch((caught: unknown) => caught);
  expect(refused).toBeInstanceOf(TransactionStoreFullError);
  expect(refused).toMatchObject({ reference: 'ORD-3' });
});

it('names the reference whose settlement would not fit', async () => {
  const store = createMemoryTransactionStore({ maxBytes: 1_000 });
  const tracker = createTransactionTracker({ store });
  await tracker.begin(payment('ORD-BIG'));
  const error = await tracker
    .settle('ORD-BIG', { outcome: 'failed', transactionId: 'TX-1', message: 'x'.repeat(2_000) })
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(TransactionStoreFullError);
  expect(error).toMatchObject({ reference: 'ORD-BIG', limit: 'maxBytes' });
});
