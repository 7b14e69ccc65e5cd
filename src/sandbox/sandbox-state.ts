/**
 * The state one sandbox keeps between requests — wallet, checkout sessions, the delivery queue —
 * and the settings its routes read.
 *
 * @module
 */

import type { CallbackEventType } from '../callbacks/events.js';
import type { OptionNames } from '../internal/known-options.js';
import { credentialValuesOf } from '../internal/redact.js';
import type { CallbackPayload } from '../callbacks/schemas.js';
import type { CheckoutSessionView } from './checkout-page-html.js';
import { createDeliveryQueue, type CallbackTransport, type DeliveryQueue } from './delivery.js';
import { maskingCardNumbers, type SandboxLogger } from './log.js';
import { checkSandboxOptionValues } from './option-values.js';
import { sandboxTestValues, type PaymentOutcome } from './outcomes.js';
import { DEFAULT_MOBILE_MONEY_BRAND, INSUFFICIENT_FUNDS_MESSAGE } from './payloads.js';

/**
 * Behaviour options shared by `startSandbox` and the msw handlers.
 *
 * @example
 * ```ts
 * import type { SandboxBehaviourOptions } from 'hosted-payments/sandbox';
 *
 * const behaviour: SandboxBehaviourOptions = { walletBalance: 5000, payoutFee: 25, duplicateDeliveries: true };
 * ```
 */
export interface SandboxBehaviourOptions {
  /** Wait before a callback's first delivery attempt, in ms. */
  callbackDelayMs?: number | undefined;
  /** Starting wallet balance for payouts. Default 100000. */
  walletBalance?: number | undefined;
  /** Fee charged on each successful payout. Default 50. */
  payoutFee?: number | undefined;
  /** Delivery attempts after the first before giving up. Default 5. */
  deliveryRetries?: number | undefined;
  /** Base of the exponential backoff between delivery attempts, in ms. Default 500. */
  retryDelayMs?: number | undefined;
  /** How long one delivery attempt waits for the merchant's answer before it counts as failed, in ms. Default 10000. */
  deliveryTimeoutMs?: number | undefined;
  /** Send every callback again once delivered: `true` = one duplicate, or a number of duplicates. Default none. */
  duplicateDeliveries?: boolean | number | undefined;
  /** Brand word of mobile-money payloads and messages. Default `'MOBILE-MONEY'`. */
  mobileMoneyBrand?: string | undefined;
  /**
   * Probability (0–1) that a card or mobile-money payment that would succeed fails anyway
   * (insufficient funds), to exercise failure paths at random. The test phone `254700000000`
   * never fails this way: it never gets a callback. Default 0.
   */
  failureRate?: number | undefined;
  /**
   * The `payment_method` value that makes a request with `card_details` a card payment, compared
   * case-insensitively. Default `'CARD'`; match your client's `paymentMethods.card`.
   */
  cardPaymentMethod?: string | undefined;
  /** Random source for `failureRate`. Default `Math.random`. */
  random?: (() => number) | undefined;
  /**
   * Receives one event per request and per delivery attempt. `startSandbox` defaults to a line
   * per delivery attempt on standard output; `false` (and the msw handlers' default) is silent.
   */
  log?: SandboxLogger | false | undefined;
}

/** The keys of {@link SandboxBehaviourOptions}: every sandbox entry knows them. */
export const SANDBOX_BEHAVIOUR_OPTIONS: OptionNames<SandboxBehaviourOptions> = {
  callbackDelayMs: true,
  walletBalance: true,
  payoutFee: true,
  deliveryRetries: true,
  retryDelayMs: true,
  deliveryTimeoutMs: true,
  duplicateDeliveries: true,
  mobileMoneyBrand: true,
  failureRate: true,
  cardPaymentMethod: true,
  random: true,
  log: true,
};

/** A checkout session behind its hosted page. */
export interface CheckoutSession extends CheckoutSessionView {
  state: 'open' | 'paid' | 'failed';
  readonly successUrl: string;
  readonly failedUrl: string;
  readonly callbackUrl: string;
}

