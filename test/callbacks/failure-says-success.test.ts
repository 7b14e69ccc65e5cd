// A failure callback that also says it succeeded is no failure anyone can act on. For a payout
// the false "failed" is the dangerous direction: the merchant pays the seller again, and the
// genuine success that follows is refused as the other outcome. Each such failure is refused
// (`contradictory_outcome`, the sender retries), as a success that says otherwise is. And a payout
// success whose transfer's status (`transfer` is the API reference's own name for a payout) says
// otherwise is refused, as one whose `payout_status` does.
import { describe, expect, it } from 'vitest';
import { safeParseCallback } from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const failures = {
  'payment.card.failed': callbackFixtures['payment.card.failed'],
  'payment.mobile_money.failed': callbackFixtures['payment.mobile_money.failed'],
  'checkout.failed': callbackFixtures['checkout.failed'],
  'payout.failed': callbackFixtures['payout.failed'],
} as const;
const failureEntries = Object.entries(failures);

const verdict = (payload: object) => {
  const result = safeParseCallback(payload);
  return result.event?.type ?? result.error!.reason;
};

describe('a failure callback that also says it succeeded', () => {
  it.each([
    ['Payout Successful'],
    ['Payout Success'],
    ['Success'],
    ['CARD Payment Success'],
    ['MOBILE-MONEY Payment Successful'],
    ['Card Payment Successful'],
    ['Payment completed'],
    ['Transaction successful.'],
    ['paid'],
    ['M-PESA Payment Success'],
    ['Transfer completed'],
  ])('is contradictory with the message %j', (message) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, message }), type).toBe('contradictory_outcome');
    }
  });

  it.each([
    ['payout_status', 'Success'],
    ['transfer_status', 'Completed'],
    ['transaction_status', 'SUCCESSFUL'],
    ['state', 'succeeded'],
    ['result', 'Success'],
    ['is_paid', true],
    ['success', true],
    ['succeeded', 'True'],
    ['data', { paid: 'True' }],
    ['transfer', { status: 'Completed' }],
  ])('is contradictory with %s %j', (key, value) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, [key]: value }), type).toBe('contradictory_outcome');
    }
  });

  it.each([
    ['Insufficient funds'],
    ['Payout Failed'],
    ['CARD Payment Failed'],
    ['Request cancelled by user'],
    ['The balance is insufficient for the transaction'],
    ['DS timeout user cannot be reached'],
    ['Payment could not be completed'],
    ['Transaction was not successful'],
    ['Payment incomplete.'],
    ['Unpaid'],
    ['Wrong PIN entered'],
    [''],
  ])('stays a failure with the message %j', (message) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, message }), type).toBe(type);
    }
  });

  // Free-text reasons a provider gives for a failure (mobile money, checkout) that hold a success
  // word but state no success: refused, each would be an outcome the merchant never learns.
  it.each([
    ['Already paid'],
    ['Order already paid'],
    ['Paid amount mismatch'],
    ['Amount paid is less than the order total'],
    ['Recipient paid too many times today'],
    ['A similar transaction is in progress; wait for it to complete'],
    ['Try again after the previous transfer completes'],
    ['Authentication required to complete payment'],
    ['Customer must complete 3D Secure authentication'],
    ['Session closed before payment completed'],
    ['Transaction completed on another channel'],
    ['Funds returned to your wallet successfully'],
    ['Amount credited back to wallet successfully'],
    ['Reversed Payment Successful'],
  ])('stays a failure with the reason %j', (message) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, message }), type).toBe(type);
    }
  });

  it.each([
    ['ResponseDescription', 'Accept the service request successfully.'],
    ['CustomerMessage', 'Success. Request accepted for processing'],
  ])("stays a failure carrying the initiation's acknowledgement %s %j", (key, value) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, [key]: value }), type).toBe(type);
    }
  });

  it.each([
    ['success', false],
    ['is_paid', 'False'],
    ['error', 'Insufficient funds'],
    ['payout_status', 'Failed'],
    ['transfer_status', 'Failed'],
    ['state', 'declined'],
    ['status_code', 200],
    ['result_code', 0],
    ['description', 'Seller payout for the completed order 1001'],
    ['note', 'paid in full last month'],
    ['data', { paid: 'False' }],
  ])('stays a failure with %s %j (no success said)', (key, value) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, [key]: value }), type).toBe(type);
    }
  });
});

describe("a payout success whose transfer's status says otherwise", () => {
  const payoutSuccess = callbackFixtures['payout.succeeded'];

  it.each([
    ['transfer_status', 'Failed'],
    ['transfer_status', 'Reversed'],
    ['transferStatus', 'Declined'],
    ['transfer_state', 'failed'],
    ['transfer_failed', true],
    ['payout_failed', true],
    ['transfer_error', 'Wallet closed'],
    ['transfer_successful', false],
  ])('is contradictory: %s %j', (key, value) => {
    expect(verdict({ ...payoutSuccess, [key]: value })).toBe('contradictory_outcome');
  });

  it.each([
    ['transfer_status', 'Completed'],
    ['transfer_failed', false],
    ['description', 'Refund for the failed order 1001'],
    ['remarks', 'Replaces the failed payout of May'],
  ])('stays a success: %s %j (free text is the merchant’s own)', (key, value) => {
    expect(verdict({ ...payoutSuccess, [key]: value })).toBe('payout.succeeded');
  });
});

