/**
 * `createCallbackHandler`: a Fetch API route, `(request: Request) => Promise<Response>`, that
 * verifies, reads (capped), parses, cross-checks, deduplicates and only then calls `onEvent`.
 * It runs as-is as a Next.js App Router route, a Hono/Bun/Deno/Workers handler, and on
 * node:http / Express through `toNodeListener`.
 *
 * @module
 */
import { CallbackParseError, type CallbackVerificationError } from '../errors.js';
import { callbackDedupeKey, createMemoryDedupeStore, type DedupeStore } from './dedupe.js';
import type { CallbackEvent } from './events.js';
import { safeParseCallback, type ParseCallbackOptions } from './parse.js';
import { verifyCallbackUrl } from './signing.js';
import {
  expectedFromTransaction,
  findCallbackTransaction,
  settleCallbackTransaction,
} from '../transactions/callbacks.js';
import type { TransactionRecord } from '../transactions/store.js';
import type { SettleResult, TransactionTracker } from '../transactions/tracker.js';

/**
 * What `onEvent` gets besides the event.
 *
 * @example
 * ```ts
 * onEvent: async (event, { reference, dedupeKey }) => { await orders.settle(reference ?? event.reference, dedupeKey); }
 * ```
 */
export interface CallbackContext {
  /** The incoming request (its body already read). */
  readonly request: Request;
  /** The reference signed into the URL (when `secret` is set) — the only reference card and mobile-money success payloads have. */
  readonly reference: string | undefined;
  /** The event's dedupe key ({@link callbackDedupeKey}). */
  readonly dedupeKey: string;
  /** With `tracker`: the transaction after this callback settled it. */
  readonly transaction?: TransactionRecord;
  /**
   * With `tracker`: `'settled'`; `'late'` when the transaction had been expired; `'duplicate'` when
   * it was already settled with this outcome by an earlier delivery whose processing may not have
   * finished (its `onEvent` threw, its process died, the store's reply was lost) — so process it
   * idempotently rather than skip it.
   */
  readonly settlement?: SettleResult['result'];
}

/**
 * What the merchant expected for an event, from its own records (see `expected`).
 *
 * @example
 * ```ts
 * const expected: ExpectedPayment = { amount: '1500', currency: 'KES' };
 * ```
 */
export interface ExpectedPayment {
  /** Compared numerically with `event.amount` (`'1500'`, `1500` and `'1500.00'` agree). */
  readonly amount?: string | number;
  /** Compared case-insensitively with `event.currency`, when the payload has a currency. */
  readonly currency?: string;
}

/**
 * Why the handler refused a request; the `error` field of its JSON answer.
 *
 * @example
 * ```ts
 * onError: (error, { status, reason }) => metrics.increment(`webhook.${reason}`, { status }),
 * ```
 */
export type CallbackRejectionReason =
  | 'method_not_allowed'
  | 'invalid_signature'
  | 'payload_too_large'
  | 'invalid_payload'
  | 'reference_mismatch'
  | 'amount_mismatch'
  | 'currency_mismatch'
  | 'in_progress'
  | 'handler_failed'
  | 'unknown_reference'
  | 'transaction_kind_mismatch'
  | 'conflicting_outcome';

/**
 * Options of {@link createCallbackHandler}.
 *
 * @example
 * ```ts
 * const options: CallbackHandlerOptions = { secret: process.env.WEBHOOK_SECRET, onEvent: async (event) => {} };
 * ```
 */
export interface CallbackHandlerOptions extends ParseCallbackOptions {
  /**
   * Verify the URL signature of `signCallbackUrl` (401 when missing or wrong). A list during a
   * rotation. Without it, no URL check (not recommended: anyone can post to the route).
   */
  readonly secret?: string | readonly string[];
  /** The public origin the URLs were signed with, when a proxy rewrites the Host. */
  readonly publicOrigin?: string;
  /** Called once per event, after every check (may return a promise); the answer is 200 when it resolves, 500 when it throws or rejects. */
  readonly onEvent: (event: CallbackEvent, context: CallbackContext) => unknown;
  /** Where processed events are recorded; `false` turns deduplication off. Default: in-memory store. */
  readonly dedupe?: DedupeStore | false;
  /** How long a processed event is remembered, ms. Default 24 h. */
  readonly dedupeTtlMs?: number;
  /** How long a claim lasts while `onEvent` runs (a crashed process frees it after this), ms. Default 5 min. */
  readonly processingTimeoutMs?: number;
  /** Body size cap in bytes (413 above it; the body is read no further). Default 65,536. */
  readonly maxBodyBytes?: number;
  /**
   * Look up what the merchant expected for this event (by `event.reference`, or the signed
   * reference in `context`); a different amount or currency answers 422 and `onEvent` is not
   * called. Return `undefined` to skip the check.
   */
  readonly expected?: (
    event: CallbackEvent,
    context: Omit<CallbackContext, 'dedupeKey'>,
  ) => ExpectedPayment | undefined | Promise<ExpectedPayment | undefined>;
  /**
   * Settle pending transactions (`hosted-payments/transactions`): a callback for a reference it
   * never recorded is refused (409 `unknown_reference`), `expected` comes from the recorded amount
   * and currency, and a second, different outcome for a settled transaction is refused (409
   * `conflicting_outcome`) and never applied. The key is the signed reference.
   */
  readonly tracker?: TransactionTracker;
  /**
   * Told about every refused request and every `onEvent` failure (for logs and metrics). Its own
   * errors are ignored. The error never carries the payload.
   */
  readonly onError?: (
    error: unknown,
    context: { readonly request: Request; readonly status: number; readonly reason: CallbackRejectionReason },
  ) => unknown;
}

