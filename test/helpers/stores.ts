// A memory transaction store with some of its calls replaced, for a test's store that fails,
// hangs, counts or answers otherwise.
import type { TransactionStore } from '../../src/transactions/index.js';

/** `memory`'s insert, get, update and listPending (no watch), with `parts` in their place. */
export function memoryStoreWith(
  memory: TransactionStore,
  parts: Partial<TransactionStore>,
): TransactionStore {
  return {
    insert: (record) => memory.insert(record),
    get: (reference) => memory.get(reference),
    update: (record, from, previous) => memory.update(record, from, previous),
    listPending: (query) => memory.listPending(query),
    ...parts,
  };
}
