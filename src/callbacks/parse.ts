/**
 * `parseCallback` / `safeParseCallback`: raw callback body → {@link CallbackEvent}.
 *
 * raw body → JSON → the verdict (`verdict.ts`: family, outcome, schema, warnings) → event.
 * Everything that decides what a payload means is in `verdict.ts`; this module only reads the
 * body and shapes the answer.
 *
 * @module
 */
import { CallbackParseError } from '../errors.js';
import { numberLiteralsOf, repeatsAKey } from '../internal/json.js';
import { refuseUnknownOptions, type OptionNames } from '../internal/known-options.js';
import type {
  CallbackEvent,
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
import type {
  CardPaymentFailureCallback,
  CardPaymentSuccessCallback,
  CheckoutSuccessCallback,
  MobileMoneyPaymentFailureCallback,
  MobileMoneyPaymentSuccessCallback,
  PayoutFailureCallback,
  PayoutSuccessCallback,
} from './schemas.js';
import { contradictionPolicy, decideVerdict, isCardMethod, type AcceptedCallback } from './verdict.js';

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
   * The one contradiction the service documents: the redirect checkout card success carries
   * `paid: 'False'` with `Payment complete.`. `'warn'` (default): it is `checkout.succeeded`
   * (`paid: true`) with warning `paid_flag_contradicts_payment_status`. `'reject'`: a
   * `CallbackParseError` with reason `contradictory_outcome`. Every other disagreement of the
   * outcome signals is refused either way. Every genuine card checkout success carries this
   * payload: with `'reject'`, a customer who paid by card on the hosted page is never reported
   * paid (the handler answers 422 until the sender gives up; a cron would expire the order), so
   * use it only where no checkout is paid by card.
   */
  readonly onContradiction?: 'warn' | 'reject' | undefined;
}

/**
 * What {@link safeParseCallback} returns; check `success` first, then `event.paid`.
 *
 * @example
 * ```ts
 * const result = safeParseCallback(body); // a body you hold: a test fixture, one a verified route stored
 * if (!result.success) console.warn(result.error.reason, result.error.message);
 * else if (result.event.paid) console.log('paid', result.event.reference, result.event.amount);
 * else console.log('not paid', result.event.reference, result.event.message);
 * ```
 */
export type SafeParseCallbackResult =
  | { readonly success: true; readonly event: CallbackEvent; readonly error?: never }
  | { readonly success: false; readonly error: CallbackParseError; readonly event?: never };

/** Refuses bytes that are not UTF-8; skips one leading byte order mark. */
const decoder = new TextDecoder('utf-8', { fatal: true });

/** A body read: the value and, when it was text, its own keys' number literals as written (scanned when first asked). */
interface Read {
  readonly value: unknown;
  readonly numberLiterals?: (() => ReadonlyMap<string, string> | undefined) | undefined;
}

/**
 * The body as a value: parsed when it is JSON text or bytes, as given otherwise. One leading byte
 * order mark is skipped, in a string as in bytes.
 */
function readBody(body: unknown): Read {
  if (typeof body !== 'string' && !(body instanceof ArrayBuffer) && !ArrayBuffer.isView(body))
    return { value: body };
  let text: string;
  try {
    text = typeof body !== 'string' ? decoder.decode(body) : body.startsWith('\uFEFF') ? body.slice(1) : body;
  } catch {
    throw new CallbackParseError('Callback body is not valid UTF-8 text', { reason: 'invalid_json' });
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    // The engine's message quotes the input; a payload never goes into ours.
    throw new CallbackParseError(
      text === '[object Object]'
        ? 'Callback body is not valid JSON: [object Object] is an object turned into text; pass the raw body'
        : 'Callback body is not valid JSON',
      { reason: 'invalid_json' },
    );
  }
  if (typeof value === 'object' && value !== null && repeatsAKey(text, value)) {
    throw new CallbackParseError(
      'Callback body repeats a key in one object: JSON.parse keeps the last of its values, so which one the sender meant cannot be known',
      { reason: 'invalid_json' },
    );
  }
  let literals: Map<string, string> | undefined | null = null;
  return {
    value,
    numberLiterals: () => (literals === null ? (literals = numberLiteralsOf(text)) : literals),
  };
}

function notAnObject(value: unknown): CallbackParseError {
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return new CallbackParseError(`Callback body must be a JSON object, got ${got}`, {
    reason: 'not_an_object',
    issues: [{ path: [], message: `expected object, got ${got}`, code: 'invalid_type' }],
  });
}

/** `CARD` (ASCII case and blanks ignored) is card; any other word is a mobile-money brand word. */
const methodKind = (label: string): PaymentMethodKind => (isCardMethod(label) ? 'card' : 'mobile_money');

