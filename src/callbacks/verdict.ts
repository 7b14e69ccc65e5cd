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
 * | `response_status` | 200 | any other code (a whole number from 0, at most 9 digits) | — | yes | — | — |
 * | `status` | `Success` | `Failed` | — | — | — | yes |
 *
 * Status words are read with surrounding ASCII blanks (space, tab, line breaks; not NBSP or other
 * Unicode blanks), ASCII letter case and the final dot ignored; `paid` must be exact, though as a
 * JSON boolean it counts (with a `value_converted` warning). The card `status` and the
 * checkout `response_status` are 200 in every documented callback, success and failure alike:
 * they decide nothing, and any other value is `unrecognised` (no documented callback).
 *
 * Every other key that names a signal is read too, as the signal it names: another family's
 * status key (`response_status` in a card payload, `status` in a mobile-money one), or a signal
 * key spelt another way (`Paid`, `paymentStatus`, `payment.status`, `response status`: letter
 * case and all but ASCII letters and digits ignored). A `status` outside a payout is read as
 * `Success` / `Failed` or as a code (200 success, any other code failure). Such a signal can only
 * agree or make the outcome undecidable; it is never required. A key with any character outside
 * printable ASCII is refused (`invalid_payload`), and a success's undocumented keys that say
 * otherwise make it contradictory (see `otherOutcome`).
 *
 * **3. The signals decide**, top row first:
 *
 * | signals | verdict |
 * |---|---|
 * | one has a value not in the table above | refused: `unrecognised_status` |
 * | one the family documents is absent (shape aside) | refused: `missing_status` |
 * | all say success | `*.succeeded` (`paid: true`) |
 * | all say failure | `*.failed` (`paid: false`) |
 * | checkout, `payment_method` `CARD` (ASCII case and blanks ignored; not `NOT_CARD`), status says success, `paid` `'False'`, `message` a success text ({@link isSuccessText}) (the contradiction the service documents) | `checkout.succeeded` with warning `paid_flag_contradicts_payment_status`; refused (`contradictory_outcome`) with `onContradiction: 'reject'`, or when the message is no success text |
 * | any other mix | refused: `contradictory_outcome` |
 * | any callback naming two currencies that differ other than in ASCII letter case (`currency` and `Currency`, `currency_code`, …; a `null` one differs; checked after step 4) | refused: `invalid_payload` |
 * | card or mobile-money success whose captured amount (`amount captured` / `amount_captured`) is not its `amount` (checked after step 4) | refused: `contradictory_outcome` (a zero, partial or excess capture) |
 * | any success whose `amount` is zero (checked after step 4) | refused: `contradictory_outcome` (paid for nothing) |
 * | any success whose `message` reads otherwise ({@link notSuccessWord}: a failure word, a negation, `false`, `?`; or outside printable ASCII; after step 4) | refused: `contradictory_outcome` |
 * | any success with another key naming the amount paid (`Amount`, `amountCaptured`, `amount_paid`, `amount_received`, `captured`; a payment's `total`) that is not its `amount` (after step 4) | refused: `contradictory_outcome` |
 * | any success with an undocumented key that says otherwise (`is_paid: 'False'`, `success: 'failed'`, `unpaid: true`, `error: 'Declined'`, `state: 'failed'`, `status_code: 406`, `data.paid`, `data[0].paid`; `otherOutcome`, after step 4) | refused: `contradictory_outcome` |
 * | any failure whose `message` is a statement of success, or with an undocumented key that says success (`Payout Successful`, `Payout Sent`, `payout_status: 'Success'`, `is_paid: true`; `failureContradiction`, after step 4) | refused: `contradictory_outcome` |
 * | any failure whose `message` is a statement of a payment not final yet, or with an undocumented key that says so (`Pending`, `payout_status: 'Processing'`, `pending: true`; `failureContradiction`, after step 4) | refused: `contradictory_outcome` |
 * | any callback with two keys of one form (`payment_method` and `payment method`) whose values differ (after step 4) | refused: `invalid_payload` |
 *
 * **4. The variant's schema and its amounts are checked** (`schemas.ts`, one zod schema per
 * callback): amounts (`amount`, `amount captured` / `amount_captured`, `payout_fee`) must be
 * plain decimals (`amount.ts`; a JSON number only when exact, and as its text wrote it when the
 * payload was read from text: no exponent, no digits `JSON.parse` rounded), or the payload is refused with
 * `invalid_amount`; every other documented key must have its documented type, and `currency`
 * three ASCII letters (either case), or `invalid_payload`. A number where a string is
 * documented (only when it prints as an exact plain decimal, as amounts must, and is read as
 * written, as they are), a numeric string
 * where a number is (only when exact), and a boolean for `'True'`/`'False'` are converted to the
 * documented type, each with a `value_converted` warning. A `timestamp` is Unix
 * seconds: one outside 1970–9999 (a negative one, or milliseconds) leaves `occurredAt` absent,
 * with a `timestamp_out_of_range` warning.
 *
 * Refusal messages name the fields and, for outcome signals, their status words — never an
 * amount or any other payload content.
 *
 * @module
 */
import {
  CallbackParseError,
  formatIssues,
  type CallbackParseReason,
  type ValidationIssue,
} from '../errors.js';
import { numberLiteralProblem, readDecimal, sameAmount, sameCurrency } from './amount.js';
import {
  PAID_FLAG_CONTRADICTION,
  callbackEventTypes,
  type CallbackEventType,
  type CallbackWarning,
} from './events.js';
import { callbackSchemas, integer } from './schemas.js';
import {
  isNotFinalStatement,
  isSuccessStatement,
  isSuccessText,
  NOT_PRINTABLE_ASCII,
  notSuccessWord,
} from '../internal/failure-words.js';
import { isNameLike, isPlainObject, keyShown, typeName } from '../internal/values.js';

/** A payload {@link decideVerdict} accepts: which callback it is, and its data. */
export interface AcceptedCallback {
  readonly type: CallbackEventType;
  /** The payload with the documented value types (a copy when anything was converted). */
  readonly data: Record<string, unknown>;
  readonly warnings: readonly CallbackWarning[];
  /** From `timestamp`, when the payload has one that is a valid date. */
  readonly occurredAt: Date | undefined;
  /** The currency the payload names, under any spelling ({@link currencyEntries}), when it names one. */
  readonly currency: string | undefined;
}

/** Options of {@link decideVerdict}: `parseCallback`'s. */
export interface VerdictOptions {
  readonly onContradiction?: 'warn' | 'reject' | undefined;
  /**
   * The number literals of the payload's own keys as its text wrote them, when the payload was
   * read from text (`JSON.parse` rounds a number before anything sees it); asked for only when a
   * JSON number is read (an amount, an integer, or a number standing for a documented string).
   */
  readonly numberLiterals?: (() => ReadonlyMap<string, string> | undefined) | undefined;
}

/**
 * The `onContradiction` option as given: `'warn'` (also when unset) or `'reject'`; anything else
 * is a `TypeError` — a misspelt `'Reject'` must not quietly accept the contradiction.
 */
export function contradictionPolicy(where: string, value: unknown): 'warn' | 'reject' {
  if (value === undefined || value === 'warn') return 'warn';
  if (value === 'reject') return 'reject';
  const got = typeof value === 'string' ? `'${value}'` : value === null ? 'null' : typeof value;
  throw new TypeError(`${where}: onContradiction must be 'warn' or 'reject', got ${got}`);
}