/** What the routes share. */
export interface SandboxState {
  readonly brand: string;
  readonly payoutFee: number;
  /** Upper-cased `cardPaymentMethod`. */
  readonly cardMethod: string;
  /** Origin (and path prefix) of `checkout_link`; undefined: the request's origin. */
  readonly publicUrl: string | undefined;
  /** The path prefix of `publicUrl`, which the page's form posts back under. */
  readonly pathPrefix: string;
  walletBalance: number;
  readonly sessions: Map<string, CheckoutSession>;
  /** `reference_id` of every payout answered 200, in order; see {@link MAX_PAYOUT_REFERENCES}. */
  readonly payoutReferences: Set<string>;
  readonly queue: DeliveryQueue;
  /** `outcome`, or a failure with `responseStatus` drawn at `failureRate` (never for a dropped callback). */
  withFailureRate(outcome: PaymentOutcome, responseStatus: number): PaymentOutcome;
  /**
   * Sends the callback of `outcome`, or records it as dropped when its test value says so.
   * `reference` is the request's reference, which names the callback when its URL has no `hp_ref`.
   */
  deliver(
    outcome: PaymentOutcome,
    type: CallbackEventType,
    url: string,
    payload: CallbackPayload,
    reference: string,
  ): void;
  readonly log: SandboxLogger | undefined;
  /**
   * Keeps the credentials of a request's headers (the API key of `Authorization: Bearer …`) of 8
   * characters or more, which the delivery log and report never show, whatever a route answers.
   */
  rememberCredentials(headers: Readonly<Record<string, string>>): void;
}

/** The most credentials remembered; the oldest go first. */
export const MAX_CREDENTIALS = 100;

/** The shortest credential remembered (and so redacted): 8 characters. */
const MIN_CREDENTIAL_LENGTH = 8;

/** The most checkout sessions kept; the oldest go first. */
export const MAX_SESSIONS = 10_000;

/** The most payout references remembered as used; the oldest go first. */
export const MAX_PAYOUT_REFERENCES = 100_000;

/**
 * Builds the state of a new sandbox from its options, after checking the value of each (a
 * `TypeError` or `RangeError` naming the option and `where`, the entry the merchant called).
 */
export function createSandboxState(
  options: SandboxBehaviourOptions & { publicUrl?: string; transport?: CallbackTransport },
  where: string,
): SandboxState {
  checkSandboxOptionValues(where, options as Readonly<Record<string, unknown>>);
  const failureRate = options.failureRate ?? 0;
  const random = options.random ?? Math.random;
  const log =
    options.log === false || options.log === undefined ? undefined : maskingCardNumbers(options.log);
  const publicUrl = options.publicUrl?.replace(/\/+$/, '');
  // The credentials received, most recent last: a client sends one key, so this stays small.
  const credentials = new Set<string>();
  const duplicates =
    options.duplicateDeliveries === true ? 1 : options.duplicateDeliveries ? options.duplicateDeliveries : 0;
  const queue = createDeliveryQueue({
    delayMs: options.callbackDelayMs ?? 200,
    retries: options.deliveryRetries ?? 5,
    retryDelayMs: options.retryDelayMs ?? 500,
    attemptTimeoutMs: options.deliveryTimeoutMs ?? 10_000,
    duplicates,
    transport: options.transport,
    log,
    credentials: () => [...credentials],
  });
  return {
    brand: options.mobileMoneyBrand ?? DEFAULT_MOBILE_MONEY_BRAND,
    payoutFee: options.payoutFee ?? sandboxTestValues.payoutFee,
    cardMethod: (options.cardPaymentMethod ?? 'CARD').toUpperCase(),
    publicUrl,
    pathPrefix: publicUrl ? new URL(publicUrl).pathname.replace(/\/+$/, '') : '',
    walletBalance: options.walletBalance ?? sandboxTestValues.walletBalance,
    sessions: new Map(),
    payoutReferences: new Set(),
    queue,
    log,
    rememberCredentials: (headers) => {
      for (const value of credentialValuesOf(headers)) {
        // A key this short is a test's placeholder, no secret: kept out of every `sig` or `test`
        // in the log, it would hide a route's own words (`invalid_signature`).
        if (value.length < MIN_CREDENTIAL_LENGTH) continue;
        credentials.delete(value);
        credentials.add(value);
        if (credentials.size > MAX_CREDENTIALS) credentials.delete(credentials.values().next().value!);
      }
    },
    // The test phone's promise (accepted, never a callback) holds at any failure rate: a
    // merchant testing stale-payment tracking must not get a failure callback for it.
    withFailureRate: (outcome, responseStatus) =>
      outcome.ok && !outcome.dropCallback && failureRate > 0 && random() < failureRate
        ? { ok: false, reason: INSUFFICIENT_FUNDS_MESSAGE, responseStatus }
        : outcome,
    deliver: (outcome, type, url, payload, reference) => {
      if (outcome.dropCallback) {
        const because = `test phone ${sandboxTestValues.phones.noCallback} never gets a callback`;
        queue.drop(type, url, payload, because, reference);
      } else {
        queue.enqueue(type, url, payload, reference);
      }
    },
  };
}
