// Redaction of secrets for hooks, errors and logs (DESIGN "Security": the card number, the cvc and
// the API key never appear in an error, a toString, JSON, util.inspect or a hook's log data).

/**
 * What to remove from everything a server sends back: the request's card number and cvc (card
 * payments only) and literal values such as the Authorization header sent.
 */
export interface Secrets {
  readonly cardNumber?: string;
  readonly cvc?: string;
  /** Literal values (an API key, a whole Authorization value), removed wherever they appear. */
  readonly values?: readonly string[];
}

/** A wire field's text: a string or number as written, anything else empty. */
const fieldText = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : '';

/** The secrets of a card payment's wire body (undefined for the other bodies). */
export function cardSecretsOf(body: unknown): Secrets | undefined {
  const card = (body as { card_details?: { card_number?: unknown; cvc?: unknown } } | null)?.card_details;
  if (typeof card !== 'object' || card === null) return undefined;
  return { cardNumber: fieldText(card.card_number), cvc: fieldText(card.cvc).padStart(3, '0') };
}

/**
 * The one way the SDK shows a card number, in hook data, errors and the sandbox's log:
 * `'**** 4242'`, its last four digits only. Anything that is not at least four digits becomes
 * `'****'`. ASCII, so it reads the same in any log sink or header dump.
 */
export function maskCardNumber(cardNumber: unknown): string {
  const digits = fieldText(cardNumber);
  return /^\d{4,}$/.test(digits) ? `**** ${digits.slice(-4)}` : '****';
}

/** A copy of a wire body with card_number masked to its last four and cvc replaced. */
export function redactWireBody<T>(body: T): T {
  const card = (body as { card_details?: Record<string, unknown> } | null)?.card_details;
  if (typeof card !== 'object' || card === null) return body;
  return {
    ...body,
    card_details: { ...card, card_number: maskCardNumber(card.card_number), cvc: '[redacted]' },
  };
}

// Between two digits of an echoed card number: up to eight separators of any kind — spaces (any
// number, no-break ones included), dashes, dots, slashes, and their escaped forms (`%20`, `\u0020`,
// `&nbsp;`) — anything but a letter or another digit.
const separator = '(?:%[0-9A-Fa-f]{2}|\\\\u[0-9A-Fa-f]{4}|&#?[0-9A-Za-z]{1,8};|[^0-9A-Za-z]){0,8}';
const minimumValueLength = 6;

/**
 * Removes the secrets from a text such as a response body or header the server echoed: the card
 * number whatever separates its digits, the cvc as a standalone 3-digit group, and every literal
 * value.
 */
export function redactText(text: string, secrets: Secrets | undefined): string {
  if (secrets === undefined) return text;
  let out = text;
  for (const value of secrets.values ?? []) {
    if (value.length >= minimumValueLength) out = out.replaceAll(value, '[redacted]');
  }
  const { cardNumber, cvc } = secrets;
  if (cardNumber !== undefined && /^\d{12,19}$/.test(cardNumber)) {
    const pattern = new RegExp(`(?<![0-9])${cardNumber.split('').join(separator)}(?![0-9])`, 'g');
    out = out.replace(pattern, maskCardNumber(cardNumber));
  }
  if (cvc !== undefined && /^\d{3}$/.test(cvc)) {
    // Three digits (checked above): nothing in it a pattern would read as syntax.
    out = out.replace(new RegExp(`(?<![\\d.])${cvc}(?![\\d.])`, 'g'), '[redacted]');
  }
  return out;
}

const credentialHeaders = new Set(['authorization', 'proxy-authorization']);

/**
 * Headers for a log line or an error: credential values keep only their scheme (`Bearer
 * [redacted]`), and every other value goes through {@link redactText}.
 */
export function redactHeaders(
  headers: Readonly<Record<string, string>>,
  secrets?: Secrets,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = credentialHeaders.has(name.toLowerCase())
      ? value.replace(/^(\S+\s+).*$/s, '$1[redacted]').replace(/^\S+$/, '[redacted]')
      : redactText(value, secrets);
  }
  return out;
}
