/**
 * Where a tracker made by `createTransactionTracker` keeps the functions
 * `createCallbackHandler({ tracker })` settles it with (`transactions/callbacks.ts`), so that the
 * webhook route ships them only to merchants who use a tracker. `Symbol.for`: a tracker from the
 * CommonJS build serves a handler from the ESM one.
 *
 * @module
 */
export const CALLBACK_SETTLEMENT: unique symbol = Symbol.for('hosted-payments.callbackSettlement');