type Family = 'card' | 'mobile_money' | 'checkout' | 'payout';

interface FamilyRow {
  readonly family: Family;
  /** Step 1: any of these keys present picks the family. */
  readonly keys: readonly string[];
  /** The family's name in messages. */
  readonly label: string;
  readonly succeeded: CallbackEventType;
  readonly failed: CallbackEventType;
  /** The key of the amount a success captured, which must be its amount. */
  readonly captured?: string | undefined;
}

const families: readonly FamilyRow[] = [
  {
    family: 'card',
    keys: ['payment method', 'amount captured'],
    label: 'card payment',
    succeeded: 'payment.card.succeeded',
    failed: 'payment.card.failed',
    captured: 'amount captured',
  },
  {
    family: 'mobile_money',
    keys: ['transaction_reference', 'amount_captured', 'transaction id'],
    label: 'mobile-money payment',
    succeeded: 'payment.mobile_money.succeeded',
    failed: 'payment.mobile_money.failed',
    captured: 'amount_captured',
  },
  {
    family: 'checkout',
    keys: ['order_id'],
    label: 'redirect checkout',
    succeeded: 'checkout.succeeded',
    failed: 'checkout.failed',
  },
  {
    family: 'payout',
    keys: ['payout_fee', 'wallet_balance', 'reference_id'],
    label: 'payout',
    succeeded: 'payout.succeeded',
    failed: 'payout.failed',
  },
];

/** Each variant as messages name it: `card payment success (payment.card.succeeded)`. */
const variantNames = Object.fromEntries(
  families.flatMap(({ label, succeeded, failed }) => [
    [succeeded, `${label} success (${succeeded})`],
    [failed, `${label} failure (${failed})`],
  ]),
) as Readonly<Record<CallbackEventType, string>>;

const present = (payload: Record<string, unknown>, key: string): boolean => payload[key] !== undefined;

/**
 * Whether `data`, or a plain object in it down to the depth {@link otherOutcome} reads, has a key
 * holding a character outside printable ASCII.
 */
const hasUnreadableKey = (data: Readonly<Record<string, unknown>>, depth: number): boolean =>
  Object.entries(data).some(
    ([key, value]) =>
      NOT_PRINTABLE_ASCII.test(key) ||
      (depth < 2 && isPlainObject(value) && hasUnreadableKey(value as Record<string, unknown>, depth + 1)),
  );

/**
 * Decides what a callback payload (a JSON object) is, following the tables of this module: the
 * accepted callback, or the error saying why it is refused. Never throws for a plain object; a
 * hostile one (throwing getters) may throw.
 */
export function decideVerdict(
  payload: Record<string, unknown>,
  options?: VerdictOptions,
): AcceptedCallback | CallbackParseError {
  // A key in look-alike letters or invisible characters (`paid\u200b`, `ＰＡＩＤ`) could be a
  // signal no form of a key reads: no documented key is anything but printable ASCII. Also in the
  // objects the verdict reads, two levels down (`data: { 'p\u0430id': 'False' }`).
  if (hasUnreadableKey(payload, 0)) {
    return refuse(
      'invalid_payload',
      'Callback payload has a key holding a character outside printable ASCII (a look-alike letter, an invisible or a control character): which field it means cannot be known',
      [{ path: [], message: 'a key holds a character outside printable ASCII', code: 'invalid_payload' }],
    );
  }

  // 1. The shape picks the family.
  const row = families.find(({ keys }) => keys.some((key) => present(payload, key)));
  if (row === undefined) return unknownCallback(payload);

  // 2 and 3. Every outcome signal is read, then they decide.
  const outcome = decideOutcome(row, readSignals(row.family, payload), payload, options);
  if (outcome instanceof CallbackParseError) return outcome;

  // 4. The variant's amounts and schema.
  const { type } = outcome;
  const amountIssues = checkAmounts(type, payload, options?.numberLiterals);
  if (amountIssues.length > 0) return notValid('invalid_amount', type, amountIssues);
  const integerIssues = checkIntegers(type, payload, options?.numberLiterals);
  if (integerIssues.length > 0) return notValid('invalid_payload', type, integerIssues);
  const read = readVariant(type, payload, options?.numberLiterals);
  if ('issues' in read) return notValid('invalid_payload', type, read.issues);
  // Every currency the payload names, under any spelling, is one three-letter code, the same.
  const [first, ...more] = currencyEntries(read.data);
  const other =
    first && !(typeof first[1] === 'string' && /^[A-Za-z]{3}$/.test(first[1]))
      ? first
      : more.find(([, value]) => !sameText(value, first![1]));
  if (other !== undefined) {
    return notValid('invalid_payload', type, [
      other === first
        ? keyIssue(other[0], 'expected a 3-letter currency code such as KES', 'invalid_currency')
        : keyIssue(other[0], 'names another currency than the payload names elsewhere', 'invalid_payload'),
    ]);
  }
  const partial =
    type === row.failed
      ? failureContradiction(row, type, read.data)
      : successContradiction(row, type, read.data);
  if (partial !== undefined) return partial;
  const twin = disagreeingTwin(read.data);
  if (twin !== undefined) return notValid('invalid_payload', type, [twin]);
  const warnings = [...read.warnings, ...outcome.warnings];
  const occurredAt = readTimestamp(read.data, warnings);
  return { type, data: read.data, warnings, occurredAt, currency: first?.[1] as string | undefined };
}

// --- 2. Outcome signals -------------------------------------------------------------------

type Says = 'success' | 'failure' | 'unrecognised' | 'missing';

/** One outcome signal as read. */
interface Signal {
  readonly field: string;
  readonly says: Says;
  /** What the field may hold, for refusals. */
  readonly expected: string;
  /** The field's value; a message shows it only through {@link shown}. */
  readonly value: unknown;
  /** The family's shape: a message says `present` or `absent`, never the value (an amount). */
  readonly shape?: true | undefined;
}

const PAYMENT_STATUS = "'Payment complete.' or 'Payment incomplete.'";

/** Reads a value that is one of `success`, one of `failure`, or neither. */
const oneOf =
  (success: readonly unknown[], failure: readonly unknown[]) =>
  (value: unknown): Says =>
    success.includes(value) ? 'success' : failure.includes(value) ? 'failure' : 'unrecognised';

const readPaid = oneOf(['True', true], ['False', false]);
const readPayoutStatus = oneOf(['Success'], ['Failed']);
/**
 * Status words: ASCII blanks around (not NBSP or other Unicode blanks), ASCII letter case and the
 * final dot ignored.
 */
const readPaymentStatus = (value: unknown): Says => {
  const word = typeof value === 'string' ? /^[\t-\r ]*payment (in)?complete\.?[\t-\r ]*$/i.exec(value) : null;
  return word === null ? 'unrecognised' : word[1] === undefined ? 'success' : 'failure';
};

/**
 * True when a payment method word is `CARD`, ignoring ASCII letter case and ASCII blanks around it;
 * `NOT_CARD`, `CARDANO` or `\u00a0CARD` are not. Any other word is a mobile-money brand word.
 */
export const isCardMethod = (method: unknown): boolean =>
  typeof method === 'string' && /^[\t-\r ]*card[\t-\r ]*$/i.test(method);

