/**
 * The verdict on a callback payload: which of the eight callbacks it is — and so whether the
 * money moved — or why it is refused. Every decision that can mark an order paid is made here,
 * in four steps, each a table below. Anything a step does not recognise is refused, never
 * guessed.
 *
 * **1. The shape picks the family** (first row whose key is present; never the message text or
 * the brand word, so `M-PESA` reads like `MOBILE-MONEY`):
 *
 * | keys (exact spelling)                                | family       |
 * |------------------------------------------------------|--------------|
 * | `payment method` or `amount captured` (with a space) | card         |
 * | `transaction_reference`, `amount_captured` or `transaction id` | mobile money |
 * | `order_id`                                           | checkout     |
 * | `payout_fee`, `wallet_balance` or `reference_id`     | payout       |
 * | none of these                                        | refused: `unknown_callback` (the closest variant is named) |
 *
 * **2. Every outcome signal of the family is read**:
 *
 * | signal | success | failure | card | mobile money | checkout | payout |
 * |---|---|---|---|---|---|---|
 * | shape | success key present | success key absent | `amount captured` | `amount_captured` | — | `payout_fee` |
 * | `payment status` / `payment_status` (each one present) | `Payment complete.` | `Payment incomplete.` | yes | yes | yes | when present |
 * | `paid` | `'True'` | `'False'` | yes | yes | yes | when present |
 * | `response_status` | 200 | any other integer | — | yes | — | — |
 * | `status` | `Success` | `Failed` | — | — | — | yes |
 *
 * Status words are read with surrounding blanks, letter case and the final dot ignored; `paid`
 * as a JSON boolean counts (with a `value_converted` warning). The card `status` and the
 * checkout `response_status` are 200 in every documented callback, success and failure alike:
 * they are not signals.
 *
 * **3. The signals decide**, top row first:
 *
 * | signals | verdict |
 * |---|---|
 * | one has a value not in the table above | refused: `unrecognised_status` |
 * | one the family documents is absent (shape aside) | refused: `missing_status` |
 * | all say success | `*.succeeded` (`paid: true`) |
 * | all say failure | `*.failed` (`paid: false`) |
 * | checkout, `payment_method` `CARD`, status says success, `paid` `'False'` (the contradiction the service documents) | `checkout.succeeded` with warning `paid_flag_contradicts_payment_status`; refused (`contradictory_outcome`) with `onContradiction: 'reject'` |
 * | any other mix | refused: `contradictory_outcome` |
 *
 * **4. The variant's schema and its amounts are checked** (`schemas.ts`, one zod schema per
 * callback): amounts (`amount`, `amount captured` / `amount_captured`, `payout_fee`) must be
 * plain decimals (`amount.ts`), or the payload is refused with `invalid_amount`; every other
 * documented key must have its documented type, or `invalid_payload`. A number where a numeric
 * string is documented, a numeric string where a number is, and a boolean for
 * `'True'`/`'False'` are converted to the documented type, each with a `value_converted`
 * warning. A `timestamp` too large to be a date leaves `occurredAt` absent, with a
 * `timestamp_out_of_range` warning.
 *
 * Refusal messages name the fields and, for outcome signals, their status words — never an
 * amount or any other payload content.
 *
 * @module
 */
import { formatIssues, type CallbackParseReason, type ValidationIssue } from '../errors.js';
import { readDecimal, sameAmount } from './amount.js';
import {
  PAID_FLAG_CONTRADICTION,
  callbackEventTypes,
  type CallbackEventType,
  type CallbackWarning,
} from './events.js';
import { callbackSchemas } from './schemas.js';

/** What {@link decideVerdict} says about one payload. */
export type Verdict =
  | {
      readonly accepted: true;
      readonly type: CallbackEventType;
      /** The payload with the documented value types (a copy when anything was converted). */
      readonly data: Record<string, unknown>;
      readonly warnings: readonly CallbackWarning[];
      /** From `timestamp`, when the payload has one that is a valid date. */
      readonly occurredAt: Date | undefined;
    }
  | {
      readonly accepted: false;
      readonly reason: CallbackParseReason;
      readonly message: string;
      readonly closestVariant: CallbackEventType | undefined;
      readonly issues: readonly ValidationIssue[];
    };

