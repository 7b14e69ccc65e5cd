// Two instances of a shop share a transaction store. Instance 1 initiates ORD-1 and is answered
// with a refusal (4xx) only after instance 2 has initiated ORD-1 again (Pay pressed again, served
// by the other instance) and that payment is under way. Instance 1's refusal expires the attempt it
// recorded, not instance 2's: the record stays pending, and the second payment's callback
// settles it on time.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { createMemoryTransactionStore, createTransactionTracker } from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { stkPush, trackedClient } from '../helpers/tracked-payment.js';

describe('a refusal answered after another instance initiated the reference again', () => {
  it("expires only its own attempt: the other instance's payment stays pending and settles on time", async () => {
    let t = 1_700_000_000_000;
    const store = createMemoryTransactionStore();
    const one = createTransactionTracker({ store, now: () => t });
    const two = createTransactionTracker({ store, now: () => t });
    let firstSent!: () => void;
    const first = new Promise<void>((resolve) => (firstSent = resolve));
    let secondSent!: () => void;
    const second = new Promise<void>((resolve) => (secondSent = resolve));
    const refusing = fakeService(async () => {
      firstSent();
      await second; // the refusal comes back after the other instance's payment started
      return Response.json({ error: 'Invalid phone number' }, { status: 400 });
    });
    const accepting = fakeService(() => {
      secondSent();
      return Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
    });
    const payOn = (baseUrl: string, tracker: typeof one) =>
      trackedClient(baseUrl, tracker).initiateMobileMoneyPayment(stkPush('ORD-TWO'));

    const refused = payOn(refusing, one);
    await first; // recorded by instance 1 and sent
    t += 30_000;
    await payOn(accepting, two);
    await expect(refused).rejects.toBeInstanceOf(ApiError);

    expect(await store.get('ORD-TWO')).toMatchObject({ state: 'pending', createdAt: t });
    const { result } = await two.settle('ORD-TWO', { outcome: 'succeeded', amount: '900', currency: 'KES' });
    expect(result).toBe('settled');
  });
});