function readSignals(family: Family, payload: Record<string, unknown>): Signal[] {
  const signals = documentedSignals(family, payload);
  // Every other key that names a signal — another family's status key, or a signal key spelt
  // another way — is read as well: it can only agree or make the outcome undecidable.
  const skip = NOT_SIGNALS[family];
  // That key is 200 in every documented callback: any other value is no documented callback.
  if (skip !== undefined && present(payload, skip) && readResponseStatus(payload[skip]) !== 'success') {
    signals.push({
      field: skip,
      says: 'unrecognised',
      expected: '200 (in every documented callback)',
      value: payload[skip],
    });
  }
  for (const key of Object.keys(payload)) {
    if (key === skip) continue;
    const name = signalName(key);
    if (name === undefined || signals.some((read) => read.field === key)) continue;
    const [expected, readValue] =
      name === 'status' && family !== 'payout' ? STRAY_STATUS : SIGNAL_READERS[name];
    signals.push(signal(payload, key, expected, readValue));
  }
  return signals;
}

/** The signals the family's table lists, `missing` where one is absent. */
function documentedSignals(family: Family, payload: Record<string, unknown>): Signal[] {
  switch (family) {
    case 'card':
      return [
        shapeSignal(payload, 'amount captured'),
        ...paymentStatus(payload, 'payment status'),
        documented(payload, 'paid'),
      ];
    case 'mobile_money': {
      const shape = shapeSignal(payload, 'amount_captured');
      // The success payload spells it payment_status, the failure payload 'payment status'.
      const statusKey = shape.says === 'success' ? 'payment_status' : 'payment status';
      return [
        shape,
        ...paymentStatus(payload, statusKey),
        documented(payload, 'paid'),
        documented(payload, 'response_status'),
      ];
    }
    case 'checkout':
      return [...paymentStatus(payload, 'payment_status'), documented(payload, 'paid')];
    case 'payout':
      return [shapeSignal(payload, 'payout_fee'), documented(payload, 'status')];
  }
}

type SignalName = 'paid' | 'payment_status' | 'response_status' | 'status';

/**
 * The forms of the keys seen so far: every key of every delivery is read by its form up to three
 * times (signals, currencies, the handler's reference keys), and a callback's keys are a handful
 * of the same few. Bounded: 256 keys of at most 64 characters; any other key is worked out again.
 */
const keyForms = new Map<string, string>();

/** A key as the verdict reads one by name: letter case, and all but ASCII letters and digits, taken out. */
export function keyForm(key: string): string {
  let form = keyForms.get(key);
  if (form === undefined) {
    form = key.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
    if (key.length <= 64 && keyForms.size < 256) keyForms.set(key, form);
  }
  return form;
}

/** The signal a key names, read by its {@link keyForm}; or undefined. */
const signalName = (key: string): SignalName | undefined => SIGNAL_NAMES.get(keyForm(key));

/** Signal keys with case, blanks, '_' and '-' taken out → the signal they name. */
const SIGNAL_NAMES: ReadonlyMap<string, SignalName> = new Map(
  (['paid', 'payment_status', 'response_status', 'status'] as const).map((name) => [keyForm(name), name]),
);

/** What each signal may hold, and how its value is read. */
const SIGNAL_READERS: Readonly<Record<SignalName, readonly [string, (value: unknown) => Says]>> = {
  paid: ["'True' or 'False'", readPaid],
  payment_status: [PAYMENT_STATUS, readPaymentStatus],
  response_status: ['an integer: 200 on success, a failure code otherwise', readResponseStatus],
  status: ["'Success' or 'Failed'", readPayoutStatus],
};

/** A `status` outside a payout: a payout's words, or a code like `response_status`. */
const STRAY_STATUS: readonly [string, (value: unknown) => Says] = [
  "'Success' or 'Failed', or 200 on success and a failure code otherwise",
  (value) => {
    const word = readPayoutStatus(value);
    return word === 'unrecognised' ? readResponseStatus(value) : word;
  },
];

/**
 * The keys a family documents that are not signals: the card `status` and the checkout
 * `response_status` are 200 in every described callback, success and failure alike.
 */
const NOT_SIGNALS: Readonly<Partial<Record<Family, string>>> = {
  card: 'status',
  checkout: 'response_status',
};

/**
 * The payment status in either spelling, each one present read; absent from both, the one the
 * family documents is missing.
 */
function paymentStatus(payload: Record<string, unknown>, documentedKey: string): Signal[] {
  const keys = ['payment status', 'payment_status'].filter((key) => present(payload, key));
  return (keys.length > 0 ? keys : [documentedKey]).map((key) => documented(payload, key));
}

/** A documented signal of the family (a key as the tables spell it), read through its reader. */
function documented(payload: Record<string, unknown>, field: string): Signal {
  const [expected, readValue] = SIGNAL_READERS[signalName(field)!];
  return signal(payload, field, expected, readValue);
}

/** The field's signal, `missing` when it is absent. */
function signal(
  payload: Record<string, unknown>,
  field: string,
  expected: string,
  read: (value: unknown) => Says,
): Signal {
  const value = payload[field];
  return { field, says: value === undefined ? 'missing' : read(value), expected, value };
}

/** The success key of the family present (success shape) or absent (failure shape). */
const shapeSignal = (payload: Record<string, unknown>, successKey: string): Signal => ({
  field: successKey,
  says: present(payload, successKey) ? 'success' : 'failure',
  expected: 'present on success, absent on failure',
  value: undefined,
  shape: true,
});

/** The largest code: nine digits, in a number as in a string. */
const MAX_CODE = 999_999_999;

/**
 * Mobile money only: 200 on success, a failure code (406 for insufficient funds) otherwise. A code
 * is a whole number from 0 with at most nine digits, given as a number or a string of digits.
 */
function readResponseStatus(value: unknown): Says {
  const code =
    typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_CODE
      ? value
      : typeof value === 'string' && /^(?:0|[1-9]\d{0,8})$/.test(value)
        ? Number(value)
        : undefined;
  return code === undefined ? 'unrecognised' : code === 200 ? 'success' : 'failure';
}

/**
 * A signal's value as a message may show it: status words and flags (letters, blanks, dots)
 * and three-digit codes are quoted; anything else — which could be a card number or other
 * payload content — is described by its type only. The shape is `present` or `absent`.
 */
function shown({ shape, says, value }: Signal): string {
  if (shape) return says === 'success' ? 'present' : 'absent';
  if (typeof value === 'string' && /^[A-Za-z][A-Za-z .]{0,39}$/.test(value)) return `'${value}'`;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 999)
    return String(value);
  return `(${typeName(value)})`;
}

// --- 3. The decision ----------------------------------------------------------------------

type Outcome =
  { readonly type: CallbackEventType; readonly warnings: readonly CallbackWarning[] } | CallbackParseError;

