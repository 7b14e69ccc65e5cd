// createPaymentsHandlers as a merchant's unit tests use it: an async onCallback is awaited (its
// rejection is a failed delivery, retried), the documented defaults deliver at once and retry
// after 10 ms, waitForIdle honours its options, and a bad option is refused naming it.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { createPaymentsHandlers, type PaymentsHandlers } from '../../src/testing/msw/index.js';

const baseUrl = 'https://payments.example.test';
const server = setupServer();
let payments: PaymentsHandlers | undefined;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  vi.useRealTimers();
  payments?.close();
  payments = undefined;
  server.resetHandlers();
});
afterAll(() => server.close());

const payment = {
  customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
  amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
  callback_details: { transaction_reference: 'ORDER-7', callback_url: 'https://shop.example/hooks' },
};

function use(options: Omit<Parameters<typeof createPaymentsHandlers>[0], 'baseUrl'>) {
  payments = createPaymentsHandlers({ baseUrl, ...options });
  server.use(...payments.handlers);
  return payments;
}

describe('createPaymentsHandlers delivers to onCallback', () => {
  it('retries when an async onCallback rejects, and counts it delivered once it resolves', async () => {
    let calls = 0;
    const kit = use({
      retryDelayMs: 1,
      onCallback: async () => {
        calls += 1;
        await Promise.resolve();
        if (calls < 2) throw new Error('database down');
      },
    });
    await new PaymentsClient({ baseUrl }).initiateMobileMoneyPayment(payment);
    await kit.waitForIdle();
    expect(calls).toBe(2);
    expect(kit.deliveries[0]!.state).toBe('delivered');
  });

  it('by default delivers without waiting and retries 10 ms after a failure', async () => {
    let calls = 0;
    const kit = use({
      onCallback: () => {
        calls += 1;
        if (calls < 2) throw new Error('database down');
      },
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await new PaymentsClient({ baseUrl }).initiateMobileMoneyPayment(payment);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(10);
    expect(calls).toBe(2);
    expect(kit.deliveries[0]!.state).toBe('delivered');
  });
});

describe('createPaymentsHandlers options', () => {
  it('serves a baseUrl with a path and trailing slashes as the client reads it', async () => {
    const prefixed = 'https://payments.example.test/api//';
    payments = createPaymentsHandlers({ baseUrl: prefixed, onCallback: () => undefined });
    server.use(...payments.handlers);
    await new PaymentsClient({ baseUrl: prefixed }).initiateMobileMoneyPayment(payment);
    await payments.waitForIdle();
    expect(payments.deliveries).toHaveLength(1);
  });

  it(
    'waitForIdle rejects when its signal aborts while a callback is pending',
    { timeout: 5_000 },
    async () => {
      const kit = use({ callbackDelayMs: 60_000, onCallback: () => undefined });
      await new PaymentsClient({ baseUrl }).initiateMobileMoneyPayment(payment);
      await expect(kit.waitForIdle({ signal: AbortSignal.abort() })).rejects.toThrow();
    },
  );

  it('says baseUrl is required when called without options', () => {
    expect(() => createPaymentsHandlers(undefined as never)).toThrow(
      /^createPaymentsHandlers: baseUrl is required/,
    );
  });

  it('refuses an onCallback that is not a function, naming it', () => {
    expect(() =>
      createPaymentsHandlers({ baseUrl, onCallback: 'https://shop.example/hooks' as never }),
    ).toThrow(/^createPaymentsHandlers: onCallback must be a function/);
  });

  it('refuses a misspelt onCallback, listing its own options', () => {
    expect(() => createPaymentsHandlers({ baseUrl, onCallbak: () => undefined } as never)).toThrow(
      /^createPaymentsHandlers: unknown option "onCallbak"; the options are .*\bbaseUrl, onCallback\b/,
    );
  });
});
