/**
 * Words that read as a failure, shared by the two places a service's text could say "success"
 * while meaning otherwise: the message of a success callback (`verdict.ts`) and the brand part of a
 * mobile-money initiation reply (`requests/responses.ts`); and the words of a success text, which
 * the redirect card success's message must hold (`verdict.ts`).
 *
 * @module
 */

/**
 * Words of a failure's message (`CARD Payment Failed`, `Payout Failed`, `Insufficient funds`,
 * `Payment Unsuccessful`, `declined`, `Refused`, `Account Suspended`, `Pending`, …) or of money
 * going back or held (`Refunded`, `Chargeback`, `Voided`, `On hold`, `Disputed`, `Fraud`, `Lost
 * card`) or of a payment not final yet (`Awaiting`, `Processing`, `Initiated`, `Authorized`),
 * whole words, any letter case.
 */
export const FAILURE_WORDS =
  /\b(?:fail\w*|declin\w*|insufficient|incomplete|unsuccessful|not|reject\w*|cancel\w*|denied|revers\w*|error|expired|invalid|timed? ?out|refus\w*|block\w*|abort\w*|suspend\w*|stop\w*|pending|unknown|unavailable|unauthori[sz]ed|forbidden|refund\w*|chargeback\w*|charged back|disput\w*|fraud\w*|void\w*|hold|held|lost|stolen|awaiting|processing|initiated|authori[sz]\w*)\b/i;

/**
 * Words that negate or refuse what follows (`No Payment Initiated`, `Duplicate Payment
 * Initiated`), whole words, any letter case: no brand word is one. Only the initiation reply reads
 * them; a callback's message is read for {@link FAILURE_WORDS} only.
 */
export const NEGATION_WORDS =
  /\b(?:no|non|none|never|nothing|nor|neither|without|cannot|unable|duplicat\w*)\b/i;

/**
 * Words of a success text (`Card Payment Successful`, `CARD Payment Success`, `Payment
 * complete`), whole words, any letter case: the redirect card success, whose `paid` says
 * `'False'`, is a success only when its message says so as well ({@link isSuccessText}). Not
 * `approved`: an authorisation approved is no capture.
 */
export const SUCCESS_WORDS = /\b(?:success\w*|succeeded|complete[ds]?|paid)\b/i;

/** Anything but printable ASCII: a look-alike letter, an invisible or a control character. */
export const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/;

/** `text` as its words: `_` as a blank, camelCase split (`CARD_PAYMENT_FAILED`, `PaymentDeclined`). */
const asWords = (text: string): string => text.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');

/**
 * The {@link FAILURE_WORDS} word a callback's text holds, written as words (`FAILED` of
 * `CARD_PAYMENT_FAILED`); undefined when it reads as no failure.
 */
export const failureWord = (text: string): string | undefined => FAILURE_WORDS.exec(asWords(text))?.[0];

/** Whether a callback's text reads as a failure's ({@link failureWord}). */
export const readsAsFailure = (text: string): boolean => failureWord(text) !== undefined;

/**
 * Whether a message is a success text: printable ASCII with a {@link SUCCESS_WORDS} word, and no
 * failure word, negation, `false`, `0` or question (`Paid: False`, `Successful? No`).
 */
export const isSuccessText = (text: string): boolean => {
  const words = asWords(text);
  return (
    !NOT_PRINTABLE_ASCII.test(text) &&
    SUCCESS_WORDS.test(words) &&
    !FAILURE_WORDS.test(words) &&
    !NEGATION_WORDS.test(words) &&
    !/\b(?:false|0)\b|\?/i.test(words)
  );
};