function decideOutcome(
  { family, label, succeeded, failed }: FamilyRow,
  signals: readonly Signal[],
  payload: Record<string, unknown>,
  options: VerdictOptions | undefined,
): Outcome {
  const unrecognised = signals.filter((signal) => signal.says === 'unrecognised');
  if (unrecognised.length > 0) {
    return refuse(
      'unrecognised_status',
      `Callback outcome unknown: the ${label} callback has ` +
        unrecognised.map((s) => `${s.field} ${shown(s)}, expected ${s.expected}`).join('; '),
      signalIssues(unrecognised, 'unrecognised_status', (s) => `expected ${s.expected}`),
    );
  }
  const absent = signals.filter((signal) => signal.says === 'missing');
  if (absent.length > 0) {
    return refuse(
      'missing_status',
      `Callback outcome unknown: the ${label} callback has no ` +
        absent.map((s) => `${s.field} (expected ${s.expected})`).join(', no '),
      signalIssues(absent, 'missing_status', () => 'required outcome signal is missing'),
    );
  }

  if (signals.every((signal) => signal.says === 'success')) return { type: succeeded, warnings: [] };
  if (signals.every((signal) => signal.says === 'failure')) return { type: failed, warnings: [] };

  // The one contradiction the spec documents: the redirect card success with paid 'False'. With
  // paid saying failure, payment_status alone says paid: its message must say so too, as the
  // documented one does ('Card Payment Successful'), or the two signals decide nothing.
  const documented =
    family === 'checkout' &&
    signals.every((signal) =>
      signal.field === 'paid' ? signal.says === 'failure' : signal.says === 'success',
    ) &&
    isCardMethod(payload.payment_method);
  if (documented && !(typeof payload.message === 'string' && isSuccessText(payload.message))) {
    return refuse(
      'contradictory_outcome',
      `Callback outcome signals disagree: the ${label} callback's paid 'False' says failure, and its message is no success text (the card success the API reference documents says 'Card Payment Successful')`,
      [
        { path: ['paid'], message: 'says failure', code: 'contradictory_outcome' },
        { path: ['message'], message: 'is no success text', code: 'contradictory_outcome' },
      ],
      succeeded,
    );
  }
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
    `Callback outcome signals disagree${documented ? " (onContradiction: 'reject')" : ''}: the ${label} callback's ` +
      signals.map((s) => `${s.field} ${shown(s)} says ${s.says}`).join('; '),
    signalIssues(signals, 'contradictory_outcome', (s) => `says ${s.says}`),
    documented ? succeeded : undefined,
  );
}

const signalIssues = (
  signals: readonly Signal[],
  code: CallbackParseReason,
  message: (signal: Signal) => string,
): ValidationIssue[] => signals.map((signal) => ({ path: [signal.field], message: message(signal), code }));

// --- 4. Amounts and the variant's schema -------------------------------------------------

/** The keys holding money that moved; each that the variant's schema has must be a plain decimal. */
const AMOUNT_KEYS = ['amount', 'amount captured', 'amount_captured', 'payout_fee'];

function checkAmounts(
  type: CallbackEventType,
  payload: Record<string, unknown>,
  literals: (() => ReadonlyMap<string, string> | undefined) | undefined,
): ValidationIssue[] {
  const { shape } = callbackSchemas[type];
  const issues: ValidationIssue[] = [];
  for (const key of AMOUNT_KEYS) {
    if (!(key in shape) || !present(payload, key)) continue;
    const value = payload[key];
    const got =
      readDecimal(value) === undefined ? describeAmount(value) : literalProblem(literals, key, value);
    if (got === undefined) continue;
    issues.push({
      path: [key],
      message: `expected a plain decimal number such as 1500 or 1500.50, got ${got}`,
      code: 'invalid_amount',
    });
  }
  return issues;
}

/** What kind of non-decimal an amount is, without showing it. */
function describeAmount(value: unknown): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'a non-finite number';
    return value < 0 || Object.is(value, -0)
      ? 'a negative number'
      : 'a number that does not print as an exact plain decimal';
  }
  if (typeof value !== 'string') return typeName(value);
  if (value === '') return 'an empty string';
  if (value.trim() !== value) return 'a padded string';
  if (/^[+-]/.test(value)) return 'a signed number';
  if (/^0x/i.test(value)) return 'a hexadecimal number';
  if (/,/.test(value)) return 'a grouped number';
  // Not \d*\.?\d+e: that splits a long run of digits every way, quadratic in its length.
  if (/^(?:\d+(?:\.\d+)?|\.\d+)e/i.test(value)) return 'a number with an exponent';
  if (/^0\d/.test(value)) return 'a zero-padded number';
  if (/^\d+(?:\.\d+)?$/.test(value)) return 'a number too large to be finite';
  return 'text that is not a number';
}

/** Each type's keys whose schema is the integer one, worked out once rather than per callback. */
const integerKeys = Object.fromEntries(
  callbackEventTypes.map((type) => {
    const { shape } = callbackSchemas[type] as unknown as { shape: Record<string, unknown> };
    return [type, Object.keys(shape).filter((key) => shape[key] === integer)];
  }),
) as unknown as Record<CallbackEventType, readonly string[]>;

/**
 * The integers (`status`, `response_status`, `timestamp`) and every other number under a key that
 * names a signal (`Response Status`, another family's `response_status`) as their text wrote them,
 * when it is at hand: `199.99999999999999999` is read as 200 by `JSON.parse`, and each is an
 * outcome signal.
 */
function checkIntegers(
  type: CallbackEventType,
  payload: Record<string, unknown>,
  literals: (() => ReadonlyMap<string, string> | undefined) | undefined,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const signalKeys = Object.keys(payload).filter(
    (key) =>
      typeof payload[key] === 'number' && signalName(key) !== undefined && !integerKeys[type].includes(key),
  );
  for (const key of [...integerKeys[type], ...signalKeys]) {
    const problem = literalProblem(literals, key, payload[key]);
    if (problem !== undefined) {
      issues.push({ path: [key], message: `expected integer, got ${problem}`, code: 'invalid_type' });
    }
  }
  return issues;
}

/**
 * A success that its own data contradicts, refused like signals that disagree (`undefined` when
 * none does), checked in this order:
 * - A success is paid in full: its captured amount (card `amount captured`, mobile-money
 *   `amount_captured`) must be its `amount`. A zero, partial or excess capture leaves what was
 *   paid unknown — the amounts are not shown.
 * - A success moved money: one of zero (`0`, `0.00`) says paid for nothing, so it is refused
 *   rather than reported paid to a merchant who checks no amount.
 * - A success whose message reads as a failure's: the message is a signal the table cannot
 *   overrule.
 */
function successContradiction(
  { family, label, captured, succeeded }: FamilyRow,
  type: CallbackEventType,
  data: Record<string, unknown>,
): CallbackParseError | undefined {
  if (type !== succeeded) return undefined;
  // `does` follows `the ${label} callback` in the error's message; `message` is the issue's.
  const contradiction = (key: string, does: string, message: string): CallbackParseError =>
    refuse(
      'contradictory_outcome',
      `Callback outcome signals disagree: the ${label} callback${does}`,
      [{ path: [key], message, code: 'contradictory_outcome' }],
      type,
    );
  if (captured !== undefined && !sameAmount(data[captured], data.amount)) {
    return contradiction(
      captured,
      `'s ${captured} is not its amount (a zero, partial or excess capture)`,
      'is not the amount',
    );
  }
  if (sameAmount(data.amount, 0)) {
    return contradiction('amount', ' says success with an amount of zero', 'is zero on a success');
  }
  if (typeof data.message === 'string' && NOT_PRINTABLE_ASCII.test(data.message)) {
    return contradiction(
      'message',
      ' says success with a message holding a character outside printable ASCII (a look-alike letter or an invisible character can hide a failure word)',
      'holds a character outside printable ASCII',
    );
  }
  const word = typeof data.message === 'string' ? notSuccessWord(data.message) : undefined;
  if (word !== undefined) {
    return contradiction(
      'message',
      // The word as written, unless it could carry a number (`fail4242…`) or run long.
      ` says success with a message that reads as a failure${/^[a-z ]{1,32}$/i.test(word) ? ` ('${word}')` : ''}`,
      "reads as a failure's on a success",
    );
  }
  const amountForms = family === 'payout' ? AMOUNT_FORMS : PAYMENT_AMOUNT_FORMS;
  for (const [key, value] of Object.entries(data)) {
    if (key === 'amount' || !amountForms.has(keyForm(key)) || sameAmount(value, data.amount)) continue;
    // `captured` may be a flag instead: yes in words (`1` is an amount here).
    if (
      keyForm(key) === 'captured' &&
      (value === true || (typeof value === 'string' && /^\s*(?:true|yes)\s*$/i.test(value)))
    )
      continue;
    return contradiction(key, `'s ${keyShown(key)} is not its amount`, 'is not the amount');
  }
  const unread = otherOutcome(data, undocumented(type), 0, saysOtherwise)?.key;
  if (unread !== undefined) {
    return contradiction(
      isNameLike(unread) ? unread : '',
      ` says success, and its ${keyShown(unread)} says otherwise (an outcome signal the API reference does not document)`,
      'says otherwise on a success',
    );
  }
  return undefined;
}

