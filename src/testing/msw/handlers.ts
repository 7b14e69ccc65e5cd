import { http, type HttpHandler } from 'msw';
import type { CallbackEventType } from '../../callbacks/events.js';
import type { CallbackPayload } from '../../callbacks/schemas.js';
import { refuseUnknownOptions, type OptionNames } from '../../internal/known-options.js';
import { buildSandboxApp, sandboxPaths } from '../../sandbox/app.js';
import { checkBaseUrlOption } from '../../sandbox/option-values.js';
import type { CallbackDelivery, CallbackTransport, WaitForIdleOptions } from '../../sandbox/delivery.js';
import type { DeliveryReport } from '../../sandbox/report.js';
import { SANDBOX_BEHAVIOUR_OPTIONS, type SandboxBehaviourOptions } from '../../sandbox/sandbox-state.js';

/**
 * Options of {@link createPaymentsHandlers}.
 *
 * @example
 * ```ts
 * import type { PaymentsHandlersOptions } from 'hosted-payments/testing/msw';
 *
 * const inbox: unknown[] = [];
 * const options: PaymentsHandlersOptions = {
 *   baseUrl: 'https://payments.example.test',
 *   onCallback: (payload) => void inbox.push(payload),
 * };
 * ```
 */
export interface PaymentsHandlersOptions extends Omit<
  SandboxBehaviourOptions,
  'callbackDelayMs' | 'retryDelayMs'
> {
  /** The `baseUrl` your `PaymentsClient` uses, e.g. `https://payments.example.test`. */
  baseUrl: string;
  /**
   * Receives each callback instead of an HTTP POST. Throwing (or rejecting) counts as a failed
   * delivery and is retried. Without it, callbacks are POSTed to their URL with `fetch` (which
   * your own msw handlers may intercept).
   */
  onCallback?:
    ((payload: CallbackPayload, url: string, type: CallbackEventType) => void | Promise<void>) | undefined;
  /** Wait before delivering a callback, in ms. Default 0. */
  callbackDelayMs?: number | undefined;
  /** Base of the retry backoff, in ms. Default 10. */
  retryDelayMs?: number | undefined;
}

/** The options {@link createPaymentsHandlers} knows; any other key is refused. */
const HANDLERS_OPTIONS: OptionNames<PaymentsHandlersOptions> = {
  ...SANDBOX_BEHAVIOUR_OPTIONS,
  baseUrl: true,
  onCallback: true,
};

/**
 * The msw handlers and the state behind them.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createPaymentsHandlers, type PaymentsHandlers } from 'hosted-payments/testing/msw';
 *
 * const payments: PaymentsHandlers = createPaymentsHandlers({ baseUrl: 'https://payments.example.test' });
 * const server = setupServer(...payments.handlers);
 * server.listen();
 * // … in afterAll (handlers made once per file; afterEach for handlers made per test):
 * payments.close();
 * server.close();
 * ```
 */
export interface PaymentsHandlers {
  /** Pass to `setupServer(...handlers)` / `setupWorker(...handlers)`. */
  readonly handlers: readonly HttpHandler[];
  /** Current wallet balance of the simulated service. */
  readonly walletBalance: number;
  /**
   * The callback deliveries kept, oldest first: every pending one, and up to 1000 in all (a failed
   * or cancelled one kept longest). The report of `waitForIdle()` counts every one.
   */
  readonly deliveries: readonly CallbackDelivery[];
  /**
   * Resolves once every callback has been delivered (or given up), with the delivery report;
   * rejects after `timeout` ms or when `signal` aborts, naming what is still pending.
   */
  waitForIdle(options?: WaitForIdleOptions): Promise<DeliveryReport>;
  /**
   * Cancels pending deliveries and their timers; from then on every request is answered 410
   * `sandbox_closed`. Call it when their tests are done: in `afterEach` for handlers made per
   * test, in `afterAll` for handlers made once per file.
   */
  close(): void;
}

/**
 * msw handlers for the four endpoints (and the hosted checkout page) with the same behaviour
 * and test values as the sandbox — they run the sandbox's own application in-process, so a
 * merchant unit-tests their code without a server. Callbacks go to `onCallback` when given,
 * otherwise they are POSTed to the callback URL.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createPaymentsHandlers } from 'hosted-payments/testing/msw';
 * import { PaymentsClient, parseCallback } from 'hosted-payments';
 *
 * const received: unknown[] = [];
 * const payments = createPaymentsHandlers({
 *   baseUrl: 'https://payments.example.test',
 *   onCallback: (payload) => void received.push(parseCallback(payload)),
 * });
 * const server = setupServer(...payments.handlers);
 * server.listen();
 *
 * const client = new PaymentsClient({ baseUrl: 'https://payments.example.test' });
 * await client.initiateMobileMoneyPayment({
 *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
 *   amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
 *   callback_details: { transaction_reference: 'ORDER-1', callback_url: 'https://shop.example/webhooks' },
 * });
 * const report = await payments.waitForIdle(); // report.ok; received[0].type === 'payment.mobile_money.succeeded'
 * ```
 */
export function createPaymentsHandlers(options: PaymentsHandlersOptions): PaymentsHandlers {
  refuseUnknownOptions('createPaymentsHandlers', options, HANDLERS_OPTIONS);
  if (options === undefined) throw new TypeError('createPaymentsHandlers: baseUrl is required');
  const { baseUrl, onCallback, ...behaviour } = options;
  const base = new URL(checkBaseUrlOption('createPaymentsHandlers', 'baseUrl', baseUrl));
  if (onCallback !== undefined && typeof onCallback !== 'function') {
    throw new TypeError(`createPaymentsHandlers: onCallback must be a function, got ${typeof onCallback}`);
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  const transport: CallbackTransport | undefined = onCallback
    ? async ({ payload, url, type }) => {
        await onCallback(payload, url, type);
        return 200;
      }
    : undefined;
  const engine = buildSandboxApp('createPaymentsHandlers', {
    ...behaviour,
    callbackDelayMs: options.callbackDelayMs ?? 0,
    retryDelayMs: options.retryDelayMs ?? 10,
    publicUrl: `${base.origin}${prefix}`,
    transport,
  });

  // The app routes on the service's paths; strip a path prefix of baseUrl before handing over.
  const forward = async ({ request }: { request: Request }): Promise<Response> => {
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(prefix.length) || '/';
    const body =
      request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    return engine.app.fetch(new Request(url, { method: request.method, headers: request.headers, body }));
  };
  const at = (path: string): string => `${base.origin}${prefix}${path}`;

  return {
    handlers: [
      http.post(at(sandboxPaths.payment), forward),
      http.post(at(sandboxPaths.checkoutSession), forward),
      http.post(at(sandboxPaths.payout), forward),
      http.get(at(sandboxPaths.checkoutPage), forward),
      http.post(at(sandboxPaths.checkoutPage), forward),
    ],
    get walletBalance() {
      return engine.walletBalance;
    },
    get deliveries() {
      return engine.deliveries;
    },
    waitForIdle: (options) => engine.waitForIdle(options),
    close: () => engine.close(),
  };
}
