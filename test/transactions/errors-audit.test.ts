// What a TransactionStoreError tells the merchant: whether the request had been sent. `sent: true`
// (the service refused it, the store then failed to expire its record) must not read as "nothing
// was sent", which invites calling again.
import { describe, expect, it } from 'vitest';
import { TransactionStoreError } from '../../src/transactions/index.js';

describe('TransactionStoreError', () => {
  it('says the request was sent and its record stays pending, when it was sent', () => {
    const error = new TransactionStoreError('ORD-SENT', true, new Error('connection reset'));
    expect(error.message).toBe(
      'Transaction store failed (Error: connection reset) for reference "ORD-SENT": the request was sent and refused; its record stays pending',
    );
    expect(new TransactionStoreError('ORD-NOT', false, new Error('connection reset')).message).toMatch(
      /: nothing was sent$/,
    );
  });
});