/** Options of {@link decideVerdict}: `parseCallback`'s. */
export interface VerdictOptions {
  readonly onContradiction?: 'warn' | 'reject' | undefined;
}

type Family = 'card' | 'mobile_money' | 'checkout' | 'payout';

const families: readonly (readonly [Family, readonly string[]])[] = [
  ['card', ['payment method', 'amount captured']],
  ['mobile_money', ['transaction_reference', 'amount_captured', 'transaction id']],
  ['checkout', ['order_id']],
  ['payout', ['payout_fee', 'wallet_balance', 'reference_id']],
];

const familyLabels: Readonly<Record<Family, string>> = {
  card: 'card payment',
  mobile_money: 'mobile-money payment',
  checkout: 'redirect checkout',
  payout: 'payout',
};

const eventTypes: Readonly<Record<Family, readonly [CallbackEventType, CallbackEventType]>> = {
  card: ['payment.card.succeeded', 'payment.card.failed'],
  mobile_money: ['payment.mobile_money.succeeded', 'payment.mobile_money.failed'],
  checkout: ['checkout.succeeded', 'checkout.failed'],
  payout: ['payout.succeeded', 'payout.failed'],
};

const variantLabels: Readonly<Record<CallbackEventType, string>> = {
  'payment.card.succeeded': 'card payment success',
  'payment.card.failed': 'card payment failure',
  'payment.mobile_money.succeeded': 'mobile-money payment success',
  'payment.mobile_money.failed': 'mobile-money payment failure',
  'checkout.succeeded': 'redirect checkout success',
  'checkout.failed': 'redirect checkout failure',
  'payout.succeeded': 'payout success',
  'payout.failed': 'payout failure',
};

const describeVariant = (type: CallbackEventType): string => `${variantLabels[type]} (${type})`;

const present = (payload: Record<string, unknown>, key: string): boolean => payload[key] !== undefined;

/**
 * Decides what a callback payload (a JSON object) is, following the tables of this module.
 * Never throws for a plain object; a hostile one (throwing getters) may throw.
 */
export function decideVerdict(payload: Record<string, unknown>, options?: VerdictOptions): Verdict {
  // 1. The shape picks the family.
  const family = families.find(([, keys]) => keys.some((key) => present(payload, key)))?.[0];
  if (family === undefined) return unknownCallback(payload);

  // 2 and 3. Every outcome signal is read, then they decide.
  const outcome = decideOutcome(family, readSignals(family, payload), payload, options);
  if ('reason' in outcome) return outcome;

  // 4. The variant's amounts and schema.
  const { type } = outcome;
  const amountIssues = checkAmounts(type, payload);
  if (amountIssues.length > 0) {
    return refuse(
      'invalid_amount',
      `Callback payload is not a valid ${describeVariant(type)}: ${formatIssues(amountIssues)}`,
      amountIssues,
      type,
    );
  }
  const read = readVariant(type, payload);
  if ('issues' in read) {
    return refuse(
      'invalid_payload',
      `Callback payload is not a valid ${describeVariant(type)}: ${formatIssues(read.issues)}`,
      read.issues,
      type,
    );
  }
  const warnings = [...read.warnings, ...outcome.warnings];
  const occurredAt = readTimestamp(read.data, warnings);
  return { accepted: true, type, data: read.data, warnings, occurredAt };
}

// --- 2. Outcome signals -------------------------------------------------------------------

type Says = 'success' | 'failure' | 'unrecognised' | 'missing';

/** One outcome signal as read: which field, what it says, and how to show it in a message. */
interface Signal {
  readonly field: string;
  readonly says: Says;
  /** The value as a message may show it: a status word, `'True'`, 406, `present` … */
  readonly shown: string;
  /** What the field may hold, for refusals. */
  readonly expected: string;
}

