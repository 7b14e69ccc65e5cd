// docs/transactions.md's `expireStale` cron, as pasted, on a tracker holding a payment and a payout
// whose callbacks never came: stale() lists both once their limits pass. The payment's order is
// cancelled; the payout is no order — its reference_id is a transfer's, and an expired payout
// means "hold the seller's balance and reconcile", so it goes to `holdPayout`, never to
// `cancelOrder` (which would cancel whatever order shares that number, or fail on it).
import { afterAll, expect, it } from 'vitest';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { documentedFunction, removeDocumentedFiles, type ExpireStale } from '../helpers/documented.js';

afterAll(removeDocumentedFiles);

it('cancels the stale payment’s order and holds the stale payout, each expired', async () => {
  let t = 1_700_000_000_000;
  const tracker = createTransactionTracker({ now: () => t });
  await tracker.begin({ reference: 'ORDER-1', kind: 'mobile_money', amount: '1500', currency: 'KES' });
  await tracker.begin({ reference: '483920175561', kind: 'payout', amount: '1000', currency: 'KES' });
  t += 25 * 60 * 60_000; // past both limits (5 min, 24 h)

  const cancelled: string[] = [];
  const held: string[] = [];
  const expireStale = await documentedFunction<ExpireStale>('expireStale');
  await expireStale(
    tracker,
    async (reference) => void cancelled.push(reference),
    async (reference) => void held.push(reference),
  );

  expect(cancelled).toEqual(['ORDER-1']);
  expect(held).toEqual(['483920175561']);
  expect(await tracker.get('483920175561')).toMatchObject({ state: 'expired' });
});
