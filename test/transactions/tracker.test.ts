import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import {
  createMemoryTransactionStore,
  createTransactionTracker,
  TransactionConflictError,
  TransactionTimeoutError,
  UnknownTransactionError,
  type TransactionRecord,
  type TransactionStore,
} from '../../src/transactions/index.js';
import { memoryStoreWith } from '../helpers/stores.js';

const clock = (start = 1_700_000_000_000) => {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
};

describe('begin', () => {
  it('records a pending transaction with a canonical amount and upper-case currency', async () => {
    const tracker = createTransactionTracker();
    const record = await tracker.begin({
      reference: 'ORD-1',
      kind: 'mobile_money',
      amount: 1500,
      currency: 'kes',
    });
    expect(record).toMatchObject({
      reference: 'ORD-1',
      kind: 'mobile_money',
      amount: '1500',
      currency: 'KES',
      state: 'pending',
    });
    expect(await tracker.get('ORD-1')).toEqual(record);
  });

  it('refuses invalid input naming each field, and records nothing', async () => {
    const tracker = createTransactionTracker();
    const error = await tracker
      .begin({ reference: '', kind: 'cash' as never, amount: '12.5', currency: 'KESH' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path[0])).toEqual([
      'reference',
      'kind',
      'amount',
      'currency',
    ]);
    expect(await tracker.get('x')).toBeUndefined();
  });

  // A misspelt `currency` left the record without one: a callback in any currency then settled it.
  it('refuses a field it does not know, naming it, and records nothing', async () => {
    const tracker = createTransactionTracker();
    const error = await tracker
      .begin({ reference: 'ORD-TYPO', kind: 'card', amount: 1500, curency: 'KES' } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({ path: ['curency'], code: 'unknown_field' }),
    ]);
    expect((error as ValidationError).message).toContain('reference, kind, amount, currency');
    expect(await tracker.get('ORD-TYPO')).toBeUndefined();
  });

  it('is idempotent for the same transaction and refuses a reference reused for another one', async () => {
    const tracker = createTransactionTracker();
    const first = await tracker.begin({ reference: 'ORD-2', kind: 'card', amount: '100' });
    await expect(tracker.begin({ reference: 'ORD-2', kind: 'card', amount: 100n })).resolves.toEqual(first);
    await expect(tracker.begin({ reference: 'ORD-2', kind: 'card', amount: 200 })).rejects.toMatchObject({
      name: 'TransactionConflictError',
      reason: 'reference_in_use',
    });
    expect((await tracker.get('ORD-2'))?.amount).toBe('100');
  });
});

