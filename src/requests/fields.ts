// Field-level zod schemas, in two flavours: `*Input` accepts the friendly values of DESIGN.md
// "Inputs and the wire" and normalises them; `*Wire` checks the exact wire type of spec §2.
import * as z from 'zod/v4/mini';
import {
  checkCardNumber,
  checkCvc,
  checkExpiryMonth,
  checkExpiryYear,
  isValidCardNumber,
} from '../validation/card.js';
import { checkCountryCode } from '../validation/country.js';
import { checkCurrency } from '../validation/currency.js';
import { checkWholeNumber } from '../validation/money.js';
import { checkPhoneNumber, type PhoneNumberPurpose } from '../validation/phone.js';
import { checkReferenceId } from '../validation/reference-id.js';
import { fail, pass, type Check } from '../validation/result.js';
import { checkHttpUrl } from '../validation/url.js';

/**
 * A field checked by one of the pure checks of src/validation, as a zod transform: the check
 * names the rule (its code and message become a custom issue) and normalises the value. The
 * check also refuses values of the wrong type, so the base is an unchecked `I` (the input type);
 * a missing field is `required (<what>)`.
 */
export const checked = <I, O>(check: (value: unknown) => Check<O>, what: string) =>
  z.pipe(
    z.custom<I>(),
    z.transform((value: I, ctx): O => {
      const result = value === undefined ? undefined : check(value);
      if (result?.ok) return result.value;
      ctx.issues.push({
        code: 'custom',
        message: result?.message ?? `required (${what})`,
        params: { code: result?.code ?? 'invalid_type' },
        input: value,
      });
      return z.NEVER;
    }),
  );

// ---- input side ----

