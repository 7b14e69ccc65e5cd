// A custom store's update answers true (written) or false (the stored record changed since it
// was read). A store on an untyped client that passes a driver's reply on — ioredis MULTI's
// 'QUEUED', a { changes: 0 } row count — compiles, and must not be taken for a write: the tracker
// would report a payment settled (and wake waitFor with it) while the store still holds pending.
import { expect, it } from 'vitest';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { stkPush, trackedClient } from '../helpers/tracked-payment.js';

const replies: unknown[] = ['QUEUED', { changes: 0 }, 1, undefined, null];

/** A memory store whose update answers `reply` without writing, once `broken` is set. */
function storeAnswering(reply: unknown) {
  const memory = createMemoryTransactionStore();
  const state = { broken: false };
  const store: TransactionStore = {
    ...memory,
    update: (record, from, previous) =>
      state.broken ? Promise.resolve(reply as boolean) : memory.update(record, from, previous),
  };
  return { store, state };
}

it.each(replies)(
  'settle refuses an update that answered %j: not settled, the store error named',
  async (reply) => {
    const { store, state } = storeAnswering(reply);
    const tracker = createTransactionTracker({ store });
    await tracker.begin({ reference: 'ORD-9', kind: 'card', amount: 1500, currency: 'KES' });
    state.broken = true;
    const error = await tracker
      .settle('ORD-9', { outcome: 'succeeded', amount: '1500' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/update\("ORD-9"\) answered .*not true or false/);
    expect(await tracker.get('ORD-9')).toMatchObject({ state: 'pending' });
  },
);

it.each(replies)('expireIfPending refuses an update that answered %j', async (reply) => {
  const { store, state } = storeAnswering(reply);
  const tracker = createTransactionTracker({ store });
  await tracker.begin({ reference: 'ORD-10', kind: 'card', amount: 1500, currency: 'KES' });
  state.broken = true;
  await expect(tracker.expireIfPending('ORD-10')).rejects.toThrow(/update\("ORD-10"\) answered/);
  expect(await tracker.get('ORD-10')).toMatchObject({ state: 'pending' });
});

it('a payment initiated again on an expired record: a store error, nothing sent', async () => {
  const { store, state } = storeAnswering('QUEUED');
  const tracker = createTransactionTracker({ store });
  await tracker.begin({ reference: 'ORD-11', kind: 'mobile_money', amount: 900, currency: 'KES' });
  await tracker.expireIfPending('ORD-11');
  state.broken = true;
  const sent: Request[] = [];
  const client = trackedClient(
    fakeService((request) => {
      sent.push(request);
      return Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
    }),
    tracker,
  );
  const error = await client.initiateMobileMoneyPayment(stkPush('ORD-11')).catch((e: unknown) => e);
  expect(error).toMatchObject({ name: 'TransactionStoreError', sent: false });
  expect(sent).toHaveLength(0);
  expect(await tracker.get('ORD-11')).toMatchObject({ state: 'expired' });
});
