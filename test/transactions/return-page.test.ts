// docs/transactions.md's return page (`returnPageMessage`, run as pasted): the customer's browser
// comes back to success_url or failed_url with an order id anyone can change. The page shows only
// what the order's callback settled, and an order id nothing recorded (a link edited by hand, an
// order of another shop's) is a page that says so, not a 500.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionTracker,
} from '../../src/transactions/index.js';
import { documentedFunction, removeDocumentedFiles } from '../helpers/documented.js';

type LandedOn = 'success_url' | 'failed_url';
type ReturnPageMessage = (
  tracker: TransactionTracker,
  orderId: string,
  landedOn: LandedOn,
) => Promise<string>;

afterAll(removeDocumentedFiles);
afterEach(() => void vi.useRealTimers());

const order = { reference: 'ORD-RETURN', kind: 'checkout', amount: 1500, currency: 'KES' } as const;

async function page() {
  const tracker = createTransactionTracker({ store: createMemoryTransactionStore() });
  const returnPageMessage = await documentedFunction<ReturnPageMessage>('returnPageMessage');
  return {
    tracker,
    message: (orderId: string, landedOn: LandedOn = 'failed_url') =>
      returnPageMessage(tracker, orderId, landedOn),
  };
}

describe('the documented return page', () => {
  it('says an order its callback paid is paid, once the callback arrives during the wait', async () => {
    const { tracker, message } = await page();
    await tracker.begin(order);
    const shown = message('ORD-RETURN', 'success_url');
    await tracker.settle('ORD-RETURN', { outcome: 'succeeded', transactionId: 'CS-1' });
    expect(await shown).toBe('Paid: thank you.');
  });

  it('back on success_url after another tab of the order was declined, says paid once its own success comes, never "try again"', async () => {
    const { tracker, message } = await page();
    await tracker.begin(order);
    await tracker.settle('ORD-RETURN', { outcome: 'failed', transactionId: 'CS-1', paymentId: 'CS-1' });
    const shown = message('ORD-RETURN', 'success_url');
    await new Promise((resolve) => setTimeout(resolve, 700));
    await tracker.settle('ORD-RETURN', { outcome: 'succeeded', transactionId: 'CS-2', paymentId: 'CS-2' });
    expect(await shown).toBe('Paid: thank you.');
  });

  it.each([
    ['a declined payment (another tab)', 'failed'],
    ['an order expired before the payment came', 'expired'],
  ] as const)(
    'back on success_url with %s and nothing since, asks to wait and not to pay again',
    async (_name, state) => {
      const { tracker, message } = await page();
      await tracker.begin(order);
      if (state === 'failed')
        await tracker.settle('ORD-RETURN', { outcome: 'failed', transactionId: 'CS-1' });
      else await tracker.expire('ORD-RETURN');
      vi.useFakeTimers();
      const shown = message('ORD-RETURN', 'success_url');
      await vi.advanceTimersByTimeAsync(6_000);
      const text = await shown;
      expect(text).not.toMatch(/try again|not paid|did not go through/i);
      expect(text).toMatch(/do not pay again/);
    },
  );

  it('back on success_url, a store read that fails during the longer wait leaves the last record read, never an error page', async () => {
    const store = createMemoryTransactionStore();
    const tracker = createTransactionTracker({ store, pollIntervalMs: 50 });
    const returnPageMessage = await documentedFunction<ReturnPageMessage>('returnPageMessage');
    await tracker.begin(order);
    await tracker.settle('ORD-RETURN', { outcome: 'failed', transactionId: 'CS-1' });
    const get = store.get.bind(store);
    let reads = 0;
    store.get = async (reference) => {
      reads += 1;
      if (reads > 1) throw new Error('store down');
      return get(reference);
    };
    vi.useFakeTimers();
    const shown = returnPageMessage(tracker, 'ORD-RETURN', 'success_url').then(
      (text) => ({ text }),
      (error: unknown) => ({ thrown: String(error) }),
    );
    await vi.advanceTimersByTimeAsync(6_000);
    expect(await shown).toEqual({ text: expect.stringMatching(/do not pay again/) });
  });

  it('does not thank a customer whose payment came after the order expired (the order may be cancelled)', async () => {
    const { tracker, message } = await page();
    await tracker.begin(order);
    await tracker.expire('ORD-RETURN');
    await tracker.settle('ORD-RETURN', { outcome: 'succeeded', transactionId: 'CS-1' });
    for (const landedOn of ['success_url', 'failed_url'] as const) {
      const text = await message('ORD-RETURN', landedOn);
      expect(text).not.toBe('Paid: thank you.');
      expect(text).toMatch(/after this order expired/);
    }
  });

  it('says a declined payment did not go through, and an expired one is not paid', async () => {
    const { tracker, message } = await page();
    await tracker.begin(order);
    await tracker.settle('ORD-RETURN', { outcome: 'failed', transactionId: 'CS-1' });
    expect(await message('ORD-RETURN')).toMatch(/did not go through/);
    await tracker.begin({ ...order, reference: 'ORD-EXPIRED' });
    await tracker.expire('ORD-EXPIRED');
    expect(await message('ORD-EXPIRED')).toBe('Not paid.');
  });

  it('says it is still confirming a payment whose callback has not come within the wait', async () => {
    const { tracker, message } = await page();
    await tracker.begin(order);
    vi.useFakeTimers();
    const shown = message('ORD-RETURN');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await shown).toMatch(/Confirming/);
  });

  it.each([
    ['nothing recorded', 'ORD-NEVER-RECORDED'],
    ['empty (`?order=`)', ''],
    ['longer than any reference', 'X'.repeat(300)],
  ])('answers an order id %s with a page that says so, never "paid"', async (_name, orderId) => {
    const { message } = await page();
    const shown = await message(orderId).then(
      (text) => ({ text }),
      (error: unknown) => ({ thrown: (error as Error).name }),
    );
    expect(shown).toEqual({ text: expect.stringMatching(/no such order|cannot find/i) });
  });
});