function readSignals(family: Family, payload: Record<string, unknown>): Signal[] {
  switch (family) {
    case 'card':
      return [
        shapeSignal(payload, 'amount captured'),
        ...paymentStatusSignals(payload, 'payment status'),
        paidSignal(payload),
      ];
    case 'mobile_money': {
      const shape = shapeSignal(payload, 'amount_captured');
      // The success payload spells it payment_status, the failure payload 'payment status'.
      const statusKey = shape.says === 'success' ? 'payment_status' : 'payment status';
      return [
        shape,
        ...paymentStatusSignals(payload, statusKey),
        paidSignal(payload),
        responseStatusSignal(payload),
      ];
    }
    case 'checkout':
      return [...paymentStatusSignals(payload, 'payment_status'), paidSignal(payload)];
    case 'payout':
      // Payouts document no payment status or paid flag; one that appears is read all the same.
      return [
        shapeSignal(payload, 'payout_fee'),
        payoutStatusSignal(payload),
        ...paymentStatusSignals(payload, undefined),
        ...(present(payload, 'paid') ? [paidSignal(payload)] : []),
      ];
  }
}

/** The success key of the family present (success shape) or absent (failure shape). */
function shapeSignal(payload: Record<string, unknown>, successKey: string): Signal {
  const has = present(payload, successKey);
  return {
    field: successKey,
    says: has ? 'success' : 'failure',
    shown: has ? 'present' : 'absent',
    expected: 'present on success, absent on failure',
  };
}

const PAYMENT_STATUS_EXPECTED = "'Payment complete.' or 'Payment incomplete.'";

/**
 * Both spellings are read wherever they appear; absent from both, the one the family documents
 * (if any) is missing.
 */
function paymentStatusSignals(payload: Record<string, unknown>, documentedKey: string | undefined): Signal[] {
  const keys = ['payment status', 'payment_status'].filter((key) => present(payload, key));
  if (keys.length === 0)
    return documentedKey === undefined ? [] : [missing(documentedKey, PAYMENT_STATUS_EXPECTED)];
  return keys.map((key) => {
    const value = payload[key];
    const word = typeof value === 'string' ? value.trim().toLowerCase().replace(/\.$/, '') : undefined;
    const says =
      word === 'payment complete' ? 'success' : word === 'payment incomplete' ? 'failure' : 'unrecognised';
    return { field: key, says, shown: show(value), expected: PAYMENT_STATUS_EXPECTED };
  });
}

function paidSignal(payload: Record<string, unknown>): Signal {
  const expected = "'True' or 'False'";
  if (!present(payload, 'paid')) return missing('paid', expected);
  const value = payload.paid;
  const says =
    value === 'True' || value === true
      ? 'success'
      : value === 'False' || value === false
        ? 'failure'
        : 'unrecognised';
  return { field: 'paid', says, shown: show(value), expected };
}

/** Mobile money only: 200 on success, a failure code (406 for insufficient funds) otherwise. */
function responseStatusSignal(payload: Record<string, unknown>): Signal {
  const expected = 'an integer: 200 on success, a failure code otherwise';
  if (!present(payload, 'response_status')) return missing('response_status', expected);
  const value = payload.response_status;
  const code =
    typeof value === 'number' && Number.isSafeInteger(value)
      ? value
      : typeof value === 'string' && /^(?:0|[1-9]\d{0,8})$/.test(value)
        ? Number(value)
        : undefined;
  const says = code === undefined ? 'unrecognised' : code === 200 ? 'success' : 'failure';
  return { field: 'response_status', says, shown: show(value), expected };
}

function payoutStatusSignal(payload: Record<string, unknown>): Signal {
  const expected = "'Success' or 'Failed'";
  if (!present(payload, 'status')) return missing('status', expected);
  const value = payload.status;
  const says = value === 'Success' ? 'success' : value === 'Failed' ? 'failure' : 'unrecognised';
  return { field: 'status', says, shown: show(value), expected };
}