// A mobile-money payout is a disbursement in most wallets' own words: its status and flags are
// read as a payout's or a transfer's are, on a success and on a failure.
describe("a payout callback whose disbursement's status says the other outcome", () => {
  const payoutSuccess = callbackFixtures['payout.succeeded'];
  const payoutFailure = callbackFixtures['payout.failed'];

  it.each([
    ['disbursement_status', 'Failed'],
    ['disbursementStatus', 'Reversed'],
    ['disbursement_state', 'declined'],
    ['disbursement_failed', true],
    ['disbursement_error', 'Wallet closed'],
    ['disbursement_successful', false],
  ])('a success is contradictory: %s %j', (key, value) => {
    expect(verdict({ ...payoutSuccess, [key]: value })).toBe('contradictory_outcome');
  });

  it.each([
    ['disbursement_status', 'Completed'],
    ['disbursement_successful', true],
    ['disbursement', { status: 'Success' }],
  ])('a failure is contradictory: %s %j', (key, value) => {
    expect(verdict({ ...payoutFailure, [key]: value })).toBe('contradictory_outcome');
  });

  it.each([
    ['disbursement_status', 'Completed'],
    ['disbursement_failed', false],
  ])('a success stays one: %s %j', (key, value) => {
    expect(verdict({ ...payoutSuccess, [key]: value })).toBe('payout.succeeded');
  });
});

// A payout's success is said in more words than a payment's: the money was sent, disbursed,
// transferred, credited. A failure that states one of them is no failure to act on.
describe('a failure callback that says the money was sent', () => {
  it.each([
    ['Payout Sent'],
    ['Disbursed'],
    ['Transfer processed'],
    ['Payout disbursed successfully'],
    ['Funds sent'],
    ['Money transferred'],
    ['Payment processed.'],
    ['Credited'],
  ])('is contradictory with the message %j', (message) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, message }), type).toBe('contradictory_outcome');
    }
  });

  it.each([
    ['payout_status', 'Disbursed'],
    ['transfer_status', 'SENT'],
    ['transaction_status', 'Processed'],
  ])('is contradictory with %s %j', (key, value) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, [key]: value }), type).toBe('contradictory_outcome');
    }
  });

  it.each([
    ['Not sent'],
    ['Payout could not be processed'],
    ['Funds returned to sender'],
    ['Amount credited back to wallet'],
    ['Transfer to an unregistered number not processed'],
  ])('stays a failure with the reason %j', (message) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, message }), type).toBe(type);
    }
  });
});

// A failure that says the payment or payout is still under way is no final failure: acting on it
// (paying the seller again, asking the customer to pay twice) is the double payment the verdict
// exists to prevent, so it is refused (`contradictory_outcome`) and the transaction stays pending.
describe('a failure callback that says it is not final yet', () => {
  it.each([
    ['Pending'],
    ['Payout Pending'],
    ['PROCESSING'],
    ['Transaction is being processed'],
    ['Payment in progress'],
    ['M-PESA Payment Pending'],
    ['Transfer queued'],
    ['Awaiting confirmation'],
  ])('is contradictory with the message %j', (message) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, message }), type).toBe('contradictory_outcome');
    }
  });

  it.each([
    ['payout_status', 'Pending'],
    ['transfer_status', 'PROCESSING'],
    ['disbursement_status', 'In progress'],
    ['state', 'queued'],
    ['pending', true],
    ['is_pending', 'True'],
    ['payout_pending', 'yes'],
    ['data', { status: 'Pending' }],
  ])('is contradictory with %s %j', (key, value) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, [key]: value }), type).toBe('contradictory_outcome');
    }
  });

  it.each([
    ['pending', false],
    ['is_pending', 'False'],
    ['payout_status', 'Failed'],
  ])('stays a failure with %s %j', (key, value) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, [key]: value }), type).toBe(type);
    }
  });

  it.each([
    ['A similar transaction is in progress; wait for it to complete'],
    ['Previous request still pending for this number'],
    ['Processing error'],
    ['Failed while processing'],
  ])('stays a failure with the reason %j', (message) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, message }), type).toBe(type);
    }
  });
});

// `_` and camelCase are word breaks in a failure's statement as in a success's message (an
// enum-like `PAYOUT_SENT`, a `PayoutSuccessful`), and a statement may run on (`Funds have been
// transferred`, `Paid out`, `Pending...`, `In-progress`).
describe('a failure callback whose statement is written as one word or runs on', () => {
  it.each([
    ['PAYOUT_SUCCESSFUL'],
    ['PayoutSuccessful'],
    ['Payout_Completed'],
    ['DISBURSED_SUCCESSFULLY'],
    ['FUNDS_TRANSFERRED'],
    ['fundsTransferred'],
    ['PAYOUT_SENT'],
    ['PayoutSent'],
    ['PaymentProcessed'],
    ['Funds have been transferred'],
    ['Paid out'],
    ['Pending...'],
    ['Processing…'],
    ['In-progress'],
  ])('is contradictory with the message %j', (message) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, message }), type).toBe('contradictory_outcome');
    }
  });

  it.each([['FUNDS_TRANSFERRED'], ['PayoutSent']])('is contradictory with payout_status %j', (value) => {
    for (const [type, payload] of failureEntries) {
      expect(verdict({ ...payload, payout_status: value }), type).toBe('contradictory_outcome');
    }
  });

  it.each([['PAYOUT_FAILED'], ['NOT_SENT'], ['PaymentNotProcessed'], ['Processing_Error']])(
    'stays a failure with the message %j',
    (message) => {
      for (const [type, payload] of failureEntries) {
        expect(verdict({ ...payload, message }), type).toBe(type);
      }
    },
  );
});
