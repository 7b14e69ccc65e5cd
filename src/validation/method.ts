// The rule a payment_method word is held to, wherever one is taken: the inputs, the builders' and
// the client's options, and the sandbox's (no zod: the sandbox and the testing entry import it).

/**
 * Whether a payment can be sent under `method`: no blanks around it, no control or invisible
 * character (the service would have to guess what it names). The card method word is one for a
 * mobile-money payment too (spec §4 rule 1: without `card_details` the request is a mobile-money
 * payment). {@link methodWordRule} says so.
 */
export const isMethodWord = (method: string): boolean =>
  method.trim() === method && !/[\p{Cc}\p{Cf}]/u.test(method);

/** A method word as an option or the sandbox takes one: a non-empty string that {@link isMethodWord}. */
export const isMethodWordValue = (value: unknown): value is string =>
  typeof value === 'string' && value !== '' && isMethodWord(value);

/** What {@link isMethodWord} asks for, with an example word. */
export const methodWordRule = (example: string): string =>
  `expected a payment method word such as ${example}, without blanks around it or a control or invisible character`;

/** The rule of a mobile-money payment's method word. */
export const MOBILE_MONEY_METHOD_RULE = methodWordRule('M-PESA');
