// hosted-payments/transactions — the merchant's pending transactions: recorded at initiation,
// settled once by the callback (a failed one anew by another payment that paid), awaited with
// waitFor, expired when the callback never comes. In memory by default; hosted-payments/redis has
// the store for several instances.
export { createTransactionTracker } from './tracker.js';
export type {
  TransactionTracker,
  TransactionTrackerOptions,
  BeginTransactionInput,
  SettleInput,
  SettleResult,
  ExpireOptions,
  ExpireResult,
  WaitForOptions,
  StaleOptions,
} from './tracker.js';
export { createMemoryTransactionStore, transactionKinds } from './store.js';
export type {
  TransactionStore,
  TransactionRecord,
  TransactionKind,
  TransactionState,
  TransactionOutcome,
  MemoryTransactionStore,
  MemoryTransactionStoreOptions,
} from './store.js';
export {
  UnknownTransactionError,
  TransactionConflictError,
  TransactionTimeoutError,
  TransactionStoreFullError,
  TransactionStoreError,
} from './errors.js';
