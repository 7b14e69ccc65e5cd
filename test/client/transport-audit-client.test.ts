// Guards of PaymentsClient's options found missing by a hand-made mutation audit of src/client.ts:
// a password without a user name in baseUrl is refused unechoed, and with `transactions` and the
// merchant's own fetch, a 4xx other than 409 leaves the record pending (that fetch may have
// retried an attempt the service had started); a store that never answers is given up on at the
// call's own totalTimeout, named, and at the caller's abort, nothing sent.
import { createServer } from 'node:http';
import { expect, it } from 'vitest';
import { ApiError, PaymentsClient, ValidationError } from '../../src/index.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';
import { listenForThisTest } from '../helpers/servers.js';

it('refuses a baseUrl holding a password without a user name, without echoing it', () => {
  const error = (() => {
    try {
      new PaymentsClient({ baseUrl: 'https://:hunter2pass@payments.example.com' });
    } catch (thrown) {
      return thrown;
    }
    return undefined;
  })();
  expect(error).toBeInstanceOf(ValidationError);
  expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['baseUrl']]);
  expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain('hunter2pass');
});

it('leaves the record pending when a retrying custom fetch got a 400 after an earlier attempt', async () => {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      response.writeHead(received === 1 ? 503 : 400, { 'content-type': 'application/json' });
      response.end(received === 1 ? '{"error":"busy"}' : '{"error":"invalid request"}');
    });
  });
  const baseUrl = `http://127.0.0.1:${await listenForThisTest(server)}`;
  const retryingFetch = async (request: Request): Promise<Response> => {
    const copy = request.clone();
    const response = await fetch(request);
    return response.status >= 500 ? fetch(copy) : response;
  };
  const tracker = createTransactionTracker();
  const client = new PaymentsClient({
    baseUrl,
    fetch: retryingFetch,
    transactions: { tracker, secret: 'a-webhook-secret-of-some-length' },
  });
  const error = await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch((c: unknown) => c);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(400);
  expect(received).toBe(2);
  expect((await tracker.get('order-1002'))?.state).toBe('pending');
});

/** A client tracking with a store whose insert never answers; `inserting` resolves once it is asked. */
async function clientWithHangingStore() {
  let asked = (): void => undefined;
  const inserting = new Promise<void>((resolve) => (asked = resolve));
  const store: TransactionStore = {
    ...createMemoryTransactionStore(),
    insert: () => {
      asked();
      return new Promise(() => undefined);
    },
  };
  let received = 0;
  const server = createServer((request, response) => {
    received += 1;
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"message":"MOBILE-MONEY Payment Initiated","status":200}');
    });
  });
  const baseUrl = `http://127.0.0.1:${await listenForThisTest(server)}`;
  const client = new PaymentsClient({
    baseUrl,
    transactions: { tracker: createTransactionTracker({ store }), secret: 'a-webhook-secret-of-some-length' },
  });
  return { client, inserting, received: () => received };
}

it("names the call's own totalTimeout when a store that never answers is given up on, nothing sent", async () => {
  const { client, received } = await clientWithHangingStore();
  const error = await client
    .initiateMobileMoneyPayment(mobileMoneyPaymentInput, { totalTimeout: 250 })
    .catch((caught: unknown) => caught);
  expect(error).toMatchObject({ name: 'TransactionStoreError', sent: false });
  expect(String((error as Error).cause)).toContain('250 ms');
  expect(received()).toBe(0);
});

it("gives up on a store that never answers at the caller's abort, nothing sent", async () => {
  const { client, inserting, received } = await clientWithHangingStore();
  const controller = new AbortController();
  void inserting.then(() => controller.abort());
  const error = await client
    .initiateMobileMoneyPayment(mobileMoneyPaymentInput, { signal: controller.signal })
    .catch((caught: unknown) => caught);
  expect(error).toMatchObject({ sent: false });
  expect(received()).toBe(0);
});