const missing = (field: string, expected: string): Signal => ({
  field,
  says: 'missing',
  shown: 'absent',
  expected,
});

/**
 * A signal's value as a message may show it: status words and flags (letters, blanks, dots)
 * and three-digit codes are quoted; anything else — which could be a card number or other
 * payload content — is described by its type only.
 */
function show(value: unknown): string {
  if (typeof value === 'string' && /^[A-Za-z][A-Za-z .]{0,39}$/.test(value)) return `'${value}'`;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 999)
    return String(value);
  return `(${typeName(value)})`;
}

// --- 3. The decision ----------------------------------------------------------------------

type Outcome =
  | { readonly type: CallbackEventType; readonly warnings: CallbackWarning[] }
  | Extract<Verdict, { accepted: false }>;

function decideOutcome(
  family: Family,
  signals: readonly Signal[],
  payload: Record<string, unknown>,
  options: VerdictOptions | undefined,
): Outcome {
  const label = familyLabels[family];
  const [succeeded, failed] = eventTypes[family];

  const unrecognised = signals.filter((signal) => signal.says === 'unrecognised');
  if (unrecognised.length > 0) {
    return refuse(
      'unrecognised_status',
      `Callback outcome unknown: the ${label} callback has ` +
        unrecognised.map((s) => `${s.field} ${s.shown}, expected ${s.expected}`).join('; '),
      unrecognised.map((s) => signalIssue(s, 'unrecognised_status', `expected ${s.expected}`)),
    );
  }
  const absent = signals.filter((signal) => signal.says === 'missing');
  if (absent.length > 0) {
    return refuse(
      'missing_status',
      `Callback outcome unknown: the ${label} callback has no ` +
        absent.map((s) => `${s.field} (expected ${s.expected})`).join(', no '),
      absent.map((s) => signalIssue(s, 'missing_status', `required outcome signal is missing`)),
    );
  }

  if (signals.every((signal) => signal.says === 'success')) return { type: succeeded, warnings: [] };
  if (signals.every((signal) => signal.says === 'failure')) return { type: failed, warnings: [] };

  // The one contradiction the spec documents: the redirect card success with paid 'False'.
  const documented =
    family === 'checkout' &&
    signals.every((signal) =>
      signal.field === 'paid' ? signal.says === 'failure' : signal.says === 'success',
    ) &&
    typeof payload.payment_method === 'string' &&
    payload.payment_method.trim().toUpperCase() === 'CARD';
  const disagreement = signals.map((s) => `${s.field} ${s.shown} says ${s.says}`).join('; ');
  if (documented && options?.onContradiction !== 'reject') {
    return {
      type: succeeded,
      warnings: [
        {
          code: PAID_FLAG_CONTRADICTION,
          path: ['paid'],
          message:
            "paid: 'False' contradicts payment_status 'Payment complete.' (the redirect card success as documented)",
        },
      ],
    };
  }
  return refuse(
    'contradictory_outcome',
    documented
      ? `Callback outcome signals disagree (onContradiction: 'reject'): the ${label} callback's ${disagreement}`
      : `Callback outcome signals disagree: the ${label} callback's ${disagreement}`,
    signals.map((s) => signalIssue(s, 'contradictory_outcome', `says ${s.says}`)),
    documented ? succeeded : undefined,
  );
}

const signalIssue = (signal: Signal, code: CallbackParseReason, message: string): ValidationIssue => ({
  path: [signal.field],
  message,
  code,
});

// --- 4. Amounts and the variant's schema -------------------------------------------------

/** The keys holding money that moved; each must be a plain decimal (`amount.ts`). */
const AMOUNT_KEYS = ['amount', 'amount captured', 'amount_captured', 'payout_fee'];

