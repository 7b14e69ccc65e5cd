// The reconciliation cron of docs/transactions.md (`expireStale`, run as pasted) on two instances,
// while the customer pays again: instance A expires a stale transaction and cancels its order, the
// shop reopens the order and the customer initiates the payment again (the client records the
// expired reference pending again, with a new createdAt), and only then does instance B, whose
// stale() listed the first attempt, get to it. B must leave the new attempt pending and its order
// open: the customer is paying it. And a payment initiated again while its record is still
// pending (Pay pressed again at 4:50 of a 5-minute limit) counts its stale limit from then.
import { afterAll, describe, expect, it } from 'vitest';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { documentedFunction, removeDocumentedFiles, type ExpireStale } from '../helpers/documented.js';
import { fakeService } from '../helpers/fake-service.js';
import { stkPush, trackedClient } from '../helpers/tracked-payment.js';

const STALE_MOBILE_MONEY = 5 * 60_000;

afterAll(removeDocumentedFiles);

describe('the documented expireStale, two instances and a payment initiated again', () => {
  it('leaves an attempt initiated after its stale() list pending, and its order open', async () => {
    let t = 1_700_000_000_000;
    const now = () => t;
    const store = createMemoryTransactionStore();
    const shop = createTransactionTracker({ store, now });
    const cronA = createTransactionTracker({ store, now });
    const baseUrl = fakeService(() =>
      Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 }),
    );
    const client = trackedClient(baseUrl, shop);
    const pay = () => client.initiateMobileMoneyPayment(stkPush('ORD-AGAIN'));

    const orders = new Map<string, 'open' | 'cancelled'>([['ORD-AGAIN', 'open']]);
    const cancelOrder = async (reference: string) => {
      if (orders.get(reference) === 'open') orders.set(reference, 'cancelled');
    };
    const expireStale = await documentedFunction<ExpireStale>('expireStale');

    await pay();
    t += STALE_MOBILE_MONEY + 1;

    // Instance B's store answers its stale() list, and before B goes on, A's cron runs, the shop
    // reopens the order, and the customer pays again.
    let interleaved = false;
    const lagging: TransactionStore = {
      ...store,
      async listPending(query) {
        const listed = await store.listPending(query);
        if (!interleaved && listed.length > 0) {
          interleaved = true;
          await expireStale(cronA, cancelOrder);
          expect(orders.get('ORD-AGAIN')).toBe('cancelled');
          orders.set('ORD-AGAIN', 'open');
          t += 1_000;
          await pay();
          expect((await store.get('ORD-AGAIN'))?.state).toBe('pending');
        }
        return listed;
      },
    };
    const cronB = createTransactionTracker({ store: lagging, now });
    await expireStale(cronB, cancelOrder);

    expect(interleaved).toBe(true);
    expect((await store.get('ORD-AGAIN'))?.state).toBe('pending');
    expect(orders.get('ORD-AGAIN')).toBe('open');
  });

  it('does not expire a payment initiated again while pending before its own stale limit', async () => {
    let t = 1_700_000_000_000;
    const tracker = createTransactionTracker({ now: () => t });
    const baseUrl = fakeService(() =>
      Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 }),
    );
    const client = trackedClient(baseUrl, tracker);
    const pay = () => client.initiateMobileMoneyPayment(stkPush('ORD-PRESSED-AGAIN'));
    const cancelled: string[] = [];
    const expireStale = await documentedFunction<ExpireStale>('expireStale');

    await pay(); // the customer ignores the prompt
    t += STALE_MOBILE_MONEY - 10_000;
    await pay(); // and presses Pay again, 10 s before the first attempt's limit
    t += 11_000;
    await expireStale(tracker, async (reference) => void cancelled.push(reference));
    expect(cancelled).toEqual([]);
    expect(await tracker.get('ORD-PRESSED-AGAIN')).toMatchObject({ state: 'pending', createdAt: t - 11_000 });

    // Its own limit still holds: stale once that attempt is 5 minutes old.
    t += STALE_MOBILE_MONEY - 11_000 + 1;
    await expireStale(tracker, async (reference) => void cancelled.push(reference));
    expect(cancelled).toEqual(['ORD-PRESSED-AGAIN']);
  });
});
