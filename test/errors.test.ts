import { inspect } from 'node:util';
import type * as errors from '../src/errors.js';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  CallbackParseError,
  ConnectionError,
  PaymentsError,
  TimeoutError,
  ValidationError,
  formatIssuePath,
  isPaymentsError,
} from '../src/errors.js';
import {
  TransactionConflictError,
  TransactionStoreFullError,
  TransactionTimeoutError,
  UnknownTransactionError,
} from '../src/transactions/errors.js';

describe('errors', () => {
  it('gives every error a literal name and keeps the hierarchy', () => {
    const errors = [
      new ValidationError([{ path: ['amount', 'total'], message: 'expected a whole number', code: 'x' }]),
      new ApiError('HTTP 500', { status: 500, body: '<html>', headers: { 'content-type': 'text/html' } }),
      new ConnectionError('connection refused'),
      new TimeoutError(1000, { cause: new Error('slow') }),
      new CallbackParseError('no variant', { closestVariant: 'payout.succeeded' }),
    ];
    expect(errors.map((e) => e.name)).toEqual([
      'ValidationError',
      'ApiError',
      'ConnectionError',
      'TimeoutError',
      'CallbackParseError',
    ]);
    for (const error of errors) {
      expect(error).toBeInstanceOf(PaymentsError);
      expect(isPaymentsError(error)).toBe(true);
      expect(String(error)).toContain(error.name);
    }
  });

  it('recognises an error from another copy of the package (an ESM and a CJS copy in one process)', async () => {
    // The module loaded a second time (its own classes), as a CJS copy is next to the ESM one.
    const anotherCopy = '../src/errors.js?another-copy';
    const copy = (await import(anotherCopy)) as typeof errors;
    const foreign = new copy.ApiError('HTTP 502', { status: 502, body: '', headers: {} });
    expect(foreign).not.toBeInstanceOf(ApiError);
    expect(isPaymentsError(foreign)).toBe(true);
    expect(isPaymentsError(foreign, 'ApiError')).toBe(true);
    expect(isPaymentsError(foreign, 'TimeoutError')).toBe(false);
    const timeout = new copy.TimeoutError(250, { sent: false });
    if (isPaymentsError(timeout, 'TimeoutError')) expect(timeout.sent).toBe(false);
    else expect.unreachable('a TimeoutError from another copy is a PaymentsError');
    expect(copy.isPaymentsError(new ConnectionError('reset'), 'ConnectionError')).toBe(true);
  });

  it("never takes another library's error of the same name for one of the SDK's", () => {
    // A database driver's ConnectionError, mongoose's or yup's ValidationError, ky's and
    // AbortSignal.timeout()'s TimeoutError: none has the fields the narrowed type promises
    // (`sent`, `issues`), and "sent: false, send it again" must never be read from one.
    const lookalikes = [
      Object.assign(new Error('connection lost'), { name: 'ConnectionError' }),
      Object.assign(new Error('Path `amount` is required.'), { name: 'ValidationError', errors: {} }),
      Object.assign(new Error('Request timed out'), { name: 'TimeoutError' }),
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      Object.assign(new Error('x'), { name: 'ApiError', status: 502 }),
      Object.assign(new Error('x'), { name: 'PaymentsError' }),
    ];
    for (const error of lookalikes) {
      expect(isPaymentsError(error)).toBe(false);
      expect(isPaymentsError(error, error.name as 'ConnectionError')).toBe(false);
    }
    expect(isPaymentsError(new TypeError('x'))).toBe(false);
    expect(isPaymentsError({ name: 'ApiError' })).toBe(false);
  });

  it("recognises the tracker's errors, and not another library's of the same name", () => {
    const record = {
      reference: 'ORD-1',
      kind: 'card',
      state: 'succeeded',
      amount: '1500',
      currency: 'KES',
      createdAt: 0,
      updatedAt: 0,
    } as const;
    const errors = [
      new UnknownTransactionError('ORD-1'),
      new TransactionConflictError('conflicting_outcome', record, 'failed'),
      new TransactionTimeoutError('ORD-1', 5_000),
      new TransactionStoreFullError('maxEntries', 10),
    ];
    for (const error of errors) {
      expect(isPaymentsError(error, error.name)).toBe(true);
      expect(isPaymentsError(error, 'TimeoutError')).toBe(false);
      // Another library's error of the same name is not one of them.
      expect(isPaymentsError(Object.assign(new Error(error.message), { name: error.name }))).toBe(false);
    }
  });

  it('lists every validation issue with its path in the message', () => {
    const error = new ValidationError([
      { path: ['customer_details', 'phone_number'], message: 'expected 2547XXXXXXXX', code: 'a' },
      { path: ['products', 0, 'quantity'], message: 'expected an integer', code: 'b' },
    ]);
    expect(error.message).toBe(
      'Invalid input: customer_details.phone_number: expected 2547XXXXXXXX; products[0].quantity: expected an integer',
    );
    expect(JSON.parse(JSON.stringify(error)).issues).toHaveLength(2);
  });

  it('serialises each error as its name, message and fields, never its cause', () => {
    const cause = new Error('Authorization: Bearer sk_live_secret');
    const json = (error: Error) => JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(json(new ApiError('bad', { status: 502, body: 'x', headers: { a: 'b' }, cause }))).toEqual({
      name: 'ApiError',
      message: 'bad',
      status: 502,
      body: 'x',
      headers: { a: 'b' },
      issues: [],
      onlyAttempt: false,
      mayHaveStarted: true,
    });
    expect(json(new ConnectionError('down', { cause, aborted: true }))).toEqual({
      name: 'ConnectionError',
      message: 'down',
      aborted: true,
      sent: true,
    });
    expect(json(new TimeoutError(250, { cause }))).toEqual({
      name: 'TimeoutError',
      message: 'Request timed out after 250 ms',
      timeout: 250,
      sent: true,
    });
    expect(json(new CallbackParseError('no', { reason: 'invalid_json', cause }))).toEqual({
      name: 'CallbackParseError',
      message: 'no',
      reason: 'invalid_json',
      issues: [],
    });
    expect(json(new PaymentsError('plain', { cause }))).toEqual({ name: 'PaymentsError', message: 'plain' });
  });

  it('writes paths with spaces as bracketed keys', () => {
    expect(formatIssuePath(['payment status'])).toBe('["payment status"]');
    expect(formatIssuePath([])).toBe('(root)');
  });

  it('keeps the cause of a timeout for util.inspect', () => {
    const error = new TimeoutError(250, { cause: new Error('socket hang') });
    expect(error.cause).toBeInstanceOf(Error);
    expect(inspect(error)).toContain('socket hang');
  });
});
