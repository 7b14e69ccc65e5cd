// Endpoint 1 (spec §4): card payment. Wire schema, input type and builder.
import * as z from 'zod/v4/mini';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { parseOrThrow } from '../internal/issues.js';
import {
  checkCardNumber,
  checkCvc,
  checkExpiryMonth,
  checkExpiryYear,
  checkLeadingZero,
  checkNotExpired,
} from '../validation/card.js';
import { preview, type Check } from '../validation/result.js';
import {
  cardNumberInput,
  cardNumberWire,
  cvcInput,
  cvcWire,
  expiryMonthInput,
  expiryMonthWire,
  expiryYearInput,
  expiryYearWire,
} from './fields.js';
import { buildOptions, checkBuildOptions, clockOption, oneOfOption, paymentMethodOption } from './options.js';
import {
  CALLBACK_DETAILS_PATHS,
  callbackDetailsInput,
  callbackDetailsWire,
  cardProductWire,
  compact,
  refuseSignedForAnother,
  paymentAmountInput,
  paymentAmountWire,
  paymentCustomerInput,
  paymentCustomerWire,
  cardProductInput,
} from './shared.js';

/**
 * How the four card fields go on the wire: JSON integers (as the service documents them) or digit strings
 * (for a cvc that starts with 0, which an integer cannot carry).
 *
 * @example
 * ```ts
 * const client = new PaymentsClient({ baseUrl, cardFieldEncoding: 'string' satisfies CardFieldEncoding });
 * ```
 */
export type CardFieldEncoding = 'integer' | 'string';

/**
 * Wire body of a card payment (`POST /api/payment/payment-initiate-callback/`) as the service receives it. `card_details` accepts digit strings or safe
 * integers for every field: builders hold `card_number` as a digit string (the client writes it
 * as a bare JSON integer), and a server that read the JSON with `parseJsonExact` sees a digit
 * string for a card number above 2^53.
 *
 * @example
 * ```ts
 * const body = cardPaymentRequestSchema.parse(JSON.parse(text));
 * ```
 */
export const cardPaymentRequestSchema = z.strictObject({
  customer_details: paymentCustomerWire,
  products: z.optional(z.array(cardProductWire)),
  amount: z.optional(paymentAmountWire),
  card_details: z.strictObject({
    card_number: cardNumberWire,
    expiry_month: expiryMonthWire,
    expiry_year: expiryYearWire,
    cvc: cvcWire,
  }),
  callback_details: callbackDetailsWire,
});

/**
 * The wire body of a card payment, as {@link buildCardPaymentRequest} returns it.
 *
 * @example
 * ```ts
 * const body: CardPaymentRequest = buildCardPaymentRequest(input);
 * ```
 */
export type CardPaymentRequest = z.output<typeof cardPaymentRequestSchema>;

/**
 * Input schema of endpoint 1: what {@link buildCardPaymentRequest} and `initiateCardPayment`
 * accept (friendly values: amounts as number/bigint/string, any common phone format, card number
 * with spaces). Parsing normalises to the builder's internal values; it does not apply the
 * client options (`payment_method` default, `cardFieldEncoding`, expiry against the clock) — use
 * the builder for the exact wire body.
 *
 * @example
 * ```ts
 * const result = cardPaymentInputSchema.safeParse(formData);
 * if (!result.success) showErrors(result.error.issues);
 * ```
 */
export const cardPaymentInputSchema = z.strictObject({
  customer_details: paymentCustomerInput,
  products: z.optional(z.array(cardProductInput)),
  amount: z.optional(paymentAmountInput),
  card_details: z.strictObject({
    card_number: cardNumberInput,
    expiry_month: expiryMonthInput,
    expiry_year: expiryYearInput,
    cvc: cvcInput,
  }),
  callback_details: callbackDetailsInput,
});