/** Skips the keys the verdict has read: the variant's documented keys and every signal key. */
const undocumented =
  (type: CallbackEventType) =>
  (key: string): boolean =>
    Object.hasOwn(callbackSchemas[type].shape, key) || signalName(key) !== undefined;

/**
 * Whether a failure callback also says it succeeded or is not final yet: its `message`, else the
 * first undocumented key, is a statement of success ({@link saysSuccess}: `Payout Successful`,
 * `payout_status: 'Success'`, `is_paid: true`, `data.paid: 'True'`) or of a payment not final
 * ({@link saysNotFinal}: `Pending`, `pending: true`). Read as a failure, a payout would be paid
 * again and its genuine success refused as the other outcome.
 */
function failureContradiction(
  { label }: FamilyRow,
  type: CallbackEventType,
  data: Record<string, unknown>,
): CallbackParseError | undefined {
  const readsAs = (form: string, value: unknown): 'a success' | 'not final yet' | false =>
    saysSuccess(form, value) ? 'a success' : saysNotFinal(form, value) && 'not final yet';
  const message = typeof data.message === 'string' && readsAs('message', data.message);
  const found = message
    ? { key: 'message', says: message }
    : otherOutcome(data, undocumented(type), 0, readsAs);
  if (found === undefined) return undefined;
  const { key, says } = found;
  return refuse(
    'contradictory_outcome',
    `Callback outcome signals disagree: the ${label} callback says failure, and its ${keyShown(key)} reads as ${says}`,
    [
      {
        path: isNameLike(key) ? [key] : [],
        message: `reads as ${says === 'a success' ? "a success's" : 'not final'} on a failure`,
        code: 'contradictory_outcome',
      },
    ],
    type,
  );
}

/**
 * Keys naming the amount a payment moved (`Amount Captured`, `amountCaptured`, `amount_paid`,
 * `amount_received`, `captured`), by form. Not a net, settled or authorised amount: each may
 * differ from what was paid (fees, another currency, an authorisation for more).
 */
const AMOUNT_FORMS: ReadonlySet<string> = new Set(
  ['captured', 'capture', 'paid', 'received', 'collected', 'charged'].flatMap((what) => [
    `amount${what}`,
    `${what}amount`,
  ]),
)
  .add('amount')
  .add('captured');

/** {@link AMOUNT_FORMS} and, for a payment, its total (a payout's may hold its fee). */
const PAYMENT_AMOUNT_FORMS: ReadonlySet<string> = new Set([
  ...AMOUNT_FORMS,
  'total',
  'totalamount',
  'amounttotal',
  'totalpaid',
]);

/** A value that says yes: `true`, `1`, `'True'`, `'yes'`, `'1'`, `'Success'`, `'OK'`. */
const saysYes = (value: unknown): boolean =>
  value === true ||
  value === 1 ||
  (typeof value === 'string' && /^\s*(?:true|yes|y|1|ok|success(?:ful)?)\s*$/i.test(value));

/** A value that says no: `false`, `0`, `'False'`, `'no'`, `'0'`. */
const saysNo = (value: unknown): boolean =>
  value === false || value === 0 || (typeof value === 'string' && /^\s*(?:false|no|n|0)\s*$/i.test(value));

/**
 * A value that says nothing: absent, `null`, empty (`''`, `[]`, `{}`), one that {@link saysNo}, a
 * zero (`'0.00'`, a code `'00'`), or `'none'`, `'N/A'`, `'OK'`, `'Success'`.
 */
const saysNothing = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  saysNo(value) ||
  sameAmount(value, 0) ||
  (typeof value === 'string' && /^\s*(?:0+|none|null|n\/?a|ok|success(?:ful)?)\s*$/i.test(value)) ||
  (Array.isArray(value) && value.length === 0) ||
  (isPlainObject(value) && Object.keys(value).length === 0);

/**
 * A status or result text that can stand beside a success: printable ASCII reading as no failure,
 * negation or question ({@link notSuccessWord}), and not a bare no (`'False'`, `'No'`).
 */
const isPlainText = (text: string): boolean =>
  !NOT_PRINTABLE_ASCII.test(text) && notSuccessWord(text) === undefined && !saysNo(text);

/** A code that says success: `0` (a result code) or 200–299 (an HTTP status), as a number or its digits. */
const isSuccessCode = (value: unknown): boolean => {
  const code = typeof value === 'string' && /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : value;
  return code === 0 || (typeof code === 'number' && code >= 200 && code <= 299);
};

/** A number or the digits of one, as a code is written. */
const isCodeLike = (value: unknown): boolean =>
  typeof value === 'number' || (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value));

// The forms of undocumented keys read as outcome signals: whole forms, so `prepaid`, `settled`,
// `failed_url`, `fraud_score`, `refundable` or `statement_descriptor` stay unread.
/** A flag that must say yes on a success (`success`, `is_paid`, `paid_flag`, `approved`, `completed`). */
const SUCCESS_FLAG =
  /^(?:(?:is|was|has(?:been)?|payment|transaction|txn|payout|transfer|disbursement)?(?:paid|success(?:ful)?|succeeded|completed?|approved)(?:flag)?|(?:is|was|has(?:been)?)captured)$/;
/** A key that must say nothing on a success (`error`, `unpaid`, `payment_failed`, `refund_status`, `on_hold`). */
const FAILURE_FLAG = new RegExp(
  '^(?:is|was|has|did|payment|transaction|txn|payout|transfer|disbursement)?(?:' +
    [
      'errors?',
      'err',
      'error(?:code|message|reason|description|desc|msg|text)',
      'fail(?:ed|ure)?',
      'failure(?:code|reason|message|description|desc|msg|text)',
      '(?:un|not|non)(?:paid|success(?:ful)?|captured|completed?)',
      'declined?',
      'decline(?:code|reason)',
      'rejected',
      'cancell?ed',
      'voided',
      'void',
      'pending',
      '(?:on)?hold',
      'held',
      'fraudulent',
      '(?:refund(?:ed)?|chargeback|chargedback|disputed?|revers(?:ed|al))(?:status|amount|id|reason|code)?',
      'amount(?:refunded|reversed|chargedback|disputed)',
    ].join('|') +
    ')$',
);
/** A fraud flag: only one that says yes says otherwise (`fraud: 'low'` is a score). */
const FRAUD_FLAG = /^(?:is)?fraud$/;
/**
 * A status, result or message of the payment (`state`, `transaction_status`, `status_text`,
 * `ResultDesc`, `ResultCode`, `ResponseCode`, `return_code`, `http_status`): a code must be 0 or
 * 2xx, a text plain. Not the status of something else (`settlement_status`, `delivery_status`).
 */
