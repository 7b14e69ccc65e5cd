// A call aborted by the caller's signal once its request went out: the fetch never answers, and the
// signal is aborted with `reason` as soon as the request was handed to it.
import { PaymentsClient, type CardPaymentInput } from '../../src/index.js';
import { caught } from './caught.js';

/** What `initiateCardPayment(input)` rejects with when aborted with `reason` once sent. */
export async function abortedOnceSent(
  input: CardPaymentInput,
  apiKey: string,
  reason: unknown,
): Promise<unknown> {
  let sending: () => void = () => undefined;
  const sent = new Promise<void>((resolve) => (sending = resolve));
  const client = new PaymentsClient({
    baseUrl: 'https://api.example/',
    apiKey,
    fetch: () => {
      sending();
      return new Promise<Response>(() => undefined);
    },
  });
  const controller = new AbortController();
  const call = caught(() => client.initiateCardPayment(input, { signal: controller.signal }));
  await sent;
  controller.abort(reason);
  return call;
}
