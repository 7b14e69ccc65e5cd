// What the endpoint examples need around the SDK call itself, so each of them runs with one
// command: the service (PAYMENTS_BASE_URL, or a local sandbox started here when it is unset)
// and a webhook route on 127.0.0.1 that receives the callback (createCallbackHandler behind
// node:http), whose events the example can wait for. Not part of what a merchant copies.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCallbackHandler, toNodeListener, type CallbackEvent } from 'hosted-payments/callbacks';
import { startSandbox, type Sandbox } from 'hosted-payments/sandbox';

export interface ExampleEnvironment {
  /** The service's base URL: PAYMENTS_BASE_URL, or the sandbox started for this run. */
  readonly baseUrl: string;
  /** The webhook route's URL, to sign with `signCallbackUrl` and hand to the service. */
  readonly webhookUrl: string;
  /** The secret the route verifies callback URLs with (WEBHOOK_SECRET). */
  readonly secret: string;
  /** Resolves with the next callback the route accepted. */
  nextEvent(timeoutMs?: number): Promise<CallbackEvent>;
  close(): Promise<void>;
}

export async function exampleEnvironment(): Promise<ExampleEnvironment> {
  const secret = process.env.WEBHOOK_SECRET ?? 'example-webhook-secret-change-me';
  let sandbox: Sandbox | undefined;
  if (!process.env.PAYMENTS_BASE_URL) sandbox = await startSandbox({ callbackDelayMs: 20 });
  const baseUrl = process.env.PAYMENTS_BASE_URL ?? sandbox!.url;

  const received: CallbackEvent[] = [];
  const waiting: ((event: CallbackEvent) => void)[] = [];
  const handler = createCallbackHandler({
    secret,
    onEvent: (event) => {
      const waiter = waiting.shift();
      if (waiter) waiter(event);
      else received.push(event);
    },
  });
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl,
    webhookUrl: `http://127.0.0.1:${port}/webhooks/payments`,
    secret,
    nextEvent: (timeoutMs = 10_000) => {
      const ready = received.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no callback within ${timeoutMs} ms`)), timeoutMs);
        waiting.push((event) => {
          clearTimeout(timer);
          resolve(event);
        });
      });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sandbox?.close();
    },
  };
}
