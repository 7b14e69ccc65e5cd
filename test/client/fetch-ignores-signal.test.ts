// A custom fetch (or a global one put in place after the SDK loaded) that ignores the signal it is
// given does not hold the call past its totalTimeout or the caller's abort: the call settles then,
// as with the built-in fetch, not when the attempt's own timeout (30 s by default) runs out.
import { expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { ConnectionError, TimeoutError } from '../../src/errors.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';

/** A fetch that takes the request and never answers, whatever its signal does. */
const deaf = (): Promise<Response> => new Promise<Response>(() => undefined);

/** The call's outcome, or 'still waiting' after `ms`. */
const within = (call: Promise<unknown>, ms: number) =>
  Promise.race([
    call.catch((error: unknown) => error),
    new Promise((resolve) => setTimeout(resolve, ms, 'still waiting')),
  ]);

const client = new PaymentsClient({
  baseUrl: 'https://payments.example',
  apiKey: 'sk_test_fetch_ignores_signal',
  timeout: 10_000,
  fetch: deaf,
});

it('totalTimeout: a TimeoutError naming it, long before the attempt timeout', async () => {
  const outcome = await within(
    client.initiateMobileMoneyPayment(mobileMoneyPaymentInput, { totalTimeout: 100 }),
    3_000,
  );
  expect(outcome).toBeInstanceOf(TimeoutError);
  expect(outcome).toMatchObject({ timeout: 100 });
});

it("the caller's signal: a ConnectionError, aborted, as soon as it aborts", async () => {
  const outcome = await within(
    client.initiateMobileMoneyPayment(mobileMoneyPaymentInput, { signal: AbortSignal.timeout(100) }),
    3_000,
  );
  expect(outcome).toBeInstanceOf(ConnectionError);
  expect(outcome).toMatchObject({ aborted: true, sent: true });
});

it('a custom fetch that answers with a Response, not a Promise, still works (a test double, plain JS)', async () => {
  const answer = () => Response.json({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
  const plain = new PaymentsClient({
    baseUrl: 'https://payments.example',
    apiKey: 'sk_test_fetch_ignores_signal',
    fetch: answer as unknown as typeof fetch,
  });
  await expect(plain.initiateMobileMoneyPayment(mobileMoneyPaymentInput)).resolves.toMatchObject({
    status: 200,
  });
  const thenable = new PaymentsClient({
    baseUrl: 'https://payments.example',
    apiKey: 'sk_test_fetch_ignores_signal',
    // A PromiseLike without finally, answering later.
    fetch: (() => ({
      then: (resolve: (response: Response) => void) => void setTimeout(() => resolve(answer()), 10),
    })) as unknown as typeof fetch,
  });
  await expect(thenable.initiateMobileMoneyPayment(mobileMoneyPaymentInput)).resolves.toMatchObject({
    status: 200,
  });
});

it('a Response the fetch answers after the abort has its body cancelled: its stream and socket are let go of', async () => {
  let asked: () => void = () => undefined;
  const fetchCalled = new Promise<void>((resolve) => (asked = resolve));
  let answer: (response: Response) => void = () => undefined;
  const late = new PaymentsClient({
    baseUrl: 'https://payments.example',
    apiKey: 'sk_test_fetch_ignores_signal',
    fetch: () => {
      asked();
      return new Promise<Response>((resolve) => (answer = resolve));
    },
  });
  const controller = new AbortController();
  const call = late.initiateMobileMoneyPayment(mobileMoneyPaymentInput, { signal: controller.signal });
  await fetchCalled;
  controller.abort();
  await expect(call).rejects.toMatchObject({ name: 'ConnectionError', aborted: true });
  let cancelled = false;
  answer(new Response(new ReadableStream({ cancel: () => void (cancelled = true) })));
  await vi.waitFor(() => expect(cancelled).toBe(true));
});
