/**
 * The sandbox as a Fetch-API application (Hono): the four endpoints of spec §4, the hosted
 * checkout page, the outcome engine and the callback delivery queue. `startSandbox` serves it
 * over HTTP; the msw handlers of `hosted-payments/testing` call the same `app.fetch`, so both
 * behave identically.
 *
 * @module
 */

import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type * as z from 'zod';
import type { ValidationIssue } from '../errors.js';
import { formatIssuePath } from '../errors.js';
import { toValidationIssues } from '../internal/issues.js';
import { parseJsonExact } from '../internal/json.js';
import { cardPaymentRequestSchema, type CardPaymentRequest } from '../requests/card-payment.js';
import { checkoutSessionRequestSchema, type CheckoutSessionRequest } from '../requests/checkout-session.js';
import {
  mobileMoneyPaymentRequestSchema,
  type MobileMoneyPaymentRequest,
} from '../requests/mobile-money-payment.js';
import { payoutRequestSchema, type PayoutRequest } from '../requests/payout.js';
import {
  checkCardNumber,
  checkCvc,
  checkExpiryMonth,
  checkExpiryYear,
  checkNotExpired,
} from '../validation/card.js';
import { checkPhoneNumber } from '../validation/phone.js';
import {
  DEFAULT_MOBILE_MONEY_BRAND,
  cardPaymentFailurePayload,
  cardPaymentSuccessPayload,
  checkoutFailurePayload,
  checkoutSuccessPayload,
  makeSandboxId,
  mobileMoneyPaymentFailurePayload,
  mobileMoneyPaymentSuccessPayload,
  payoutFailurePayload,
  payoutSuccessPayload,
  type CheckoutPaymentMethod,
} from '../testing/payloads.js';
import {
  renderCheckoutNotFound,
  renderCheckoutPage,
  type CheckoutFormErrors,
  type CheckoutFormValues,
  type CheckoutSessionView,
} from './checkout-page.js';
import {
  createDeliveryQueue,
  type CallbackDelivery,
  type CallbackTransport,
  type DeliveryQueue,
} from './delivery.js';
import { maskCardNumber, type SandboxLogger } from './log.js';
import {
  decideCardPayment,
  decideMobileMoneyPayment,
  decidePayout,
  sandboxTestValues,
  type PaymentOutcome,
} from './outcomes.js';

/**
 * The exact paths of spec §4. Endpoints 1 and 2 share one path (§4 rule 1).
 *
 * @example
 * ```ts
 * await fetch(new URL(sandboxPaths.payout, sandbox.url), { method: 'POST', body });
 * ```
 */
export const sandboxPaths = Object.freeze({
  payment: '/api/payment/payment-initiate-callback/',
  checkoutSession: '/checkout.sessions/hosted/redirect/session',
  payout: '/api/payout/mobile-money-payout',
  checkoutPage: '/checkout/:sessionId',
});

/**
 * Behaviour options shared by `startSandbox` and the msw handlers.
 *
 * @example
 * ```ts
 * const behaviour: SandboxBehaviourOptions = { walletBalance: 5000, payoutFee: 25, duplicateDeliveries: true };
 * ```
 */
export interface SandboxBehaviourOptions {
  /** Wait before a callback's first delivery attempt, in ms. */
  callbackDelayMs?: number;
  /** Starting wallet balance for payouts. Default 100000. */
  walletBalance?: number;
  /** Fee charged on each successful payout. Default 50. */
  payoutFee?: number;
  /** Delivery attempts after the first before giving up. Default 5. */
  deliveryRetries?: number;
  /** Base of the exponential backoff between delivery attempts, in ms. Default 500. */
  retryDelayMs?: number;
  /** How long one delivery attempt waits for the merchant's answer before it counts as failed, in ms. Default 10000. */
  deliveryTimeoutMs?: number;
  /** Send every callback again once delivered: `true` = one duplicate, or a number of duplicates. Default none. */
  duplicateDeliveries?: boolean | number;
  /** Brand word of mobile-money payloads and messages. Default `'MOBILE-MONEY'`. */
  mobileMoneyBrand?: string;
  /**
   * Probability (0–1) that a card or mobile-money payment that would succeed fails anyway
   * (insufficient funds), to exercise failure paths at random. Default 0.
   */
  failureRate?: number;
  /**
   * The `payment_method` value that makes a request with `card_details` a card payment (spec §4
   * rule 1), compared case-insensitively. Default `'CARD'`; match your client's `paymentMethods.card`.
   */
  cardPaymentMethod?: string;
  /** Random source for `failureRate`. Default `Math.random`. */
  random?: () => number;
  /** Receives one event per request and per delivery attempt. Default: silent. */
  log?: SandboxLogger;
}

