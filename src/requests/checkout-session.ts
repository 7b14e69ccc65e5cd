// Endpoint 3 (spec §4): hosted redirect checkout session. Wire schema, input type and builder.
import * as z from 'zod/v4/mini';
import { parseOrThrow } from '../internal/issues.js';
import { httpUrlInput, httpUrlWire } from './fields.js';
import {
  checkoutAmountInput,
  checkoutAmountWire,
  checkoutCustomerInput,
  checkoutCustomerWire,
  compact,
  refuseSignedForAnother,
} from './shared.js';

/**
 * Wire body of endpoint 3: customer_details without payment_method, amount with order_id, and
 * redirect_urls. `amount` (with `order_id` and `total`) and the e-mail are required here: the
 * hosted page needs them to show the order.
 *
 * @example
 * ```ts
 * checkoutSessionRequestSchema.parse(body);
 * ```
 */
export const checkoutSessionRequestSchema = z.strictObject({
  customer_details: checkoutCustomerWire,
  amount: checkoutAmountWire,
  redirect_urls: z.strictObject({
    success_url: httpUrlWire,
    failed_url: httpUrlWire,
    callback_url: httpUrlWire,
  }),
});

/**
 * The wire body of a checkout session, as {@link buildCheckoutSessionRequest} returns it.
 *
 * @example
 * ```ts
 * const body: CheckoutSessionRequest = buildCheckoutSessionRequest(input);
 * ```
 */
export type CheckoutSessionRequest = z.output<typeof checkoutSessionRequestSchema>;

/**
 * Input schema of endpoint 3: what {@link buildCheckoutSessionRequest} and
 * `createCheckoutSession` accept (friendly values, normalised on parse). Use the builder for the
 * exact wire body.
 *
 * @example
 * ```ts
 * const result = checkoutSessionInputSchema.safeParse(input);
 * ```
 */
export const checkoutSessionInputSchema = z.strictObject({
  customer_details: checkoutCustomerInput,
  amount: checkoutAmountInput,
  redirect_urls: z.strictObject({
    success_url: httpUrlInput,
    failed_url: httpUrlInput,
    callback_url: httpUrlInput,
  }),
});

/**
 * What `createCheckoutSession` / `buildCheckoutSessionRequest` accept.
 *
 * @example
 * ```ts
 * const input: CheckoutSessionInput = {
 *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
 *   amount: { order_id: 1003, delivery_fee: 100, discount_fee: 50, total: 2500, currency: 'KES' },
 *   redirect_urls: { success_url: 'https://shop.example/paid', failed_url: 'https://shop.example/failed', callback_url: 'https://shop.example/hooks' },
 * };
 * ```
 */
export type CheckoutSessionInput = z.input<typeof checkoutSessionInputSchema>;

/**
 * Turns a friendly checkout input into the exact wire body of endpoint 3. Pure: sends nothing.
 *
 * @throws {@link ValidationError} listing every issue with its path.
 *
 * @example
 * ```ts
 * const body = buildCheckoutSessionRequest({
 *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
 *   amount: { order_id: 1003, delivery_fee: 100, discount_fee: 50, total: 2500, currency: 'KES' },
 *   redirect_urls: {
 *     success_url: 'https://shop.example/paid',
 *     failed_url: 'https://shop.example/failed',
 *     callback_url: 'https://shop.example/hooks/payments',
 *   },
 * });
 * ```
 */
export function buildCheckoutSessionRequest(input: CheckoutSessionInput): CheckoutSessionRequest {
  const parsed = parseOrThrow(checkoutSessionInputSchema, input, {
    prefix: 'Invalid checkout session',
    hints: {
      payment_method:
        'a redirect checkout has no payment_method: the customer picks card or mobile money on the hosted page',
    },
  });
  refuseSignedForAnother(
    parsed.redirect_urls.callback_url,
    parsed.amount.order_id,
    [
      ['redirect_urls', 'callback_url'],
      ['amount', 'order_id'],
    ],
    'Invalid checkout session',
  );
  const customer = parsed.customer_details;
  return {
    customer_details: compact({
      full_name: customer.full_name,
      location: customer.location,
      phone_number: customer.phone_number,
      email: customer.email,
    }),
    amount: { ...parsed.amount },
    redirect_urls: { ...parsed.redirect_urls },
  };
}
