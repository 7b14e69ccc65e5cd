/**
 * The sandbox as a Fetch-API application (Hono): the four endpoints, the hosted checkout page,
 * the outcome engine and the callback delivery queue. `startSandbox` serves it over HTTP; the msw
 * handlers of `hosted-payments/testing/msw` call the same `app.fetch`, so both behave identically.
 *
 * @module
 */

import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { endpointPaths } from '../internal/endpoints.js';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import type { CallbackDelivery, CallbackTransport, WaitForIdleOptions } from './delivery.js';
import { sandboxTestValues } from './outcomes.js';
import type { DeliveryReport } from './report.js';
import { refuse, type SandboxEnv } from './request-body.js';
import { checkoutPageRoutes } from './routes/checkout-page.js';
import { checkoutPagePath, checkoutSessionRoutes } from './routes/checkout-session.js';
import { paymentRoutes } from './routes/payment.js';
import { payoutRoutes } from './routes/payout.js';
import {
  createSandboxState,
  SANDBOX_BEHAVIOUR_OPTIONS,
  type SandboxBehaviourOptions,
  type SandboxState,
} from './sandbox-state.js';
import { allowedMethods, notFoundMessage, wrongMethodMessage } from './wrong-route.js';

/**
 * The paths the sandbox serves: the service's endpoint paths (card and mobile-money payments
 * share one) and the hosted checkout page.
 *
 * @example
 * ```ts
 * import { sandboxPaths, startSandbox } from 'hosted-payments/sandbox';
 *
 * const sandbox = await startSandbox({ log: false });
 * const response = await fetch(new URL(sandboxPaths.payout, sandbox.url), {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json' },
 *   body: '{}',
 * });
 * response.status; // 400, naming the missing fields
 * ```
 */
export const sandboxPaths = Object.freeze({
  payment: `/${endpointPaths.payment}`,
  checkoutSession: `/${endpointPaths.checkoutSession}`,
  payout: `/${endpointPaths.payout}`,
  checkoutPage: checkoutPagePath,
} as const);

/**
 * Options of {@link createSandboxApp}.
 *
 * @example
 * ```ts
 * import { createSandboxApp } from 'hosted-payments/sandbox';
 *
 * createSandboxApp({ publicUrl: 'https://sandbox.internal.example', callbackDelayMs: 0 });
 * ```
 */
export interface SandboxAppOptions extends SandboxBehaviourOptions {
  /** Origin used in `checkout_link`; default: the origin of the request. */
  publicUrl?: string | undefined;
  /** How callbacks are sent; default `fetch` POST. */
  transport?: CallbackTransport | undefined;
}

/** The options {@link createSandboxApp} knows; any other key is refused. */
const APP_OPTIONS: OptionNames<SandboxAppOptions> = {
  ...SANDBOX_BEHAVIOUR_OPTIONS,
  publicUrl: true,
  transport: true,
};

/**
 * The sandbox application and its state.
 *
 * @example
 * ```ts
 * import { createSandboxApp, type SandboxApp } from 'hosted-payments/sandbox';
 *
 * const sandbox: SandboxApp = createSandboxApp();
 * export default { fetch: sandbox.app.fetch }; // any Fetch-API runtime
 * ```
 */
export interface SandboxApp {
  /** The Fetch-API application: `app.fetch(request)` answers like the service. */
  readonly app: { readonly fetch: (request: Request) => Response | Promise<Response> };
  /** Current wallet balance. */
  readonly walletBalance: number;
  /**
   * The callback deliveries kept, oldest first: every pending one, and up to 1000 in all (a failed
   * or cancelled one kept longest). The report of `waitForIdle()` counts every one.
   */
  readonly deliveries: readonly CallbackDelivery[];
  /**
   * Resolves, once no callback delivery is pending, with the report of every delivery; rejects
   * after `timeout` ms or when `signal` aborts, naming what is still pending.
   */
  waitForIdle(options?: WaitForIdleOptions): Promise<DeliveryReport>;
  /** Cancels pending deliveries and clears their timers; every request is then answered 410 `sandbox_closed`. */
  close(): void;
}

const MAX_BODY_BYTES = 1024 * 1024;

/** Logs each request with the summary its route left, once it is answered. */
function logRequests(app: Hono<SandboxEnv>, state: SandboxState): void {
  app.use('*', async (c, next) => {
    await next();
    const summary = c.get('summary');
    state.log?.({
      kind: 'request',
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ...(summary ? { summary } : {}),
    });
  });
}

/**
 * `GET /` describes the sandbox; a known path asked with another method is a JSON 405, anything
 * else unknown a JSON 404 naming the endpoint most likely meant; a crash a JSON 500.
 */
