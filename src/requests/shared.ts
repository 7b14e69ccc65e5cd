// Pieces shared by the endpoints: customer_details (§2.1), products (§2.2), amount (§2.3),
// callback_details (§2.5), each as an input schema (friendly values) and a wire schema (§2 types).
import * as z from 'zod/v4/mini';
import { ValidationError } from '../errors.js';
import { checkCardUnitPrice, checkQuantity, checkUnitPrice, type UnitPrice } from '../validation/product.js';
import {
  amountInput,
  checked,
  currencyInput,
  currencyWire,
  emailInput,
  emailWire,
  httpUrlInput,
  httpUrlWire,
  int,
  intWire,
  integerIdInput,
  nonEmptyStringWire,
  phoneInput,
  phoneWire,
  textInput,
  unicodeText,
  wholeNumberStringWire,
} from './fields.js';

// ---- customer_details (spec §2.1) ----

// Shapes spread rather than `z.omit`: the same schemas, without pulling omit's code into bundles.
const customerFieldsInput = {
  full_name: textInput('full_name'),
  location: z.optional(z.string().check(unicodeText)),
  phone_number: phoneInput('payment'),
  email: emailInput,
};

/** customer_details of a card or mobile-money payment, as the caller writes it. */
export const paymentCustomerInput = z.strictObject({
  /** Defaults to the client's `paymentMethods`. */
  payment_method: z.optional(textInput('payment_method')),
  ...customerFieldsInput,
});

/** customer_details of a redirect checkout: no payment_method (the customer picks on the hosted page). */
export const checkoutCustomerInput = z.strictObject(customerFieldsInput);

const customerFieldsWire = {
  full_name: nonEmptyStringWire,
  location: z.optional(z.string().check(unicodeText)),
  phone_number: phoneWire('payment'),
  email: emailWire,
};

export const paymentCustomerWire = z.strictObject({
  payment_method: nonEmptyStringWire,
  ...customerFieldsWire,
});

export const checkoutCustomerWire = z.strictObject(customerFieldsWire);

// ---- products (spec §2.2: card quantity integer / unit_price double; mobile-money both strings) ----

const productFields = {
  product_id: z.optional(integerIdInput('product_id')),
  product_name: textInput('product_name'),
  quantity: checked<number | string, number>(checkQuantity, 'expected a whole number of at least 1'),
};

export const productInput = z.strictObject({
  ...productFields,
  unit_price: checked<number | string, UnitPrice>(checkUnitPrice, 'expected a price of at least 0'),
});

/** A card product: its unit price goes on the wire as a JSON number, so it must be one exactly. */
export const cardProductInput = z.strictObject({
  ...productFields,
  unit_price: checked<number | string, UnitPrice>(checkCardUnitPrice, 'expected a price of at least 0'),
});

export const cardProductWire = z.strictObject({
  product_id: z.optional(int()),
  product_name: nonEmptyStringWire,
  quantity: intWire('expected a whole number of at least 1', 1),
  unit_price: z
    .number({ error: 'expected a price of at least 0' })
    .check(z.refine((value) => value >= 0, { error: 'expected a price of at least 0' })),
});

export const mobileMoneyProductWire = z.strictObject({
  product_id: z.optional(int()),
  product_name: nonEmptyStringWire,
  quantity: wholeNumberStringWire,
  unit_price: z.string().check(
    z.regex(/^(?:0|[1-9]\d*)(?:\.\d+)?$/, {
      error: 'expected a string of a price of at least 0, without a leading zero',
    }),
  ),
});

// ---- amount (spec §2.3: fees and total each a positive integer) ----

const amountFieldsInput = {
  delivery_fee: amountInput,
  discount_fee: amountInput,
  total: amountInput,
  currency: currencyInput,
};

/** amount of a card or mobile-money payment; order_id is optional there (required for checkout only). */
export const paymentAmountInput = z.strictObject({
  order_id: z.optional(integerIdInput('order_id')),
  ...amountFieldsInput,
});

/** amount of a redirect checkout: order_id required. */
export const checkoutAmountInput = z.strictObject({
  order_id: integerIdInput('order_id'),
  ...amountFieldsInput,
});

const orderIdWire = intWire('expected a whole number of at least 0');

const amountFieldsWire = {
  delivery_fee: wholeNumberStringWire,
  discount_fee: wholeNumberStringWire,
  total: wholeNumberStringWire,
  currency: currencyWire,
};

export const paymentAmountWire = z.strictObject({
  order_id: z.optional(orderIdWire),
  ...amountFieldsWire,
});

export const checkoutAmountWire = z.strictObject({ order_id: orderIdWire, ...amountFieldsWire });

// ---- callback_details (spec §2.5) ----

export const callbackDetailsInput = z.strictObject({
  // No control character: a line break, tab or NUL is no one's order number (the tracker refuses
  // to record one), and the reference goes into the signed callback URL and the merchant's logs.
  transaction_reference: textInput('transaction_reference').check(
    z.refine((value) => !/\p{Cc}/u.test(value), {
      error: 'must not hold a control character (a line break, tab or NUL)',
      params: { code: 'control_character' },
    }),
  ),
  callback_url: httpUrlInput,
});

export const callbackDetailsWire = z.strictObject({
  transaction_reference: nonEmptyStringWire,
  callback_url: httpUrlWire,
});

/** Where a payment's callback URL and its reference are. */
export const CALLBACK_DETAILS_PATHS = [
  ['callback_details', 'callback_url'],
  ['callback_details', 'transaction_reference'],
] as const;

/**
 * Throws when `url` is signed (`hp_ref`) for another reference than the request's own, or carries
 * `hp_ref` more than once. The route takes a callback's order from `hp_ref`, and a success callback
 * carries no reference of its own: this payment would settle the order the URL names. Names the
 * fields, never the references.
 */
export function refuseSignedForAnother(
  url: string,
  reference: string | number,
  [urlPath, referencePath]: readonly [readonly string[], readonly string[]],
  prefix: string,
): void {
  // The schema parsed it as an http(s) URL. `hp_ref` is callbackSignatureParams.reference, written
  // out: importing signing.ts here moves it into a chunk ./callbacks loads (about 110 bytes).
  const signed = new URL(url).searchParams.getAll('hp_ref');
  if (signed.length === 0 || (signed.length === 1 && signed[0] === String(reference))) return;
  throw new ValidationError(
    [
      {
        path: [...urlPath],
        code: 'signed_for_another_reference',
        message: `signed (hp_ref) for another reference than ${referencePath.join('.')}: the route would settle that order with this payment; sign it with this request's reference`,
      },
    ],
    { prefix },
  );
}

/** Drops keys whose value is undefined, keeping the order of the rest (the wire order). */
export const compact = <T extends Record<string, unknown>>(value: T): T => {
  const out: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) out[key] = value[key];
  return out as T;
};
