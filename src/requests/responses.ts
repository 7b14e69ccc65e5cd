// Initiation responses (spec §2.8). Extra keys a provider adds are kept (loose objects); the
// documented keys must have the documented types.
import * as z from 'zod/mini';
import { httpUrlWire } from './fields.js';

/**
 * Endpoint 1 reply: `{ message: 'Card Payment Initiated', status: 200 }`.
 *
 * @example
 * ```ts
 * cardPaymentResponseSchema.parse({ message: 'Card Payment Initiated', status: 200 });
 * ```
 */
export const cardPaymentResponseSchema = z.looseObject({ message: z.string(), status: z.literal(200) });
/**
 * Reply of `initiateCardPayment`.
 *
 * @example
 * ```ts
 * const reply: CardPaymentResponse = await client.initiateCardPayment(input);
 * ```
 */
export type CardPaymentResponse = z.output<typeof cardPaymentResponseSchema>;

/**
 * Endpoint 2 reply: `{ message: '<BRAND> Payment Initiated', status: 200 }`. The message carries
 * the brand word (M-PESA or another), so it is not checked: parsing never depends on the brand.
 *
 * @example
 * ```ts
 * mobileMoneyPaymentResponseSchema.parse({ message: 'M-PESA Payment Initiated', status: 200 });
 * ```
 */
export const mobileMoneyPaymentResponseSchema = z.looseObject({
  message: z.string(),
  status: z.literal(200),
});
/**
 * Reply of `initiateMobileMoneyPayment`.
 *
 * @example
 * ```ts
 * const { message }: MobileMoneyPaymentResponse = await client.initiateMobileMoneyPayment(input);
 * ```
 */
export type MobileMoneyPaymentResponse = z.output<typeof mobileMoneyPaymentResponseSchema>;

/**
 * Endpoint 3 reply: `{ checkout_link, status, order_id }`. `order_id` is documented
 * as a string echo; a number is tolerated and turned into its string. `status: false` passes
 * this schema; `createCheckoutSession` refuses it (no session was created).
 *
 * @example
 * ```ts
 * const { checkout_link } = checkoutSessionResponseSchema.parse(json);
 * ```
 */
export const checkoutSessionResponseSchema = z.looseObject({
  checkout_link: httpUrlWire,
  status: z.boolean(),
  order_id: z.union([z.string(), z.pipe(z.int(), z.transform(String))]),
});
/**
 * Reply of `createCheckoutSession`.
 *
 * @example
 * ```ts
 * const { checkout_link }: CheckoutSessionResponse = await client.createCheckoutSession(input);
 * ```
 */
export type CheckoutSessionResponse = z.output<typeof checkoutSessionResponseSchema>;

/**
 * Endpoint 4 reply: `{ message: 'Mobile Payout Initiated', status: 200 }`.
 *
 * @example
 * ```ts
 * payoutResponseSchema.parse({ message: 'Mobile Payout Initiated', status: 200 });
 * ```
 */
export const payoutResponseSchema = z.looseObject({ message: z.string(), status: z.literal(200) });
/**
 * Reply of `initiatePayout`.
 *
 * @example
 * ```ts
 * const reply: PayoutResponse = await client.initiatePayout(input);
 * ```
 */
export type PayoutResponse = z.output<typeof payoutResponseSchema>;