/** The payload, now valid for its variant → the event. */
function toEvent({ type, data, warnings, occurredAt, currency }: AcceptedCallback): CallbackEvent {
  const when = occurredAt === undefined ? {} : { occurredAt };
  // A mobile-money or checkout payload documents no currency, but may carry one.
  const carried = currency === undefined ? {} : { currency };
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
        ...when,
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
        ...carried,
        transactionId: mm['transaction id'],
        message: mm.message,
        ...when,
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
        ...carried,
        reference: mm.transaction_reference,
        message: mm.message,
        ...when,
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
        ...carried,
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

/** The options `parseCallback` and `safeParseCallback` know; any other key is refused. */
const PARSE_OPTIONS: OptionNames<ParseCallbackOptions> = { onContradiction: true };

/** The body → the event, or the error saying why not. */
function read(body: unknown, options: ParseCallbackOptions | undefined): CallbackEvent | CallbackParseError {
  const { value, numberLiterals } = readBody(body);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return notAnObject(value);
  const verdict = decideVerdict(value as Record<string, unknown>, {
    onContradiction: options?.onContradiction,
    numberLiterals,
  });
  return verdict instanceof CallbackParseError ? verdict : toEvent(verdict);
}

/**
 * {@link read} after the options are checked (`where` names the function in a `TypeError`); never
 * throws for any body.
 */
function readChecked(
  where: string,
  body: unknown,
  options: ParseCallbackOptions | undefined,
): CallbackEvent | CallbackParseError {
  refuseUnknownOptions(where, options, PARSE_OPTIONS);
  contradictionPolicy(where, options?.onContradiction);
  try {
    return read(body, options);
  } catch (error) {
    // A CallbackParseError from readBody, or a hostile object (a throwing getter or proxy).
    return error instanceof CallbackParseError
      ? error
      : new CallbackParseError('Callback body could not be read as a plain object', {
          reason: 'not_an_object',
        });
  }
}

/**
 * Turns a callback body into a typed {@link CallbackEvent}. Accepts the parsed object, the JSON
 * text, or its bytes (`Uint8Array`, `ArrayBuffer`, `Buffer`). Pass the text or the bytes where you
 * have them: only they still show a key written twice and each number as written, which an
 * object `JSON.parse` made has lost (both refused from text).
 *
 * The event is `*.succeeded` only when every outcome signal of the payload says success, and
 * `*.failed` only when every one says failure; anything else is refused (see `reason`).
 * `event.data` is the payload with the documented value types; when no value needed
 * converting and you passed a plain object, it is that object (not a copy).
 *
 * @throws {CallbackParseError} with a stable `reason`: the body is not JSON (or writes a key twice
 *   in one object, whose first value `JSON.parse` would drop), not an object,
 *   none of the documented callbacks, a documented key is missing or mistyped, an amount is not
 *   a plain decimal, or the outcome signals disagree, are not recognised or are missing. The
 *   message names the fields, never an amount or other payload content.
 * @throws {TypeError} when `onContradiction` is set to anything but `'warn'` or `'reject'`, or
 *   `options` holds a key it does not know (a misspelt option is never dropped in silence).
 *
 * @example
 * ```ts
 * // createCallbackHandler does all of this (and deduplicates); by hand:
 * const { reference } = await verifyCallbackUrl(request.url, { secret }); // the order, signed into the URL
 * const event = parseCallback(await request.text());
 * switch (event.type) {
 *   case 'payment.mobile_money.succeeded':
 *     await markPaid(reference, event.amount, event.transactionId);
 *     break;
 *   case 'checkout.succeeded':
 *     await fulfil(reference);
 *     break;
 *   // …
 * }
 * ```
 */
export function parseCallback(body: unknown, options?: ParseCallbackOptions): CallbackEvent {
  const outcome = readChecked('parseCallback', body, options);
  if (outcome instanceof CallbackParseError) throw outcome;
  return outcome;
}

/**
 * Like {@link parseCallback}, but returns `{ success, event | error }` and never throws, whatever
 * the input (null, arrays, huge or deeply nested JSON, `__proto__` keys, throwing getters). Only
 * options it cannot read throw (a `TypeError`: an `onContradiction` other than `'warn'` or
 * `'reject'`, a key it does not know): that is the code's mistake, not the sender's.
 *
 * It reads a body; it does not say who sent it. A webhook route is `createCallbackHandler`: it
 * verifies the signed URL first (unsigned, anyone can post a `checkout.succeeded`), deduplicates,
 * and answers an outcome it could not decide with a status the sender retries (422), not 400.
 * By hand, call `verifyCallbackUrl` before reading the body (see {@link parseCallback}).
 *
 * @example
 * ```ts
 * // A body you already hold: a test fixture, or a delivery your verified route stored.
 * const result = safeParseCallback(body);
 * if (result.success && result.event.paid) console.log('paid', result.event.type, result.event.amount);
 * else if (result.success) console.log('not paid', result.event.type, result.event.message);
 * else console.warn('refused', result.error.reason, result.error.message); // never guessed
 * ```
 */
export function safeParseCallback(body: unknown, options?: ParseCallbackOptions): SafeParseCallbackResult {
  const outcome = readChecked('safeParseCallback', body, options);
  return outcome instanceof CallbackParseError
    ? { success: false, error: outcome }
    : { success: true, event: outcome };
}