function checkAmounts(type: CallbackEventType, payload: Record<string, unknown>): ValidationIssue[] {
  return amountKeys(type)
    .filter((key) => present(payload, key) && readDecimal(payload[key]) === undefined)
    .map((key) => ({
      path: [key],
      message: `expected a plain decimal number such as 1500 or 1500.50, got ${describeAmount(payload[key])}`,
      code: 'invalid_amount',
    }));
}

/** The amount keys of a variant's schema, read once per variant. */
const amountKeysByType = new Map<CallbackEventType, readonly string[]>();
function amountKeys(type: CallbackEventType): readonly string[] {
  let keys = amountKeysByType.get(type);
  if (keys === undefined) {
    keys = Object.keys(callbackSchemas[type].shape).filter((key) => AMOUNT_KEYS.includes(key));
    amountKeysByType.set(type, keys);
  }
  return keys;
}

/** What kind of non-decimal an amount is, without showing it. */
function describeAmount(value: unknown): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'a non-finite number';
    return value < 0 ? 'a negative number' : 'a number that does not print as a plain decimal';
  }
  if (typeof value !== 'string') return typeName(value);
  if (value === '') return 'an empty string';
  if (value.trim() !== value) return 'a padded string';
  if (/^[+-]/.test(value)) return 'a signed number';
  if (/^0x/i.test(value)) return 'a hexadecimal number';
  if (/,/.test(value)) return 'a grouped number';
  if (/^\d*\.?\d+e/i.test(value)) return 'a number with an exponent';
  if (/^0\d/.test(value)) return 'a zero-padded number';
  if (/^\d+(?:\.\d+)?$/.test(value)) return 'a number too large to be finite';
  return 'text that is not a number';
}

type Read =
  | { readonly data: Record<string, unknown>; readonly warnings: CallbackWarning[] }
  | { readonly issues: ValidationIssue[] };

/**
 * Checks the payload against its variant's zod schema. A value of a tolerated other type is
 * converted (on a copy) and checked again; anything else the schema reports is an issue.
 */
function readVariant(type: CallbackEventType, payload: Record<string, unknown>): Read {
  const schema = callbackSchemas[type];
  const first = schema.safeParse(payload);
  if (first.success) {
    return { data: isPlainObject(payload) ? payload : copyOwn(payload), warnings: [] };
  }
  const data = copyOwn(payload);
  const warnings: CallbackWarning[] = [];
  for (const issue of first.error.issues) {
    const key = issue.path.length === 1 ? issue.path[0] : undefined;
    if (typeof key !== 'string') continue;
    const conversion = tolerate(issue, data[key]);
    if (conversion === undefined) continue;
    data[key] = conversion.value;
    warnings.push({ code: 'value_converted', path: [key], message: `${key}: ${conversion.what}` });
  }
  const second = warnings.length === 0 ? first : schema.safeParse(data);
  if (!second.success) return { issues: second.error.issues.map((issue) => describeIssue(issue, data)) };
  return { data, warnings };
}

/** The slice of a zod issue read here. */
interface SchemaIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly expected?: unknown;
  readonly values?: readonly unknown[];
}

/** The documented type for a tolerated other one: number ↔ numeric string, boolean → 'True'/'False'. */
function tolerate(issue: SchemaIssue, value: unknown): { value: unknown; what: string } | undefined {
  if (issue.code === 'invalid_type' && issue.expected === 'string' && typeof value === 'number') {
    return Number.isFinite(value) ? { value: String(value), what: 'number converted to string' } : undefined;
  }
  if (issue.code === 'invalid_type' && (issue.expected === 'number' || issue.expected === 'int')) {
    // Only a lossless conversion: '999999999999999934464' would become 1e21.
    return typeof value === 'string' && sameAmount(value, Number(value))
      ? { value: Number(value), what: 'numeric string converted to number' }
      : undefined;
  }
  if (issue.code === 'invalid_value' && typeof value === 'boolean') {
    const word = value ? 'True' : 'False';
    return issue.values?.includes(word) ? { value: word, what: `boolean converted to '${word}'` } : undefined;
  }
  return undefined;
}

