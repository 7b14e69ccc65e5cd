// A custom fetch (or a global one put in place after the SDK loaded) that ignores the signal it is
// given does not hold the call past its totalTimeout or the caller's abort: the call settles then,
// as with the built-in fetch, not when the attempt's own timeout (30 s by default) runs out.
import { expect, it } from 'vitest';
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
