// Two calls of one process under one reference in the same millisecond (a double submit): A is
// in flight, B finds the record pending and records its own attempt, and A's refusal (4xx) comes
// back while B's store write is still being acknowledged. A expires its own attempt only; B's,
// recorded within the same millisecond, must still be told apart from it, or B's payment goes out
// with its record expired.
import { expect, it } from 'vitest';
import {
  TransactionStoreError,
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { stkPush, trackedClient } from '../helpers/tracked-payment.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("A's refusal leaves B's attempt of the same millisecond pending, and B's payment goes out", async () => {
  const memory = createMemoryTransactionStore();
  const store: TransactionStore = {
    ...memory,
    async update(record, from, previous) {
      const written = await memory.update(record, from, previous);
      if (record.state === 'pending') await sleep(60); // written, acknowledged late
      return written;
    },
  };
  const tracker = createTransactionTracker({ store, now: () => 1_700_000_000_000 });
  let requests = 0;
  const baseUrl = fakeService(async () => {
    requests += 1;
    if (requests === 1) {
      await sleep(20);
      return Response.json({ error: 'bad request' }, { status: 400 });
    }
    return Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
  });
  const client = trackedClient(baseUrl, tracker);
  const a = client.initiateMobileMoneyPayment(stkPush('ORD-MS')).catch((e: unknown) => e);
  while ((await tracker.get('ORD-MS')) === undefined) await sleep(1);
  const b = client.initiateMobileMoneyPayment(stkPush('ORD-MS'));
  expect(await a).toMatchObject({ status: 400 });
  await expect(b).resolves.toMatchObject({ status: 200 });
  expect(await tracker.get('ORD-MS')).toMatchObject({ state: 'pending' });
});

it('a new attempt the store writes after its call gave up, over a payment in flight, stays pending', async () => {
  const memory = createMemoryTransactionStore();
  let slow = false;
  const store: TransactionStore = {
    ...memory,
    async update(record, from, previous) {
      if (slow && record.state === 'pending') await sleep(200);
      return memory.update(record, from, previous);
    },
  };
  const tracker = createTransactionTracker({ store });
  const baseUrl = fakeService(() =>
    Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 }),
  );
  const client = trackedClient(baseUrl, tracker);
  await client.initiateMobileMoneyPayment(stkPush('ORD-IN-FLIGHT')); // sent: its payment is under way
  slow = true;
  await expect(
    client.initiateMobileMoneyPayment(stkPush('ORD-IN-FLIGHT'), { totalTimeout: 50 }),
  ).rejects.toBeInstanceOf(TransactionStoreError);
  await sleep(300); // the store has written the new attempt by now
  expect(await tracker.get('ORD-IN-FLIGHT')).toMatchObject({ state: 'pending' });
});
