// Endpoint 4 (spec §4, §2.7): mobile-money payout. Wire schema, input type and builder.
import * as z from 'zod/v4/mini';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { parseOrThrow } from '../internal/issues.js';
import { checkCountryCode } from '../validation/country.js';
import { checkPhoneNumber } from '../validation/phone.js';
import { generateReferenceId } from '../validation/reference-id.js';
import {
  amountInput,
  countryCodeInput,
  currencyInput,
  currencyWire,
  emailInput,
  emailWire,
  httpUrlInput,
  httpUrlWire,
  nonEmptyStringWire,
  phoneInput,
  phoneWire,
  referenceIdInput,
  referenceIdWire,
  textInput,
  wholeNumberStringWire,
} from './fields.js';
import { buildOptions, checkBuildOptions, oneOfOption } from './options.js';
import { refuseSignedForAnother } from './shared.js';

/**
 * Which key carries the payout recipient on the wire: the service's documentation names it
 * `customer_details` in the parameter list and `client_details` in its example.
 *
 * @example
 * ```ts
 * const client = new PaymentsClient({ baseUrl, payoutRecipientKey: 'client_details' satisfies PayoutRecipientKey });
 * ```
 */
export type PayoutRecipientKey = 'customer_details' | 'client_details';

const recipientWire = z.strictObject({
  full_name: nonEmptyStringWire,
  phone_number: phoneWire('payout'),
  email: emailWire,
});

const countryCodeWire = z.string().check(
  z.refine((value) => /^[A-Z]{2}$/.test(value) && checkCountryCode(value).ok, {
    error: 'expected an upper-case ISO 3166-1 alpha-2 country code such as KE',
  }),
);

const payoutCommonWire = {
  destination: z.strictObject({
    type: nonEmptyStringWire,
    country_code: countryCodeWire,
    mobile_number: phoneWire('payout'),
    wallet_name: nonEmptyStringWire,
  }),
  transfer: z.strictObject({
    amount: wholeNumberStringWire,
    currency: currencyWire,
    reference_id: referenceIdWire,
    description: nonEmptyStringWire,
  }),
  webhook_endpoint: z.strictObject({ webhook_url: httpUrlWire }),
};

/**
 * Wire body of endpoint 4. The recipient goes under `customer_details` (the parameter list's
 * name) or `client_details` (the documentation's example) — exactly one of them.
 *
 * @example
 * ```ts
 * payoutRequestSchema.parse(body); // accepts either recipient key, not both
 * ```
 */
export const payoutRequestSchema = z.union([
  z.strictObject({ customer_details: recipientWire, ...payoutCommonWire }),
  z.strictObject({ client_details: recipientWire, ...payoutCommonWire }),
]);

/**
 * The wire body of a payout, with the recipient under exactly one of the two keys.
 *
 * @example
 * ```ts
 * const body: PayoutRequest = buildPayoutRequest(input);
 * const recipient = 'customer_details' in body ? body.customer_details : body.client_details;
 * ```
 */
export type PayoutRequest = z.output<typeof payoutRequestSchema>;

/**
 * Input schema of endpoint 4: what {@link buildPayoutRequest} accepts (`initiatePayout` requires
 * `transfer.reference_id` as well: `PayoutInitiationInput`); the recipient is always `customer_details`. Parsing does not generate a `reference_id` nor pick
 * the wire recipient key — use the builder for the exact wire body.
 *
 * @example
 * ```ts
 * const result = payoutInputSchema.safeParse(input);
 * ```
 */
export const payoutInputSchema = z.strictObject({
  customer_details: z.strictObject({
    full_name: textInput('full_name'),
    phone_number: phoneInput('payout'),
    email: emailInput,
  }),
  destination: z.strictObject({
    type: textInput('destination.type'),
    country_code: countryCodeInput,
    // Choice: the receiving wallet number follows the payout phone rule of spec §2.7.
    mobile_number: phoneInput('payout'),
    wallet_name: textInput('wallet_name'),
  }),
  transfer: z.strictObject({
    amount: amountInput,
    currency: currencyInput,
    /** 12 digits, first not 0; omitted → {@link generateReferenceId} in `buildPayoutRequest` (`initiatePayout` requires it). */
    reference_id: z.optional(referenceIdInput),
    description: textInput('description'),
  }),
  webhook_endpoint: z.strictObject({ webhook_url: httpUrlInput }),
});

