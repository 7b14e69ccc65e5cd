// Initiation responses (spec §2.8). Extra keys a provider adds are kept (loose objects); the
// documented keys must have the documented types, and a message the documented text: a 200 with
// another message is not a reply the service describes as "initiated" (for mobile money, a brand
// part that is no brand word, nor a word the client named the brand by).
import * as z from 'zod/v4/mini';
import { notSuccessWord } from '../internal/failure-words.js';
import { asciiLower } from '../internal/values.js';
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

/** The longest brand part a mobile-money reply is taken with when the client has no `mobileMoneyBrand`. */
const MAX_BRAND_LENGTH = 32;

/**
 * A brand word (`M-PESA`, `Airtel Money`, `MTN MoMo`): ASCII letters and digits, a letter among
 * them, in runs joined by one space or one hyphen.
 */
const BRAND_WORD = /^(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*$/;

const EXPECTED_BRAND_REPLY = "expected '<brand> Payment Initiated'";

/**
 * What is wrong with the `message` of a mobile-money reply, or `undefined` when it is
 * `<brand> Payment Initiated` (spec §2.8) with, as `<brand>`:
 *
 * - one of `words` (the client's `mobileMoneyBrand`, the `payment_method` the call sent), ASCII
 *   letter case ignored (`M-Pesa` is `M-PESA`; no Unicode case folding, no blanks trimmed), as the
 *   callback handler compares a currency or the `CARD` method word, whatever characters it holds;
 * - or a brand word (letters and digits joined by single spaces or hyphens, at most 32
 *   characters) that does not read as a failure, a negation or `false`, as a success callback's
 *   message may not either ({@link notSuccessWord}): `No Payment Initiated`, `Failed: Payment Initiated` or
 *   `Duplicate request - no Payment Initiated` does not say a prompt reached the phone.
 *
 * Either way a brand holding `card` anywhere, in any case (`Card`, `VISA Card`, `Mastercard`), is
 * refused: the service shares the path and took the request for a card payment, so no prompt
 * reached the phone. Messages never quote the reply or the brand.
 */
export function mobileMoneyMessageProblem(
  message: string,
  words: readonly string[] = [],
): string | undefined {
  // `.` stops at a line break: a message of two lines is refused here.
  const part = /^(.*) Payment Initiated$/.exec(message)?.[1];
  if (part === undefined) return EXPECTED_BRAND_REPLY;
  if (/[Cc][Aa][Rr][Dd]/.test(part)) {
    return `${EXPECTED_BRAND_REPLY}, not the card reply (a brand holding "card": the service took the request for a card payment)`;
  }
  if (words.some((word) => asciiLower(part) === asciiLower(word))) return undefined;
  if (part.length > MAX_BRAND_LENGTH || !BRAND_WORD.test(part)) {
    return `${EXPECTED_BRAND_REPLY} with a brand word as <brand>: ASCII letters and digits joined by single spaces or hyphens, at most ${MAX_BRAND_LENGTH} characters`;
  }
  if (notSuccessWord(part) !== undefined) {
    return `${EXPECTED_BRAND_REPLY} with a brand word as <brand>, not words that read as a failure or a negation`;
  }
  return undefined;
}

/**
 * The schema of a mobile-money reply whose brand part is a brand word or one of `words` (ASCII
 * letter case ignored): see {@link mobileMoneyMessageProblem}. The client builds one per call with
 * its `mobileMoneyBrand` and the `payment_method` sent, which only widen what it takes: the
 * service's brand word varies, and a reply naming another brand still says a prompt reached the
 * phone.
 */
export const mobileMoneyPaymentResponseSchemaFor = (words: readonly string[] = []) =>
  z.looseObject({
    message: z.string().check(
      z.refine((message) => mobileMoneyMessageProblem(message, words) === undefined, {
        error: (issue) => mobileMoneyMessageProblem(issue.input as string, words),
        params: { code: 'invalid_format' },
      }),
    ),
    status: status200,
  });

/**
 * Endpoint 2 reply: `{ message: '<BRAND> Payment Initiated', status: 200 }`. The message carries
 * the service's brand word (M-PESA or another). This schema knows no client's `mobileMoneyBrand`,
 * so it takes any brand word: ASCII letters and digits joined by single spaces or hyphens, at most
 * 32 characters, none of them a failure's or a negation's (`No`, `Failed`, `Duplicate`, `not`) and
 * none holding `card` in any case (`Card`, `VISA Card`, `Mastercard`: the service shares the path
 * and took the request for a card payment, so no prompt reached the phone). A client with
 * `mobileMoneyBrand` also takes that word as it is (ASCII letter case ignored), brand word or not,
 * and so does a call the `payment_method` it sent.
 *
 * @example
 * ```ts
 * mobileMoneyPaymentResponseSchema.parse({ message: 'M-PESA Payment Initiated', status: 200 });
 * ```
 */
export const mobileMoneyPaymentResponseSchema = mobileMoneyPaymentResponseSchemaFor();
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
