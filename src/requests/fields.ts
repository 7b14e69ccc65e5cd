// Field-level zod schemas, in two flavours: `*Input` accepts the friendly values of DESIGN.md
// "Inputs and the wire" and normalises them; `*Wire` checks the exact wire type of spec §2.
import * as z from 'zod/mini';
import {
  checkCardNumber,
  checkCvc,
  checkExpiryMonth,
  checkExpiryYear,
  isValidCardNumber,
} from '../validation/card.js';
import { checkCurrency } from '../validation/currency.js';
import { checkWholeNumber } from '../validation/money.js';
import { checkPhoneNumber, type PhoneNumberPurpose } from '../validation/phone.js';
import { checkReferenceId } from '../validation/reference-id.js';
import type { Check } from '../validation/result.js';
import { checkHttpUrl } from '../validation/url.js';

/** Runs a pure check as a zod transform, reporting its code and message as a custom issue. */
export const checked = <B extends z.ZodMiniType, O>(base: B, check: (value: z.output<B>) => Check<O>) =>
  z.pipe(
    base,
    z.transform((value: z.output<B>, ctx): O => {
      const result = check(value);
      if (result.ok) return result.value;
      ctx.issues.push({
        code: 'custom',
        message: result.message,
        params: { code: result.code },
        input: value,
      });
      return z.NEVER;
    }),
  );

// z.custom lets NaN and Infinity through to the check, whose message names them.
const anyNumber = z.custom<number>((value) => typeof value === 'number');
const numeric = (what: string) =>
  z.union([anyNumber, z.bigint(), z.string()], {
    error: expecting(`expected ${what} as a number, bigint or string`),
  });

// ---- input side ----

/** A zod error function: "required (…)" when the key is missing, else the message. */
export const expecting =
  (message: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? `required (${message})` : message;

/** A required, non-blank string. */
export const textInput = (what = 'text') =>
  z
    .string({ error: expecting(`expected ${what} as a string`) })
    .check(
      z.refine((value) => value.trim() !== '', { error: 'must not be empty', params: { code: 'empty' } }),
    );

export const emailInput = z.email({
  error: expecting('expected an e-mail address such as jane@example.com'),
});

export const phoneInput = (purpose: PhoneNumberPurpose) =>
  checked(z.string({ error: expecting('expected the phone number as a string') }), (value) =>
    checkPhoneNumber(value, purpose),
  );

export const amountInput = (min: 0 | 1) =>
  checked(numeric('a whole number'), (value) => checkWholeNumber(value, min));

export const currencyInput = checked(
  z.string({ error: expecting('expected a 3-letter currency code such as KES') }),
  checkCurrency,
);

export const httpUrlInput = checked(
  z.string({ error: expecting('expected an absolute http(s) URL string') }),
  checkHttpUrl,
);

export const cardNumberInput = checked(
  z.union([z.string(), z.number()], { error: expecting('expected the card number as a string') }),
  checkCardNumber,
);

export const expiryMonthInput = checked(
  z.union([z.number(), z.string()], { error: expecting('expected a month from 1 to 12') }),
  checkExpiryMonth,
);

export const expiryYearInput = checked(
  z.union([z.number(), z.string()], { error: expecting('expected a 4-digit year') }),
  checkExpiryYear,
);

export const cvcInput = checked(
  z.union([z.string(), z.number()], { error: expecting('expected 3 digits') }),
  checkCvc,
);

export const referenceIdInput = checked(numeric('12 digits'), checkReferenceId);

/** A non-negative safe integer given as a number or a digit string (order_id, product_id). */
export const integerIdInput = (what: string) =>
  checked(
    z.union([z.number(), z.string()], { error: expecting(`expected ${what} as an integer`) }),
    (value) => {
      const number = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
      return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0
        ? { ok: true as const, value: number }
        : {
            ok: false as const,
            code: 'invalid_integer',
            message: `expected ${what} as a whole number (JSON integer)`,
          };
    },
  );

// ---- wire side (spec §2 types) ----

export const phoneWire = (purpose: PhoneNumberPurpose) =>
  z.string().check(
    z.regex(purpose === 'payout' ? /^2547\d{8}$/ : /^254[71]\d{8}$/, {
      error: purpose === 'payout' ? 'expected 2547XXXXXXXX' : 'expected 2547XXXXXXXX or 2541XXXXXXXX',
    }),
  );

export const wholeNumberStringWire = (min: 0 | 1) =>
  z.string().check(
    z.regex(min === 1 ? /^[1-9]\d*$/ : /^(?:0|[1-9]\d*)$/, {
      error: `expected a string of a whole number of at least ${min}`,
    }),
  );

export const currencyWire = z
  .string()
  .check(z.regex(/^[A-Z]{3}$/, { error: 'expected a 3-letter upper-case currency code' }));

export const httpUrlWire = z.string().check(
  z.refine((value) => checkHttpUrl(value).ok, {
    error: 'expected an absolute http: or https: URL',
  }),
);

export const nonEmptyStringWire = z
  .string()
  .check(z.refine((value) => value !== '', { error: 'must not be empty' }));

/**
 * card_number on the wire: a JSON integer. Builders hold it as a digit string, which
 * the client's serialiser writes as a bare integer; a parser that has read the JSON may give a
 * safe integer or (via `parseJsonExact`) an exact digit string — both are accepted.
 */
export const cardNumberWire = z.union([z.string(), z.int()]).check(
  z.refine((value) => isValidCardNumber(String(value)) && !/\s|-/.test(String(value)), {
    error: 'expected 16 digits that pass the Luhn check',
  }),
);

/** An integer in [min, max] or a digit string matching `pattern`, with one message for both. */
const intOrDigits = (min: number, max: number, pattern: RegExp, error: string) =>
  z.union([z.int().check(z.gte(min), z.lte(max)), z.string().check(z.regex(pattern))], { error });

export const expiryMonthWire = intOrDigits(1, 12, /^(?:0?[1-9]|1[0-2])$/, 'expected a month from 1 to 12');

export const expiryYearWire = intOrDigits(1000, 9999, /^\d{4}$/, 'expected a 4-digit year');

export const cvcWire = intOrDigits(100, 999, /^\d{3}$/, 'expected 3 digits');

const referenceIdRule = { error: 'expected 12 digits, the first not 0' };
export const referenceIdWire = z
  .int()
  .check(z.gte(100_000_000_000, referenceIdRule), z.lte(999_999_999_999, referenceIdRule));