/**
 * What `initiateCardPayment` / `buildCardPaymentRequest` accept: the wire's field names with
 * friendlier values (amounts as number/bigint/string, any common phone format, card number with
 * spaces, `payment_method` optional).
 *
 * @example
 * ```ts
 * const input: CardPaymentInput = {
 *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
 *   card_details: { card_number: '4242 4242 4242 4242', expiry_month: 12, expiry_year: 2030, cvc: '123' },
 *   callback_details: { transaction_reference: 'order-1001', callback_url: 'https://shop.example/hooks/payments' },
 * };
 * ```
 */
export type CardPaymentInput = z.input<typeof cardPaymentInputSchema>;

/**
 * Options of {@link buildCardPaymentRequest}; the client fills them from its own options.
 *
 * @example
 * ```ts
 * const body = buildCardPaymentRequest(input, { paymentMethod: 'VISA', cardFieldEncoding: 'string' });
 * ```
 */
export interface CardPaymentBuildOptions {
  /**
   * The card method: `customer_details.payment_method` when the input has none, and the only
   * value an input's `payment_method` may have. Default `'CARD'`.
   */
  paymentMethod?: string | undefined;
  /** Default `'integer'`. `'string'` sends the four card fields as digit strings. */
  cardFieldEncoding?: CardFieldEncoding | undefined;
  /** The clock for the "expiry not in the past" rule: a valid `Date`. Default: now. */
  now?: Date | undefined;
}

const cardPaymentBuildOptionsSchema = buildOptions({
  paymentMethod: paymentMethodOption('CARD'),
  cardFieldEncoding: oneOfOption<CardFieldEncoding>(['integer', 'string']),
  now: clockOption,
});

/**
 * Spec §4 rule 1: the service takes a request for a card payment only when payment_method names
 * the card method, and for mobile money otherwise (card_details or not). The card method is the
 * one value the SDK knows to name it: the option (the client's `paymentMethods.card`).
 */
function paymentMethodIssues(input: unknown, cardMethod: string): ValidationIssue[] {
  const customer = (input as { customer_details?: { payment_method?: unknown } } | null)?.customer_details;
  const method = typeof customer === 'object' && customer !== null ? customer.payment_method : undefined;
  // A missing, blank or non-string payment_method is the schema's to report (or to default).
  if (typeof method !== 'string' || method.trim() === '' || method === cardMethod) return [];
  return [
    {
      path: ['customer_details', 'payment_method'],
      code: 'not_card_method',
      message: `expected the card method '${cardMethod}' or no payment_method: with any other value the service would take the request for a mobile-money payment; to send another word for cards, set the client option paymentMethods.card (the builder option paymentMethod)`,
    },
  ];
}

/** Rules that need the options or two fields at once; checked only where each field is valid. */
function cardOptionIssues(input: unknown, options: CardPaymentBuildOptions): ValidationIssue[] {
  const issues = paymentMethodIssues(input, options.paymentMethod ?? 'CARD');
  const card = (input as { card_details?: Record<string, unknown> } | null)?.card_details;
  if (typeof card !== 'object' || card === null) return issues;
  const report = (field: string, result: Check<unknown>) => {
    if (!result.ok)
      issues.push({ path: ['card_details', field], code: result.code, message: result.message });
  };
  const month = checkExpiryMonth(card.expiry_month);
  const year = checkExpiryYear(card.expiry_year);
  if (month.ok && year.ok) {
    report('expiry_year', checkNotExpired(month.value, year.value, options.now ?? new Date()));
  }
  const encoding = options.cardFieldEncoding ?? 'integer';
  const number = checkCardNumber(card.card_number);
  if (number.ok) report('card_number', checkLeadingZero('card_number', number.value, encoding));
  const cvc = checkCvc(card.cvc);
  if (cvc.ok) report('cvc', checkLeadingZero('cvc', cvc.value, encoding));
  return issues;
}

