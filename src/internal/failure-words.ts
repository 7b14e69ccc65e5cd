/**
 * Words that read as a failure, shared by the two places a service's text could say "success"
 * while meaning otherwise: the message of a success callback (`verdict.ts`) and the brand part of a
 * mobile-money initiation reply (`requests/responses.ts`); the words of a negation, which both
 * read too; the words a success text is made of, as the redirect card success's message must
 * be (`verdict.ts`); and a statement of success or of a payment not final yet, which a failure
 * callback may not make.
 *
 * @module
 */

/**
 * Words of a failure's message (`CARD Payment Failed`, `Payout Failed`, `Insufficient funds`,
 * `Payment Unsuccessful`, `declined`, `Refused`, `Account Suspended`, `Pending`, `Wrong PIN`, `Low
 * balance`, `Partially paid`, `Limit exceeded`, `Under review`, …) or of money going back or held
 * (`Refunded`, `Chargeback`, `Voided`, `On hold`, `Disputed`, `Fraud`, `Lost card`) or of a
 * payment not final yet (`Awaiting`, `Processing`, `Initiated`, `Authorized`) or of a request not
 * done (`Queued`, `Busy`, `Retry`, `Rolled back`, `Throttled`, `Under maintenance`, `null`), whole
 * words, any letter case; and the stems of a failure anywhere in a word (`PAYMENTFAILED`,
 * `Unpaid`, `Insufficent`, `NOTSENT`, `Unsent`, `Unconfirmed`, `Unsettled`, Swahili `Imeshindwa`).
 */
export const FAILURE_WORDS =
  /\b(?:fail\w*|declin\w*|insufficient|incomplete|unsuccessful|not|reject\w*|cancel\w*|denied|denial|revers\w*|err(?:or\w*|ed)?|expired|invalid|timed?[ -]?out|refus\w*|block\w*|abort\w*|suspend\w*|stop\w*|pending|unknown|unavailable|unauthori[sz]ed|forbidden|refund\w*|chargeback\w*|charged? back|disput\w*|fraud\w*|void\w*|hold|held|lost|stolen|awaiting|processing|initiated|authori[sz]\w*|wrong|incorrect|low balance|too low|in-complete|uncomplet\w*|partial\w*|underpaid|abandon\w*|exceed\w*|restrict\w*|requires? action|action required|under review|offline|busy|throttl\w*|rate[ -]?limit\w*|queued|retry\w*|retri(?:es|ed)|dropped|skipped|ignored|rolled[ -]?back|rollback|maintenance|nope|null|undefined)\b|\b\w*?(?:fail|declin|insuf|unsuc|unpaid|reject|shindw|notsent|un(?:sent|deliver|process|confirm|verif|settl|captur))\w*/i;

/**
 * Words that negate or refuse what follows (`No Payment Initiated`, `Un-successful`, `Duplicate
 * Payment Initiated`, `Payment didn't go through`), whole words, any letter case: no brand word is
 * one. The initiation reply and a success callback's message read them.
 */