/**
 * A Fetch API webhook route.
 *
 * @example
 * ```ts
 * export const POST: CallbackHandler = createCallbackHandler({ secret, onEvent });
 * ```
 */
export type CallbackHandler = (request: Request) => Promise<Response>;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

const answer = (status: number, body: object, headers?: Record<string, string>): Response =>
  new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });

// The accepted path answers without a body: on Node 20 any Response body is a web ReadableStream,
// whose construction (makeTransferable) costs more than parsing the callback itself.
const RECEIVED_HEADERS = { 'cache-control': 'no-store' };
const DUPLICATE_HEADERS = { 'cache-control': 'no-store', 'x-callback-duplicate': 'true' };
const received = (duplicate: boolean): Response =>
  new Response(null, { status: 200, headers: duplicate ? DUPLICATE_HEADERS : RECEIVED_HEADERS });

/** Reads at most `max` bytes; `undefined` as soon as the body is larger (the rest is never read). */
async function readCapped(request: Request, max: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > max) return undefined;
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

const sameAmount = (expected: string | number, actual: string): boolean => {
  const a = Number(expected);
  const b = Number(actual);
  return Number.isFinite(a) && Number.isFinite(b) ? a === b : String(expected).trim() === actual.trim();
};

/**
 * Creates the webhook route. Status codes: 200 without a body when the event was processed (a
 * duplicate also carries `x-callback-duplicate: true`); a refusal has a small JSON body that
 * never echoes the payload (`{ error: '<reason>' }`):
 *
 * | status | when |
 * |---|---|
 * | 200 | `onEvent` resolved; or a duplicate of an event already processed (`onEvent` not called again) |
 * | 400 `invalid_payload` | not JSON, or matches no documented payload (or contradicts itself with `onContradiction: 'reject'`) |
 * | 401 `invalid_signature` | `secret` set and the URL signature is missing or wrong |
 * | 405 `method_not_allowed` | not a POST |
 * | 409 `reference_mismatch` | the payload's reference (transaction_reference / order_id / reference_id) is not the signed one |
 * | 409 `unknown_reference` / `transaction_kind_mismatch` | `tracker` set and no transaction of the callback's kind was recorded under the reference |
 * | 409 `conflicting_outcome` | `tracker` set and the transaction was already settled with the other outcome (nothing applied) |
 * | 413 `payload_too_large` | body over `maxBodyBytes` (by Content-Length, or while streaming) |
 * | 422 `amount_mismatch` / `currency_mismatch` | `expected` returned a different amount or currency |
 * | 500 `handler_failed` | `onEvent` (or `expected`, or the store) threw; the claim is released, so the sender's retry is processed |
 * | 503 `in_progress` + `Retry-After` | the same event is being processed by another delivery right now |
 *
 * @example
 * ```ts
 * // app/api/webhooks/payments/route.ts (Next.js App Router) — or Hono, Bun.serve, Deno.serve
 * export const POST = createCallbackHandler({
 *   secret: process.env.WEBHOOK_SECRET,
 *   onEvent: async (event) => {
 *     if (event.type === 'checkout.succeeded') await orders.markPaid(event.reference, event.amount);
 *   },
 * });
 * ```
 */
