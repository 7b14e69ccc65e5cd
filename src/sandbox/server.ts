import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import { buildSandboxApp } from './app.js';
import {
  completeCheckout,
  type CheckoutCompletion,
  type CompleteCheckoutOptions,
} from './complete-checkout.js';
import type { CallbackDelivery, WaitForIdleOptions } from './delivery.js';
import { deliveryLogger } from './log.js';
import type { DeliveryReport } from './report.js';
import { SANDBOX_BEHAVIOUR_OPTIONS, type SandboxBehaviourOptions } from './sandbox-state.js';

/**
 * Options of {@link startSandbox}. Every one is optional.
 *
 * @example
 * ```ts
 * import type { StartSandboxOptions } from 'hosted-payments/sandbox';
 *
 * const options: StartSandboxOptions = { port: 4010, callbackDelayMs: 1000, mobileMoneyBrand: 'M-PESA' };
 * ```
 */
export interface StartSandboxOptions extends SandboxBehaviourOptions {
  /** Port to listen on. Default 0: a free port chosen by the system (read it from `url`). */
  port?: number | undefined;
  /** Interface to bind. Default `'127.0.0.1'` (loopback only). */
  host?: string | undefined;
}

/** The options {@link startSandbox} knows; any other key is refused. */
const START_OPTIONS: OptionNames<StartSandboxOptions> = {
  ...SANDBOX_BEHAVIOUR_OPTIONS,
  port: true,
  host: true,
};

/**
 * A running sandbox.
 *
 * @example
 * ```ts
 * import { startSandbox, type Sandbox } from 'hosted-payments/sandbox';
 *
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
  /** The interface and port it really bound, e.g. `127.0.0.1:4010`, `0.0.0.0:4010` or `[::1]:4010`. */
  readonly address: string;
  /** Current wallet balance (payouts reduce it by amount + fee). */
  readonly walletBalance: number;
  /**
   * The callback deliveries kept, with their attempts, oldest first: every pending one, and up to
   * 1000 in all (a failed or cancelled one kept longest). The report of `waitForIdle()` counts every one.
   */
  readonly deliveries: readonly CallbackDelivery[];
  /**
   * Resolves once no callback delivery is pending (all delivered, given up or cancelled), with a
   * report of every delivery: `report.ok` is false when one failed, and `report.summary` says
   * which, where, and what your route answered (`401 invalid_signature`, `ECONNREFUSED`).
   * `{ timeout }` (ms) or `{ signal }` makes it reject instead, once that passes, with an error
   * whose message is the summary of what is still pending: keep it under your test's timeout.
   */
  waitForIdle(options?: WaitForIdleOptions): Promise<DeliveryReport>;
  /**
   * Pays a checkout link of this sandbox as the customer's browser would (loads the page and
   * submits its form with the test values), so the checkout callback is sent.
   */
  completeCheckout(checkoutLink: string, options: CompleteCheckoutOptions): Promise<CheckoutCompletion>;
  /** Stops pending deliveries and their timers, closes open connections and the server. */
  close(): Promise<void>;
}

/** A port from 0 to 65535 (RangeError otherwise, TypeError for a non-number) and a non-empty host. */
function checkListenOptions(port: unknown, host: unknown): void {
  if (port !== undefined) {
    const rule = 'startSandbox: port must be a whole number from 0 to 65535 (0: a free port)';
    if (typeof port !== 'number') throw new TypeError(`${rule}, got ${typeof port}`);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new RangeError(`${rule}, got ${port}`);
  }
  if (host !== undefined && (typeof host !== 'string' || host === '')) {
    throw new TypeError("startSandbox: host must be a non-empty string such as '127.0.0.1'");
  }
}

const withPort = (host: string, port: number): string => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** The bound address, and a URL a client on this machine can reach it at (loopback for a wildcard bind). */
function describeBinding(address: AddressInfo): { bound: string; url: string } {
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  return {
    bound: withPort(address.address, address.port),
    url: `http://${withPort(wildcard ? '127.0.0.1' : address.address, address.port)}`,
  };
}

/**
 * Why the sandbox could not listen, naming the option to change; the system `code` is kept, and
 * the system error is the `cause`.
 */
function listenError(error: unknown, port: number, host: string): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return error;
  const message =
    code === 'EADDRINUSE'
      ? `port ${port} is in use on ${host} (${code}); give another port, or 0 for a free one`
      : code === 'EACCES'
        ? `port ${port} needs privileges this process does not have (${code}); give a port above 1023, or 0`
        : `cannot listen on host ${host} (${code}); give an address of this machine, such as 127.0.0.1`;
  return Object.assign(new Error(`startSandbox: ${message}`, { cause: error }), { code });
}

/**
 * Starts the sandbox: a real HTTP server (Hono on Node) implementing the service's four endpoints
 * with the SDK's own schemas, a hosted checkout page, and callbacks delivered with retries.
 * Outcomes follow `sandboxTestValues`. By default it prints one line per delivery attempt to
 * standard output (`log: false` silences it, a function receives every event instead).
 *
 * @example
 * ```ts
 * import { PaymentsClient } from 'hosted-payments';
 * import { startSandbox } from 'hosted-payments/sandbox';
 *
 * const sandbox = await startSandbox({ callbackDelayMs: 50 });
 * const client = new PaymentsClient({ baseUrl: sandbox.url });
 * await client.initiateMobileMoneyPayment({
 *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
 *   amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
 *   callback_details: { transaction_reference: 'ORDER-1', callback_url: 'http://127.0.0.1:3000/webhooks/payments' },
 * });
 * const report = await sandbox.waitForIdle();
 * console.log(report.summary); // '1 callback: 1 delivered', or which failed and why
 * await sandbox.close();
 * ```
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  refuseUnknownOptions('startSandbox', options, START_OPTIONS);
  const { port: listenPort, host: hostOption, ...behaviour } = options;
  checkListenOptions(listenPort, hostOption);
  const host = hostOption ?? '127.0.0.1';
  const log = options.log ?? deliveryLogger();
  const engine = buildSandboxApp('startSandbox', { ...behaviour, log });
  const server = createAdaptorServer({
    fetch: engine.app.fetch,
    hostname: host,
    // Leave the merchant's global Request/Response alone.
    overrideGlobalObjects: false,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(listenPort ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    engine.close();
    throw listenError(error, listenPort ?? 0, host);
  }
  const { bound, url } = describeBinding(server.address() as AddressInfo);
  const port = (server.address() as AddressInfo).port;
  if (log) log({ kind: 'listening', url, address: bound });

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    address: bound,
    get walletBalance() {
      return engine.walletBalance;
    },
    get deliveries() {
      return engine.deliveries;
    },
    waitForIdle: (waitOptions) => engine.waitForIdle(waitOptions),
    completeCheckout: (checkoutLink, checkoutOptions) => completeCheckout(checkoutLink, checkoutOptions),
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