/**
 * Options of {@link createSandboxApp}.
 *
 * @example
 * ```ts
 * createSandboxApp({ publicUrl: 'https://sandbox.internal.example', callbackDelayMs: 0 });
 * ```
 */
export interface SandboxAppOptions extends SandboxBehaviourOptions {
  /** Origin used in `checkout_link`; default: the origin of the request. */
  publicUrl?: string;
  /** How callbacks are sent; default `fetch` POST. */
  transport?: CallbackTransport;
}

/**
 * The sandbox application and its state.
 *
 * @example
 * ```ts
 * const sandbox: SandboxApp = createSandboxApp();
 * export default { fetch: sandbox.app.fetch }; // any Fetch-API runtime
 * ```
 */
export interface SandboxApp {
  /** The Hono application; `app.fetch(request)` answers like the service. */
  readonly app: Hono<{ Variables: { summary: string } }>;
  /** Current wallet balance. */
  readonly walletBalance: number;
  /** Every callback delivery so far, oldest first. */
  readonly deliveries: readonly CallbackDelivery[];
  /** Resolves once no callback delivery is pending. */
  waitForIdle(): Promise<void>;
  /** Cancels pending deliveries and clears their timers. */
  close(): void;
}

interface CheckoutSession extends CheckoutSessionView {
  state: 'open' | 'paid' | 'failed';
  readonly successUrl: string;
  readonly failedUrl: string;
  readonly callbackUrl: string;
}

const MAX_SESSIONS = 10_000;
const MAX_BODY_BYTES = 1024 * 1024;

/** Issues as the 4xx body lists them: a field name, a message, a code. Never a value. */
function issuesBody(message: string, issues: readonly ValidationIssue[]) {
  return {
    error: 'invalid_request',
    message: `${message}: ${issues.map((issue) => formatIssuePath(issue.path)).join(', ')}`,
    issues: issues.map((issue) => ({
      field: formatIssuePath(issue.path),
      path: issue.path,
      code: issue.code,
      // Belt and braces: messages never carry values, but no run of digits long enough to be a
      // card number leaves the sandbox either.
      message: issue.message.replace(/\d{12,19}/g, '[redacted]'),
    })),
  };
}