/**
 * What `buildPayoutRequest` accepts (`initiatePayout` takes a {@link PayoutInitiationInput}, with
 * its `reference_id`); the recipient is always `customer_details`.
 *
 * @example
 * ```ts
 * const input: PayoutInput = {
 *   customer_details: { full_name: 'John Doe', phone_number: '0712345678', email: 'john@example.com' },
 *   destination: { type: 'mobile', country_code: 'KE', mobile_number: '0712345678', wallet_name: 'MOBILE-MONEY' },
 *   transfer: { amount: 1000, currency: 'KES', description: 'Refund' },
 *   webhook_endpoint: { webhook_url: 'https://shop.example/hooks/payouts' },
 * };
 * ```
 */
export type PayoutInput = z.input<typeof payoutInputSchema>;

/**
 * What `initiatePayout` accepts: a {@link PayoutInput} whose `transfer.reference_id` is given
 * (the one you stored before sending; a retry sends the same one).
 *
 * @example
 * ```ts
 * const input: PayoutInitiationInput = {
 *   customer_details: { full_name: 'John Doe', phone_number: '0712345678', email: 'john@example.com' },
 *   destination: { type: 'mobile', country_code: 'KE', mobile_number: '0712345678', wallet_name: 'MOBILE-MONEY' },
 *   transfer: { amount: 1000, currency: 'KES', reference_id: '483920175561', description: 'Refund' },
 *   webhook_endpoint: { webhook_url: 'https://shop.example/hooks/payouts' },
 * };
 * ```
 */
export type PayoutInitiationInput = PayoutInput & {
  readonly transfer: { readonly reference_id: NonNullable<PayoutInput['transfer']['reference_id']> };
};

/**
 * Options of {@link buildPayoutRequest}; the client fills them from its own options.
 *
 * @example
 * ```ts
 * const body = buildPayoutRequest(input, { payoutRecipientKey: 'client_details' });
 * ```
 */
export interface PayoutBuildOptions {
  /** The wire key of the recipient. Default `'customer_details'`. */
  payoutRecipientKey?: PayoutRecipientKey | undefined;
}

const payoutBuildOptionsSchema = buildOptions({
  payoutRecipientKey: oneOfOption<PayoutRecipientKey>(['customer_details', 'client_details']),
});

/**
 * Turns a friendly payout input into the exact wire body of endpoint 4. Generates a
 * `reference_id` when the input has none (read it back from the result and store it).
 * Pure apart from that random id: sends nothing.
 *
 * @throws {@link ValidationError} listing every issue with its path; or, before the input is
 * read, naming each option that is not valid.
 *
 * @example
 * ```ts
 * const body = buildPayoutRequest({
 *   customer_details: { full_name: 'John Doe', phone_number: '0712345678', email: 'john@example.com' },
 *   destination: { type: 'mobile', country_code: 'KE', mobile_number: '0712345678', wallet_name: 'MOBILE-MONEY' },
 *   transfer: { amount: 1000, currency: 'KES', description: 'Refund for order 1001' },
 *   webhook_endpoint: { webhook_url: 'https://shop.example/hooks/payouts' },
 * });
 * saveReference(body.transfer.reference_id);
 * ```
 */
export function buildPayoutRequest(input: PayoutInput, options: PayoutBuildOptions = {}): PayoutRequest {
  return payoutRequest(input, options, false);
}

/**
 * `initiatePayout`'s builder: as {@link buildPayoutRequest}, but a missing `transfer.reference_id`
 * is a `ValidationError` (named with the input's other problems): one made up on every call would
 * make a retry a second transfer.
 */