const OUTCOME =
  /^(?:(?:payment|transaction|txn|charge|capture|response|http|callback|payout|transfer|disbursement|paid|pay)?(?:status|state|result|outcome|message|msg|reason)(?:code|desc|description|text|msg|message)?|(?:response|return)(?:code|desc|description|text|msg|message))$/;

/**
 * Whether an undocumented key's value says otherwise on a success: a flag of
 * {@link SUCCESS_FLAG} that does not say yes, a key of {@link FAILURE_FLAG} that says something, a
 * {@link FRAUD_FLAG} that says yes, or an {@link OUTCOME} whose code is not a success code or whose
 * text is not plain.
 */
function saysOtherwise(form: string, value: unknown): boolean {
  if (SUCCESS_FLAG.test(form)) return !saysYes(value);
  if (FAILURE_FLAG.test(form)) return !saysNothing(value);
  if (FRAUD_FLAG.test(form)) return saysYes(value);
  if (!OUTCOME.test(form)) return false;
  if (isCodeLike(value)) return !isSuccessCode(value);
  return value === false || (typeof value === 'string' && !isPlainText(value));
}

/**
 * Whether an undocumented key's value says success, as a failure callback's may not: a flag of
 * {@link SUCCESS_FLAG} that says yes, or an {@link OUTCOME} text that is a statement of success
 * ({@link isSuccessStatement}). Not a code: the card status is 200 on a failure too.
 */
const saysSuccess = (form: string, value: unknown): boolean =>
  SUCCESS_FLAG.test(form)
    ? saysYes(value)
    : OUTCOME.test(form) &&
      (value === true ||
        (typeof value === 'string' && (isSuccessStatement(value) || /^\s*(?:true|yes)\s*$/i.test(value))));

/** A flag of a payment not final yet (`pending`, `is_pending`, `payout_processing`, `in_progress`, `on_hold`). */
const NOT_FINAL_FLAG =
  /^(?:is|payment|transaction|txn|payout|transfer|disbursement)?(?:pending|processing|inprogress|queued|onhold)$/;

/**
 * Whether an undocumented key's value says the payment is not final yet, as a failure callback's
 * may not: a {@link NOT_FINAL_FLAG} that says yes, or an {@link OUTCOME} text that is a statement
 * of a payment not final ({@link isNotFinalStatement}: `payout_status: 'Pending'`).
 */
const saysNotFinal = (form: string, value: unknown): boolean =>
  NOT_FINAL_FLAG.test(form)
    ? saysYes(value)
    : OUTCOME.test(form) && typeof value === 'string' && isNotFinalStatement(value);

/**
 * A flag of an initiation's request itself (`success`, `succeeded`, `ok`, `accepted`,
 * `is_initiated`): one that does not say yes says it failed.
 */
const REQUEST_FLAG = /^(?:is|was|request)?(?:succe(?:ss(?:ful)?|eded)|ok|accepted|initiated)$/;
/**
 * An HTTP status (`status_code`, `http_status`, `httpStatusCode`): a number, or a text beginning
 * with one, outside 2xx says the request failed (`0`, `'503'`).
 */
const HTTP_STATUS = /^(?:http)?status(?:code)?$/;
/** What an initiation says of a payment not made yet (`paid: false`, `unpaid`, `pending`): not read. */
const NOT_YET =
  /^(?:(?:is|was|has|did|payment|transaction|txn|payout|transfer|disbursement)?(?:pending|(?:on)?hold|held|(?:un|not|non)(?:paid|success(?:ful)?|captured|completed?)))$/;
/**
 * The words of a payment not final, which an initiation's status text may hold (`Pending`,
 * `PAYMENT_PENDING`): whole words between anything but letters, so not `AuthorizationFailed`.
 */
const NOT_FINAL =
  /(?<![a-z])(?:pending|processing|initiated|awaiting|authori[sz](?:ed|ing|ation))(?![a-z])/gi;

/**
 * The path of the first key of an initiation reply, other than those its schema describes
 * (`described`, top level only), that says the request failed, at the top level or in an object up
 * to two levels down (`data: { success: false }`; not in an array), as {@link otherOutcome} reads
 * a success: a {@link REQUEST_FLAG} that does not say yes, an {@link HTTP_STATUS} outside 2xx, or
 * what says otherwise on a success ({@link saysOtherwise}: `error: 'card_declined'`,
 * `status_code: 402`, `payout_status: 'Failed'`) but for what says the payment is not made yet
 * (`paid: false`, `unpaid`, a `Pending` status), as an initiation's is not. A text of a key whose
 * form ends in `code` or `status` that begins with a number is read by that number too
 * (`'402 Payment Required'`).
 */
export function failingReplyKey(data: object, described: object, depth = 0): string[] | undefined {
  for (const [key, value] of Object.entries(data)) {
    if (Object.hasOwn(described, key)) continue;
    const form = keyForm(key);
    const code = /(?:code|status)$/.test(form) && typeof value === 'string' && /^\s*\d+\b/.exec(value);
    if (
      (HTTP_STATUS.test(form) && /^\s*(?!2\d\d\b)\d/.test(typeof value === 'object' ? '' : String(value))) ||
      (REQUEST_FLAG.test(form)
        ? !saysYes(value)
        : !SUCCESS_FLAG.test(form) &&
          !NOT_YET.test(form) &&
          ((code && saysOtherwise(form, code[0])) ||
            saysOtherwise(form, typeof value === 'string' ? value.replace(NOT_FINAL, '') : value)))
    )
      return [key];
    const inner =
      depth < 2 && isPlainObject(value) ? failingReplyKey(value as object, {}, depth + 1) : undefined;
    if (inner) return [key, ...inner];
  }
  return undefined;
}

/**
 * The words of a request taken on (`Initiated`, `Request accepted for processing`, `Payout
 * queued`), wherever they are (read with `search` and `replace`, which the `g` flag leaves stateless).
 */
const TAKEN_ON = /\b(?:initiated|accept\w*|queued|submitted|processing|pending)\b/gi;
/** A status word of a request done (`'200'`, `'Success'`, `'OK'`, `'completed'`). */
const DONE_STATUS = /^\s*(?:200|ok|success(?:ful)?|succeeded|completed?)\s*$/i;
/**
 * A flag of a request taken on that is no {@link REQUEST_FLAG} (`queued`, `is_submitted`): only one
 * saying yes is read (`queued: false` may be a request sent at once).
 */
const TAKEN_ON_FLAG = /^(?:is|was|request)?(?:queued|submitted)$/;
/**
 * A message or description of the reply (`message`, `ResponseDescription`, `CustomerMessage`,
 * `ResultDesc`, `detail`).
 */
const REPLY_TEXT =
  /^(?:(?:response|result|customer|status)?(?:message|msg|desc|description|text|detail)|result)$/;
/** A status of the request or the payment (`status`, `payout_status`, `transaction_status`, `state`). */
const STATUS = /^(?:payment|transaction|txn|charge|payout|transfer|disbursement|request)?(?:status|state)$/;

