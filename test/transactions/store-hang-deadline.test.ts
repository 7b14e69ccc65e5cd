// A transaction store that never answers is given up on at the call's totalTimeout, nothing sent.
// The deadline was an AbortSignal.any over AbortSignal.timeout that nothing else referenced: on
// Node 20 a garbage collection took both, the timeout never fired, and the customer's request hung
// for as long as the store did — then sent the payment, long after everyone had given up (docs
// audit). Held here by collecting garbage while the call waits.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { stkPush } from '../helpers/tracked-payment.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

it.each([
  ['the per-call totalTimeout', {}, { totalTimeout: 200 }],
  ["the client's totalTimeout", { totalTimeout: 200 }, {}],
])(
  'gives up on a store that never answers at %s, even when garbage is collected meanwhile',
  async (_, clientOptions, callOptions) => {
    const store: TransactionStore = {
      ...createMemoryTransactionStore(),
      insert: () => new Promise(() => undefined),
    };
    const sent: Request[] = [];
    const baseUrl = fakeService((request) => {
      sent.push(request);
      return Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
    });
    const client = new PaymentsClient({
      baseUrl,
      ...clientOptions,
      transactions: {
        tracker: createTransactionTracker({ store }),
        secret: 'whsec_store_hang_deadline_0123',
      },
    });
    const started = Date.now();
    const call = client
      .initiateMobileMoneyPayment(stkPush('ORD-HANG'), callOptions)
      .catch((error: unknown) => error);
    const collecting = setInterval(gc, 20);
    try {
      const outcome = await Promise.race([
        call,
        new Promise((resolve) => setTimeout(resolve, 3_000, 'still waiting')),
      ]);
      // The store's error when the deadline found the call waiting on it; a TimeoutError when a
      // loaded machine took the whole deadline before the store was asked. Either way: given up.
      expect(outcome).toMatchObject({ sent: false });
      expect(['TransactionStoreError', 'TimeoutError']).toContain((outcome as Error).name);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(sent).toHaveLength(0);
    } finally {
      clearInterval(collecting);
    }
  },
);