export function createCallbackHandler(options: CallbackHandlerOptions): CallbackHandler {
  const maxBodyBytes = options.maxBodyBytes ?? 65_536;
  const store = options.dedupe === false ? undefined : (options.dedupe ?? createMemoryDedupeStore());
  const dedupeTtlMs = options.dedupeTtlMs ?? 24 * 60 * 60 * 1000;
  const processingTimeoutMs = options.processingTimeoutMs ?? 5 * 60 * 1000;
  const secret = options.secret;
  const parseOptions: ParseCallbackOptions = { onContradiction: options.onContradiction ?? 'warn' };

  const refuse = async (
    request: Request,
    status: number,
    reason: CallbackRejectionReason,
    error: unknown,
    headers?: Record<string, string>,
  ): Promise<Response> => {
    if (options.onError !== undefined) {
      try {
        await options.onError(error, { request, status, reason });
      } catch {
        // onError is for observation; its failure must not change the answer.
      }
    }
    return answer(status, { error: reason }, headers);
  };

  return async (request) => {
    if (request.method !== 'POST') {
      return refuse(request, 405, 'method_not_allowed', new Error(`method ${request.method}`), {
        allow: 'POST',
      });
    }

    let signedReference: string | undefined;
    if (secret !== undefined) {
      try {
        const verifyOptions =
          options.publicOrigin === undefined ? { secret } : { secret, origin: options.publicOrigin };
        signedReference = (await verifyCallbackUrl(request.url, verifyOptions)).reference;
      } catch (error) {
        return refuse(request, 401, 'invalid_signature', error as CallbackVerificationError);
      }
    }

    let body: Uint8Array | undefined;
    try {
      body = await readCapped(request, maxBodyBytes);
    } catch (error) {
      return refuse(request, 400, 'invalid_payload', error);
    }
    if (body === undefined) {
      return refuse(request, 413, 'payload_too_large', new Error(`body over ${maxBodyBytes} bytes`));
    }

    const parsed = safeParseCallback(body, parseOptions);
    if (!parsed.success) return refuse(request, 400, 'invalid_payload', parsed.error);
    const event = parsed.event;

    if (
      signedReference !== undefined &&
      event.reference !== undefined &&
      event.reference !== signedReference
    ) {
      return refuse(
        request,
        409,
        'reference_mismatch',
        new CallbackParseError(
          `The ${event.type} payload's reference is not the one signed into the callback URL`,
          {
            closestVariant: event.type,
          },
        ),
      );
    }

    let claimed = false;
    let dedupeKey = '';
    let transaction: TransactionRecord | undefined;
    try {
      if (options.tracker !== undefined) {
        const found = await findCallbackTransaction(options.tracker, event, signedReference);
        if (!found.ok) return await refuse(request, found.status, found.reason, found.error);
        transaction = found.record;
      }
      if (options.expected !== undefined || transaction !== undefined) {
        const expected =
          transaction !== undefined
            ? expectedFromTransaction(transaction)
            : await options.expected!(event, { request, reference: signedReference });
        if (expected?.amount !== undefined && !sameAmount(expected.amount, event.amount)) {
          return refuse(
            request,
            422,
            'amount_mismatch',
            new Error(`${event.type}: amount is not the expected one`),
          );
        }
        if (
          expected?.currency !== undefined &&
          event.currency !== undefined &&
          expected.currency.toUpperCase() !== event.currency.toUpperCase()
        ) {
          return refuse(
            request,
            422,
            'currency_mismatch',
            new Error(`${event.type}: currency is not the expected one`),
          );
        }
      }

      dedupeKey = callbackDedupeKey(event);
      if (store !== undefined) {
        const state = await store.begin(dedupeKey, processingTimeoutMs);
        if (state === 'done') return received(true);
        if (state === 'in_progress') {
          return refuse(request, 503, 'in_progress', new Error(`${event.type}: already being processed`), {
            'retry-after': '5',
          });
        }
        claimed = true;
      }

      let tracked: Pick<CallbackContext, 'transaction' | 'settlement'> = {};
      if (transaction !== undefined) {
        const settled = await settleCallbackTransaction(options.tracker!, event, transaction);
        if (!settled.ok) {
          if (claimed) await store!.abandon(dedupeKey).catch(() => undefined);
          claimed = false;
          return await refuse(request, settled.status, settled.reason, settled.error);
        }
        tracked = { transaction: settled.settlement.record, settlement: settled.settlement.result };
      }
      await options.onEvent(event, { request, reference: signedReference, dedupeKey, ...tracked });
      if (claimed) {
        claimed = false;
        // The event was processed: answer 200 even if the store cannot record it (a retry would
        // then wait for the claim to expire rather than run onEvent twice at once).
        await store!.complete(dedupeKey, dedupeTtlMs).catch(() => undefined);
      }
      return received(false);
    } catch (error) {
      if (claimed) await store!.abandon(dedupeKey).catch(() => undefined);
      return refuse(request, 500, 'handler_failed', error);
    }
  };
}