describe('settle', () => {
  it('settles once; the same outcome again is a duplicate, a different one is refused and not applied', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-3', kind: 'payout', amount: 500 });
    const first = await tracker.settle('ORD-3', { outcome: 'succeeded', transactionId: 'TX1' });
    expect(first.result).toBe('settled');
    expect(first.record).toMatchObject({ state: 'succeeded', outcome: { transactionId: 'TX1' } });
    const again = await tracker.settle('ORD-3', { outcome: 'succeeded', transactionId: 'TX1' });
    expect(again).toEqual({ result: 'duplicate', record: first.record });
    const error = await tracker.settle('ORD-3', { outcome: 'failed' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionConflictError);
    expect(error).toMatchObject({ reason: 'conflicting_outcome', attempted: 'failed', record: first.record });
    expect(await tracker.get('ORD-3')).toEqual(first.record);
  });

  it('refuses a reference never recorded, and an outcome it does not know', async () => {
    const tracker = createTransactionTracker();
    await expect(tracker.settle('NOPE', { outcome: 'succeeded' })).rejects.toBeInstanceOf(
      UnknownTransactionError,
    );
    await tracker.begin({ reference: 'ORD-4', kind: 'card', amount: 1 });
    await expect(tracker.settle('ORD-4', { outcome: 'paid' as never })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect((await tracker.get('ORD-4'))?.state).toBe('pending');
  });

  it('refuses a settlement its event type contradicts, or with a field it does not know or that is not a string, and writes nothing', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-6', kind: 'card', amount: 1500, currency: 'KES' });
    const refused = async (input: object) => {
      const error = await tracker.settle('ORD-6', input as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).issues.map(({ path, code }) => [path[0], code]);
    };
    // A declined card's callback is never the payment's success.
    expect(await refused({ outcome: 'succeeded', eventType: 'payment.card.failed' })).toEqual([
      ['eventType', 'outcome_mismatch'],
    ]);
    expect(await refused({ outcome: 'succeeded', eventType: 'payment.card.paid' })).toEqual([
      ['eventType', 'unknown_event_type'],
    ]);
    expect(await refused({ outcome: 'succeeded', amout: '9' })).toEqual([['amout', 'unknown_field']]);
    expect(await refused({ outcome: 'succeeded', amount: 9 })).toEqual([['amount', 'invalid_type']]);
    expect(await refused({ outcome: 'paid' })).toEqual([['outcome', 'invalid_outcome']]);
    expect((await tracker.get('ORD-6'))?.state).toBe('pending');
  });

  it('lets exactly one of many concurrent, contradictory settles win', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-5', kind: 'checkout', amount: 10 });
    const outcomes = Array.from({ length: 20 }, (_, i): 'succeeded' | 'failed' =>
      i % 2 === 0 ? 'succeeded' : 'failed',
    );
    const results = await Promise.allSettled(outcomes.map((outcome) => tracker.settle('ORD-5', { outcome })));
    const settled = results.filter((r) => r.status === 'fulfilled' && r.value.result === 'settled');
    expect(settled).toHaveLength(1);
    const winner = (await tracker.get('ORD-5'))!.state;
    for (const [i, r] of results.entries()) {
      if (outcomes[i] === winner) expect(r.status).toBe('fulfilled');
      else expect(r).toMatchObject({ status: 'rejected', reason: { reason: 'conflicting_outcome' } });
    }
  });
});

