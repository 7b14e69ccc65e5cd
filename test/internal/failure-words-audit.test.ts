// Failure words audit: a success callback whose message reads as a failure ("Payment Declined",
// "Transaction incomplete", "Payment Unsuccessful", …) must be refused, never read as paid; and a
// mobile-money initiation reply that negates itself ("Payment never initiated") is not a success.
import { describe, expect, it } from 'vitest';
import { safeParseCallback } from '../../src/callbacks/index.js';
import { FAILURE_WORDS, NEGATION_WORDS } from '../../src/internal/failure-words.js';
import { callbackFixtures } from '../../src/testing/index.js';

const mobileMoneySuccess = callbackFixtures['payment.mobile_money.succeeded'];

describe('failure words audit', () => {
  it.each([
    'Payment Declined',
    'Card declined by issuer',
    'Transaction incomplete',
    'Payment Unsuccessful',
    'Payment Failed',
    'Insufficient funds',
    'Payment rejected',
    'Cancelled by user',
    'Access denied',
    'Payment reversed',
    'Processing error',
    'Card expired',
    'Invalid PIN',
    'Request timed out',
    'Request timeout',
    'PAYMENT NOT COMPLETED',
    'Payment queued',
    'Payment errored',
    'Rolled back',
    'Payment dropped',
    'Service busy, retry later',
    'Throttled',
    'Rate limited',
    'Under maintenance',
    'Payment ignored',
    'Payment skipped',
    'Service offline',
    'Payment not sent',
    'NOTSENT',
  ])('refuses a success callback whose message is %j', (message) => {
    const result = safeParseCallback(JSON.stringify({ ...mobileMoneySuccess, message }));
    expect(result.success).toBe(false);
    expect(result.error?.reason).toBe('contradictory_outcome');
  });

  // Words that only begin like a failure word are none: `retrieved` is not `retried`, `errand` not `err`.
  it.each(['Payment retrieved', 'Payment Successful, funds retrieval complete', 'Errand paid'])(
    'reads a success message holding a word that only begins like one as a success: %j',
    (message) => {
      const result = safeParseCallback(JSON.stringify({ ...mobileMoneySuccess, message }));
      expect(result.success).toBe(true);
    },
  );

  it('reads an ordinary success message as a success', () => {
    const result = safeParseCallback(
      JSON.stringify({ ...mobileMoneySuccess, message: 'Payment Successful' }),
    );
    expect(result.success).toBe(true);
  });

  it('matches failure words whole, in any letter case', () => {
    expect(FAILURE_WORDS.test('PAYMENT DECLINED')).toBe(true);
    expect(FAILURE_WORDS.test('payment unsuccessful')).toBe(true);
    // Whole words only: "notification" and "errorless" are not "not" and "error".
    expect(FAILURE_WORDS.test('notification sent')).toBe(false);
    expect(FAILURE_WORDS.test('Payment Successful: Pinot Noir order')).toBe(false);
  });

  it.each([
    'No Payment Initiated',
    'Payment never initiated',
    'Nothing initiated',
    'Neither initiated',
    'Initiated without payment',
    'Cannot initiate',
    'Unable to initiate',
    'None initiated',
    'Non payment',
    'Duplicate Payment Initiated',
    'Duplicated request',
  ])('reads %j as a negation', (text) => {
    expect(NEGATION_WORDS.test(text)).toBe(true);
  });

  it('does not take a brand word for a negation', () => {
    expect(NEGATION_WORDS.test('M-PESA Payment Initiated')).toBe(false);
    expect(NEGATION_WORDS.test('Nordic Pay')).toBe(false);
  });
});
