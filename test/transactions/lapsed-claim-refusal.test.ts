// createCallbackHandler({ tracker }): a delivery whose settlement is refused after its dedupe claim
// lapsed leaves the claim alone. The claim may be another delivery's by then, still running: a
// release would let a third copy of the callback run alongside it.
import { describe, expect, it, vi } from 'vitest';
import {
  createCallbackHandler,
  createMemoryDedupeStore,
  signCallbackUrl,
} from '../../src/callbacks/index.js';
import { buildCallbackPayload } from '../../src/sandbox/payloads.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';

const secret = 'whsec_0123456789abcdef';
const route = 'https://shop.example/webhooks/payments';
// Lets pending promise work run (setImmediate stays real; only Date and performance are faked).
const settled = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('a settlement refused after the claim lapsed', () => {
  it("does not release the claim: another delivery's copy still in progress makes a third wait (503)", async () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    try {
      // The first two writes of the failure wait for the test, as on a store under load.
      const inner = createMemoryTransactionStore();
      const held: (() => void)[] = [];
      let writes = 0;
      const store: TransactionStore = {
        ...inner,
        update: async (record, from, previous) => {
          if (++writes <= 2) await new Promise<void>((resolve) => held.push(resolve));
          return inner.update(record, from, previous);
        },
      };
      const tracker = createTransactionTracker({ store });
      await tracker.begin({ reference: 'ORD-1', kind: 'mobile_money', amount: 1500, currency: 'KES' });
      let events = 0;
      const handler = createCallbackHandler({
        secret,
        tracker,
        dedupe: createMemoryDedupeStore(),
        processingTimeoutMs: 200,
        onEvent: () => void events++,
      });
      const failure = {
        ...buildCallbackPayload('payment.mobile_money.failed', { reference: 'ORD-1', amount: 1500 }),
        id: 'PAY-1',
      };
      const url = await signCallbackUrl(route, { secret, reference: 'ORD-1' });
      const delivery = () =>
        handler(
          new Request(url, {
            method: 'POST',
            body: JSON.stringify(failure),
            headers: { 'content-type': 'application/json' },
          }),
        );

      const first = delivery(); // claims, then waits on its write
      await settled();
      expect(held).toHaveLength(1);
      vi.advanceTimersByTime(200); // the first claim has just lapsed (it lives < 200 ms)
      void delivery(); // the sender's retry claims afresh, and waits on its write too
      await settled();
      expect(held).toHaveLength(2);

      // Meanwhile the merchant's status check finds the same payment paid.
      await tracker.settle('ORD-1', {
        outcome: 'succeeded',
        eventType: 'payment.mobile_money.succeeded',
        amount: '1500',
        paymentId: 'PAY-1',
      });
      held[0]!(); // the first delivery's write finds the record changed: its failure conflicts
      const answer = await first;
      expect(answer.status).toBe(409);
      expect(await answer.json()).toEqual({ error: 'conflicting_outcome' });

      // The second delivery still holds the claim: a third copy waits, and runs nothing.
      const third = await delivery();
      expect(third.status).toBe(503);
      expect(await third.json()).toEqual({ error: 'in_progress' });
      expect(events).toBe(0);
      held[1]!();
      await settled();
    } finally {
      vi.useRealTimers();
    }
  });
});
