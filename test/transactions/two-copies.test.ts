// The package loaded twice in one process — its CommonJS and ESM builds (a `require` in one
// module, an `import` in another), or two installed versions — with the tracker made by one copy
// and the client of the other: a tracked payout is sent (the call that recorded it is its
// owner), not refused as already recorded and left pending with nothing in flight.
import { expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { fakeService } from '../helpers/fake-service.js';

it('a tracker from another loaded copy of the package: the payout is sent, and its refusal expires it', async () => {
  vi.resetModules();
  const copy = await import('../../src/transactions/tracker.js');
  let t = 1_700_000_000_000;
  const tracker = copy.createTransactionTracker({ now: () => t });
  const sent: Request[] = [];
  const baseUrl = fakeService((request) => {
    sent.push(request);
    return sent.length === 1
      ? Response.json({ message: 'Mobile Payout Initiated', status: 200 })
      : Response.json({ error: 'invalid destination' }, { status: 400 });
  });
  const client = new PaymentsClient({
    baseUrl,
    apiKey: 'sk_test_two_copies',
    transactions: { tracker, secret: 'whsec_two_copies_0123456789abcdef' },
  });
  const payout = (reference_id: string) =>
    client.initiatePayout({
      customer_details: { full_name: 'Alice Seller', phone_number: '0712345678', email: 'alice@example.com' },
      destination: {
        type: 'mobile',
        country_code: 'KE',
        mobile_number: '254712345678',
        wallet_name: 'MOBILE-MONEY',
      },
      transfer: { amount: 1000, currency: 'KES', reference_id, description: 'Seller balance' },
      webhook_endpoint: { webhook_url: 'https://market.example/webhooks/payouts' },
    });
  await expect(payout('483920175580')).resolves.toMatchObject({ status: 200 });
  expect(await tracker.get('483920175580')).toMatchObject({ state: 'pending', createdAt: t });
  t += 1_000;
  await expect(payout('483920175581')).rejects.toMatchObject({ status: 400 });
  // Recorded at the tracker's own clock, and expired by its owner's refusal.
  expect(await tracker.get('483920175581')).toMatchObject({ state: 'expired', createdAt: t });
  expect(sent).toHaveLength(2);

  // A payment made again is recorded as a new attempt at that tracker's own clock too.
  const stk = {
    customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
    amount: { delivery_fee: 100, discount_fee: 50, total: 900, currency: 'KES' },
    callback_details: { transaction_reference: 'ORD-COPY', callback_url: 'https://shop.example/webhooks' },
  };
  await client.initiateMobileMoneyPayment(stk).catch(() => undefined);
  t += 60_000;
  await client.initiateMobileMoneyPayment(stk).catch(() => undefined);
  expect(await tracker.get('ORD-COPY')).toMatchObject({ createdAt: t });
});
