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

/**
 * Shows the start of a (non-secret) value in a message without echoing all of it: a string's
 * first 4 characters, or the whole of a number written another way (`"1500.00"`, `"1,500"`: at
 * most 12 characters of digits, `.,+-eE` and spaces, at most 8 of them digits, so never a card
 * number or a phone number).
 */
export const preview = (value: unknown): string => {
  if (typeof value !== 'string')
    return typeof value === 'number' || typeof value === 'bigint' ? String(value) : typeof value;
  const numeric = /^[\d.,+\-eE ]{1,12}$/.test(value) && value.replace(/\D/g, '').length <= 8;
  return JSON.stringify(value.length > 4 && !numeric ? `${value.slice(0, 4)}…` : value);
};