function schemaIssues(error: z.core.$ZodError): ValidationIssue[] {
  return toValidationIssues(error.issues);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Amount of a payment: `amount.total`, else the sum of the products, else 0 (amount is optional, spec §2.3). */
function paymentTotal(body: CardPaymentRequest | MobileMoneyPaymentRequest): string {
  if (body.amount) return body.amount.total;
  const sum = (body.products ?? []).reduce(
    (total, product) => total + Number(product.quantity) * Number(product.unit_price),
    0,
  );
  return String(Math.round(sum));
}

/**
 * Builds the sandbox application: routes, outcome engine, wallet and callback delivery.
 *
 * @example
 * ```ts
 * const sandbox = createSandboxApp({ callbackDelayMs: 0 });
 * const response = await sandbox.app.fetch(new Request('http://sandbox.test/api/payout/mobile-money-payout', init));
 * await sandbox.waitForIdle();
 * sandbox.close();
 * ```
 */
export function createSandboxApp(options: SandboxAppOptions = {}): SandboxApp {
  const brand = options.mobileMoneyBrand ?? DEFAULT_MOBILE_MONEY_BRAND;
  const payoutFee = options.payoutFee ?? sandboxTestValues.payoutFee;
  const failureRate = options.failureRate ?? 0;
  const random = options.random ?? Math.random;
  const log = options.log;
  const cardMethod = (options.cardPaymentMethod ?? 'CARD').toUpperCase();
  // The page's form posts back to its own address, path prefix of publicUrl included.
  const pathPrefix = options.publicUrl ? new URL(options.publicUrl).pathname.replace(/\/+$/, '') : '';
  let walletBalance = options.walletBalance ?? sandboxTestValues.walletBalance;
  const sessions = new Map<string, CheckoutSession>();
  const duplicates =
    options.duplicateDeliveries === true ? 1 : options.duplicateDeliveries ? options.duplicateDeliveries : 0;
  const queue: DeliveryQueue = createDeliveryQueue({
    delayMs: options.callbackDelayMs ?? 200,
    retries: options.deliveryRetries ?? 5,
    retryDelayMs: options.retryDelayMs ?? 500,
    attemptTimeoutMs: options.deliveryTimeoutMs ?? 10_000,
    duplicates,
    transport: options.transport,
    log,
  });

  const withFailureRate = (outcome: PaymentOutcome, responseStatus: number): PaymentOutcome =>
    outcome.ok && failureRate > 0 && random() < failureRate
      ? { ok: false, reason: 'Insufficient funds', responseStatus }
      : outcome;

  const app = new Hono<{ Variables: { summary: string } }>();

  app.use('*', async (c, next) => {
    await next();
    const summary = c.get('summary');
    log?.({
      kind: 'request',
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ...(summary ? { summary } : {}),
    });
  });

  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) =>
        c.json(
          { error: 'payload_too_large', message: `The body exceeds ${MAX_BODY_BYTES} bytes.`, issues: [] },
          413,
        ),
    }),
  );

  const readJson = async (
    c: Context,
  ): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> => {
    const text = await c.req.text();
    try {
      // parseJsonExact keeps a card_number above 2^53 as its exact digits.
      return { ok: true, body: parseJsonExact(text) };
    } catch {
      c.set('summary', 'body is not JSON');
      return {
        ok: false,
        response: c.json(
          { error: 'invalid_json', message: 'The request body is not valid JSON.', issues: [] },
          400,
        ),
      };
    }
  };

  const invalid = (
    c: Context<{ Variables: { summary: string } }>,
    what: string,
    issues: ValidationIssue[],
  ) => {
    const body = issuesBody(`Invalid ${what}`, issues);
    c.set('summary', `invalid: ${body.issues.map((issue) => issue.field).join(', ')}`);
    return c.json(body, 400);
  };

  // Endpoints 1 and 2 (spec §4 rule 1): a card payment when card_details is present and
  // payment_method names the card method, a mobile-money payment otherwise.
  app.post(sandboxPaths.payment, async (c) => {
    const read = await readJson(c);
    if (!read.ok) return read.response;
    const raw = read.body;
    if (!isRecord(raw)) {
      return invalid(c, 'payment', [{ path: [], code: 'invalid_type', message: 'expected a JSON object' }]);
    }
    const customer = isRecord(raw.customer_details) ? raw.customer_details : {};
    const method = typeof customer.payment_method === 'string' ? customer.payment_method : '';
    const isCardMethod = method.toUpperCase() === cardMethod;
    if ('card_details' in raw && isCardMethod) {
      const parsed = cardPaymentRequestSchema.safeParse(raw);
      if (!parsed.success) return invalid(c, 'card payment', schemaIssues(parsed.error));
      return cardPayment(c, parsed.data);
    }
    if (isCardMethod) {
      return invalid(c, 'card payment', [
        {
          path: ['card_details'],
          code: 'invalid_type',
          message: `required when payment_method is ${cardMethod} (spec §4 rule 1)`,
        },
      ]);
    }
    const parsed = mobileMoneyPaymentRequestSchema.safeParse(raw);
    if (!parsed.success) return invalid(c, 'mobile-money payment', schemaIssues(parsed.error));
    return mobileMoneyPayment(c, parsed.data);
  });

  const cardPayment = (c: Context<{ Variables: { summary: string } }>, body: CardPaymentRequest) => {
    const cardNumber = String(body.card_details.card_number);
    const amount = paymentTotal(body);
    const currency = body.amount?.currency ?? 'KES';
    const outcome = withFailureRate(decideCardPayment(cardNumber), 402);
    const url = body.callback_details.callback_url;
    if (outcome.ok)
      queue.enqueue('payment.card.succeeded', url, cardPaymentSuccessPayload({ amount, currency }));
    else queue.enqueue('payment.card.failed', url, cardPaymentFailurePayload({ amount, currency }));
    c.set(
      'summary',
      `card ${maskCardNumber(cardNumber)}, ${amount} ${currency}, ref ${body.callback_details.transaction_reference} → ${
        outcome.ok ? 'succeeds' : 'declined'
      }`,
    );
    return c.json({ message: 'Card Payment Initiated', status: 200 }, 200);
  };

  const mobileMoneyPayment = (
    c: Context<{ Variables: { summary: string } }>,
    body: MobileMoneyPaymentRequest,
  ) => {
    const amount = paymentTotal(body);
    const reference = body.callback_details.transaction_reference;
    const outcome = withFailureRate(decideMobileMoneyPayment(body.customer_details.phone_number), 406);
    const url = body.callback_details.callback_url;
    if (outcome.ok) {
      queue.enqueue(
        'payment.mobile_money.succeeded',
        url,
        mobileMoneyPaymentSuccessPayload({ amount }, brand),
      );
    } else {
      queue.enqueue(
        'payment.mobile_money.failed',
        url,
        mobileMoneyPaymentFailurePayload({
          amount,
          transactionReference: reference,
          responseStatus: outcome.responseStatus,
          message: outcome.reason,
        }),
      );
    }
    c.set(
      'summary',
      `${brand} ${body.customer_details.phone_number}, ${amount}, ref ${reference} → ${outcome.ok ? 'succeeds' : 'fails (406)'}`,
    );
    return c.json({ message: `${brand} Payment Initiated`, status: 200 }, 200);
  };

  // Endpoint 3: a checkout session and its hosted page.
  app.post(sandboxPaths.checkoutSession, async (c) => {
    const read = await readJson(c);
    if (!read.ok) return read.response;
    const parsed = checkoutSessionRequestSchema.safeParse(read.body);
    if (!parsed.success) return invalid(c, 'checkout session', schemaIssues(parsed.error));
    const body: CheckoutSessionRequest = parsed.data;
    const id = makeSandboxId('cs_');
    if (sessions.size >= MAX_SESSIONS) {
      const oldest = sessions.keys().next().value;
      if (oldest !== undefined) sessions.delete(oldest);
    }
    const orderId = String(body.amount.order_id);
    sessions.set(id, {
      id,
      orderId,
      amount: body.amount.total,
      currency: body.amount.currency,
      customerName: body.customer_details.full_name,
      state: 'open',
      successUrl: body.redirect_urls.success_url,
      failedUrl: body.redirect_urls.failed_url,
      callbackUrl: body.redirect_urls.callback_url,
    });
    const origin = options.publicUrl?.replace(/\/+$/, '') ?? new URL(c.req.url).origin;
    const checkoutLink = `${origin}/checkout/${id}`;
    c.set('summary', `order ${orderId}, ${body.amount.total} ${body.amount.currency} → ${checkoutLink}`);
    // spec §2.8: status is a boolean here and order_id a string echo.
    return c.json({ checkout_link: checkoutLink, status: true, order_id: orderId }, 200);
  });

  app.get(sandboxPaths.checkoutPage, (c) => {
    const session = sessions.get(c.req.param('sessionId'));
    if (!session) return c.html(renderCheckoutNotFound(), 404);
    return c.html(renderCheckoutPage(session, { brand, action: `${pathPrefix}${c.req.path}` }));
  });

  app.post(sandboxPaths.checkoutPage, async (c) => {
    const session = sessions.get(c.req.param('sessionId'));
    if (!session) return c.html(renderCheckoutNotFound(), 404);
    if (session.state !== 'open')
      return c.html(renderCheckoutPage(session, { brand, action: `${pathPrefix}${c.req.path}` }), 409);
    const form = await c.req.parseBody();
    const text = (name: string): string => {
      const value = form[name];
      return typeof value === 'string' ? value.trim() : '';
    };
    const method: CheckoutPaymentMethod = text('method') === 'mobile_money' ? 'mobile_money' : 'card';
    const values: CheckoutFormValues = {
      method,
      expiry_month: text('expiry_month'),
      expiry_year: text('expiry_year'),
      phone_number: text('phone_number'),
    };
    let outcome: PaymentOutcome;
    let summary: string;
    if (text('action') === 'fail') {
      outcome = { ok: false, reason: 'Payment cancelled by the customer', responseStatus: 200 };
      summary = `${method === 'card' ? 'card' : brand}, failure chosen on the page`;
    } else if (method === 'card') {
      const errors: { -readonly [K in keyof CheckoutFormErrors]: CheckoutFormErrors[K] } = {};
      const card = checkCardNumber(text('card_number'));
      if (!card.ok) errors.card_number = `Card number: ${card.message}.`;
      const month = checkExpiryMonth(text('expiry_month'));
      const year = checkExpiryYear(text('expiry_year'));
      if (!month.ok) errors.expiry = `Expiry month: ${month.message}.`;
      else if (!year.ok) errors.expiry = `Expiry year: ${year.message}.`;
      else {
        const notExpired = checkNotExpired(month.value, year.value, new Date());
        if (!notExpired.ok) errors.expiry = `Expiry: ${notExpired.message}.`;
      }
      const cvc = checkCvc(text('cvc'));
      if (!cvc.ok) errors.cvc = `CVC: ${cvc.message}.`;
      if (!card.ok || Object.keys(errors).length > 0) {
        c.set('summary', `order ${session.orderId}: form errors in ${Object.keys(errors).join(', ')}`);
        return c.html(
          renderCheckoutPage(session, { brand, action: `${pathPrefix}${c.req.path}`, errors, values }),
          422,
        );
      }
      outcome = withFailureRate(decideCardPayment(card.value), 402);
      summary = `card ${maskCardNumber(card.value)}`;
    } else {
      const phone = checkPhoneNumber(text('phone_number'), 'payment');
      if (!phone.ok) {
        const errors: CheckoutFormErrors = { phone_number: `Phone number: ${phone.message}.` };
        c.set('summary', `order ${session.orderId}: form errors in phone_number`);
        return c.html(
          renderCheckoutPage(session, { brand, action: `${pathPrefix}${c.req.path}`, errors, values }),
          422,
        );
      }
      outcome = withFailureRate(decideMobileMoneyPayment(phone.value), 406);
      summary = `${brand} ${phone.value}`;
    }
    session.state = outcome.ok ? 'paid' : 'failed';
    const input = { method, orderId: session.orderId, amount: session.amount };
    if (outcome.ok)
      queue.enqueue('checkout.succeeded', session.callbackUrl, checkoutSuccessPayload(input, brand));
    else {
      queue.enqueue(
        'checkout.failed',
        session.callbackUrl,
        checkoutFailurePayload({ ...input, message: outcome.reason }, brand),
      );
    }
    c.set('summary', `order ${session.orderId}: ${summary} → ${outcome.ok ? 'paid' : 'failed'}`);
    // spec §4 rule 6: success_url on success, failed_url on failure.
    return c.redirect(outcome.ok ? session.successUrl : session.failedUrl, 303);
  });

  // Endpoint 4: payout from the sandbox wallet.
  app.post(sandboxPaths.payout, async (c) => {
    const read = await readJson(c);
    if (!read.ok) return read.response;
    const parsed = payoutRequestSchema.safeParse(read.body);
    if (!parsed.success) return invalid(c, 'payout', schemaIssues(parsed.error));
    const body = parsed.data as PayoutRequest;
    const { transfer } = body;
    const outcome = decidePayout({ amount: Number(transfer.amount), balance: walletBalance, fee: payoutFee });
    walletBalance = outcome.balanceAfter;
    const common = {
      amount: transfer.amount,
      currency: transfer.currency,
      referenceId: String(transfer.reference_id),
      walletBalance: outcome.balanceAfter,
    };
    const url = body.webhook_endpoint.webhook_url;
    if (outcome.ok)
      queue.enqueue('payout.succeeded', url, payoutSuccessPayload({ ...common, payoutFee: outcome.fee }));
    else queue.enqueue('payout.failed', url, payoutFailurePayload(common));
    c.set(
      'summary',
      `${transfer.amount} ${transfer.currency}, ref ${transfer.reference_id} → ${
        outcome.ok ? `succeeds, fee ${outcome.fee}` : 'fails (above wallet balance)'
      }, wallet ${outcome.balanceAfter}`,
    );
    return c.json({ message: 'Mobile Payout Initiated', status: 200 }, 200);
  });

  app.get('/', (c) =>
    c.json({
      name: 'hosted-payments sandbox',
      endpoints: [
        `POST ${sandboxPaths.payment}`,
        `POST ${sandboxPaths.checkoutSession}`,
        `POST ${sandboxPaths.payout}`,
        `GET ${sandboxPaths.checkoutPage}`,
      ],
      walletBalance,
      testValues: sandboxTestValues,
    }),
  );

  app.notFound((c) =>
    c.json({ error: 'not_found', message: `No sandbox endpoint at ${c.req.method} ${c.req.path}` }, 404),
  );

  app.onError((error, c) => {
    c.set('summary', `internal error: ${error.name}`);
    return c.json({ error: 'internal_error', message: 'The sandbox failed to handle this request.' }, 500);
  });

  return {
    app,
    get walletBalance() {
      return walletBalance;
    },
    get deliveries() {
      return queue.deliveries;
    },
    waitForIdle: () => queue.waitForIdle(),
    close: () => queue.close(),
  };
}
