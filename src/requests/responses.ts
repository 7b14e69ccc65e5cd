// Initiation responses (spec §2.8). Extra keys a provider adds are kept (loose objects); the
// documented keys must have the documented types, and a message the documented text: a 200 with
// another message is not a reply the service describes as "initiated".
import * as z from 'zod/v4/mini';
import { expecting, httpUrlWire, int } from './fields.js';

/** `message` of a reply: exactly the documented text (`pattern` matches it). */
const initiatedMessage = (pattern: RegExp, text: string) =>
  z.string().check(z.regex(pattern, { error: `expected ${text}` }));

/** `status` of a reply that says "initiated": the number 200. */
const status200 = z.literal(200, { error: expecting('expected 200') });

/**
 * Endpoint 1 reply: `{ message: 'Card Payment Initiated', status: 200 }`.
 *
 * @example
 * ```ts
 * cardPaymentResponseSchema.parse({ message: 'Card Payment Initiated', status: 200 });
 * ```
 */
export const cardPaymentResponseSchema = z.looseObject({
  message: initiatedMessage(/^Card Payment Initiated$/, "'Card Payment Initiated'"),
  status: status200,
});
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
 * the service's brand word (M-PESA or another): any non-blank words are taken before
 * ` Payment Initiated`, so parsing never depends on the client's `mobileMoneyBrand` — except a
 * brand holding `card` anywhere, in any case (`Card`, `VISA Card`, `Mastercard`): the service
 * shares the path and took the request for a card payment, so no prompt reached the phone.
 *
 * @example
 * ```ts
 * mobileMoneyPaymentResponseSchema.parse({ message: 'M-PESA Payment Initiated', status: 200 });
 * ```
 */
export const mobileMoneyPaymentResponseSchema = z.looseObject({
  message: initiatedMessage(
    /^(?!.*[Cc][Aa][Rr][Dd])\S(?:.*\S)? Payment Initiated$/,
    "'<brand> Payment Initiated' (not the card reply)",
  ),
  status: status200,
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
  order_id: z.union([z.string(), z.pipe(int(), z.transform(String))], {
    error: expecting('expected the order_id sent'),
  }),
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
export const payoutResponseSchema = z.looseObject({
  message: initiatedMessage(/^Mobile Payout Initiated$/, "'Mobile Payout Initiated'"),
  status: status200,
});
/**
 * Reply of `initiatePayout`.
 *
 * @example
 * ```ts
 * const reply: PayoutResponse = await client.initiatePayout(input);
 * ```
 */
export type PayoutResponse = z.output<typeof payoutResponseSchema>;
