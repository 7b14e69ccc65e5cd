/**
 * Words that read as a failure, shared by the two places a service's text could say "success"
 * while meaning otherwise: the message of a success callback (`verdict.ts`) and the brand part of a
 * mobile-money initiation reply (`requests/responses.ts`).
 *
 * @module
 */

/**
 * Words of a failure's message (`CARD Payment Failed`, `Payout Failed`, `Insufficient funds`,
 * `Payment Unsuccessful`, `declined`, …), whole words, any letter case.
 */
export const FAILURE_WORDS =
  /\b(?:fail\w*|declin\w*|insufficient|incomplete|unsuccessful|not|reject\w*|cancel\w*|denied|revers\w*|error|expired|invalid|timed? ?out)\b/i;

/**
 * Words that negate or refuse what follows (`No Payment Initiated`, `Duplicate Payment
 * Initiated`), whole words, any letter case: no brand word is one. Only the initiation reply reads
 * them; a callback's message is read for {@link FAILURE_WORDS} only.
 */
export const NEGATION_WORDS =
  /\b(?:no|non|none|never|nothing|nor|neither|without|cannot|unable|duplicat\w*)\b/i;
