// A call whose totalTimeout passes before its request is sent (a slow beforeRequest hook, a
// transaction store that answers after the deadline but before its timer has run) sends nothing:
// its TimeoutError says so (`sent: false`), and a tracked payment's record is expired at once, as
// after a refused connection, rather than left pending for a callback that cannot come.
import { expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { TimeoutError } from '../../src/errors.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { stkPush, trackedClient } from '../helpers/tracked-payment.js';

const initiated = () => Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });

it('a beforeRequest hook that outlasts totalTimeout: TimeoutError, sent false, nothing sent', async () => {
  const sent: Request[] = [];
  const client = new PaymentsClient({
    baseUrl: fakeService((request) => (sent.push(request), initiated())),
    apiKey: 'sk_test_deadline_before_send',
    hooks: { beforeRequest: () => new Promise((resolve) => setTimeout(resolve, 150)) },
  });
  const error = await client
    .initiateMobileMoneyPayment(stkPush('ORD-SLOW-HOOK'), { totalTimeout: 50 })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TimeoutError);
  expect(error).toMatchObject({ timeout: 50, sent: false });
  expect((error as Error).message).toMatch(/nothing was sent/);
  expect((error as Error).message).not.toMatch(/may have received/);
  expect(sent).toHaveLength(0);
});

it('a store that answers after the deadline, before its timer ran: nothing sent, the record expired', async () => {
  const memory = createMemoryTransactionStore();
  const store: TransactionStore = {
    ...memory,
    insert(record) {
      // A synchronous store (or a blocked event loop): the deadline passes, its timer cannot run.
      const until = performance.now() + 120;
      while (performance.now() < until);
      return memory.insert(record);
    },
  };
  const tracker = createTransactionTracker({ store });
  const sent: Request[] = [];
  const client = trackedClient(
    fakeService((request) => (sent.push(request), initiated())),
    tracker,
  );
  const error = await client
    .initiateMobileMoneyPayment(stkPush('ORD-SYNC-STORE'), { totalTimeout: 50 })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TimeoutError);
  expect(error).toMatchObject({ timeout: 50, sent: false });
  expect((error as Error).message).toMatch(/nothing was sent/);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(sent).toHaveLength(0);
  expect(await tracker.get('ORD-SYNC-STORE')).toMatchObject({ state: 'expired' });
});

it('a TimeoutError once the request went out still says it may have been received (sent true)', async () => {
  const client = new PaymentsClient({
    baseUrl: fakeService(() => new Promise<Response>(() => undefined)),
    apiKey: 'sk_test_deadline_before_send',
  });
  const error = await client
    .initiateMobileMoneyPayment(stkPush('ORD-NO-ANSWER'), { totalTimeout: 100 })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TimeoutError);
  expect(error).toMatchObject({ timeout: 100, sent: true });
  expect((error as Error).message).toMatch(/may have received the request/);
});

it('a store that never answers, after a slow beforeRequest hook: the call ends at totalTimeout, counted from the call', async () => {
  const memory = createMemoryTransactionStore();
  const store: TransactionStore = { ...memory, insert: () => new Promise(() => undefined) };
  const sent: Request[] = [];
  const client = new PaymentsClient({
    baseUrl: fakeService((request) => (sent.push(request), initiated())),
    apiKey: 'sk_test_deadline_before_send',
    transactions: {
      tracker: createTransactionTracker({ store }),
      secret: 'whsec_deadline_before_send_0123456789',
    },
    hooks: { beforeRequest: () => new Promise((resolve) => setTimeout(resolve, 400)) },
  });
  const started = performance.now();
  const error = await client
    .initiateMobileMoneyPayment(stkPush('ORD-HOOK-THEN-STORE'), { totalTimeout: 1_000 })
    .catch((e: unknown) => e);
  const took = performance.now() - started;
  // The store's error when the deadline found the call waiting on it; a TimeoutError when a loaded
  // machine ran the hook past the whole deadline. Either way: given up at the deadline, nothing sent.
  expect(error).toMatchObject({ sent: false });
  expect(['TransactionStoreError', 'TimeoutError']).toContain((error as Error).name);
  expect(sent).toHaveLength(0);
  // Not 400 ms of hook and then 1,000 more waiting for the store.
  expect(took).toBeLessThan(1_300);
});
