import type { CallbackEventType } from '../callbacks/events.js';
import { maskCardNumber } from '../internal/redact.js';
import { luhn } from '../validation/card.js';

/**
 * One line of the sandbox's activity log, passed to the `log` option of `startSandbox` (and the
 * msw handlers). Never carries a card number or cvc: a card appears at most as its last 4 digits.
 *
 * @example
 * ```ts
 * import { startSandbox } from 'hosted-payments/sandbox';
 *
 * await startSandbox({
 *   log: (event) => {
 *     if (event.kind === 'callback' && event.outcome === 'gave_up') console.error(event.url, event.reason);
 *   },
 * });
 * ```
 */
export type SandboxLogEvent =
  | {
      readonly kind: 'listening';
      /** The base URL to give the client. */
      readonly url: string;
      /** The interface and port the server really bound, e.g. `0.0.0.0:4010` or `[::1]:4010`. */
      readonly address: string;
    }
  | {
      readonly kind: 'request';
      readonly method: string;
      readonly path: string;
      readonly status: number;
      /** A short, secret-free summary, e.g. `card **** 4242, 1500 KES → card payment succeeds`. */
      readonly summary?: string | undefined;
    }
  | {
      readonly kind: 'callback';
      readonly type: CallbackEventType;
      /** The callback URL without its query string (which may carry a signature). */
      readonly url: string;
      /** The order it is about: `hp_ref` of a signed callback URL, or the request's reference. */
      readonly reference?: string | undefined;
      /** 1 for the first attempt. */
      readonly attempt: number;
      /** 0 for the first delivery, 1… for deliberate duplicates. */
      readonly copy: number;
      readonly outcome: 'delivered' | 'retrying' | 'gave_up';
      /** The HTTP status the merchant answered, when it answered. */
      readonly status?: number | undefined;
      /**
       * What a refusing answer said: its JSON body's `error` code (e.g. `invalid_signature`), else an
       * excerpt in double quotes; never the callback's signature or the API key the sandbox received.
       */
      readonly reason?: string | undefined;
      /** Why the attempt got no answer (`ECONNREFUSED`, `timeout`, …). */
      readonly error?: string | undefined;
    }
  | {
      readonly kind: 'callback_dropped';
      readonly type: CallbackEventType;
      /** The callback URL without its query string. */
      readonly url: string;
      /** The order it is about: `hp_ref` of a signed callback URL, or the request's reference. */
      readonly reference?: string | undefined;
      /** Why the sandbox never sends it, e.g. the test phone that loses its callback. */
      readonly because: string;
    };

/**
 * A sink for {@link SandboxLogEvent}s.
 *
 * @example
 * ```ts
 * import { formatSandboxLogEvent, type SandboxLogger } from 'hosted-payments/sandbox';
 *
 * const lines: string[] = [];
 * const log: SandboxLogger = (event) => lines.push(formatSandboxLogEvent(event));
 * ```
 */
export type SandboxLogger = (event: SandboxLogEvent) => void;

/**
 * How the sandbox's log is written: `pretty` (one readable line per event, with the time),
 * `json` (one JSON object per line) or `silent`.
 *
 * @example
 * ```ts
 * import type { SandboxLogFormat } from 'hosted-payments/sandbox';
 *
 * const format: SandboxLogFormat = process.env.CI ? 'json' : 'pretty';
 * ```
 */
export type SandboxLogFormat = 'pretty' | 'json' | 'silent';

/** The URL as it is safe and short to log: origin and path, `?…` when a query string was there. */
export function urlForLog(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return '(invalid url)';
  }
}

/**
 * The text (a URL, or an answer quoting one) with the value of every `hp_sig` (`hp_sig=` or
 * `hp_sig%3D`) replaced by `[redacted]`: the signature is a bearer token for its reference, while
 * `hp_ref` (the merchant's own reference) stays readable.
 */
