/**
 * The eight callback payloads the service sends, one zod schema each, with its keys exactly
 * (spaces included) and the documented value types. Unknown extra keys are kept
 * (`z.looseObject`): providers add fields.
 *
 * These schemas are strict about types (and `currency` is three ASCII letters): they describe
 * what the service documents, and they are the only description of each payload in the SDK.
 * `parseCallback` checks a payload with its variant's schema (the variant chosen by `verdict.ts`)
 * and is tolerant only where zod reports a value of another JSON type it can convert losslessly —
 * a number where a numeric string is documented (and vice versa), a boolean for
 * `'True'`/`'False'` — listing each conversion in `event.warnings`; the `data` it returns always
 * passes the strict schema of its variant.
 *
 * @module
 */
// zod's mini, not the classic 'zod' entry: the same zod v4 schemas (`.parse`, `.safeParse`,
// `z.infer`, usable inside classic schemas), but they tree-shake — classic zod alone is larger
// than the whole ./callbacks size budget. Through 'zod/v4/mini', the path zod 4 keeps for good and
// zod 3.25 ships zod 4 under, so a merchant on either major can install the package.
import * as z from 'zod/v4/mini';

/**
 * A JSON number that is a safe integer, refused as `z.int()` refuses a fraction (`invalid_type`,
 * expected `int`). A plain check, not `z.int()`: that pulls zod's number formats and their
 * ranges into the `./callbacks` bundle for the one format used here.
 */
export const integer = z.number().check(
  z.check((ctx) => {
    if (!Number.isSafeInteger(ctx.value))
      ctx.issues.push({ code: 'invalid_type', expected: 'int', input: ctx.value });
  }),
);

/**
 * A currency code: three ASCII letters, either case (`KES`, `kes`), as the request builders
 * accept it. Anything else — empty, `KE`, `K S`, `404`, `ＫＥＳ` — is refused (`invalid_format`).
 */
const currency = z.string().check(
  z.check((ctx) => {
    if (!/^[A-Za-z]{3}$/.test(ctx.value))
      ctx.issues.push({ code: 'invalid_format', format: 'currency', input: ctx.value });
  }),
);

/**
 * The merchant's reference (`order_id`, `reference_id`, `transaction_reference`): a string with
 * something in it. Empty or blank names no order, and is refused (`invalid_format`).
 */
const reference = z.string().check(
  z.check((ctx) => {
    if (!/\S/.test(ctx.value))
      ctx.issues.push({ code: 'invalid_format', format: 'reference', input: ctx.value });
  }),
);

/** `paid` is the string `'True'` or `'False'` never a JSON boolean. */
const paidFlag = z.enum(['True', 'False']);

/**
 * Card payment, success. Keys with spaces: `'payment method'`, `'amount captured'`,
 * `'payment status'`, `'transaction id'`.
 *
 * @example
 * ```ts
 * const result = cardPaymentSuccessCallbackSchema.safeParse(payload);
 * if (result.success) console.log(result.data['amount captured']);
 * ```
 */
export const cardPaymentSuccessCallbackSchema = z.looseObject({
  id: z.string(),
  status: integer,
  'payment method': z.string(),
  message: z.string(),
  amount: z.string(),
  currency,
  'amount captured': z.string(),
  'payment status': z.string(),
  'transaction id': z.string(),
  paid: paidFlag,
  timestamp: integer,
});

/**
 * Card payment, failure: the success keys without `'amount captured'`; message
 * `CARD Payment Failed`, `'payment status'` `Payment incomplete.`, `paid` `'False'`.
 *
 * @example
 * ```ts
 * if (cardPaymentFailureCallbackSchema.safeParse(payload).success) markFailed(payload);
 * ```
 */
export const cardPaymentFailureCallbackSchema = z.looseObject({
  id: z.string(),
  status: integer,
  'payment method': z.string(),
  message: z.string(),
  amount: z.string(),
  currency,
  'payment status': z.string(),
  'transaction id': z.string(),
  paid: paidFlag,
  timestamp: integer,
});