function describeIssue(issue: SchemaIssue, data: Record<string, unknown>): ValidationIssue {
  const path = issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
  const value = typeof path[0] === 'string' ? data[path[0]] : undefined;
  if (value === undefined) return { path, message: 'required key is missing', code: 'missing_key' };
  if (issue.code === 'invalid_type') {
    const expected = issue.expected === 'int' ? 'integer' : String(issue.expected);
    const got =
      typeof value === 'string' && readDecimal(value) !== undefined
        ? 'a numeric string that a JSON number cannot hold exactly'
        : typeName(value);
    return { path, message: `expected ${expected}, got ${got}`, code: 'invalid_type' };
  }
  if (issue.code === 'invalid_value') {
    const allowed = (issue.values ?? []).map((v) => `'${String(v)}'`).join(' or ');
    return { path, message: `expected ${allowed}`, code: 'invalid_value' };
  }
  return { path, message: 'invalid value', code: issue.code };
}

/** `timestamp` (unix seconds) → a valid Date; out of range → no date and a warning. */
function readTimestamp(data: Record<string, unknown>, warnings: CallbackWarning[]): Date | undefined {
  if (typeof data.timestamp !== 'number') return undefined;
  const date = new Date(data.timestamp * 1000);
  if (!Number.isNaN(date.getTime())) return date;
  warnings.push({
    code: 'timestamp_out_of_range',
    path: ['timestamp'],
    message: 'timestamp: too far from now to be a date; occurredAt is absent',
  });
  return undefined;
}

// --- 1. No family: the closest variant ----------------------------------------------------

/**
 * The variant with most of its keys present (fewest missing on a tie; the failure variant on
 * a tie within a family, since success and failure of checkout share every key), named in the
 * error with what its schema finds wrong.
 */
function unknownCallback(payload: Record<string, unknown>): Verdict {
  let closest: CallbackEventType | undefined;
  let bestPresent = 0;
  let bestMissing = Infinity;
  for (const type of callbackEventTypes) {
    const keys = Object.keys(callbackSchemas[type].shape);
    const found = keys.filter((key) => present(payload, key)).length;
    const lacking = keys.length - found;
    const sameFamilyTie =
      closest !== undefined &&
      closest.replace(/\.succeeded$/, '') === type.replace(/\.failed$/, '') &&
      found === bestPresent &&
      lacking === bestMissing;
    if (
      found > bestPresent ||
      (found === bestPresent && found > 0 && lacking < bestMissing) ||
      sameFamilyTie
    ) {
      closest = type;
      bestPresent = found;
      bestMissing = lacking;
    }
  }
  if (closest === undefined) {
    return refuse(
      'unknown_callback',
      'Callback payload matches none of the documented callbacks: it has none of their keys',
      [{ path: [], message: 'no documented callback key present', code: 'unknown_callback' }],
    );
  }
  const result = callbackSchemas[closest].safeParse(payload);
  const issues = result.success ? [] : result.error.issues.map((issue) => describeIssue(issue, payload));
  return refuse(
    'unknown_callback',
    `Callback payload matches none of the documented callbacks; closest is ${describeVariant(closest)}` +
      (issues.length > 0 ? `: ${formatIssues(issues)}` : ''),
    issues,
    closest,
  );
}

// --- Helpers --------------------------------------------------------------------------------

function refuse(
  reason: CallbackParseReason,
  message: string,
  issues: readonly ValidationIssue[],
  closestVariant?: CallbackEventType,
): Extract<Verdict, { accepted: false }> {
  return { accepted: false, reason, message, closestVariant, issues };
}

const typeName = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

const isPlainObject = (value: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** Shallow own-key copy that cannot set a prototype (`__proto__` is defined, not assigned). */
function copyOwn(source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    Object.defineProperty(out, key, {
      value: source[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
