/**
 * The sandbox's outcome engine: which documented test value leads to which callback. Pure
 * functions, shared by the sandbox server and the msw handlers.
 *
 * @module
 */

import { INSUFFICIENT_FUNDS_MESSAGE } from './payloads.js';

/**
 * The documented test values of the sandbox and the msw handlers.
 *
 * | input | outcome |
 * |---|---|
 * | card `4242424242424242` (and any other valid card) | card success callback |
 * | card `4000000000000002` | card failure callback; on the checkout page, a failed redirect callback (`Insufficient funds`) |
 * | phone `254700000406` | mobile-money failure callback, `response_status` 406, insufficient funds |
 * | phone `254700000000` | payment accepted, and no callback ever sent (a lost callback: find it with your pending-payment tracking); a payout to it made, its callback dropped too |
 * | any other valid phone | mobile-money success callback |
 * | payout `amount` + fee above the wallet balance | payout failure callback, balance unchanged |
 * | any other payout | payout success callback, fee charged, `wallet_balance` reduced |
 *
 * @example
 * ```ts
 * import { sandboxTestValues } from 'hosted-payments/sandbox';
 *
 * const card_details = { card_number: sandboxTestValues.cards.declined, expiry_month: 12, expiry_year: 2030, cvc: '123' };
 * // initiateCardPayment({ …, card_details }) → the callback URL receives `CARD Payment Failed`
 * const phone_number = sandboxTestValues.phones.noCallback;
 * // initiateMobileMoneyPayment({ customer_details: { …, phone_number } }) → accepted, never called back
 * ```
 */
export const sandboxTestValues = Object.freeze({
  cards: Object.freeze({
    /** Succeeds (so does any other valid card number). */
    success: '4242424242424242',
    /** Declined: card failure callback; failed redirect callback on the checkout page. */
    declined: '4000000000000002',
  }),
  phones: Object.freeze({
    /** Succeeds (so does any other valid phone number). */
    success: '254712345678',
    /** Fails with `response_status` 406, insufficient funds. */
    insufficientFunds: '254700000406',
    /**
     * Accepted (`Payment Initiated`), and its callback is never sent: the sandbox drops it, as a
     * lost callback would be, so pending-payment tracking can be seen to find it. The delivery
     * report lists it as `dropped`. A payout to it is made (fee charged) and its callback dropped.
     */
    noCallback: '254700000000',
  }),
  /** Starting wallet balance of a sandbox (option `walletBalance`). */
  walletBalance: 100_000,
  /** Fee charged on every successful payout (option `payoutFee`). */
  payoutFee: 50,
});

/**
 * The outcome of a payment: success, or failure with the reason the callback reports.
 *
 * @example
 * ```ts
 * const outcome: PaymentOutcome = decideCardPayment('4242424242424242'); // { ok: true }
 * ```
 */
export type PaymentOutcome =
  | {
      readonly ok: true;
      readonly reason?: never;
      readonly responseStatus?: never;
      /** The test value that makes the sandbox never send the callback. */
      readonly dropCallback?: boolean | undefined;
    }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly responseStatus: number;
      readonly dropCallback?: never;
    };

const SUCCESS: PaymentOutcome = { ok: true };
const SUCCESS_WITHOUT_CALLBACK: PaymentOutcome = { ok: true, dropCallback: true };
const INSUFFICIENT_FUNDS: PaymentOutcome = {
  ok: false,
  reason: INSUFFICIENT_FUNDS_MESSAGE,
  responseStatus: 406,
};
const DECLINED: PaymentOutcome = { ok: false, reason: INSUFFICIENT_FUNDS_MESSAGE, responseStatus: 402 };

/**
 * The outcome of a card payment for a (valid) card number given as digits.
 *
 * @example
 * ```ts
 * decideCardPayment('4000000000000002').ok; // false
 * ```
 */
export function decideCardPayment(cardNumber: string): PaymentOutcome {
  return cardNumber === sandboxTestValues.cards.declined ? DECLINED : SUCCESS;
}

/**
 * The outcome of a mobile-money payment for a normalised phone number (`2547…`).
 *
 * @example
 * ```ts
 * decideMobileMoneyPayment('254700000406'); // { ok: false, reason: 'Insufficient funds', responseStatus: 406 }
 * ```
 */
export function decideMobileMoneyPayment(phoneNumber: string): PaymentOutcome {
  if (phoneNumber === sandboxTestValues.phones.noCallback) return SUCCESS_WITHOUT_CALLBACK;
  return phoneNumber === sandboxTestValues.phones.insufficientFunds ? INSUFFICIENT_FUNDS : SUCCESS;
}

/**
 * The outcome of a payout and the wallet balance after it.
 *
 * @example
 * ```ts
 * const outcome: PayoutOutcome = decidePayout({ amount: 10, balance: 100, fee: 5 }); // balanceAfter 85
 * ```
 */
export type PayoutOutcome =
  | { readonly ok: true; readonly fee: number; readonly balanceAfter: number }
  | { readonly ok: false; readonly balanceAfter: number };

/**
 * Decides a payout against the wallet: it fails when `amount + fee` exceeds the balance
 * (balance unchanged), otherwise the fee is charged and the balance reduced by both.
 *
 * @example
 * ```ts
 * decidePayout({ amount: 1000, balance: 100000, fee: 50 }); // { ok: true, fee: 50, balanceAfter: 98950 }
 * decidePayout({ amount: 100000, balance: 100000, fee: 50 }); // { ok: false, balanceAfter: 100000 }
 * ```
 */
export function decidePayout(input: { amount: number; balance: number; fee: number }): PayoutOutcome {
  if (!Number.isFinite(input.amount) || input.amount + input.fee > input.balance) {
    return { ok: false, balanceAfter: input.balance };
  }
  return { ok: true, fee: input.fee, balanceAfter: input.balance - input.amount - input.fee };
}
