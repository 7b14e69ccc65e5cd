// A merchant webhook: createCallbackHandler behind toNodeListener on a real node:http server, with
// an onEvent that records every call and can be told to fail, so tests can count how often each
// distinct event reached onEvent and whether any was processed twice.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCallbackHandler, type CallbackHandlerOptions } from '../../../src/callbacks/handler.js';
import { toNodeListener } from '../../../src/callbacks/node.js';
import type { CallbackEvent } from '../../../src/callbacks/events.js';
import type { Capture } from './secrets.js';

export interface Ledger {
  /** onEvent calls per dedupe key (failed and successful). */
  readonly attempts: Map<string, number>;
  /** Successful onEvent completions per dedupe key: exactly-once means every value is 1. */
  readonly processed: Map<string, number>;
  /** onEvent calls that came after that key had already succeeded (must stay 0). */
  callsAfterSuccess: number;
  /** Injected onEvent failures. */
  injectedFailures: number;
  /** When each key was first processed (performance.now()). */
  readonly processedAt: Map<string, number>;
  /** The events processed, by key. */
  readonly events: Map<string, CallbackEvent>;
  /** When each signed reference was first processed (performance.now()). */
  readonly processedAtByReference: Map<string, number>;
}

export const newLedger = (): Ledger => ({
  attempts: new Map(),
  processed: new Map(),
  callsAfterSuccess: 0,
  injectedFailures: 0,
  processedAt: new Map(),
  events: new Map(),
  processedAtByReference: new Map(),
});

export interface MerchantOptions {
  readonly secret?: string;
  readonly ledger?: Ledger;
  /** Decides whether the n-th onEvent call (1-based) for a key fails. */
  readonly fail?: (key: string, attempt: number) => boolean;
  readonly onEventDelayMs?: number;
  readonly handler?: Partial<CallbackHandlerOptions>;
  /** Receives every error the handler reports (for the secrets scan). */
  readonly capture?: Capture;
}

/** The onEvent of the merchant: records, optionally waits, optionally fails. */
export function recordingOnEvent(ledger: Ledger, options: Pick<MerchantOptions, 'fail' | 'onEventDelayMs'>) {
  return async (
    event: CallbackEvent,
    context: { dedupeKey: string; reference?: string | undefined },
  ): Promise<void> => {
    const key = context.dedupeKey;
    const attempt = (ledger.attempts.get(key) ?? 0) + 1;
    ledger.attempts.set(key, attempt);
    if (ledger.processed.has(key)) ledger.callsAfterSuccess++;
    if (options.onEventDelayMs) await new Promise((r) => setTimeout(r, options.onEventDelayMs));
    if (options.fail?.(key, attempt)) {
      ledger.injectedFailures++;
      throw new Error(`injected onEvent failure (attempt ${attempt})`);
    }
    ledger.processed.set(key, (ledger.processed.get(key) ?? 0) + 1);
    if (!ledger.processedAt.has(key)) ledger.processedAt.set(key, performance.now());
    if (context.reference !== undefined && !ledger.processedAtByReference.has(context.reference)) {
      ledger.processedAtByReference.set(context.reference, performance.now());
    }
    ledger.events.set(key, event);
  };
}

export function merchantHandler(options: MerchantOptions & { ledger: Ledger }) {
  return createCallbackHandler({
    ...(options.secret === undefined ? { verify: false as const } : { secret: options.secret }),
    onEvent: recordingOnEvent(options.ledger, options),
    onError: (error, context) => options.capture?.add(`handler ${context.status} ${context.reason}`, error),
    ...options.handler,
  });
}

export interface Merchant {
  readonly url: string;
  readonly ledger: Ledger;
  /** HTTP statuses the webhook answered, by status. */
  readonly statuses: Map<number, number>;
  close(): Promise<void>;
}

export async function startMerchant(options: MerchantOptions = {}): Promise<Merchant> {
  const ledger = options.ledger ?? newLedger();
  const listener = toNodeListener(merchantHandler({ ...options, ledger }));
  const statuses = new Map<number, number>();
  const server: Server = createServer((req, res) => {
    res.on('finish', () => statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1));
    void listener(req, res);
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ledger,
    statuses,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Summary figures of a ledger against the number of distinct events expected. */
export function ledgerFigures(ledger: Ledger, expectedEvents: number) {
  const counts = [...ledger.processed.values()];
  return {
    distinctEventsExpected: expectedEvents,
    distinctEventsProcessed: ledger.processed.size,
    lost: Math.max(0, expectedEvents - ledger.processed.size),
    duplicatesProcessed: counts.reduce((n, c) => n + (c - 1), 0),
    onEventCallsAfterSuccess: ledger.callsAfterSuccess,
    injectedOnEventFailures: ledger.injectedFailures,
  };
}

/** A small seeded PRNG (mulberry32), for reproducible fault injection and shuffles. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable pseudo-random number in [0, 1) for a string (decides faults per event, seeded). */
export function hashUnit(text: string, seed: number): number {
  let h = 2166136261 ^ seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return ((h >>> 0) % 1_000_000) / 1_000_000;
}