function describeAndFallBack(app: Hono<SandboxEnv>, state: SandboxState): void {
  app.get('/', (c) =>
    c.json({
      name: 'hosted-payments sandbox',
      endpoints: [
        `POST ${sandboxPaths.payment}`,
        `POST ${sandboxPaths.checkoutSession}`,
        `POST ${sandboxPaths.payout}`,
        `GET ${sandboxPaths.checkoutPage}`,
      ],
      walletBalance: state.walletBalance,
      testValues: sandboxTestValues,
    }),
  );
  app.notFound((c) => {
    const { method, path } = c.req;
    const allow = allowedMethods(path);
    if (allow !== undefined) {
      const message = wrongMethodMessage(method, path, allow);
      c.set('summary', message);
      c.header('allow', allow);
      return c.json({ error: 'method_not_allowed', message, issues: [] }, 405);
    }
    const message = notFoundMessage(method, path);
    c.set('summary', message);
    return c.json({ error: 'not_found', message, issues: [] }, 404);
  });
  app.onError((error, c) => {
    c.set('summary', `internal error: ${error.name}`);
    return c.json({ error: 'internal_error', message: 'The sandbox failed to handle this request.' }, 500);
  });
}

/**
 * Builds the sandbox application: routes, outcome engine, wallet and callback delivery.
 *
 * @example
 * ```ts
 * import { createSandboxApp } from 'hosted-payments/sandbox';
 *
 * const sandbox = createSandboxApp({ callbackDelayMs: 0 });
 * const response = await sandbox.app.fetch(new Request('http://sandbox.example/'));
 * const report = await sandbox.waitForIdle();
 * sandbox.close();
 * ```
 */
export function createSandboxApp(options: SandboxAppOptions = {}): SandboxApp {
  return buildSandboxApp('createSandboxApp', options);
}

/**
 * {@link createSandboxApp} for the entries built on it (`startSandbox`, the msw handlers), whose
 * refusals name the entry the merchant called.
 *
 * @example
 * ```ts
 * const engine = buildSandboxApp('startSandbox', behaviour);
 * ```
 */
export function buildSandboxApp(where: string, options: SandboxAppOptions): SandboxApp {
  refuseUnknownOptions(where, options, APP_OPTIONS);
  const state = createSandboxState(options, where);
  const app = new Hono<SandboxEnv>();
  // First, so that even a request refused below leaves its key to be kept out of the log.
  app.use('*', async (c, next) => {
    state.rememberCredentials(c.req.header());
    await next();
  });
  logRequests(app, state);
  // Closed: a request answered 200 would never get its callback, and a test would take the
  // silence for the service's (handlers closed in afterEach, used by the next test). 410, a
  // refusal: a client's retry does not repeat it, and a tracked payment is not left pending.
  const closedBody = {
    error: 'sandbox_closed',
    message: `${where}: close() was called, so no callback would follow; nothing was initiated. Create it for each test (close it in the same test's afterEach), or close it in afterAll.`,
    issues: [],
  };
  app.use('*', async (c, next) => (state.queue.isClosed ? c.json(closedBody, 410) : next()));
  // hono's bodyLimit wraps a body of no declared length (chunked, or a DELETE's) in a new Request
  // made from the incoming one, which the Node server's own request object (global Request left
  // alone) cannot be: give it a platform Request first.
  app.use('*', async (c, next) => {
    const { raw } = c.req;
    if (raw.body && !raw.headers.has('content-length')) {
      c.req.raw = new Request(raw.url, {
        method: raw.method,
        headers: raw.headers,
        body: raw.body,
        duplex: 'half',
      } as RequestInit);
    }
    return next();
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => refuse(c, 413, 'payload_too_large', `The body exceeds ${MAX_BODY_BYTES} bytes.`),
    }),
  );
  // A body may still be arriving when close() is called: read it (Hono keeps it for the route's
  // own read) and look again, so a request closed meanwhile is refused before any route acts on it.
  app.use('*', async (c, next) => {
    if (c.req.raw.body) await c.req.arrayBuffer();
    return state.queue.isClosed ? c.json(closedBody, 410) : next();
  });
  paymentRoutes(app, state);
  checkoutSessionRoutes(app, state);
  checkoutPageRoutes(app, state);
  payoutRoutes(app, state);
  describeAndFallBack(app, state);
  return {
    app,
    get walletBalance() {
      return state.walletBalance;
    },
    get deliveries() {
      return state.queue.deliveries;
    },
    waitForIdle: (options) => state.queue.waitForIdle(options),
    close: () => state.queue.close(),
  };
}
