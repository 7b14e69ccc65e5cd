/**
 * `parseCallback` / `safeParseCallback`: raw callback body → {@link CallbackEvent}.
 *
 * raw body → JSON (once) → decision table (`classify.ts`) → the one variant's rules (compiled
 * from its zod schema) → event. Nothing is tried in turn and nothing is parsed twice.
 *
 * @module
 */
import { CallbackParseError, formatIssuePath, type ValidationIssue } from '../errors.js';
import { classifyCallback, readPaidFlag, readPaymentStatus } from './classify.js';
import type {
  CallbackEvent,
  CallbackEventType,
  CardPaymentFailedEvent,
  CardPaymentSucceededEvent,
  CheckoutFailedEvent,
  CheckoutSucceededEvent,
  MobileMoneyPaymentFailedEvent,
  MobileMoneyPaymentSucceededEvent,
  PaymentMethodKind,
  PayoutFailedEvent,
  PayoutSucceededEvent,
} from './events.js';
import { exactChecks } from './exact.js';
import { checkRules, compileRules, countPresent, type CheckResult, type FieldRule } from './rules.js';
import {
  callbackSchemas,
  type CardPaymentFailureCallback,
  type CardPaymentSuccessCallback,
  type CheckoutSuccessCallback,
  type MobileMoneyPaymentFailureCallback,
  type MobileMoneyPaymentSuccessCallback,
  type PayoutFailureCallback,
  type PayoutSuccessCallback,
} from './schemas.js';

/**
 * Options of {@link parseCallback} and {@link safeParseCallback}.
 *
 * @example
 * ```ts
 * const event = parseCallback(body, { onContradiction: 'reject' });
 * ```
 */
export interface ParseCallbackOptions {
  /**
   * What to do when a payment payload's `paid` flag contradicts its payment status — the
   * described redirect card success has `paid: 'False'` with `Payment complete.` (spec §2.9).
   * `'warn'` (default): the verdict follows the payment status (so that payload is
   * `checkout.succeeded`, `paid: true`) and `warnings` gets `paid_flag_contradicts_payment_status`.
   * `'reject'`: a `CallbackParseError`.
   */
  readonly onContradiction?: 'warn' | 'reject';
}

/**
 * What {@link safeParseCallback} returns; check `success` first.
 *
 * @example
 * ```ts
 * const result = safeParseCallback(body);
 * if (result.success) handle(result.event);
 * else console.warn(result.error.message);
 * ```
 */
export type SafeParseCallbackResult =
  | { readonly success: true; readonly event: CallbackEvent; readonly error?: never }
  | { readonly success: false; readonly error: CallbackParseError; readonly event?: never };

/**
 * Warning added when `paid` contradicts the payment status (spec §2.9, redirect card success).
 *
 * @example
 * ```ts
 * const event = parseCallback(body);
 * if (event.warnings.includes(PAID_FLAG_CONTRADICTION)) log.warn('paid flag contradicts the payment status');
 * ```
 */
export const PAID_FLAG_CONTRADICTION = 'paid_flag_contradicts_payment_status';

const labels: Readonly<Record<CallbackEventType, string>> = {
  'payment.card.succeeded': 'card payment success',
  'payment.card.failed': 'card payment failure',
  'payment.mobile_money.succeeded': 'mobile-money payment success',
  'payment.mobile_money.failed': 'mobile-money payment failure',
  'checkout.succeeded': 'redirect checkout success',
  'checkout.failed': 'redirect checkout failure',
  'payout.succeeded': 'payout success',
  'payout.failed': 'payout failure',
};

const types = Object.keys(callbackSchemas) as CallbackEventType[];
const rulesByType = Object.fromEntries(
  types.map((type) => [type, compileRules(callbackSchemas[type].shape)]),
) as Readonly<Record<CallbackEventType, readonly FieldRule[]>>;

const NO_WARNINGS: readonly string[] = Object.freeze([]);
const EXACT: CheckResult = { issues: undefined, conversions: undefined };

/** A failure, described cheaply; turned into an error only by the caller. */
class Failure {
  constructor(
    readonly message: string,
    readonly closestVariant: CallbackEventType | undefined = undefined,
    readonly issues: readonly ValidationIssue[] = [],
  ) {}
}

