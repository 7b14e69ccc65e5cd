// Guards of the transport found missing by a hand-made mutation audit of src/http.ts: a call whose
// signal is aborted before its request would go out sends nothing, even through a merchant's own
// fetch that ignores signals; and the caller's abort ends a call in flight that also has a totalTimeout.
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ConnectionError, PaymentsClient } from '../../src/index.js';
import { caught } from '../helpers/caught.js';
import { mobileMoneyPaymentInput, payoutInput } from '../helpers/inputs.js';
import { listenForThisTest } from '../helpers/servers.js';

/** A merchant's fetch that ignores its signal and answers the documented payout reply; `calls` counts it. */
function signalIgnoringFetch() {
  const counter = { calls: 0 };
  const fetch = async (): Promise<Response> => {
    counter.calls += 1;
    return new Response('{"message":"Mobile Payout Initiated","status":200}', {
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, counter };
}

describe('a call whose signal is aborted before its request goes out', () => {
  it('never reaches a custom fetch that ignores signals when the signal was aborted before the call', async () => {
    const { fetch, counter } = signalIgnoringFetch();
    const client = new PaymentsClient({ baseUrl: 'https://payments.example.com', fetch });
    const error = await caught(() => client.initiatePayout(payoutInput, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).aborted).toBe(true);
    expect((error as ConnectionError).sent).toBe(false);
    expect(counter.calls).toBe(0);
  });

  it('never reaches a custom fetch that ignores signals when the signal aborts in the beforeRequest hook', async () => {
    const { fetch, counter } = signalIgnoringFetch();
    const controller = new AbortController();
    const client = new PaymentsClient({
      baseUrl: 'https://payments.example.com',
      fetch,
      hooks: { beforeRequest: () => controller.abort() },
    });
    const error = await caught(() =>
      client.initiateMobileMoneyPayment(mobileMoneyPaymentInput, { signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).aborted).toBe(true);
    expect((error as ConnectionError).sent).toBe(false);
    expect(counter.calls).toBe(0);
  });
});

describe('a call with both a signal and a totalTimeout', () => {
  it("ends with the caller's abort once the request is out, as a ConnectionError saying it may have been received", async () => {
    const controller = new AbortController();
    const server = createServer((request) => {
      request.resume();
      request.on('end', () => controller.abort());
    });
    const url = `http://127.0.0.1:${await listenForThisTest(server)}`;
    const client = new PaymentsClient({ baseUrl: url, totalTimeout: 600_000 });
    const error = await caught(() => client.initiatePayout(payoutInput, { signal: controller.signal }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).aborted).toBe(true);
    expect((error as ConnectionError).sent).toBe(true);
  });
});

describe('a body that stalls after the answer of a custom fetch that ignores signals', () => {
  it("is given up on the caller's abort, as a ConnectionError, and its stream cancelled", async () => {
    const controller = new AbortController();
    let cancelled = false;
    let reads = 0;
    const fetch = async (): Promise<Response> => {
      const body = new ReadableStream<Uint8Array>(
        {
          pull(stream) {
            reads += 1;
            if (reads === 1) stream.enqueue(new TextEncoder().encode('{"message":'));
            else controller.abort();
          },
          cancel() {
            cancelled = true;
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    };
    const client = new PaymentsClient({ baseUrl: 'https://payments.example.com', fetch, timeout: 600_000 });
    const error = await caught(() => client.initiatePayout(payoutInput, { signal: controller.signal }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).aborted).toBe(true);
    expect((error as ConnectionError).sent).toBe(true);
    expect(cancelled).toBe(true);
  });
});
