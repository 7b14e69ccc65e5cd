// Endpoint 2 (spec §4): mobile-money (STK push) payment. Wire schema, input type and builder.
import * as z from 'zod';
import { parseOrThrow } from '../internal/issues.js';
import {
  callbackDetailsInput,
  callbackDetailsWire,
  compact,
  mobileMoneyProductWire,
  paymentAmountInput,
  paymentAmountWire,
  paymentCustomerInput,
  paymentCustomerWire,
  productInput,
} from './shared.js';

/**
 * Wire body of endpoint 2 (spec §2.1–§2.3, §2.5). Products carry `quantity` and `unit_price`
 * as strings (spec §2.2).
 *
 * @example
 * ```ts
 * const result = mobileMoneyPaymentRequestSchema.safeParse(body);
 * ```
 */
export const mobileMoneyPaymentRequestSchema = z.strictObject({
  customer_details: paymentCustomerWire,
  products: z.array(mobileMoneyProductWire).optional(),
  amount: paymentAmountWire.optional(),
  callback_details: callbackDetailsWire,
});

/** The wire body of a mobile-money payment, as {@link buildMobileMoneyPaymentRequest} returns it. */
export type MobileMoneyPaymentRequest = z.output<typeof mobileMoneyPaymentRequestSchema>;

const mobileMoneyPaymentInputSchema = z.strictObject({
  customer_details: paymentCustomerInput,
  products: z.array(productInput).optional(),
  amount: paymentAmountInput.optional(),
  callback_details: callbackDetailsInput,
});

/** What `initiateMobileMoneyPayment` / `buildMobileMoneyPaymentRequest` accept. */
export type MobileMoneyPaymentInput = z.input<typeof mobileMoneyPaymentInputSchema>;

/** Options of {@link buildMobileMoneyPaymentRequest}; the client fills them from its own options. */
export interface MobileMoneyPaymentBuildOptions {
  /** `customer_details.payment_method` when the input has none. Default `'MOBILE-MONEY'`. */
  paymentMethod?: string;
}

/**
 * Turns a friendly mobile-money payment input into the exact wire body of endpoint 2.
 * Pure: sends nothing.
 *
 * @throws {@link ValidationError} listing every issue with its path.
 *
 * @example
 * ```ts
 * const body = buildMobileMoneyPaymentRequest(
 *   {
 *     customer_details: { full_name: 'Jane Doe', phone_number: '+254 712 345 678', email: 'jane@example.com' },
 *     products: [{ product_name: 'Coffee', quantity: 2, unit_price: 250 }],
 *     amount: { delivery_fee: 0, discount_fee: 0, total: 500, currency: 'KES' },
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
  const parsed = parseOrThrow(mobileMoneyPaymentInputSchema, input, {
    prefix: 'Invalid mobile-money payment',
  });
  const customer = parsed.customer_details;
  return compact({
    customer_details: compact({
      payment_method: customer.payment_method ?? options.paymentMethod ?? 'MOBILE-MONEY',
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
