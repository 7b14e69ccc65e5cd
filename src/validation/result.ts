// The shape every pure check in src/validation returns: a normalised value, or a teaching message
// and a stable code. No check ever puts a card number or a cvc into its message.

/** Outcome of one field check. */
export type Check<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** A passing check. */
export const pass = <T>(value: T): Check<T> => ({ ok: true, value });

/** A failing check. */
export const fail = <T = never>(code: string, message: string): Check<T> => ({ ok: false, code, message });

/** A value's text as {@link preview} shows it: its first 4 characters, or all of one read as an amount. */
const start = (text: string): string => {
  const numeric = /^[\d.,+\-eE ]{1,12}$/.test(text) && text.replace(/\D/g, '').length <= 8;
  return text.length > 4 && !numeric ? `${text.slice(0, 4)}…` : text;
};

/**
 * Shows the start of a (non-secret) value in a message without echoing all of it: a string's
 * first 4 characters, in double quotes, and a number's or bigint's the same way without them; or
 * the whole of a value that reads as an amount (`"1500.00"`, `"1,500"`, `-1500`: at most 12
 * characters of digits, `.,+-eE` and spaces, at most 8 of them digits, so never a card number or a
 * phone number, whatever its type). `NaN` and `Infinity` are shown whole.
 */
export const preview = (value: unknown): string => {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'number' || typeof value === 'bigint') return start(String(value));
  return typeof value === 'string' ? JSON.stringify(start(value)) : typeof value;
};