/** The digits of a value a message may quote (a string, number or bigint), else `''`. */
const digitsOf = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint'
    ? String(value).replace(/\D/g, '')
    : '';

/**
 * An issue of another field that holds the call's own cvc (a form's fields mapped one off), with
 * the value it quotes (`got 857`, `got "8-5-7"`) replaced by what it is, so that the cvc reaches
 * no message. A value is the cvc when its digits are the cvc's; any other short number (a
 * quantity, a total) is quoted as before.
 */
const cvcNotQuoted = (input: unknown) => {
  const cvc = digitsOf((input as { card_details?: { cvc?: unknown } } | null)?.card_details?.cvc);
  return (issue: ValidationIssue, value: unknown): ValidationIssue => {
    const quoted = `got ${preview(value)}`;
    return cvc === '' || digitsOf(value) !== cvc || !issue.message.includes(quoted)
      ? issue
      : {
          ...issue,
          message: issue.message.replaceAll(quoted, 'got the value of card_details.cvc (not shown)'),
        };
  };
};

/**
 * Turns a friendly card-payment input into the exact wire body of endpoint 1, validating every
 * field. Pure: sends nothing. An input `payment_method` must be the card method (the
 * `paymentMethod` option, default `'CARD'`): any other value would make the service take the
 * request for a mobile-money payment.
 *
 * @throws {@link ValidationError} listing every issue with its path; or, before the input is
 * read, naming each option that is not valid (`Invalid card payment options: …`).
 *
 * @example
 * ```ts
 * const body = buildCardPaymentRequest({
 *   customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
 *   amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'kes' },
 *   card_details: { card_number: '4242 4242 4242 4242', expiry_month: 12, expiry_year: 2030, cvc: '123' },
 *   callback_details: { transaction_reference: 'order-1001', callback_url: 'https://shop.example/hooks/payments' },
 * });
 * body.customer_details.payment_method; // 'CARD'
 * ```
 */
export function buildCardPaymentRequest(
  input: CardPaymentInput,
  options: CardPaymentBuildOptions = {},
): CardPaymentRequest {
  const checkedOptions = checkBuildOptions(cardPaymentBuildOptionsSchema, options, 'card payment');
  const parsed = parseOrThrow(cardPaymentInputSchema, input, {
    extra: cardOptionIssues(input, checkedOptions),
    prefix: 'Invalid card payment',
    conceal: cvcNotQuoted(input),
  });
  // The rules again on the parsed values, the ones sent: a getter may have given the schema
  // other values than it gave the rules above.
  const sent = cardOptionIssues(parsed, checkedOptions);
  if (sent.length > 0) throw new ValidationError(sent, { prefix: 'Invalid card payment' });
  refuseSignedForAnother(
    parsed.callback_details.callback_url,
    parsed.callback_details.transaction_reference,
    CALLBACK_DETAILS_PATHS,
    'Invalid card payment',
  );
  const { customer_details: customer, card_details: card } = parsed;
  const asString = checkedOptions.cardFieldEncoding === 'string';
  return compact({
    customer_details: compact({
      // The input's payment_method, when present, was checked to be this very value.
      payment_method: checkedOptions.paymentMethod ?? 'CARD',
      full_name: customer.full_name,
      location: customer.location,
      phone_number: customer.phone_number,
      email: customer.email,
    }),
    products: parsed.products?.map((product) =>
      compact({
        product_id: product.product_id,
        product_name: product.product_name,
        quantity: product.quantity,
        unit_price: product.unit_price.number,
      }),
    ),
    amount: parsed.amount && compact({ ...parsed.amount }),
    card_details: {
      card_number: card.card_number,
      expiry_month: asString ? String(card.expiry_month).padStart(2, '0') : card.expiry_month,
      expiry_year: asString ? String(card.expiry_year) : card.expiry_year,
      cvc: asString ? card.cvc : Number(card.cvc),
    },
    callback_details: { ...parsed.callback_details },
  });
}