/** A zod error function: "required (…)" when the key is missing, else the message. */
export const expecting =
  (message: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? `required (${message})` : message;

/**
 * Text without a lone surrogate (half of a character, as cutting a string between the two halves
 * of an emoji leaves it): JSON would carry it escaped, and the callback reader refuses a reference
 * echoed back with one.
 */
export const unicodeText = z.refine<string>((value) => !/\p{Cs}/u.test(value), {
  error: 'expected Unicode text, got a string with a lone surrogate',
  params: { code: 'lone_surrogate' },
});

/**
 * A required string with something to show: not empty, and not only white space, control or
 * invisible format characters (zero-width space, word joiner, soft hyphen); Unicode text.
 */
export const textInput = (what = 'text') =>
  z.string({ error: expecting(`expected ${what} as a string`) }).check(
    z.refine((value) => /[^\s\p{Cc}\p{Cf}]/u.test(value), {
      error: 'must not be empty, nor only white space or invisible characters',
      params: { code: 'empty' },
    }),
    unicodeText,
  );

// z.email()'s own default pattern, as a plain regex check.
const emailPattern =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const emailRule = 'expected an e-mail address such as jane@example.com';

export const emailInput = z
  .string({ error: expecting(emailRule) })
  .check(z.regex(emailPattern, { error: emailRule }));

export const phoneInput = (purpose: PhoneNumberPurpose) =>
  checked<string, string>(
    (value) => checkPhoneNumber(value, purpose),
    'expected the phone number as a string',
  );

/** An amount of a request (`total`, a fee, a payout `amount`): a positive integer (spec §2.3, §8). */
export const amountInput = checked<number | bigint | string, string>(
  (value) => checkWholeNumber(value, 1),
  'expected a whole number as a number, bigint or string',
);

export const currencyInput = checked<string, string>(
  checkCurrency,
  'expected a 3-letter currency code such as KES',
);

export const countryCodeInput = checked<string, string>(
  checkCountryCode,
  'expected a 2-letter ISO country code such as KE',
);

export const httpUrlInput = checked<string, string>(checkHttpUrl, 'expected an absolute http(s) URL string');

export const cardNumberInput = checked<string | number, string>(
  checkCardNumber,
  'expected the card number as a string',
);

export const expiryMonthInput = checked<number | string, number>(
  checkExpiryMonth,
  'expected a month from 1 to 12',
);

export const expiryYearInput = checked<number | string, number>(checkExpiryYear, 'expected a 4-digit year');

export const cvcInput = checked<string | number, string>(checkCvc, 'expected 3 digits');

export const referenceIdInput = checked<number | bigint | string, number>(
  checkReferenceId,
  'expected 12 digits as a number, bigint or string',
);

/**
 * A non-negative safe integer given as a number or a digit string (order_id, product_id). A string
 * with a leading zero is refused: '007' would be sent as 7, and echoed back as another reference.
 */
export const integerIdInput = (what: string) =>
  checked<number | string, number>((value) => {
    // Any length of digits: a value beyond the safe range is refused below, not read rounded.
    const number = typeof value === 'string' && /^(?:0|[1-9]\d*)$/.test(value) ? Number(value) : value;
    return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0
      ? pass(number)
      : fail(
          'invalid_integer',
          `expected ${what} as a whole number (JSON integer), or its digits without a leading zero`,
        );
  }, `expected ${what} as an integer`);

// ---- wire side (spec §2 types) ----

export const phoneWire = (purpose: PhoneNumberPurpose) =>
  z.string().check(
    z.regex(purpose === 'payout' ? /^2547\d{8}$/ : /^254[71]\d{8}$/, {
      error: purpose === 'payout' ? 'expected 2547XXXXXXXX' : 'expected 2547XXXXXXXX or 2541XXXXXXXX',
    }),
  );

/** A positive integer written as a string (the wire's amounts and mobile-money quantities). */
export const wholeNumberStringWire = z
  .string()
  .check(z.regex(/^[1-9]\d*$/, { error: 'expected a string of a whole number of at least 1' }));

export const currencyWire = z
  .string()
  .check(z.regex(/^[A-Z]{3}$/, { error: 'expected a 3-letter upper-case currency code' }));

const urlProblem = (value: unknown): string | undefined => {
  const result = checkHttpUrl(value);
  return result.ok ? undefined : result.message;
};

export const httpUrlWire = z.string().check(
  z.refine((value) => urlProblem(value) === undefined, {
    error: (issue) => urlProblem(issue.input) ?? 'expected an absolute http: or https: URL',
  }),
);

export const emailWire = z.string().check(z.regex(emailPattern, { error: emailRule }));

export const nonEmptyStringWire = z.string().check(
  z.refine((value) => value !== '', { error: 'must not be empty' }),
  unicodeText,
);

const cardNumberRule = 'expected 16 digits that pass the Luhn check';

/**
 * `z.int()`, typed as the number schema it is: the declarations must not name its own type
 * (`ZodMiniInt`), which neither floor of the zod peer range exports (zod 4.1, and the zod 4 that
 * zod 3.25 ships).
 */
export const int = (params?: Parameters<typeof z.int>[0]): z.ZodMiniType<number, number> => z.int(params);

/**
 * card_number on the wire: a JSON integer. Builders hold it as a digit string, which
 * the client's serialiser writes as a bare integer; a parser that has read the JSON may give a
 * safe integer or (via `parseJsonExact`) an exact digit string — both are accepted.
 */
export const cardNumberWire = z.union([z.string(), int()], { error: expecting(cardNumberRule) }).check(
  z.refine((value) => isValidCardNumber(String(value)) && !/\s|-/.test(String(value)), {
    error: cardNumberRule,
  }),
);

/**
 * A JSON integer from `min` to `max`; `error` names the rule, for a wrong type or value alike
 * ("required (…)" when the key is missing).
 */
export const intWire = (error: string, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  int({ error: expecting(error) }).check(z.refine((value) => value >= min && value <= max, { error }));

/** An integer in [min, max] or a digit string matching `pattern`, with one message for both. */
const intOrDigits = (min: number, max: number, pattern: RegExp, error: string) =>
  z.union([intWire(error, min, max), z.string().check(z.regex(pattern, { error }))], {
    error: expecting(error),
  });

export const expiryMonthWire = intOrDigits(1, 12, /^(?:0?[1-9]|1[0-2])$/, 'expected a month from 1 to 12');

export const expiryYearWire = intOrDigits(1000, 9999, /^\d{4}$/, 'expected a 4-digit year');

export const cvcWire = intOrDigits(100, 999, /^\d{3}$/, 'expected 3 digits');

export const referenceIdWire = intWire(
  'expected 12 digits, the first not 0',
  100_000_000_000,
  999_999_999_999,
);
