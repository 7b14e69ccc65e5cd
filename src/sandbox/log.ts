import type { CallbackEventType } from '../callbacks/events.js';

/**
 * One line of the sandbox's activity log, passed to the `log` option of `startSandbox` (and the
 * msw handlers). Never carries a card number or cvc: a card appears at most as its last 4 digits.
 *
 * @example
 * ```ts
 * startSandbox({
 *   log: (event) => {
 *     if (event.kind === 'callback' && event.outcome === 'gave_up') alert(event.url);
 *   },
 * });
 * ```
 */
export type SandboxLogEvent =
  | {
      readonly kind: 'listening';
      readonly url: string;
    }
  | {
      readonly kind: 'request';
      readonly method: string;
      readonly path: string;
      readonly status: number;
      /** A short, secret-free summary, e.g. `card •••• 4242, 1500 KES → card payment succeeds`. */
      readonly summary?: string;
    }
  | {
      readonly kind: 'callback';
      readonly type: CallbackEventType;
      /** The callback URL without its query string (which may carry a signature). */
      readonly url: string;
      /** 1 for the first attempt. */
      readonly attempt: number;
      /** 0 for the first delivery, 1… for deliberate duplicates. */
      readonly copy: number;
      readonly outcome: 'delivered' | 'retrying' | 'gave_up';
      /** The HTTP status the merchant answered, when it answered. */
      readonly status?: number;
      /** Why the attempt failed, when it did not get an answer. */
      readonly error?: string;
    };

/**
 * A sink for {@link SandboxLogEvent}s.
 *
 * @example
 * ```ts
 * const log: SandboxLogger = (event) => lines.push(formatSandboxLogEvent(event));
 * ```
 */
export type SandboxLogger = (event: SandboxLogEvent) => void;

/**
 * The URL as it is safe and short to log: origin and path, `?…` when a query string was there.
 *
 * @example
 * ```ts
 * urlForLog('http://127.0.0.1:3000/hooks?ref=1&sig=abc'); // 'http://127.0.0.1:3000/hooks?…'
 * ```
 */
export function urlForLog(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return '(invalid url)';
  }
}

/**
 * Masks a card number to its last 4 digits (`•••• 4242`); anything else becomes `••••`.
 *
 * @example
 * ```ts
 * maskCardNumber('4242424242424242'); // '•••• 4242'
 * ```
 */
export function maskCardNumber(cardNumber: unknown): string {
  const digits = typeof cardNumber === 'string' || typeof cardNumber === 'number' ? String(cardNumber) : '';
  return /^\d{4,}$/.test(digits) ? `•••• ${digits.slice(-4)}` : '••••';
}

/**
 * Renders a log event as one human-readable line (what `hosted-payments sandbox` prints).
 *
 * @example
 * ```ts
 * startSandbox({ log: (event) => process.stdout.write(`${formatSandboxLogEvent(event)}\n`) });
 * ```
 */
export function formatSandboxLogEvent(event: SandboxLogEvent): string {
  switch (event.kind) {
    case 'listening':
      return `sandbox listening on ${event.url}`;
    case 'request':
      return `→ ${event.method} ${event.path} ${event.status}${event.summary ? `  ${event.summary}` : ''}`;
    case 'callback': {
      const copy = event.copy > 0 ? ` (duplicate ${event.copy})` : '';
      const answer = event.status !== undefined ? `HTTP ${event.status}` : (event.error ?? 'no answer');
      const outcome =
        event.outcome === 'delivered' ? 'delivered' : event.outcome === 'retrying' ? 'will retry' : 'gave up';
      return `← callback ${event.type}${copy} to ${event.url} attempt ${event.attempt}: ${answer}, ${outcome}`;
    }
  }
}
