/**
 * Paying a hosted checkout from a script: the requests a customer's browser makes on the page.
 *
 * @module
 */

import type { PaymentMethodKind } from '../callbacks/events.js';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import { rootCause } from '../internal/root-cause.js';
import { checkPhoneNumber } from '../validation/phone.js';
import { decideMobileMoneyPayment, sandboxTestValues } from './outcomes.js';

/**
 * The header of the checkout page's answers saying the state of its session (`open`, `paid` or
 * `failed`); browsers ignore it.
 */
export const CHECKOUT_STATE_HEADER = 'x-sandbox-checkout-state';

/**
 * How {@link completeCheckout} pays: the method picked on the page and whether the payment goes
 * through (`'failure'` pays with the declined card or the insufficient-funds phone). `phoneNumber`
 * overrides the test phone, e.g. `sandboxTestValues.phones.noCallback`.
 *
 * @example
 * ```ts
 * import type { CompleteCheckoutOptions } from 'hosted-payments/sandbox';
 *
 * const options: CompleteCheckoutOptions = { method: 'mobile_money', outcome: 'failure' };
 * ```
 */
export interface CompleteCheckoutOptions {
  readonly method: PaymentMethodKind;
  /** Default `'success'`. */
  readonly outcome?: 'success' | 'failure' | undefined;
  /** The phone typed on the page (mobile-money only); default the test phone for `outcome`. */
  readonly phoneNumber?: string | undefined;
}

/** The options {@link completeCheckout} knows; any other key is refused. */
const COMPLETE_OPTIONS: OptionNames<CompleteCheckoutOptions> = {
  method: true,
  outcome: true,
  phoneNumber: true,
};

/**
 * What the page answered to the submitted form.
 *
 * @example
 * ```ts
 * import type { CheckoutCompletion } from 'hosted-payments/sandbox';
 *
 * const done: CheckoutCompletion = { paid: true, redirectedTo: 'https://shop.example/thanks' };
 * ```
 */
export interface CheckoutCompletion {
  /**
   * True when the page sent the customer to `success_url`: what the customer saw, not a callback
   * (the test phone `254700000000` pays with no callback). Settle orders from their callbacks.
   */
  readonly paid: boolean;
  /** The `success_url` or `failed_url` the page redirected to. */
  readonly redirectedTo: string;
}

/**
 * Throws a `TypeError` naming a `method` or `outcome` that is not one of its words, a
 * `phoneNumber` given with the card method (the card form has no phone to type it into), or
 * `outcome: 'failure'` with a phone whose payment succeeds.
 */
function checkCompleteOptions(options: CompleteCheckoutOptions): void {
  const { method, outcome, phoneNumber } = (options ?? {}) as Partial<CompleteCheckoutOptions>;
  if (method !== 'card' && method !== 'mobile_money') {
    throw new TypeError(`completeCheckout: method must be 'card' or 'mobile_money', got ${shown(method)}`);
  }
  if (outcome !== undefined && outcome !== 'success' && outcome !== 'failure') {
    throw new TypeError(
      `completeCheckout: outcome must be 'success' or 'failure' (default 'success'), got ${shown(outcome)}`,
    );
  }
  // The phone typed decides the payment: a failure asked for with a phone that pays would pass.
  if (outcome === 'failure' && typeof phoneNumber === 'string' && method === 'mobile_money') {
    const phone = checkPhoneNumber(phoneNumber, 'payment');
    if (phone.ok && decideMobileMoneyPayment(phone.value).ok) {
      throw new TypeError(
        `completeCheckout: outcome 'failure' with a phoneNumber whose payment succeeds; leave phoneNumber out, or type ${sandboxTestValues.phones.insufficientFunds} (insufficient funds)`,
      );
    }
  }
  if (phoneNumber !== undefined && (method === 'card' || typeof phoneNumber !== 'string')) {
    throw new TypeError(
      method === 'card'
        ? "completeCheckout: phoneNumber is typed only with method 'mobile_money'; the card method pays with the test card"
        : 'completeCheckout: phoneNumber must be a string, e.g. sandboxTestValues.phones.noCallback',
    );
  }
}

const shown = (value: unknown): string =>
  typeof value === 'string'
    ? JSON.stringify(value.slice(0, 20))
    : value === undefined
      ? 'nothing'
      : typeof value;

function formFields(options: CompleteCheckoutOptions): Record<string, string> {
  const failure = options.outcome === 'failure';
  if (options.method === 'mobile_money') {
    const phone = failure ? sandboxTestValues.phones.insufficientFunds : sandboxTestValues.phones.success;
    return { method: 'mobile_money', phone_number: options.phoneNumber ?? phone, action: 'pay' };
  }
  return {
    method: 'card',
    card_number: failure ? sandboxTestValues.cards.declined : sandboxTestValues.cards.success,
    expiry_month: '12',
    expiry_year: String(new Date().getUTCFullYear() + 2),
    cvc: '123',
    action: 'pay',
  };
}

