// waitFor on an instance whose store notifications come late (one Redis channel carries every
// settlement; a busy subscriber hands them on behind): a notification of an attempt older than
// the record the wait read — the cron's expiry of the first attempt, heard after the customer
// initiated the payment again — must not end the wait on the new attempt.
import { describe, expect, it } from 'vitest';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  type TransactionRecord,
  type TransactionStore,
} from '../../src/transactions/index.js';

describe('waitFor and a late notification', () => {
  it("ignores a notification of an earlier attempt, and resolves with the new attempt's outcome", async () => {
    let t = 1_700_000_000_000;
    const store = createMemoryTransactionStore();
    const listeners = new Set<(record: TransactionRecord) => void>();
    const held: TransactionRecord[] = [];
    // A store whose watch hands on what it is given later (release()), as a lagging subscriber does.
    const watched: TransactionStore = {
      ...store,
      async watch(_reference, listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const release = () => {
      for (const record of held.splice(0)) for (const listener of listeners) listener(record);
    };
    const cron = createTransactionTracker({ store, now: () => t });
    const web = createTransactionTracker({ store: watched, now: () => t, pollIntervalMs: 3_600_000 });

    await cron.begin({ reference: 'ORD-LAG', kind: 'mobile_money', amount: 900, currency: 'KES' });
    t += 5 * 60_000 + 1;
    held.push((await cron.expireIfPending('ORD-LAG')).record); // published, not yet heard
    // The customer pays again: the record is pending again, a new attempt.
    const expired = (await store.get('ORD-LAG'))!;
    t += 1_000;
    const { expiredAt: _expiredAt, ...rest } = expired;
    const again: TransactionRecord = { ...rest, state: 'pending', createdAt: t, updatedAt: t };
    expect(await store.update(again, 'expired')).toBe(true);

    const waiting = web.waitFor('ORD-LAG', { timeout: 60_000 });
    let outcome: TransactionRecord | undefined;
    void waiting.then((record) => (outcome = record));
    while (listeners.size === 0) await new Promise((resolve) => setTimeout(resolve, 5)); // watching
    release(); // the old expiry is heard now
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(outcome).toBeUndefined();

    const { record: paid } = await cron.settle('ORD-LAG', {
      outcome: 'succeeded',
      amount: '900',
      currency: 'KES',
    });
    held.push(paid);
    release();
    await expect(waiting).resolves.toMatchObject({ state: 'succeeded', createdAt: again.createdAt });
  });
});