export const NEGATION_WORDS =
  /\b(?:no|non|un|none|never|nothing|nor|neither|without|cannot|unable|duplicat\w*|\w+n't|(?:did|does|do|is|was|were|has|have|had|could|would|should|ca|wo|ai)nt)\b/i;

/**
 * The words a success text is made of (`Card Payment Successful`, `CARD Payment Success`, `Payment
 * complete`, `Payment was successful`): the redirect card success, whose `paid` says `'False'`, is
 * a success only when its message is one ({@link isSuccessText}). Not `approved`: an authorisation
 * approved is no capture.
 */
const SUCCESS_TEXT_WORDS = new Set([
  'card',
  'visa',
  'mastercard',
  'amex',
  'credit',
  'debit',
  'in',
  'full',
  'payment',
  'transaction',
  'checkout',
  'order',
  'is',
  'was',
  'has',
  'been',
  'success',
  'successful',
  'successfully',
  'succeeded',
  'complete',
  'completed',
  'paid',
]);

/** The words of {@link SUCCESS_TEXT_WORDS} that say success. */
const SAYS_SUCCESS = /\b(?:success\w*|succeeded|complete[ds]?|paid)\b/i;

/** Anything but printable ASCII: a look-alike letter, an invisible or a control character. */
export const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/;

/** `text` as its words: `_` as a blank, camelCase split (`CARD_PAYMENT_FAILED`, `PaymentDeclined`). */
const asWords = (text: string): string => text.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');

/** Whether `words` are only letters and blanks, each word one of `vocabulary`, one of them saying what `says` matches. */
const madeOf = (words: string, vocabulary: ReadonlySet<string>, says: RegExp): boolean =>
  /^[A-Za-z ]+$/.test(words) &&
  words.split(/ +/).every((word) => vocabulary.has(word.toLowerCase())) &&
  says.test(words);

/**
 * The word or mark that makes a success callback's message read otherwise: a failure word
 * ({@link FAILURE_WORDS}, `_` and camelCase read as word breaks), a negation, `false`, or a
 * question mark (`Paid: False`, `Successful? No`); undefined when it reads as none.
 */
export const notSuccessWord = (text: string): string | undefined => {
  const words = asWords(text);
  return (
    FAILURE_WORDS.exec(words)?.[0] ?? NEGATION_WORDS.exec(words)?.[0] ?? /\bfalse\b|\?/i.exec(words)?.[0]
  );
};

/**
 * Whether a message is a success text: made only of {@link SUCCESS_TEXT_WORDS} (blanks and `_`
 * between them, a `.` or `!` at the end), one of them saying success. Anything else — a negation
 * however written (`Isn't paid`, `Un-successful`), a qualifier (`Partially paid`, `Paid late`,
 * `Test success`), a second sentence or a mark (`Success: N`) — is no success text.
 */
export const isSuccessText = (text: string): boolean =>
  madeOf(asWords(text).trim().replace(/[.!]$/, ''), SUCCESS_TEXT_WORDS, SAYS_SUCCESS);

/**
 * `text` with a brand word before `Payment` or `Payout` set aside (`M-PESA Payment`), unless it
 * reads as a failure (`Reversed Payment`), and the names of what a payout moves (`Payout`,
 * `Transfer`, `Disbursement`, `Funds`, `Money`), so that a statement reads as a payment's does.
 */
const withoutSubject = (text: string): string =>
  asWords(text)
    .replace(/^\s*([\w-]+)(?=\s+pay(?:ment|out)\b)/i, (brand) =>
      notSuccessWord(brand) === undefined ? '' : brand,
    )
    .replace(/\b(?:payout|transfer|disbursement|funds|money)\b/gi, ' ');

/**
 * Whether a text is a statement of success, as a failure callback's message or status text may not
 * be: a success text ({@link isSuccessText}) once its subject is set aside ({@link withoutSubject})
 * and a payout's words for success read as `completed` (`Payout Successful`, `M-PESA Payment
 * Success`, `Payment completed`, `Success`, `Payout Sent`, `Disbursed`, `Funds transferred`,
 * `Payment processed`). A failure's free-text reason that only holds a success word (`Already
 * paid`, `Not sent`, `Wait for the transfer to complete`, `Funds returned successfully`) is none.
 */
export const isSuccessStatement = (text: string): boolean =>
  isSuccessText(
    withoutSubject(text)
      .replace(/\b(?:sent|disbursed|transferred|credited|delivered|processed)\b/gi, 'completed')
      .replace(/\bpaid out\b/gi, 'paid')
      .replace(/\bhave\b/gi, 'has'),
  );

/** The words a statement that a payment is not final yet is made of ({@link isNotFinalStatement}). */
const NOT_FINAL_TEXT_WORDS = new Set([
  'payment',
  'transaction',
  'order',
  'request',
  'checkout',
  'is',
  'was',
  'has',
  'been',
  'being',
  'still',
  'in',
  'on',
  'for',
  'progress',
  'pending',
  'processing',
  'processed',
  'queued',
  'awaiting',
  'waiting',
  'initiated',
  'submitted',
  'scheduled',
  'accepted',
  'hold',
  'customer',
  'confirmation',
  'approval',
]);

/** The words of {@link NOT_FINAL_TEXT_WORDS} that say not final (`processed` only after `being`). */
const SAYS_NOT_FINAL =
  /\b(?:pending|processing|progress|queued|awaiting|waiting|initiated|submitted|scheduled|accepted|hold|being processed)\b/i;

/**
 * Whether a text is a statement that the payment or payout is not final yet, as a failure
 * callback's message or status text may not be: made only of {@link NOT_FINAL_TEXT_WORDS} once its
 * subject is set aside ({@link withoutSubject}), one saying not final (`Pending`, `Payout Pending`,
 * `PROCESSING`, `Transaction is being processed`, `In progress`, `Awaiting confirmation`). A
 * failure's reason that names something under way only as its cause (`Previous request still
 * pending for this number`, `Processing error`) is none.
 */
export const isNotFinalStatement = (text: string): boolean =>
  madeOf(
    withoutSubject(text)
      .replace(/-/g, ' ')
      .trim()
      .replace(/(?:[.!]|\.\.\.|\u2026)$/, ''),
    NOT_FINAL_TEXT_WORDS,
    SAYS_NOT_FINAL,
  );