/**
 * Mobile-money payment, success. Snake-case keys, except `'transaction id'`, which
 * has a space; `amount` and `amount_captured` are JSON numbers.
 *
 * @example
 * ```ts
 * const data = mobileMoneyPaymentSuccessCallbackSchema.parse(payload);
 * console.log(data['transaction id'], data.amount_captured);
 * ```
 */
export const mobileMoneyPaymentSuccessCallbackSchema = z.looseObject({
  id: z.string(),
  response_status: integer,
  payment_method: z.string(),
  message: z.string(),
  amount: z.number(),
  amount_captured: z.number(),
  payment_status: z.string(),
  'transaction id': z.string(),
  paid: paidFlag,
  timestamp: integer,
});

/**
 * Mobile-money payment, failure: carries the merchant's `transaction_reference`, a
 * failure code in `response_status` (406 for insufficient funds) and `'payment status'` with a
 * space (`Payment Incomplete.`); `message` is free text.
 *
 * @example
 * ```ts
 * const data = mobileMoneyPaymentFailureCallbackSchema.parse(payload);
 * console.log(data.transaction_reference, data.response_status);
 * ```
 */
export const mobileMoneyPaymentFailureCallbackSchema = z.looseObject({
  id: z.string(),
  transaction_reference: reference,
  response_status: integer,
  amount: z.number(),
  paid: paidFlag,
  'payment status': z.string(),
  message: z.string(),
  timestamp: integer,
});

const checkoutShape = {
  payment_method: z.string(),
  paid: paidFlag,
  response_status: integer,
  order_id: reference,
  message: z.string(),
  amount: z.string(),
  payment_status: z.string(),
};

/**
 * Redirect checkout, success, for card or mobile-money. `paid` may be `'False'`
 * here: the described card success carries `paid: 'False'` with `payment_status`
 * `Payment complete.` (see `onContradiction`).
 *
 * @example
 * ```ts
 * const data = checkoutSuccessCallbackSchema.parse(payload);
 * console.log(data.order_id, data.payment_method);
 * ```
 */
export const checkoutSuccessCallbackSchema = z.looseObject(checkoutShape);

/**
 * Redirect checkout, failure: the same keys as the success, `payment_status`
 * `Payment Incomplete.` and a reason such as `Insufficient funds` in `message`.
 *
 * @example
 * ```ts
 * const data = checkoutFailureCallbackSchema.parse(payload);
 * console.log(data.order_id, data.message);
 * ```
 */
export const checkoutFailureCallbackSchema = z.looseObject(checkoutShape);

/**
 * Payout, success. Every value is a string; `payout_fee` is required.
 *
 * @example
 * ```ts
 * const data = payoutSuccessCallbackSchema.parse(payload);
 * console.log(data.reference_id, data.payout_fee, data.wallet_balance);
 * ```
 */
export const payoutSuccessCallbackSchema = z.looseObject({
  amount: z.string(),
  currency,
  message: z.string(),
  payout_fee: z.string(),
  reference_id: reference,
  // A one-word enum rather than z.literal: the same rule and issue (invalid_value, its values),
  // without zod's literal schema in the bundle.
  status: z.enum(['Success']),
  transaction_id: z.string(),
  wallet_balance: z.string(),
});

/**
 * Payout, failure: the success keys without `payout_fee`, `status` `'Failed'`.
 *
 * @example
 * ```ts
 * const data = payoutFailureCallbackSchema.parse(payload);
 * console.log(data.reference_id, data.message);
 * ```
 */
export const payoutFailureCallbackSchema = z.looseObject({
  amount: z.string(),
  currency,
  message: z.string(),
  reference_id: reference,
  status: z.enum(['Failed']),
  transaction_id: z.string(),
  wallet_balance: z.string(),
});

/**
 * Card payment success payload, as the service posts it: `event.data` of a `payment.card.succeeded` event.
 *
 * @example
 * ```ts
 * if (event.type === 'payment.card.succeeded') {
 *   const payload: CardPaymentSuccessCallback = event.data;
 *   console.log(payload['amount captured']);
 * }
 * ```
 */
export type CardPaymentSuccessCallback = z.output<typeof cardPaymentSuccessCallbackSchema>;