describe('waitFor', () => {
  it('resolves with the settled record when another caller settles it', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-6', kind: 'mobile_money', amount: 1500 });
    const waiting = tracker.waitFor('ORD-6', { timeout: 5_000 });
    await tracker.settle('ORD-6', { outcome: 'failed', message: 'Insufficient funds' });
    await expect(waiting).resolves.toMatchObject({
      state: 'failed',
      outcome: { message: 'Insufficient funds' },
    });
  });

  it('resolves at once for a transaction already settled', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-7', kind: 'card', amount: 1 });
    await tracker.settle('ORD-7', { outcome: 'succeeded' });
    await expect(tracker.waitFor('ORD-7', { timeout: 1 })).resolves.toMatchObject({ state: 'succeeded' });
  });

  it('rejects with a typed timeout and leaves the transaction pending', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-8', kind: 'card', amount: 1 });
    const error = await tracker.waitFor('ORD-8', { timeout: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionTimeoutError);
    expect(error).toMatchObject({ reference: 'ORD-8', timeoutMs: 20 });
    expect((await tracker.get('ORD-8'))?.state).toBe('pending');
  });

  it('rejects with an AbortError when its signal aborts', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'ORD-9', kind: 'card', amount: 1 });
    const controller = new AbortController();
    const waiting = tracker.waitFor('ORD-9', { timeout: 5_000, signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await expect(tracker.waitFor('ORD-9', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  // A Redis without commandTimeout, a database under a lock: the first read never answers. The
  // timeout holds (with the last read's second), and says the store could not be read.
  it('keeps its timeout and its signal while the store does not answer the first read', async () => {
    const silent: TransactionStore = {
      ...createMemoryTransactionStore(),
      get: () => new Promise<never>(() => undefined),
    };
    const tracker = createTransactionTracker({ store: silent });
    const outcome = (wait: Promise<unknown>) =>
      Promise.race([
        wait.catch((e: unknown) => e),
        new Promise((r) => setTimeout(() => r('still waiting after 2 s'), 2_000)),
      ]);
    const timedOut = await outcome(tracker.waitFor('ORD-HANG', { timeout: 20 }));
    expect(timedOut).toBeInstanceOf(TransactionTimeoutError);
    expect(timedOut).toMatchObject({ reference: 'ORD-HANG', timeoutMs: 20 });
    expect((timedOut as Error).message).toMatch(/store could not be read/);
    const controller = new AbortController();
    const aborted = outcome(tracker.waitFor('ORD-HANG', { signal: controller.signal }));
    controller.abort();
    expect(await aborted).toMatchObject({ name: 'AbortError' });
  });

  // A store without watch, polled every minute: the settlement came between two polls.
  it('resolves with the settlement the store holds when its timeout comes, instead of saying "still pending"', async () => {
    const memory = createMemoryTransactionStore();
    const store: TransactionStore = memoryStoreWith(memory, {
      update: (r, from) => memory.update(r, from),
    });
    const waiter = createTransactionTracker({ store, pollIntervalMs: 60_000 });
    const receiver = createTransactionTracker({ store });
    await receiver.begin({ reference: 'ORD-LAST', kind: 'card', amount: 1 });
    const waiting = waiter.waitFor('ORD-LAST', { timeout: 100 });
    await new Promise((r) => setTimeout(r, 20));
    await receiver.settle('ORD-LAST', { outcome: 'succeeded' });
    await expect(waiting).resolves.toMatchObject({ state: 'succeeded' });
  });

  it('rejects for a reference never recorded', async () => {
    await expect(createTransactionTracker().waitFor('NOPE')).rejects.toBeInstanceOf(UnknownTransactionError);
  });

  it('wakes a waiter on another tracker sharing a store without watch, by polling', async () => {
    const memory = createMemoryTransactionStore();
    const store: TransactionStore = memoryStoreWith(memory, {
      update: (r, from) => memory.update(r, from),
    });
    const waiter = createTransactionTracker({ store, pollIntervalMs: 10 });
    const receiver = createTransactionTracker({ store });
    await receiver.begin({ reference: 'ORD-10', kind: 'payout', amount: 9 });
    const waiting = waiter.waitFor('ORD-10', { timeout: 5_000 });
    await receiver.settle('ORD-10', { outcome: 'succeeded' });
    await expect(waiting).resolves.toMatchObject({ state: 'succeeded' });
  });

  it('wakes a waiter on the tracker that settles or expires it at once, without polling or a watch', async () => {
    const memory = createMemoryTransactionStore();
    const store: TransactionStore = memoryStoreWith(memory, {});
    const tracker = createTransactionTracker({ store, pollIntervalMs: 60_000 });
    const within = (wait: Promise<TransactionRecord>) =>
      Promise.race([wait, new Promise((r) => setTimeout(() => r('still waiting after 1 s'), 1_000))]);
    await tracker.begin({ reference: 'ORD-WAKE-1', kind: 'card', amount: 1 });
    await tracker.begin({ reference: 'ORD-WAKE-2', kind: 'card', amount: 1 });
    const settled = within(tracker.waitFor('ORD-WAKE-1', { timeout: 10_000 }));
    const expired = within(tracker.waitFor('ORD-WAKE-2', { timeout: 10_000 }));
    await new Promise((r) => setTimeout(r, 20));
    await tracker.settle('ORD-WAKE-1', { outcome: 'succeeded' });
    await tracker.expireIfPending('ORD-WAKE-2');
    expect(await settled).toMatchObject({ state: 'succeeded' });
    expect(await expired).toMatchObject({ state: 'expired' });
  });

  it('wakes a waiter through the store watch, without polling', async () => {
    const memory = createMemoryTransactionStore();
    const listeners = new Set<(record: TransactionRecord) => void>();
    const store: TransactionStore = {
      ...memory,
      insert: (r) => memory.insert(r),
      get: (r) => memory.get(r),
      listPending: (q) => memory.listPending(q),
      async update(record, from) {
        const applied = await memory.update(record, from);
        if (applied) for (const listener of listeners) listener(record);
        return applied;
      },
      async watch(_reference, listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const waiter = createTransactionTracker({ store, pollIntervalMs: 60_000 });
    const receiver = createTransactionTracker({ store });
    await receiver.begin({ reference: 'ORD-11', kind: 'checkout', amount: 9 });
    const waiting = waiter.waitFor('ORD-11', { timeout: 5_000 });
    await new Promise((r) => setTimeout(r, 10));
    await receiver.settle('ORD-11', { outcome: 'failed' });
    await expect(waiting).resolves.toMatchObject({ state: 'failed' });
    expect(listeners.size).toBe(0);
  });
});

describe('long waits', () => {
  const thirtyDays = 30 * 24 * 60 * 60_000; // above the 2,147,483,647 ms a timer holds

  it.each([
    ['the kind’s stale limit', undefined],
    ['an explicit timeout', thirtyDays],
  ])('waitFor waits the whole of a 30-day payout wait (%s), then times out', async (_what, timeout) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      const tracker = createTransactionTracker({
        staleAfterMs: { payout: thirtyDays },
        pollIntervalMs: 2_147_483_647,
      });
      await tracker.begin({ reference: 'PAY-1', kind: 'payout', amount: 500 });
      let result: unknown;
      void tracker.waitFor('PAY-1', timeout === undefined ? {} : { timeout }).then(
        (record) => (result = record),
        (error: unknown) => (result = error),
      );
      await vi.advanceTimersByTimeAsync(thirtyDays - 1);
      expect(result).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(result).toBeInstanceOf(TransactionTimeoutError);
      expect(result).toMatchObject({ reference: 'PAY-1', timeoutMs: thirtyDays });
    } finally {
      vi.useRealTimers();
    }
  });

  it('waitFor with a 30-day limit is still waiting after a moment, and resolves when the payout settles', async () => {
    const tracker = createTransactionTracker({ staleAfterMs: { payout: thirtyDays } });
    await tracker.begin({ reference: 'PAY-2', kind: 'payout', amount: 500 });
    let result: unknown;
    const waiting = tracker.waitFor('PAY-2').then(
      (record) => (result = record),
      (error: unknown) => (result = error),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(result).toBeUndefined();
    const { record } = await tracker.settle('PAY-2', { outcome: 'succeeded', eventType: 'payout.succeeded' });
    await waiting;
    expect(result).toEqual(record);
  });

  it('refuses a pollIntervalMs longer than a timer holds, naming it', () => {
    expect(() => createTransactionTracker({ pollIntervalMs: 3e9 })).toThrow(
      new RangeError(
        'createTransactionTracker: pollIntervalMs must be a whole number from 1 to 2147483647, got 3000000000',
      ),
    );
  });
});

describe('stale and expire', () => {
  it('lists transactions pending past their kind limit (5 min for mobile money by default), oldest first', async () => {
    const time = clock();
    const tracker = createTransactionTracker({ now: time.now });
    await tracker.begin({ reference: 'STK-1', kind: 'mobile_money', amount: 1 });
    await tracker.begin({ reference: 'PAYOUT-1', kind: 'payout', amount: 1 });
    time.advance(60_000);
    await tracker.begin({ reference: 'STK-2', kind: 'mobile_money', amount: 1 });
    await tracker.begin({ reference: 'STK-3', kind: 'mobile_money', amount: 1 });
    await tracker.settle('STK-3', { outcome: 'succeeded' });
    time.advance(4 * 60_000 + 1);
    expect((await tracker.stale()).map((r) => r.reference)).toEqual(['STK-1']);
    time.advance(60_000);
    expect((await tracker.stale()).map((r) => r.reference)).toEqual(['STK-1', 'STK-2']);
    expect((await tracker.stale({ olderThan: 1 })).map((r) => r.reference)).toEqual([
      'STK-1',
      'PAYOUT-1',
      'STK-2',
    ]);
    expect((await tracker.stale({ olderThan: 1, kind: 'payout' })).map((r) => r.reference)).toEqual([
      'PAYOUT-1',
    ]);
    expect(await tracker.stale({ olderThan: 1, limit: 1 })).toHaveLength(1);
  });

  it('expires a pending transaction, wakes its waiter, and a later genuine callback still settles it as late', async () => {
    const tracker = createTransactionTracker();
    await tracker.begin({ reference: 'STK-4', kind: 'mobile_money', amount: 1 });
    const waiting = tracker.waitFor('STK-4', { timeout: 5_000 });
    const expired = await tracker.expire('STK-4');
    expect(expired).toMatchObject({ state: 'expired' });
    await expect(waiting).resolves.toEqual(expired);
    expect(await tracker.stale({ olderThan: 0 })).toEqual([]);
    await expect(tracker.expire('STK-4')).resolves.toEqual(expired);
    const late = await tracker.settle('STK-4', { outcome: 'succeeded' });
    expect(late.result).toBe('late');
    expect(late.record).toMatchObject({ state: 'succeeded', late: true, expiredAt: expired.expiredAt });
    await expect(tracker.expire('STK-4')).resolves.toEqual(late.record);
    await expect(tracker.settle('STK-4', { outcome: 'succeeded' })).resolves.toMatchObject({
      result: 'duplicate',
    });
  });

  it('refuses to expire a reference never recorded', async () => {
    await expect(createTransactionTracker().expire('NOPE')).rejects.toBeInstanceOf(UnknownTransactionError);
  });
});

describe('a store whose update never applies, though the record stays as read', () => {
  function brokenStore() {
    const memory = createMemoryTransactionStore();
    let updates = 0;
    const store: TransactionStore = memoryStoreWith(memory, {
      update: async () => {
        updates++;
        if (updates > 1_000) throw new Error('the tracker is still retrying');
        return false;
      },
    });
    return { store, updates: () => updates };
  }

  it.each(['settle', 'expire'] as const)(
    '%s rejects after a bounded number of attempts, naming store.update',
    async (call) => {
      const { store, updates } = brokenStore();
      const tracker = createTransactionTracker({ store });
      await tracker.begin({ reference: 'ORD-77', kind: 'payout', amount: 9 });
      const attempt =
        call === 'settle' ? tracker.settle('ORD-77', { outcome: 'succeeded' }) : tracker.expire('ORD-77');
      await expect(attempt).rejects.toThrow(/update\("ORD-\d+"\) answered false 32 times/);
      expect(updates()).toBeLessThanOrEqual(100);
      await expect(tracker.get('ORD-77')).resolves.toMatchObject({ state: 'pending' });
    },
  );
});

describe('a store whose answer is not the record asked for', () => {
  // A SQL store on a case-insensitive collation (MySQL's default): `WHERE reference = 'ord-1'`
  // finds the row of 'ORD-1', another order.
  function caseInsensitiveStore() {
    const memory = createMemoryTransactionStore();
    const store: TransactionStore = memoryStoreWith(memory, {
      get: (reference) => memory.get(reference.toUpperCase()),
      update: (r, from) => memory.update(r, from),
    });
    return store;
  }

  it("never settles, expires or answers with another reference's transaction", async () => {
    const tracker = createTransactionTracker({ store: caseInsensitiveStore() });
    const other = await tracker.begin({ reference: 'ORD-1', kind: 'card', amount: 1500 });
    for (const call of [
      () => tracker.settle('ord-1', { outcome: 'succeeded' }),
      () => tracker.expire('ord-1'),
      () => tracker.get('ord-1'),
      () => tracker.waitFor('ord-1', { timeout: 50 }),
    ]) {
      await expect(call()).rejects.toThrow(/store.*"ord-1".*"ORD-1"/);
    }
    expect(await tracker.get('ORD-1')).toEqual(other);
  });

  // A store that maps rows itself and got the state column wrong.
  it.each([
    ['a state it does not know', { state: 'Pending' }, /state/],
    ['a kind it does not know', { kind: 'mpesa' }, /kind/],
    ['no record at all', 'pending', /not a transaction record/],
  ])('with %s, waitFor and settle reject naming it, and nothing is written', async (_what, answer, field) => {
    const memory = createMemoryTransactionStore();
    const store: TransactionStore = memoryStoreWith(memory, {
      get: async (reference) => {
        const record = await memory.get(reference);
        return (typeof answer === 'string' ? answer : { ...record, ...answer }) as TransactionRecord;
      },
      update: (r, from) => memory.update(r, from),
    });
    const tracker = createTransactionTracker({ store });
    await tracker.begin({ reference: 'ORD-2', kind: 'card', amount: 1500 });
    await expect(tracker.waitFor('ORD-2', { timeout: 50 })).rejects.toThrow(field);
    await expect(tracker.settle('ORD-2', { outcome: 'succeeded' })).rejects.toThrow(field);
    expect(await memory.get('ORD-2')).toMatchObject({ state: 'pending' });
  });
});
