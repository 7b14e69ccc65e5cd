// The wall clock can step (NTP correcting a drift, a VM or laptop resumed, a snapshot restored).
// How long a delivery has held its claim, when a processed event may run again and how long a
// finished transaction is kept are durations: a step must neither cut nor stretch them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCallbackHandler } from '../../src/callbacks/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';
import { createMemoryTransactionStore, createTransactionTracker } from '../../src/transactions/index.js';

const secret = 'whsec_wall_clock_step_0123456789';
const reference = '123456789012';

/** Date.now() from here on reads the real clock plus `step()`'s total. */
function steppedWallClock(): (ms: number) => void {
  let offset = 0;
  const real = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => real() + offset);
  return (ms) => {
    offset += ms;
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a wall-clock step', () => {
  it('forward past processingTimeoutMs while onEvent runs: a redelivery waits (503), onEvent runs once', async () => {
    const step = steppedWallClock();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handler = createCallbackHandler({
      secret,
      onEvent: async () => {
        runs++;
        if (runs === 1) await gate;
      },
    });
    const delivery = () => createCallbackRequest('payout.succeeded', { secret, reference });
    const first = handler(await delivery());
    await vi.waitFor(() => expect(runs).toBe(1));
    step(6 * 60_000);
    const second = await handler(await delivery());
    expect(second.status).toBe(503);
    expect(await second.json()).toMatchObject({ error: 'in_progress' });
    release();
    expect((await first).status).toBe(200);
    expect(runs).toBe(1);
  });

  it('forward past the dedupe TTL: a replay of a processed event is answered without running onEvent', async () => {
    const step = steppedWallClock();
    let runs = 0;
    const handler = createCallbackHandler({
      secret,
      onEvent: () => {
        runs++;
      },
    });
    const delivery = () => createCallbackRequest('payout.succeeded', { secret, reference });
    expect((await handler(await delivery())).status).toBe(200);
    step(25 * 60 * 60_000);
    expect((await handler(await delivery())).status).toBe(200);
    expect(runs).toBe(1);
  });

  it('forward past finishedTtlMs: a settled payment stays in the memory store, and its redelivery still settles', async () => {
    const step = steppedWallClock();
    const tracker = createTransactionTracker({ store: createMemoryTransactionStore() });
    await tracker.begin({ reference: 'ORDER-77', kind: 'card', amount: 1500, currency: 'KES' });
    let failOnce = true;
    const handler = createCallbackHandler({
      secret,
      tracker,
      onEvent: () => {
        if (failOnce) {
          failOnce = false;
          throw new Error('the order database is down');
        }
      },
    });
    const delivery = () => createCallbackRequest('payment.card.succeeded', { secret, reference: 'ORDER-77' });
    expect((await handler(await delivery())).status).toBe(500);
    step(25 * 60 * 60_000);
    // Any write makes the store drop what it holds past its retention.
    await tracker.begin({ reference: 'ORDER-78', kind: 'card', amount: 1500, currency: 'KES' });
    expect(await tracker.get('ORDER-77')).toMatchObject({ state: 'succeeded' });
    expect((await handler(await delivery())).status).toBe(200);
  });
});
