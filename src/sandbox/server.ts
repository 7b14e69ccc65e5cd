import { createAdaptorServer } from '@hono/node-server';
import { createSandboxApp, type SandboxBehaviourOptions } from './app.js';
import type { CallbackDelivery } from './delivery.js';

/**
 * Options of {@link startSandbox}. Every one is optional.
 *
 * @example
 * ```ts
 * const options: StartSandboxOptions = { port: 4010, callbackDelayMs: 1000, mobileMoneyBrand: 'M-PESA' };
 * ```
 */
export interface StartSandboxOptions extends SandboxBehaviourOptions {
  /** Port to listen on. Default 0: a free port chosen by the system (read it from `url`). */
  port?: number;
  /** Interface to bind. Default `'127.0.0.1'` (loopback only). */
  host?: string;
}

/**
 * A running sandbox.
 *
 * @example
 * ```ts
 * const sandbox: Sandbox = await startSandbox();
 * console.log(sandbox.url, sandbox.walletBalance, sandbox.deliveries.length);
 * await sandbox.close();
 * ```
 */
export interface Sandbox {
  /** Base URL to give `PaymentsClient` as `baseUrl`, e.g. `http://127.0.0.1:53412`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** Current wallet balance (payouts reduce it by amount + fee). */
  readonly walletBalance: number;
  /** Every callback delivery so far with its attempts, oldest first. */
  readonly deliveries: readonly CallbackDelivery[];
  /** Resolves once no callback delivery is pending (all delivered, given up or cancelled). */
  waitForIdle(): Promise<void>;
  /** Stops pending deliveries and their timers, closes open connections and the server. */
  close(): Promise<void>;
}

const formatHost = (host: string): string => {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
};

/**
 * Starts the sandbox: a real HTTP server (Hono on Node) implementing the four endpoints of the
 * spec with the SDK's own schemas, a hosted checkout page, and callbacks delivered with retries.
 * Outcomes follow {@link sandboxTestValues}.
 *
 * @example
 * ```ts
 * import { PaymentsClient } from 'hosted-payments';
 * import { startSandbox, sandboxTestValues } from 'hosted-payments/sandbox';
 *
 * const sandbox = await startSandbox({ callbackDelayMs: 50 });
 * const client = new PaymentsClient({ baseUrl: sandbox.url });
 * await client.initiatePayout(payout); // { message: 'Mobile Payout Initiated', status: 200 }
 * await sandbox.waitForIdle(); // the payout callback reached your webhook
 * console.log(sandbox.walletBalance);
 * await sandbox.close();
 * ```
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const engine = createSandboxApp(options);
  const server = createAdaptorServer({
    fetch: engine.app.fetch,
    hostname: host,
    // Leave the merchant's global Request/Response alone.
    overrideGlobalObjects: false,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    engine.close();
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 0);
  const url = `http://${formatHost(host)}:${port}`;
  options.log?.({ kind: 'listening', url });

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    get walletBalance() {
      return engine.walletBalance;
    },
    get deliveries() {
      return engine.deliveries;
    },
    waitForIdle: () => engine.waitForIdle(),
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        engine.close();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets would hold close() open until they time out.
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      return closing;
    },
  };
}
