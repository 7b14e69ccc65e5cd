// Errors audit: the fields and defaults of the error classes a merchant reads in a catch block
// (the issues list, the cause, the reason, the variant), that they stay as they were made, and
// that every error class the SDK throws is in the published list of names.
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  CallbackParseError,
  CallbackVerificationError,
  ValidationError,
  isPaymentsError,
  paymentsErrorNames,
} from '../src/errors.js';
import { TransactionStoreError } from '../src/transactions/errors.js';

describe('errors audit', () => {
  it('never builds a ValidationError without an issue to read', () => {
    const error = new ValidationError([]);
    expect(error.issues).toEqual([{ path: [], message: 'invalid input', code: 'invalid' }]);
    expect(error.message).toBe('Invalid input: (root): invalid input');
  });

  it('keeps the cause of a ValidationError', () => {
    const cause = new Error('schema failed');
    const error = new ValidationError([{ path: ['amount'], message: 'expected a number', code: 'x' }], {
      cause,
    });
    expect(error.cause).toBe(cause);
  });

  it('freezes the issues of a ValidationError, and each path, so a handler cannot rewrite them', () => {
    const path = ['products', 0, 'quantity'];
    const error = new ValidationError([{ path, message: 'expected an integer', code: 'x' }]);
    path[0] = 'changed';
    expect(error.issues[0]!.path).toEqual(['products', 0, 'quantity']);
    expect(Object.isFrozen(error.issues)).toBe(true);
    expect(Object.isFrozen(error.issues[0])).toBe(true);
    expect(Object.isFrozen(error.issues[0]!.path)).toBe(true);
  });

  it("keeps an ApiError's headers and issues as they were at the throw, frozen", () => {
    const headers: Record<string, string> = { 'content-type': 'text/html' };
    const issues = [{ path: ['status'], message: 'required', code: 'invalid_type' }];
    const error = new ApiError('HTTP 200 of the wrong shape', { status: 200, body: '{}', headers, issues });
    headers['content-type'] = 'application/json';
    issues.push({ path: ['other'], message: 'x', code: 'x' });
    expect(error.headers).toEqual({ 'content-type': 'text/html' });
    expect(error.issues).toHaveLength(1);
    expect(Object.isFrozen(error.headers)).toBe(true);
    expect(Object.isFrozen(error.issues)).toBe(true);
  });

  it("says 'invalid_payload' when a CallbackParseError is given no reason, and keeps the closest variant", () => {
    expect(new CallbackParseError('bad').reason).toBe('invalid_payload');
    const error = new CallbackParseError('no variant', { closestVariant: 'payout.succeeded' });
    expect(error.closestVariant).toBe('payout.succeeded');
  });

  it('keeps the reason a callback URL failed verification', () => {
    expect(new CallbackVerificationError('no_secret', 'no secret set').reason).toBe('no_secret');
    expect(new CallbackVerificationError('missing_signature', 'no hp_sig').reason).toBe('missing_signature');
  });

  it('lists the name of every error class, the transaction store failure included', () => {
    const error = new TransactionStoreError('ORD-1', false, new Error('store down'));
    expect(paymentsErrorNames).toContain(error.name);
    expect(isPaymentsError(error, 'TransactionStoreError')).toBe(true);
  });
});
