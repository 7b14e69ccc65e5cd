// The msw kit runs the sandbox's delivery: a shop route (intercepted by msw) or an onCallback that
// refuses with the delivery's bare hp_sig value or the API key the client sent must not bring it
// into the kit's deliveries or report.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signCallbackUrl } from '../../src/callbacks/signing.js';
import { PaymentsClient } from '../../src/client.js';
import { createPaymentsHandlers, type PaymentsHandlers } from '../../src/testing/msw/index.js';

const baseUrl = 'https://payments.example.test';
const API_KEY = 'sk_live_MSWSWEEPq7f3a9b21Z';
const SECRET = 'msw-leak-sweep-secret-0123456789';
const server = setupServer();
let payments: PaymentsHandlers | undefined;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  payments?.close();
  server.resetHandlers();
});
afterAll(() => server.close());

/** One payment whose callback the kit delivers under `options`; everything the kit then shows. */
async function deliver(
  route: string,
  options: Partial<Parameters<typeof createPaymentsHandlers>[0]> = {},
): Promise<{ signature: string; shown: string }> {
  payments = createPaymentsHandlers({ baseUrl, deliveryRetries: 0, ...options });
  server.use(...payments.handlers);
  const url = await signCallbackUrl(`https://shop.example/${route}`, {
    secret: SECRET,
    reference: 'ORDER-1',
  });
  await new PaymentsClient({ baseUrl, apiKey: API_KEY }).initiateMobileMoneyPayment({
    customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
    amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
    callback_details: { transaction_reference: 'ORDER-1', callback_url: url },
  });
  const report = await payments.waitForIdle();
  expect(report.failed).toBe(1);
  return {
    signature: new URL(url).searchParams.get('hp_sig')!,
    shown: `${report.summary}\n${JSON.stringify(report)}\n${JSON.stringify(payments.deliveries)}`,
  };
}

describe('the msw kit, when a callback is refused with a secret in the answer', () => {
  it('does not show a bare hp_sig value a route gave as its JSON error word', async () => {
    server.use(
      http.post('https://shop.example/err', ({ request }) =>
        HttpResponse.json({ error: new URL(request.url).searchParams.get('hp_sig') }, { status: 401 }),
      ),
    );
    const { signature, shown } = await deliver('err');
    expect(shown).not.toContain(signature.slice(0, 12));
  });

  it('does not show the API key a route gave as its JSON error word', async () => {
    server.use(
      http.post('https://shop.example/key', () => HttpResponse.json({ error: API_KEY }, { status: 401 })),
    );
    const { shown } = await deliver('key');
    expect(shown).not.toContain('MSWSWEEP');
  });

  it('does not show a bare hp_sig value or the API key an onCallback threw', async () => {
    const { signature, shown } = await deliver('thrown', {
      onCallback: (_payload, url) => {
        throw new Error(`refused ${new URL(url).searchParams.get('hp_sig')} with ${API_KEY}`);
      },
    });
    expect(shown).toContain('refused [redacted] with [redacted]');
    expect(shown).not.toContain(signature.slice(0, 12));
    expect(shown).not.toContain('MSWSWEEP');
  });
});