export function buildInitiatedPayoutRequest(
  input: PayoutInitiationInput,
  options: PayoutBuildOptions,
): PayoutRequest {
  return payoutRequest(input, options, true);
}

const referenceRequired: ValidationIssue = {
  path: ['transfer', 'reference_id'],
  code: 'required',
  message:
    'required: pass the 12-digit reference you stored before sending, from generateReferenceId() (one made up on every call would make a retry a second transfer)',
};

/** Whether the input's `transfer` is an object without a `reference_id` (a getter that throws: no). */
function lacksReference(input: unknown): boolean {
  try {
    const transfer = (input as { transfer?: unknown } | null | undefined)?.transfer;
    return (
      typeof transfer === 'object' &&
      transfer !== null &&
      (transfer as { reference_id?: unknown }).reference_id === undefined
    );
  } catch {
    return false;
  }
}

/**
 * A wallet number written without its country code (at most 10 digits: `0712345678`,
 * `712345678`) beside a parsed `country_code` other than KE, as an issue: the payout phone rule
 * reads it as Kenyan, and another country's local number (Tanzania's are `07…` too) would be paid
 * to another person's wallet. The number is read from the input once more: it passes only when
 * written with its country code and read as the number parsed (a getter answering otherwise, or
 * throwing, is refused).
 */
function localNumberAbroad(
  input: unknown,
  { country_code, mobile_number }: { country_code: string; mobile_number: string },
): ValidationIssue[] {
  if (country_code === 'KE') return [];
  try {
    const typed: unknown = (input as { destination: { mobile_number: unknown } }).destination.mobile_number;
    const read = checkPhoneNumber(typed, 'payout');
    if (read.ok && read.value === mobile_number && (String(typed).match(/\p{Nd}/gu)?.length ?? 0) > 10) {
      return [];
    }
  } catch {
    // Refused below.
  }
  return [
    {
      path: ['destination', 'mobile_number'],
      code: 'invalid_phone_number',
      message: 'without its country code it reads as Kenyan, and country_code is not KE: write +254…',
    },
  ];
}

function payoutRequest(
  input: PayoutInput,
  options: PayoutBuildOptions,
  requireReference: boolean,
): PayoutRequest {
  const checkedOptions = checkBuildOptions(payoutBuildOptionsSchema, options, 'payout');
  const parsed = parseOrThrow(payoutInputSchema, input, {
    prefix: 'Invalid payout',
    extra: requireReference && lacksReference(input) ? [referenceRequired] : [],
    hints: {
      client_details:
        "the payout input always names the recipient customer_details; set the client option payoutRecipientKey: 'client_details' to send it under that key",
    },
  });
  // What was parsed decides what is sent (the input's own reading above only names the problem).
  if (requireReference && parsed.transfer.reference_id === undefined) {
    throw new ValidationError([referenceRequired], { prefix: 'Invalid payout' });
  }
  const abroad = localNumberAbroad(input, parsed.destination);
  if (abroad.length > 0) throw new ValidationError(abroad, { prefix: 'Invalid payout' });
  const referenceId = parsed.transfer.reference_id ?? Number(generateReferenceId());
  refuseSignedForAnother(
    parsed.webhook_endpoint.webhook_url,
    referenceId,
    [
      ['webhook_endpoint', 'webhook_url'],
      ['transfer', 'reference_id'],
    ],
    'Invalid payout',
  );
  const recipient = { ...parsed.customer_details };
  const rest = {
    destination: { ...parsed.destination },
    transfer: {
      amount: parsed.transfer.amount,
      currency: parsed.transfer.currency,
      reference_id: referenceId,
      description: parsed.transfer.description,
    },
    webhook_endpoint: { ...parsed.webhook_endpoint },
  };
  return checkedOptions.payoutRecipientKey === 'client_details'
    ? { client_details: recipient, ...rest }
    : { customer_details: recipient, ...rest };
}
