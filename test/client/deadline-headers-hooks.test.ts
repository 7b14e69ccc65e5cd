// A call's totalTimeout runs from its start, the headers function included, and the call ends at
// it, or at the caller's abort, while the headers function or the beforeRequest hook is still
// running: nothing is sent, with the error an abort or a deadline before sending always gives. What
// the function or hook does afterwards (returns, throws) sends nothing and is no unhandled rejection.
import { describe, expect, it, onTestFinished } from 'vitest';
import { ConnectionError, PaymentsClient, TimeoutError, type ClientOptions } from '../../src/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';
import { countingService } from '../helpers/servers.js';

/**
 * Work of the merchant's that the test settles: `resolve` or `reject` it once the call has ended.
 * It resolves by itself after 2 s, so that a call that waits for it still ends; `settled` says
 * whether it had when the call did.
 */
function merchantWork<T>(value: T) {
  let settled = false;
  let settle: (how: 'resolve' | 'reject') => void = () => undefined;
  const promise = new Promise<T>((resolve, reject) => {
    settle = (how) => {
      settled = true;
      if (how === 'resolve') resolve(value);
      else reject(new Error('failed after the call ended'));
    };
  });
  const fallback = setTimeout(() => settle('resolve'), 2_000);
  onTestFinished(() => clearTimeout(fallback));
  return {
    promise,
    resolve: () => settle('resolve'),
    reject: () => settle('reject'),
    get settled() {
      return settled;
    },
  };
}

/** Long enough for a request the late work let out to reach the service. */
const aWhile = () => new Promise((resolve) => setTimeout(resolve, 200));

describe.each<[string, (work: Promise<unknown>) => Partial<ClientOptions>]>([
  ['a beforeRequest hook', (work) => ({ hooks: { beforeRequest: () => work.then(() => undefined) } })],
  ['an async headers function', (work) => ({ headers: () => work.then(() => ({ 'x-token': 't1' })) })],
])('%s still running', (_, withWork) => {
  it('when the totalTimeout passes: the call ends then, a TimeoutError, nothing sent or recorded, even once it returns', async () => {
    const service = await countingService();
    const work = merchantWork(undefined);
    const tracker = createTransactionTracker();
    const client = new PaymentsClient({
      baseUrl: service.url,
      totalTimeout: 100,
      transactions: { tracker, secret: 'whsec_deadline_headers_hooks_0123456789' },
      ...withWork(work.promise),
    });
    const error = await caught(() => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput));
    expect(work.settled).toBe(false);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeout: 100, sent: false });
    expect((error as Error).message).toMatch(/did not complete within 100 ms; nothing was sent$/);
    work.resolve();
    await aWhile();
    expect(service.received()).toBe(0);
    expect(await tracker.get('order-1002')).toBeUndefined();
  });

  it("when the caller's signal aborts: the call ends then, a ConnectionError, aborted, nothing sent, even once it throws", async () => {
    const service = await countingService();
    const work = merchantWork(undefined);
    const client = new PaymentsClient({ baseUrl: service.url, ...withWork(work.promise) });
    const controller = new AbortController();
    const call = caught(() =>
      client.initiateMobileMoneyPayment(mobileMoneyPaymentInput, { signal: controller.signal }),
    );
    await aWhile();
    controller.abort(new Error('the shopper left'));
    const error = await call;
    expect(work.settled).toBe(false);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ aborted: true, sent: false });
    expect((error as Error).message).toBe(
      "initiateMobileMoneyPayment was aborted by the caller's signal; nothing was sent",
    );
    expect((error as Error).cause).toMatchObject({ message: 'the shopper left' });
    work.reject();
    await aWhile();
    expect(service.received()).toBe(0);
  });
});

it('counts a headers function that blocks past the totalTimeout: a TimeoutError, nothing sent', async () => {
  const service = await countingService();
  const client = new PaymentsClient({
    baseUrl: service.url,
    totalTimeout: 50,
    // Synchronous work (or a blocked event loop): the deadline passes, its timer cannot run.
    headers: () => {
      const until = performance.now() + 120;
      while (performance.now() < until);
      return { 'x-token': 't1' };
    },
  });
  const error = await caught(() => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput));
  expect(error).toBeInstanceOf(TimeoutError);
  expect(error).toMatchObject({ timeout: 50, sent: false });
  await aWhile();
  expect(service.received()).toBe(0);
});