/**
 * Card payment failure payload, as the service posts it: `event.data` of a `payment.card.failed` event.
 *
 * @example
 * ```ts
 * if (event.type === 'payment.card.failed') {
 *   const payload: CardPaymentFailureCallback = event.data;
 *   console.log(payload['payment status']);
 * }
 * ```
 */
export type CardPaymentFailureCallback = z.output<typeof cardPaymentFailureCallbackSchema>;

/**
 * Mobile-money payment success payload, as the service posts it: `event.data` of a `payment.mobile_money.succeeded` event.
 *
 * @example
 * ```ts
 * if (event.type === 'payment.mobile_money.succeeded') {
 *   const payload: MobileMoneyPaymentSuccessCallback = event.data;
 *   console.log(payload.amount_captured);
 * }
 * ```
 */
export type MobileMoneyPaymentSuccessCallback = z.output<typeof mobileMoneyPaymentSuccessCallbackSchema>;

/**
 * Mobile-money payment failure payload, as the service posts it: `event.data` of a `payment.mobile_money.failed` event.
 *
 * @example
 * ```ts
 * if (event.type === 'payment.mobile_money.failed') {
 *   const payload: MobileMoneyPaymentFailureCallback = event.data;
 *   console.log(payload.transaction_reference, payload.response_status);
 * }
 * ```
 */
export type MobileMoneyPaymentFailureCallback = z.output<typeof mobileMoneyPaymentFailureCallbackSchema>;

/**
 * Redirect checkout success payload, as the service posts it: `event.data` of a `checkout.succeeded` event.
 *
 * @example
 * ```ts
 * if (event.type === 'checkout.succeeded') {
 *   const payload: CheckoutSuccessCallback = event.data;
 *   console.log(payload.order_id, payload.payment_method);
 * }
 * ```
 */
export type CheckoutSuccessCallback = z.output<typeof checkoutSuccessCallbackSchema>;

/**
 * Redirect checkout failure payload, as the service posts it: `event.data` of a `checkout.failed` event.
 *
 * @example
 * ```ts
 * if (event.type === 'checkout.failed') {
 *   const payload: CheckoutFailureCallback = event.data;
 *   console.log(payload.order_id, payload.message);
 * }
 * ```
 */
export type CheckoutFailureCallback = z.output<typeof checkoutFailureCallbackSchema>;

/**
 * Payout success payload, as the service posts it: `event.data` of a `payout.succeeded` event.
 *
 * @example
 * ```ts
 * if (event.type === 'payout.succeeded') {
 *   const payload: PayoutSuccessCallback = event.data;
 *   console.log(payload.reference_id, payload.payout_fee);
 * }
 * ```
 */
export type PayoutSuccessCallback = z.output<typeof payoutSuccessCallbackSchema>;

/**
 * Payout failure payload, as the service posts it: `event.data` of a `payout.failed` event.
 *
 * @example
 * ```ts
 * if (event.type === 'payout.failed') {
 *   const payload: PayoutFailureCallback = event.data;
 *   console.log(payload.reference_id, payload.wallet_balance);
 * }
 * ```
 */
export type PayoutFailureCallback = z.output<typeof payoutFailureCallbackSchema>;

/**
 * Every callback payload schema, by the event type it becomes.
 *
 * @example
 * ```ts
 * const ok = callbackSchemas[event.type].safeParse(event.data).success; // always true
 * ```
 */
export const callbackSchemas = {
  'payment.card.succeeded': cardPaymentSuccessCallbackSchema,
  'payment.card.failed': cardPaymentFailureCallbackSchema,
  'payment.mobile_money.succeeded': mobileMoneyPaymentSuccessCallbackSchema,
  'payment.mobile_money.failed': mobileMoneyPaymentFailureCallbackSchema,
  'checkout.succeeded': checkoutSuccessCallbackSchema,
  'checkout.failed': checkoutFailureCallbackSchema,
  'payout.succeeded': payoutSuccessCallbackSchema,
  'payout.failed': payoutFailureCallbackSchema,
} as const;

/**
 * Any one of the eight callback payloads.
 *
 * @example
 * ```ts
 * function store(payload: CallbackPayload) { db.insert(JSON.stringify(payload)); }
 * ```
 */
export type CallbackPayload = z.output<(typeof callbackSchemas)[keyof typeof callbackSchemas]>;
