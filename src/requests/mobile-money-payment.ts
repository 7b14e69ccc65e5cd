// Endpoint 2 (spec §4): mobile-money (STK push) payment. Wire schema, input type and builder.
import * as z from 'zod/v4/mini';
import { ValidationError } from '../errors.js';
import { parseOrThrow } from '../internal/issues.js';
import { isMethodWord, MOBILE_MONEY_METHOD_RULE } from '../validation/method.js';
import { buildOptions, checkBuildOptions, paymentMethodOption } from './options.js';
import {
  CALLBACK_DETAILS_PATHS,
  callbackDetailsInput,
  callbackDetailsWire,
  compact,
  refuseSignedForAnother,
  mobileMoneyProductWire,
  paymentAmountInput,
  paymentAmountWire,
  paymentCustomerInput,
  paymentCustomerWire,
  productInput,
} from './shared.js';

/**
 * Wire body of a mobile-money (STK push) payment as the service receives it. Products carry
 * `quantity` and `unit_price` as strings, as the service expects for mobile money.
 *
 * @example
 * ```ts
 * const result = mobileMoneyPaymentRequestSchema.safeParse(body);
 * ```
 */
export const mobileMoneyPaymentRequestSchema = z.strictObject({
  customer_details: paymentCustomerWire,
  products: z.optional(z.array(mobileMoneyProductWire)),
  amount: z.optional(paymentAmountWire),
  callback_details: callbackDetailsWire,
});

/**
 * The wire body of a mobile-money payment, as {@link buildMobileMoneyPaymentRequest} returns it.
 *
 * @example
 * ```ts
 * const body: MobileMoneyPaymentRequest = buildMobileMoneyPaymentRequest(input);
 * ```
 */
export type MobileMoneyPaymentRequest = z.output<typeof mobileMoneyPaymentRequestSchema>;

/**
 * Input schema of endpoint 2: what {@link buildMobileMoneyPaymentRequest} and
 * `initiateMobileMoneyPayment` accept (friendly values, normalised on parse). Use the builder for
 * the exact wire body.
 *
 * @example
 * ```ts
 * const ok = mobileMoneyPaymentInputSchema.safeParse(input).success;
 * ```
 */
export const mobileMoneyPaymentInputSchema = z.strictObject({
  customer_details: paymentCustomerInput,
  products: z.optional(z.array(productInput)),
  amount: z.optional(paymentAmountInput),
  callback_details: callbackDetailsInput,
});

/**
 * What `initiateMobileMoneyPayment` / `buildMobileMoneyPaymentRequest` accept.
 *
 * @example
 * ```ts
 * const input: MobileMoneyPaymentInput = {
 *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
 *   callback_details: { transaction_reference: 'order-1002', callback_url: 'https://shop.example/hooks/payments' },
 * };
 * ```
 */
export type MobileMoneyPaymentInput = z.input<typeof mobileMoneyPaymentInputSchema>;

/**
 * Options of {@link buildMobileMoneyPaymentRequest}; the client fills them from its own options.
 *
 * @example
 * ```ts
 * const body = buildMobileMoneyPaymentRequest(input, { paymentMethod: 'M-PESA' });
 * ```
 */
export interface MobileMoneyPaymentBuildOptions {
  /**
   * `customer_details.payment_method` when the input has none. Default `'MOBILE-MONEY'`. Neither it
   * nor the input's may have blanks around it or hold a control or invisible character.
   */
  paymentMethod?: string | undefined;
}

const mobileMoneyPaymentBuildOptionsSchema = buildOptions({
  paymentMethod: paymentMethodOption('M-PESA'),
});

/**
 * Turns a friendly mobile-money payment input into the exact wire body of endpoint 2.
 * Pure: sends nothing.
 *
 * @throws {@link ValidationError} listing every issue with its path; or, before the input is
 * read, naming each option that is not valid.
 *
 * @example
 * ```ts
 * const body = buildMobileMoneyPaymentRequest(
 *   {
 *     customer_details: { full_name: 'Jane Doe', phone_number: '+254 712 345 678', email: 'jane@example.com' },
 *     products: [{ product_name: 'Coffee', quantity: 2, unit_price: 250 }],
 *     amount: { delivery_fee: 100, discount_fee: 50, total: 500, currency: 'KES' },
 *     callback_details: { transaction_reference: 'order-1002', callback_url: 'https://shop.example/hooks/payments' },
 *   },
 *   { paymentMethod: 'M-PESA' },
 * );
 * body.products?.[0]?.quantity; // '2'
 * ```
 */
export function buildMobileMoneyPaymentRequest(
  input: MobileMoneyPaymentInput,
  options: MobileMoneyPaymentBuildOptions = {},
): MobileMoneyPaymentRequest {
  const checkedOptions = checkBuildOptions(
    mobileMoneyPaymentBuildOptionsSchema,
    options,
    'mobile-money payment',
  );
  const parsed = parseOrThrow(mobileMoneyPaymentInputSchema, input, {
    prefix: 'Invalid mobile-money payment',
  });
  refuseSignedForAnother(
    parsed.callback_details.callback_url,
    parsed.callback_details.transaction_reference,
    CALLBACK_DETAILS_PATHS,
    'Invalid mobile-money payment',
  );
  const customer = parsed.customer_details;
  if (customer.payment_method !== undefined && !isMethodWord(customer.payment_method)) {
    throw new ValidationError(
      [
        {
          path: ['customer_details', 'payment_method'],
          code: 'invalid_payment_method',
          message: MOBILE_MONEY_METHOD_RULE,
        },
      ],
      { prefix: 'Invalid mobile-money payment' },
    );
  }
  return compact({
    customer_details: compact({
      payment_method: customer.payment_method ?? checkedOptions.paymentMethod ?? 'MOBILE-MONEY',
      full_name: customer.full_name,
      location: customer.location,
      phone_number: customer.phone_number,
      email: customer.email,
    }),
    // spec §2.2: mobile-money products carry quantity and unit_price as strings.
    products: parsed.products?.map((product) =>
      compact({
        product_id: product.product_id,
        product_name: product.product_name,
        quantity: String(product.quantity),
        unit_price: product.unit_price.text,
      }),
    ),
    amount: parsed.amount && compact({ ...parsed.amount }),
    callback_details: { ...parsed.callback_details },
  });
}