const describe = (type: CallbackEventType): string => `${labels[type]} (${type})`;

const listIssues = (issues: readonly ValidationIssue[]): string =>
  issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`).join('; ');

const decoder = new TextDecoder('utf-8', { fatal: true });

/** JSON text or bytes → the parsed value, or a failure. */
function readJson(input: string | ArrayBuffer | ArrayBufferView): unknown {
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = decoder.decode(input);
    } catch {
      return new Failure('Callback body is not valid UTF-8 text');
    }
  }
  // A truncated object (the common broken body) is refused without JSON.parse: the engine's
  // SyntaxError costs many times a successful parse.
  // (A body that starts with `{` and ends with `}`, the usual case, skips the scans for blanks.)
  if (
    !(text.charCodeAt(0) === 0x7b && text.charCodeAt(text.length - 1) === 0x7d) &&
    firstNonBlank(text) === 0x7b /* { */ &&
    lastNonBlank(text) !== 0x7d /* } */
  ) {
    return new Failure('Callback body is not valid JSON');
  }
  try {
    // No stack for the engine's SyntaxError either: it would cost more than the parse.
    return quietly(() => JSON.parse(text) as unknown);
  } catch {
    // The engine's message quotes the input; a payload never goes into ours.
    return new Failure('Callback body is not valid JSON');
  }
}

const isBlank = (code: number): boolean => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

function firstNonBlank(text: string): number {
  for (let i = 0; i < text.length; i++) if (!isBlank(text.charCodeAt(i))) return text.charCodeAt(i);
  return -1;
}

function lastNonBlank(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (!isBlank(text.charCodeAt(i))) return text.charCodeAt(i);
  return -1;
}

function notAnObject(value: unknown): Failure {
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return new Failure(`Callback body must be a JSON object, got ${got}`, undefined, [
    { path: [], message: `expected object, got ${got}`, code: 'invalid_type' },
  ]);
}

/** Shallow own-key copy that cannot set a prototype (`__proto__` is defined, not assigned). */
function copyOwn(source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: source[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = source[key];
  }
  return out;
}

const isPlainObject = (value: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** The variant with most of its keys present, for "closest" in the error. */
function closestVariant(payload: Record<string, unknown>): CallbackEventType | undefined {
  let best: CallbackEventType | undefined;
  let bestPresent = 0;
  let bestMissing = Infinity;
  for (const type of types) {
    const rules = rulesByType[type];
    const present = countPresent(rules, payload);
    const missing = rules.length - present;
    if (present > bestPresent || (present === bestPresent && present > 0 && missing < bestMissing)) {
      best = type;
      bestPresent = present;
      bestMissing = missing;
    }
  }
  // Success and failure of checkout and payout share their keys: let the status pick between them.
  if (best === 'checkout.succeeded' || best === 'checkout.failed') {
    const complete = readPaymentStatus(payload.payment_status) ?? readPaidFlag(payload.paid);
    return complete === true ? 'checkout.succeeded' : 'checkout.failed';
  }
  if (best === 'payout.succeeded' && payload.status === 'Failed') return 'payout.failed';
  return best;
}

const methodKind = (label: string): PaymentMethodKind => (/card/i.test(label) ? 'card' : 'mobile_money');

const occurred = (seconds: number): Date => new Date(seconds * 1000);

/** The payload, now valid for its variant → the event. */
function toEvent(
  type: CallbackEventType,
  data: Record<string, unknown>,
  warnings: readonly string[],
): CallbackEvent {
  switch (type) {
    case 'payment.card.succeeded':
    case 'payment.card.failed': {
      const card = data as CardPaymentSuccessCallback | CardPaymentFailureCallback;
      return {
        type,
        paid: type === 'payment.card.succeeded',
        amount: card.amount,
        currency: card.currency,
        transactionId: card['transaction id'],
        message: card.message,
        occurredAt: occurred(card.timestamp),
        paymentMethod: 'card',
        paymentMethodLabel: card['payment method'],
        warnings,
        data: card,
      } as CardPaymentSucceededEvent | CardPaymentFailedEvent;
    }
    case 'payment.mobile_money.succeeded': {
      const mm = data as MobileMoneyPaymentSuccessCallback;
      return {
        type,
        paid: true,
        amount: String(mm.amount),
        transactionId: mm['transaction id'],
        message: mm.message,
        occurredAt: occurred(mm.timestamp),
        paymentMethod: 'mobile_money',
        paymentMethodLabel: mm.payment_method,
        warnings,
        data: mm,
      } satisfies MobileMoneyPaymentSucceededEvent;
    }
    case 'payment.mobile_money.failed': {
      const mm = data as MobileMoneyPaymentFailureCallback;
      return {
        type,
        paid: false,
        amount: String(mm.amount),
        reference: mm.transaction_reference,
        message: mm.message,
        occurredAt: occurred(mm.timestamp),
        paymentMethod: 'mobile_money',
        paymentMethodLabel: '',
        warnings,
        data: mm,
      } satisfies MobileMoneyPaymentFailedEvent;
    }
    case 'checkout.succeeded':
    case 'checkout.failed': {
      const checkout = data as CheckoutSuccessCallback;
      return {
        type,
        paid: type === 'checkout.succeeded',
        amount: checkout.amount,
        reference: checkout.order_id,
        message: checkout.message,
        paymentMethod: methodKind(checkout.payment_method),
        paymentMethodLabel: checkout.payment_method,
        warnings,
        data: checkout,
      } as CheckoutSucceededEvent | CheckoutFailedEvent;
    }
    case 'payout.succeeded':
    case 'payout.failed': {
      const payout = data as PayoutSuccessCallback | PayoutFailureCallback;
      return {
        type,
        paid: type === 'payout.succeeded',
        amount: payout.amount,
        currency: payout.currency,
        reference: payout.reference_id,
        transactionId: payout.transaction_id,
        message: payout.message,
        warnings,
        data: payout,
      } as PayoutSucceededEvent | PayoutFailedEvent;
    }
  }
}

/** The whole pipeline; returns a failure instead of throwing (cheap rejections). */
function run(input: unknown, options: ParseCallbackOptions | undefined): CallbackEvent | Failure {
  let value: unknown = input;
  let owned = false;
  if (typeof input === 'string' || input instanceof ArrayBuffer || ArrayBuffer.isView(input)) {
    value = readJson(input as string | ArrayBuffer | ArrayBufferView);
    if (value instanceof Failure) return value;
    owned = true;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return notAnObject(value);
  const payload = value as Record<string, unknown>;

  const classification = classifyCallback(payload);
  const type = classification.type;
  if (type === undefined) {
    const closest = closestVariant(payload);
    if (closest === undefined) {
      return new Failure(
        'Callback payload matches none of the documented callbacks (spec §2.9): it has none of their keys',
        undefined,
        [{ path: [], message: 'no documented callback key present', code: 'unknown_callback' }],
      );
    }
    const issues = checkRules(rulesByType[closest], payload).issues ?? [];
    return new Failure(
      `Callback payload matches none of the documented callbacks; closest is ${describe(closest)}` +
        (issues.length > 0 ? `: ${listIssues(issues)}` : ''),
      closest,
      issues,
    );
  }

  // Fast path: every key with exactly its documented type; otherwise the compiled rules convert
  // what is tolerated and describe what is wrong.
  const check = exactChecks[type](payload) ? EXACT : checkRules(rulesByType[type], payload);
  let issues = check.issues;
  let statusWarning: string | undefined;
  if (!classification.statusRecognised && (type === 'checkout.succeeded' || type === 'checkout.failed')) {
    // Row 4 fell back to `paid`; with `paid` unreadable too, the outcome is unknown.
    if (readPaidFlag(payload.paid) === undefined) {
      (issues ??= []).push({
        path: ['payment_status'],
        message: "expected 'Payment complete.' or 'Payment Incomplete.'",
        code: 'invalid_value',
      });
    } else statusWarning = 'payment_status_unrecognised';
  }
  if (issues !== undefined) {
    return new Failure(
      `Callback payload is not a valid ${describe(type)}: ${listIssues(issues)}`,
      type,
      issues,
    );
  }

  // Our own JSON.parse result is converted in place; a caller's object is never mutated, and is
  // copied when it needs converting or is not a plain object (a class instance, a Proxy target).
  let data = payload;
  if (!owned && (check.conversions !== undefined || !isPlainObject(payload))) data = copyOwn(payload);
  let warnings: string[] | undefined;
  if (check.conversions !== undefined) {
    warnings = [];
    for (const conversion of check.conversions) {
      data[conversion.key] = conversion.value;
      warnings.push(conversion.warning);
    }
  }
  if (statusWarning !== undefined) (warnings ??= []).push(statusWarning);

  // Payouts have no paid flag; for the payment variants the verdict is the variant's.
  if (type !== 'payout.succeeded' && type !== 'payout.failed') {
    // (Compared, not `endsWith`: the type strings are constants, and this runs on every callback.)
    const verdict =
      type === 'payment.card.succeeded' ||
      type === 'payment.mobile_money.succeeded' ||
      type === 'checkout.succeeded';
    if (readPaidFlag(data.paid) !== verdict) {
      if (options?.onContradiction === 'reject') {
        return new Failure(
          `Callback payload contradicts itself: its paid flag disagrees with the payment status of the ` +
            `${describe(type)} (onContradiction: 'reject')`,
          type,
          [{ path: ['paid'], message: 'contradicts the payment status', code: PAID_FLAG_CONTRADICTION }],
        );
      }
      (warnings ??= []).push(PAID_FLAG_CONTRADICTION);
    }
  }
  return toEvent(type, data, warnings ?? NO_WARNINGS);
}

const toError = (failure: Failure): CallbackParseError =>
  new CallbackParseError(
    failure.message,
    failure.closestVariant === undefined
      ? { issues: failure.issues }
      : { closestVariant: failure.closestVariant, issues: failure.issues },
  );

/**
 * Turns a callback body into a typed {@link CallbackEvent}. Accepts the parsed object, the JSON
 * text, or its bytes (`Uint8Array`, `ArrayBuffer`, `Buffer`).
 *
 * `event.data` is the payload with the documented value types; when no value needed
 * converting and you passed an object, it is that object (not a copy).
 *
 * @throws {CallbackParseError} when the body is not JSON, not an object, matches no documented
 *   payload (the message names the closest variant and the keys missing or wrong — never a
 *   value), or contradicts itself with `onContradiction: 'reject'`.
 *
 * @example
 * ```ts
 * const event = parseCallback(await request.text());
 * switch (event.type) {
 *   case 'payment.mobile_money.succeeded':
 *     await markPaid(event.transactionId, event.amount);
 *     break;
 *   case 'checkout.succeeded':
 *     await fulfil(event.reference);
 *     break;
 *   // …
 * }
 * ```
 */
export function parseCallback(body: unknown, options?: ParseCallbackOptions): CallbackEvent {
  const result = run(body, options);
  if (result instanceof Failure) throw quietly(() => toError(result));
  return result;
}

/**
 * Like {@link parseCallback}, but returns `{ success, event | error }` and never throws, whatever
 * the input (null, arrays, huge or deeply nested JSON, `__proto__` keys, throwing getters).
 *
 * @example
 * ```ts
 * const result = safeParseCallback(body);
 * if (!result.success) return new Response(JSON.stringify({ error: 'invalid_payload' }), { status: 400 });
 * await handle(result.event);
 * ```
 */
export function safeParseCallback(body: unknown, options?: ParseCallbackOptions): SafeParseCallbackResult {
  let outcome: CallbackEvent | Failure;
  try {
    outcome = run(body, options);
  } catch {
    // Only a hostile object (a throwing getter or proxy) gets here.
    outcome = new Failure('Callback body could not be read as a plain object');
  }
  if (!(outcome instanceof Failure)) return { success: true, event: outcome };
  const failure = outcome;
  return { success: false, error: quietly(() => toError(failure)) };
}

/**
 * Builds an error without capturing a stack trace. A rejected callback is routine, not a bug to
 * trace: its message says what was wrong, and capturing the stack would cost several times the
 * whole parse (a flood of forged callbacks must stay cheap to refuse).
 */
function quietly<T>(build: () => T): T {
  const limit = Error.stackTraceLimit;
  if (!setStackTraceLimit(0)) return build();
  try {
    return build();
  } finally {
    setStackTraceLimit(limit);
  }
}

/** V8/JSC knob; absent or frozen elsewhere (then the error keeps its stack). */
function setStackTraceLimit(limit: number): boolean {
  try {
    Error.stackTraceLimit = limit;
    return true;
  } catch {
    return false;
  }
}
