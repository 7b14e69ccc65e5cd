// A call aborted by the caller's signal after the request went out may still have started the
// payment: the ConnectionError says so, as a timeout's and a reset's do, and so does one aborted
// by AbortSignal.timeout() (the docs' own per-call deadline).
import { describe, expect, it } from 'vitest';
import { ConnectionError, PaymentsClient } from '../../src/index.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';
import { startServer, type TestServer } from '../helpers/servers.js';

describe('a call aborted by its signal once the service has the request', () => {
  it.each([
    [
      'controller.abort()',
      (received: Promise<void>) => {
        const controller = new AbortController();
        void received.then(() => controller.abort());
        return controller.signal;
      },
    ],
    // Long enough for the request to reach the server on a loaded machine.
    ['AbortSignal.timeout()', () => AbortSignal.timeout(1_000)],
  ])('%s: a ConnectionError saying the service may have received it', async (_label, signal) => {
    let received = false;
    let onReceived = (): void => undefined;
    const whenReceived = new Promise<void>((resolve) => (onReceived = resolve));
    const server: TestServer = await startServer((request) => {
      request.resume();
      request.on('end', () => {
        received = true;
        onReceived();
      }); // and never answers
    });
    try {
      const client = new PaymentsClient({ baseUrl: server.url });
      const error = await client
        .initiateMobileMoneyPayment(mobileMoneyPaymentInput, { signal: signal(whenReceived) })
        .catch((e: unknown) => e);
      expect(received).toBe(true);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).aborted).toBe(true);
      expect((error as Error).message).toMatch(/may have received/);
    } finally {
      await server.close();
    }
  });
});