const alreadyCompleted = (checkoutLink: string, state: 'paid' | 'failed'): Error =>
  new Error(
    `Could not complete the checkout ${checkoutLink}: ${state === 'paid' ? 'it was already paid' : 'it has already failed'} (a checkout is completed once; create another session).`,
  );

const decodeAttribute = (value: string): string =>
  value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replaceAll('&amp;', '&');

/** The messages of the page's error summary (`Phone number: …`), as the customer reads them. */
const formErrors = (html: string): string[] => {
  const summary = /<div id="form-errors"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
  return [...summary.matchAll(/<li>([^<]*)<\/li>/g)].map((item) => decodeAttribute(item[1]!));
};

/**
 * `fetch`, with a failure to connect said in the merchant's words: which sandbox did not answer
 * (origin, system code and address), the fetch error kept as `cause`.
 */
async function reach(checkoutLink: string, url: string | URL, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      // An invalid URL: fetch's own TypeError says so.
      throw error;
    }
    const cause = rootCause(error, target);
    throw new Error(
      `Could not complete the checkout ${checkoutLink}: no sandbox is answering at ${target.origin}${cause === 'network error' ? '' : ` (${cause})`}; is it still running (a test's sandbox.close() ends it), and is this link from it?`,
      { cause: error },
    );
  }
}

/**
 * Pays a sandbox checkout link the way the customer's browser does: loads the page, reads its
 * form, and submits it with the card or phone test values (the same form post, not a shortcut),
 * so the sandbox sends the checkout callback and redirects to `success_url` or `failed_url`.
 * Rejects when the page is not found, was already paid, or refuses the form.
 *
 * @example
 * ```ts
 * import { PaymentsClient } from 'hosted-payments';
 * import { startSandbox } from 'hosted-payments/sandbox';
 *
 * const sandbox = await startSandbox();
 * const client = new PaymentsClient({ baseUrl: sandbox.url });
 * const session = await client.createCheckoutSession({
 *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
 *   amount: { order_id: 1001, delivery_fee: 100, discount_fee: 50, total: 2500, currency: 'KES' },
 *   redirect_urls: {
 *     success_url: 'https://shop.example/thanks',
 *     failed_url: 'https://shop.example/failed',
 *     callback_url: 'http://127.0.0.1:3000/webhooks/payments',
 *   },
 * });
 * const { paid } = await sandbox.completeCheckout(session.checkout_link, { method: 'card' }); // true
 * await sandbox.close();
 * ```
 */
export async function completeCheckout(
  checkoutLink: string,
  options: CompleteCheckoutOptions,
): Promise<CheckoutCompletion> {
  if (
    typeof checkoutLink !== 'string' ||
    !URL.canParse(checkoutLink) ||
    !/^https?:$/.test(new URL(checkoutLink).protocol)
  ) {
    throw new TypeError(
      `completeCheckout: pass the checkout_link a session returned (an absolute http(s) URL), got ${shown(checkoutLink)}`,
    );
  }
  refuseUnknownOptions('completeCheckout', options, COMPLETE_OPTIONS);
  checkCompleteOptions(options);
  const page = await reach(checkoutLink, checkoutLink);
  const html = await page.text();
  const pageState = page.headers.get(CHECKOUT_STATE_HEADER);
  if (page.status === 404 && new URL(checkoutLink).pathname.endsWith('/')) {
    throw new Error(
      `Could not complete the checkout ${checkoutLink}: no checkout link ends with '/'; pass checkout_link as the session gave it.`,
    );
  }
  if (page.status === 404) {
    throw new Error(
      `Could not complete the checkout ${checkoutLink}: the sandbox does not know this link (404); a sandbox forgets its sessions when it restarts.`,
    );
  }
  if (!page.ok)
    throw new Error(`Could not complete the checkout ${checkoutLink}: its page answered ${page.status}.`);
  if (pageState === 'paid' || pageState === 'failed') throw alreadyCompleted(checkoutLink, pageState);
  const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1];
  if (pageState === null || action === undefined) {
    throw new Error(
      `Could not complete the checkout ${checkoutLink}: it is not a sandbox checkout page (pass the checkout_link of a session).`,
    );
  }
  const submitted = await reach(checkoutLink, new URL(decodeAttribute(action), checkoutLink), {
    method: 'POST',
    body: new URLSearchParams(formFields(options)),
    redirect: 'manual',
  });
  const answer = await submitted.text();
  const location = submitted.headers.get('location');
  if (submitted.status !== 303 || location === null) {
    const state = submitted.headers.get(CHECKOUT_STATE_HEADER);
    if (state === 'paid' || state === 'failed') throw alreadyCompleted(checkoutLink, state);
    const errors = formErrors(answer);
    throw new Error(
      errors.length > 0
        ? `Could not complete the checkout ${checkoutLink}: the page refused the form (${submitted.status}): ${errors.join(' ')}`
        : `Could not complete the checkout ${checkoutLink}: the form answered ${submitted.status}.`,
    );
  }
  const redirectedTo = new URL(location, checkoutLink).href;
  return { paid: submitted.headers.get(CHECKOUT_STATE_HEADER) === 'paid', redirectedTo };
}