/**
 * The path of the first key of an error reply (an HTTP 4xx's JSON body) that says the request went
 * through, at the top level or in a `data`, `result`, `response` or `body` object up to two levels
 * down: a {@link STATUS} of 200, `true` or a success or acceptance word (`status: 'Success'`,
 * `payout_status: 'accepted'`); an {@link HTTP_STATUS} of 2xx (`status_code: 200`, `'202
 * Accepted'`); a {@link REQUEST_FLAG} or a {@link TAKEN_ON_FLAG} that says yes (`success: true`,
 * `accepted: true`); a result code of 0 (`ResponseCode: '0'`, `ResultCode: 0`); or a message,
 * detail or description ({@link REPLY_TEXT}) that is a statement of success
 * ({@link isSuccessStatement}) or says the request was taken on and nothing against it (`Mobile
 * Payout Initiated`, `Success. Request accepted for processing`; not `Request not accepted`).
 */
export function wentThroughKey(reply: object, depth = 0): string[] | undefined {
  for (const [key, value] of Object.entries(reply)) {
    const form = keyForm(key);
    const text = typeof value === 'string' ? value : undefined;
    if (
      (HTTP_STATUS.test(form) && /^\s*2\d\d\b/.test(typeof value === 'object' ? '' : String(value))) ||
      (STATUS.test(form) &&
        (value === 200 ||
          value === true ||
          (text !== undefined &&
            (DONE_STATUS.test(text) ||
              (text.search(TAKEN_ON) >= 0 && text.replace(TAKEN_ON, '').trim() === ''))))) ||
      ((REQUEST_FLAG.test(form) || TAKEN_ON_FLAG.test(form)) && saysYes(value)) ||
      (/^(?:response|result|return)code$/.test(form) &&
        (value === 0 || (text !== undefined && /^\s*0+\s*$/.test(text)))) ||
      (REPLY_TEXT.test(form) &&
        text !== undefined &&
        (isSuccessStatement(text) ||
          (text.search(TAKEN_ON) >= 0 && notSuccessWord(text.replace(TAKEN_ON, '')) === undefined)))
    )
      return [key];
    const inner =
      depth < 2 && /^(?:data|result|response|body)$/.test(form) && isPlainObject(value)
        ? wentThroughKey(value as object, depth + 1)
        : undefined;
    if (inner) return [key, ...inner];
  }
  return undefined;
}

/**
 * The key of a payload (or of an object in it, two levels down; not of an array, which may list
 * earlier attempts or line items) whose value `reads` as what its outcome may not, and what it
 * reads as, where the verdict reads no signal: on a success what says otherwise
 * ({@link saysOtherwise}: `is_paid: 'False'`, `success: 'failed'`, `unpaid: true`, `error:
 * 'Insufficient funds'`, `refund_status: 'completed'`, `status_code: 406`, `state: 'failed'`), on a
 * failure what says success or not final ({@link saysSuccess}, {@link saysNotFinal}). `skip`: the
 * keys the verdict has read (the top level's documented and signal keys).
 */
function otherOutcome<S>(
  data: Readonly<Record<string, unknown>>,
  skip: (key: string) => boolean,
  depth: number,
  reads: (form: string, value: unknown) => S | false,
  outcome = '',
): { key: string; says: S } | undefined {
  for (const [key, value] of Object.entries(data)) {
    if (skip(key)) continue;
    const form = keyForm(key);
    // A key of an outcome's object is read as its part too: `result: { code, text }` as
    // `result_code` and `result_text`.
    let says = reads(form, value);
    if (says === false && outcome !== '') says = reads(outcome + form, value);
    if (says !== false) return { key, says };
    if (depth < 2 && isPlainObject(value)) {
      const within = OUTCOME.test(form) ? form : '';
      const inner = otherOutcome(value as Record<string, unknown>, () => false, depth + 1, reads, within);
      if (inner !== undefined) return { key: `${key}.${inner.key}`, says: inner.says };
    }
  }
  return undefined;
}

/**
 * Whether a key names a currency: its form ends in `currency`, `currencycode` or `currencyiso`
 * (`currency_code`, `settlement_currency`), or is `ccy`; not `currency_symbol` or `currency_name`.
 */
const namesCurrency = (form: string): boolean =>
  form === 'ccy' || /currency(?:code|iso(?:code)?)?$/.test(form);

/**
 * The payload's currencies, as `[key, value]`: under `currency` (documented for card payments and
 * payouts) and any key spelt as a currency (`Currency`, `currency_code`, `currencyCode`), which
 * a mobile-money or checkout callback may carry though it documents none.
 */
export const currencyEntries = (data: Readonly<Record<string, unknown>>): [string, unknown][] =>
  Object.entries(data).filter(([key, value]) => value !== undefined && namesCurrency(keyForm(key)));

/**
 * The second of two keys of one form ({@link keyForm}: `payment_method` and `payment method`)
 * whose values differ, as an issue: which one the service meant cannot be known. Amounts,
 * currencies, references and outcome signals are compared by their own rules (a success's other
 * amounts, {@link currencyEntries}, the handler's reference check, the signals' table: `PAID: true`
 * is `paid: 'True'`); a key of no letter or digit names no field.
 */
function disagreeingTwin(data: Readonly<Record<string, unknown>>): ValidationIssue | undefined {
  const seen = new Map<string, unknown>();
  for (const [key, value] of Object.entries(data)) {
    const form = keyForm(key);
    if (
      form === '' ||
      PAYMENT_AMOUNT_FORMS.has(form) ||
      namesCurrency(form) ||
      REFERENCE_FORMS.has(form) ||
      SIGNAL_NAMES.has(form)
    )
      continue;
    if (!seen.has(form)) seen.set(form, value);
    else if (!sameValue(seen.get(form), value)) {
      return keyIssue(key, 'is spelt like another key of the payload and says otherwise', 'invalid_payload');
    }
  }
  return undefined;
}

/**
 * The keys that name the merchant's reference, as {@link keyForm} writes them: a payment's
 * `transaction_reference` (which a success documents none of, yet may echo), a checkout's
 * `order_id`, a payout's `reference_id`. Each must be the signed reference wherever it appears,
 * but a payment's `order_id`: the order the payment pays (`amount.order_id`), not its reference.
 */
export const REFERENCE_FORMS: ReadonlySet<string> = new Set([
  'orderid',
  'transactionreference',
  'referenceid',
]);

/** Two values alike: the same, or numbers and strings that print alike (`200` and `'200'`). */
const sameValue = (a: unknown, b: unknown): boolean =>
  a === b ||
  ((typeof a === 'string' || typeof a === 'number') &&
    (typeof b === 'string' || typeof b === 'number') &&
    String(a) === String(b));

/** Two currencies alike: both strings, equal but for ASCII letter case (as the handler compares them). */
const sameText = (a: unknown, b: unknown): boolean =>
  typeof a === 'string' && typeof b === 'string' && sameCurrency(a, b);

type Read =
  | { readonly data: Record<string, unknown>; readonly warnings: CallbackWarning[] }
  | { readonly issues: ValidationIssue[] };

/**
 * Checks the payload against its variant's zod schema. A value of a tolerated other type is
 * converted (on a copy) and checked again; anything else the schema reports is an issue.
 */
