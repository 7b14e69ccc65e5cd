// Redaction of card secrets for hooks, errors and logs (DESIGN "Security": the card number and
// cvc never appear in an error, a toString, JSON, util.inspect or a hook's log data).

/** The secrets of one request: card number digits and cvc digits, when the body has them. */
export interface CardSecrets {
  readonly cardNumber?: string;
  readonly cvc?: string;
}

/** Reads the secrets out of a wire body (only card payments have them). */
export function cardSecretsOf(body: unknown): CardSecrets | undefined {
  const card = (body as { card_details?: { card_number?: unknown; cvc?: unknown } } | null)?.card_details;
  if (typeof card !== 'object' || card === null) return undefined;
  return { cardNumber: String(card.card_number ?? ''), cvc: String(card.cvc ?? '').padStart(3, '0') };
}

/** `'**** **** **** 4242'`: the last four digits only. */
export const maskCardNumber = (digits: string): string => `**** **** **** ${digits.slice(-4)}`;

/** A copy of a wire body with card_number masked to its last four and cvc replaced. */
export function redactWireBody<T>(body: T): T {
  const card = (body as { card_details?: Record<string, unknown> } | null)?.card_details;
  if (typeof card !== 'object' || card === null) return body;
  return {
    ...body,
    card_details: { ...card, card_number: maskCardNumber(String(card.card_number)), cvc: '[redacted]' },
  } as T;
}

const escapeDigits = (digits: string): string => digits.split('').join('[\\s-]?');

/**
 * Removes the request's card number (also when written with spaces or dashes) and cvc (as a
 * standalone 3-digit group) from a text such as a response body the server echoed.
 */
export function redactText(text: string, secrets: CardSecrets | undefined): string {
  if (secrets === undefined) return text;
  let out = text;
  if (secrets.cardNumber !== undefined && /^\d{12,19}$/.test(secrets.cardNumber)) {
    out = out.replace(new RegExp(`(?<!\\d)${escapeDigits(secrets.cardNumber)}(?!\\d)`, 'g'), (match) =>
      maskCardNumber(match.replace(/\D/g, '')),
    );
  }
  if (secrets.cvc !== undefined && /^\d{3}$/.test(secrets.cvc)) {
    out = out.replace(new RegExp(`(?<![\\d.])${secrets.cvc}(?![\\d.])`, 'g'), '[redacted]');
  }
  return out;
}

/** Headers for a log line: the Authorization value replaced. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] =
      name.toLowerCase() === 'authorization' ? value.replace(/^(\S+\s+).*$/, '$1[redacted]') : value;
  }
  return out;
}