export function redactSignature(text: string): string {
  return text.replace(/(hp_sig(?:=|%3D))[^&#\s"'<>]*/gi, '$1[redacted]');
}

/**
 * The merchant's reference a callback is about: `hp_ref` of a signed callback URL, else the
 * reference of the request that caused it (`fallback`).
 */
export function callbackReference(url: string, fallback: string | undefined): string | undefined {
  try {
    return new URL(url).searchParams.get('hp_ref') ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * `text` with each run of digits (a space or a dash allowed between two) that holds a card number,
 * 13 to 19 digits passing the Luhn check between two breaks of its groups, shown as its last four
 * (`**** 4242`), and the rest of such a run after it (a cvc or an expiry a route echoed,
 * `4242424242424242 123`) as `[redacted]`; a 12-digit payout `reference_id` stays.
 */
export const maskCardNumbers = (text: string): string =>
  text.replace(/(?<!\d)\d(?:[ -]?\d){12,}(?!\d)/g, (run) => {
    const breaks = [...run.matchAll(/[ -]/g)].map((found) => found.index);
    const ends = [...breaks, run.length];
    // From the start of each group (a number may stand before the card) to the end of that group
    // and of each after it, while the span holds at most 19 digits: linear in the run's length.
    const starts = [0, ...breaks.map((at) => at + 1)];
    for (const [group, start] of starts.entries()) {
      for (const end of ends.slice(group, group + 19)) {
        const digits = run.slice(start, end).replace(/[ -]/g, '');
        if (digits.length > 19) break;
        if (digits.length >= 13 && luhn(digits)) {
          return `${run.slice(0, start)}${maskCardNumber(digits)}${end === run.length ? '' : ' [redacted]'}`;
        }
      }
    }
    return run;
  });

/**
 * `log` handed every event with each card number shown as its last four (`**** 4242`;
 * {@link maskCardNumbers}): a card number a merchant used as a reference or put into a callback
 * URL's path reaches no log in full. A 12-digit payout `reference_id` stays as it is.
 */
export function maskingCardNumbers(log: SandboxLogger): SandboxLogger {
  return (event) =>
    log(
      Object.fromEntries(
        Object.entries(event).map(([key, value]) => [
          key,
          typeof value === 'string' ? maskCardNumbers(value) : value,
        ]),
      ) as unknown as SandboxLogEvent,
    );
}

/** ` for ORDER-1`, or nothing when the callback has no reference. */
export const forReference = (reference: string | undefined): string =>
  reference === undefined || reference === '' ? '' : ` for ${reference}`;

// C0 and C1 controls, DEL, the Unicode line separators and the bidirectional overrides: anything
// that could end a log line early, move the cursor, colour the terminal or reorder what is shown.
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Writes control characters as visible escapes (`\n`, `\u001b`), so one event stays one line. */
export function escapeForLog(text: string): string {
  return text.replace(
    UNPRINTABLE,
    (ch) => NAMED[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `401 invalid_signature`, `200`, `ECONNREFUSED`: what one delivery attempt got back. */
export function describeAnswer(answer: { status?: number; reason?: string; error?: string }): string {
  if (answer.status !== undefined)
    return answer.reason ? `${answer.status} ${answer.reason}` : `${answer.status}`;
  return answer.error ?? 'no answer';
}

function describeEvent(event: SandboxLogEvent): string {
  switch (event.kind) {
    case 'listening':
      return `sandbox listening on ${event.url} (bound to ${event.address})`;
    case 'request':
      return `→ ${event.method} ${event.path} ${event.status}${event.summary ? `  ${event.summary}` : ''}`;
    case 'callback': {
      const copy = event.copy > 0 ? ` (duplicate ${event.copy})` : '';
      const outcome =
        event.outcome === 'delivered' ? 'delivered' : event.outcome === 'retrying' ? 'will retry' : 'gave up';
      return `← callback ${event.type}${copy}${forReference(event.reference)} to ${event.url} attempt ${event.attempt}: ${describeAnswer(event)}, ${outcome}`;
    }
    case 'callback_dropped':
      return `✕ callback ${event.type}${forReference(event.reference)} to ${event.url} dropped: ${event.because}`;
  }
}

/**
 * Renders a log event as one human-readable line (what `hosted-payments sandbox` prints), with
 * every control character escaped: a reference holding a newline or a terminal escape cannot
 * forge a line.
 *
 * @example
 * ```ts
 * import { formatSandboxLogEvent, startSandbox } from 'hosted-payments/sandbox';
 *
 * await startSandbox({ log: (event) => process.stdout.write(`${formatSandboxLogEvent(event)}\n`) });
 * ```
 */
export function formatSandboxLogEvent(event: SandboxLogEvent): string {
  return escapeForLog(describeEvent(event));
}

/**
 * A logger that writes each event as one line in the given format: `pretty` prefixes the time
 * (`12:00:01.250 ← callback …`), `json` writes `{"time":…,"kind":…}`, `silent` writes nothing. The
 * CLI's log, and `startSandbox`'s default (`pretty`, delivery attempts only, to standard output).
 *
 * @example
 * ```ts
 * import { createSandboxLogger, startSandbox } from 'hosted-payments/sandbox';
 *
 * await startSandbox({ log: createSandboxLogger('json', (line) => process.stderr.write(line)) });
 * ```
 */
export function createSandboxLogger(
  format: SandboxLogFormat = 'pretty',
  write: (line: string) => void = (line) => void process.stdout.write(line),
): SandboxLogger {
  if (format === 'silent') return () => undefined;
  if (format === 'json') {
    return (event) =>
      write(`${escapeForLog(JSON.stringify({ time: new Date().toISOString(), ...event }))}\n`);
  }
  return (event) => write(`${new Date().toISOString().slice(11, 23)} ${formatSandboxLogEvent(event)}\n`);
}

/** The default log of `startSandbox`: one pretty line per delivery attempt (and dropped callback). */
export const deliveryLogger = (write?: (line: string) => void): SandboxLogger => {
  const logger = createSandboxLogger('pretty', write);
  return (event) => {
    if (event.kind === 'callback' || event.kind === 'callback_dropped') logger(event);
  };
};