function readVariant(
  type: CallbackEventType,
  payload: Record<string, unknown>,
  literals: (() => ReadonlyMap<string, string> | undefined) | undefined,
): Read {
  const schema = callbackSchemas[type];
  const first = schema.safeParse(payload);
  if (first.success) {
    const notText = notUnicodeText(schema.shape, payload);
    if (notText.length > 0) return { issues: notText };
    return { data: isPlainObject(payload) ? payload : copyOwn(payload), warnings: [] };
  }
  const data = copyOwn(payload);
  const warnings: CallbackWarning[] = [];
  for (const issue of first.error.issues) {
    const key = issueKey(issue);
    const value = data[key];
    const problem = literalProblem(literals, key, value);
    const conversion = problem === undefined ? tolerate(issue, value) : undefined;
    if (conversion === undefined) continue;
    data[key] = conversion.value;
    warnings.push({ code: 'value_converted', path: [key], message: `${key}: ${conversion.what}` });
  }
  const second = warnings.length === 0 ? first : schema.safeParse(data);
  if (!second.success) {
    return { issues: second.error.issues.map((issue) => describeIssue(issue, data, literals)) };
  }
  const notText = notUnicodeText(schema.shape, data);
  return notText.length > 0 ? { issues: notText } : { data, warnings };
}

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A documented string holding a lone surrogate (JSON can escape one: `"\ud800"`) is not text:
 * it cannot be an identifier, a status or a message.
 */
function notUnicodeText(shape: object, data: Record<string, unknown>): ValidationIssue[] {
  return Object.keys(shape)
    .filter((key) => typeof data[key] === 'string' && LONE_SURROGATE.test(data[key]))
    .map((key) => ({
      path: [key],
      message: 'expected Unicode text, got a string with a lone surrogate',
      code: 'invalid_type',
    }));
}

/** The slice of a zod issue read here. */
interface SchemaIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly expected?: unknown;
  readonly values?: readonly unknown[] | undefined;
  readonly format?: string | undefined;
}

/** The documented type for a tolerated other one: number ↔ numeric string, boolean → 'True'/'False'. */
function tolerate(issue: SchemaIssue, value: unknown): { value: unknown; what: string } | undefined {
  if (issue.code === 'invalid_type' && issue.expected === 'string' && typeof value === 'number') {
    // Only a number that prints as an exact plain decimal: JSON.parse reads the order id
    // 1234567890123456789 as 1234567890123456800, another order's.
    const text = readDecimal(value);
    return text === undefined ? undefined : { value: text, what: 'number converted to string' };
  }
  if (issue.code === 'invalid_type' && issue.expected === 'number') {
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

/** The schemas are flat objects of the payload's own keys: every issue is about one of them. */
const issueKey = (issue: SchemaIssue): string => String(issue.path[0]);

/**
 * What is wrong with the literal a JSON number was read from, when the payload's text is at hand;
 * undefined for any other value.
 */
const literalProblem = (
  literals: (() => ReadonlyMap<string, string> | undefined) | undefined,
  key: string,
  value: unknown,
): string | undefined => {
  const literal = typeof value === 'number' ? literals?.()?.get(key) : undefined;
  return literal === undefined ? undefined : numberLiteralProblem(literal, value as number);
};

function describeIssue(
  issue: SchemaIssue,
  data: Record<string, unknown>,
  literals: (() => ReadonlyMap<string, string> | undefined) | undefined,
): ValidationIssue {
  const key = issueKey(issue);
  const path = [key];
  const value = data[key];
  if (value === undefined) return { path, message: 'required key is missing', code: 'missing_key' };
  if (issue.code === 'invalid_type') {
    const expected = issue.expected === 'int' ? 'integer' : String(issue.expected);
    const written = literalProblem(literals, key, value);
    const got =
      written !== undefined
        ? written
        : typeof value === 'string' && readDecimal(value) !== undefined
          ? 'a numeric string that a JSON number cannot hold exactly'
          : typeof value === 'number' && expected === 'string'
            ? describeAmount(value)
            : typeName(value);
    return { path, message: `expected ${expected}, got ${got}`, code: 'invalid_type' };
  }
  if (issue.code === 'invalid_format') {
    // The two formats the schemas check: the merchant's reference and the currency code.
    return issue.format === 'reference'
      ? { path, message: 'expected a reference that is not empty or blank', code: 'invalid_reference' }
      : { path, message: 'expected a 3-letter currency code such as KES', code: 'invalid_currency' };
  }
  if (issue.code === 'invalid_value') {
    const allowed = (issue.values ?? []).map((v) => `'${String(v)}'`).join(' or ');
    return { path, message: `expected ${allowed}`, code: 'invalid_value' };
  }
  return { path, message: 'invalid value', code: issue.code };
}

/** The last second of the year 9999 (`9999-12-31T23:59:59Z`), in Unix seconds. */
const LAST_TIMESTAMP = 253_402_300_799;

/**
 * `timestamp` (Unix seconds, from 0 to {@link LAST_TIMESTAMP}) → a Date; outside that range — a
 * negative value, or milliseconds (`1732363200000` would be the year 56866) — no date and a
 * warning. A value in milliseconds is not converted: the unit is not guessed.
 */
function readTimestamp(data: Record<string, unknown>, warnings: CallbackWarning[]): Date | undefined {
  const seconds = data.timestamp;
  if (typeof seconds !== 'number') return undefined;
  if (seconds >= 0 && seconds <= LAST_TIMESTAMP) return new Date(seconds * 1000);
  warnings.push({
    code: 'timestamp_out_of_range',
    path: ['timestamp'],
    message: 'timestamp: not Unix seconds between 1970 and 9999; occurredAt is absent',
  });
  return undefined;
}

// --- 1. No family: the closest variant ----------------------------------------------------

/**
 * The variant with most of its keys present (fewest missing on a tie; the failure variant on
 * a tie within a family, since success and failure of checkout share every key), named in the
 * error with what its schema finds wrong.
 */
function unknownCallback(payload: Record<string, unknown>): CallbackParseError {
  let closest: CallbackEventType | undefined;
  let bestPresent = 0;
  let bestMissing = Infinity;
  for (const type of callbackEventTypes) {
    const keys = Object.keys(callbackSchemas[type].shape);
    const found = keys.filter((key) => present(payload, key)).length;
    const lacking = keys.length - found;
    // A full tie within a family goes to its failure variant (listed after the success).
    const failureOfClosest = type === closest?.replace('.succeeded', '.failed');
    if (
      found > bestPresent ||
      (found > 0 &&
        found === bestPresent &&
        (lacking < bestMissing || (lacking === bestMissing && failureOfClosest)))
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
  const issues = result.success
    ? []
    : result.error.issues.map((issue) => describeIssue(issue, payload, undefined));
  return refuse(
    'unknown_callback',
    `Callback payload matches none of the documented callbacks; closest is ${variantNames[closest]}` +
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
): CallbackParseError {
  return new CallbackParseError(message, { reason, issues, closestVariant });
}

/**
 * An issue of an undocumented key: at its path when it is a name ({@link isNameLike}), else at the
 * root with the key's length only (a key could hold a card number).
 */
const keyIssue = (
  key: string,
  message: string,
  code: CallbackParseReason | 'invalid_currency',
): ValidationIssue =>
  isNameLike(key)
    ? { path: [key], message, code }
    : { path: [], message: `a key ${keyShown(key)} ${message}`, code };

/** Step 4's refusal: the variant is known, the payload does not hold what its schema says. */
const notValid = (
  reason: CallbackParseReason,
  type: CallbackEventType,
  issues: readonly ValidationIssue[],
): CallbackParseError =>
  refuse(
    reason,
    `Callback payload is not a valid ${variantNames[type]}: ${formatIssues(issues)}`,
    issues,
    type,
  );

/**
 * Shallow own-key copy that cannot set a prototype: `Object.fromEntries` defines each key
 * (`__proto__` included), it never assigns one.
 */
const copyOwn = (source: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(source));
