// A checkout callback has no transaction id: two sessions of one order paid the same way send
// identical callbacks to the same URL, and the route drops the second as a redelivery, a payment
// the merchant never hears of. A client that created a session refuses a second one of the same
// order with the same callback URL (nothing sent) and says to sign each session's URL apart; the
// `transactions` option does that itself.
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signCallbackUrl } from '../../src/callbacks/index.js';
import { PaymentsClient, ValidationError } from '../../src/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { checkoutSessionInput } from '../helpers/inputs.js';
import { BASE_URL, documentedReplies, useMockService } from '../helpers/msw.js';

const service = useMockService();
const secret = 'a-long-enough-callback-secret';
const SESSION = 'checkout.sessions/hosted/redirect/session';

const withCallbackUrl = (callback_url: string) => ({
  ...checkoutSessionInput,
  redirect_urls: { ...checkoutSessionInput.redirect_urls, callback_url },
});

describe('a second checkout session of an order with the callback URL of one this client created', () => {
  it('is refused before anything is sent, naming redirect_urls.callback_url and the fix', async () => {
    service.documented();
    const client = new PaymentsClient({ baseUrl: BASE_URL });
    const url = await signCallbackUrl('https://shop.example/hooks/payments', { secret, reference: '1003' });
    await expect(client.createCheckoutSession(withCallbackUrl(url))).resolves.toEqual(
      documentedReplies.checkout,
    );
    const error = await client.createCheckoutSession(withCallbackUrl(url)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({
        path: ['redirect_urls', 'callback_url'],
        code: 'callback_url_reused',
        message: expect.stringMatching(/sign each session's URL apart/),
      }),
    ]);
    expect((error as Error).message).not.toContain('hp_sig=');
    expect(await service.recorded()).toHaveLength(1);
  });

  it('is sent when each session has a URL of its own', async () => {
    service.documented();
    const client = new PaymentsClient({ baseUrl: BASE_URL });
    for (const session of ['1', '2']) {
      const url = await signCallbackUrl(`https://shop.example/hooks/payments?session=${session}`, {
        secret,
        reference: '1003',
      });
      await expect(client.createCheckoutSession(withCallbackUrl(url))).resolves.toEqual(
        documentedReplies.checkout,
      );
    }
    expect(await service.recorded()).toHaveLength(2);
  });

  it("is sent for another order: that order's callbacks differ by their order_id", async () => {
    service.documented();
    const client = new PaymentsClient({ baseUrl: BASE_URL });
    const input = withCallbackUrl('https://shop.example/hooks/payments');
    await client.createCheckoutSession(input);
    service.on(SESSION, () => HttpResponse.json({ ...documentedReplies.checkout, order_id: '1004' }));
    await expect(
      client.createCheckoutSession({ ...input, amount: { ...input.amount, order_id: 1004 } }),
    ).resolves.toMatchObject({ order_id: '1004' });
  });

  it('is sent again after an attempt the service refused (no session was created)', async () => {
    let calls = 0;
    service.on(SESSION, () =>
      (calls += 1) === 1
        ? HttpResponse.json({ error: 'busy' }, { status: 503 })
        : HttpResponse.json(documentedReplies.checkout),
    );
    const client = new PaymentsClient({ baseUrl: BASE_URL });
    const input = withCallbackUrl('https://shop.example/hooks/payments');
    await expect(client.createCheckoutSession(input)).rejects.toMatchObject({ status: 503 });
    await expect(client.createCheckoutSession(input)).resolves.toEqual(documentedReplies.checkout);
  });

  it('is left to another client instance: each client remembers its own sessions', async () => {
    service.documented();
    const input = withCallbackUrl('https://shop.example/hooks/payments');
    await new PaymentsClient({ baseUrl: BASE_URL }).createCheckoutSession(input);
    await expect(new PaymentsClient({ baseUrl: BASE_URL }).createCheckoutSession(input)).resolves.toEqual(
      documentedReplies.checkout,
    );
  });

  it('with the transactions option, is sent: the client signs each session with an hp_try of its own', async () => {
    service.documented();
    const tracker = createTransactionTracker();
    const client = new PaymentsClient({ baseUrl: BASE_URL, transactions: { tracker, secret } });
    const input = withCallbackUrl('https://shop.example/hooks/payments');
    await client.createCheckoutSession(input);
    await tracker.expireIfPending('1003');
    await client.createCheckoutSession(input);
    const sent = (await service.recorded()).map(
      (request) => (request.json as { redirect_urls: { callback_url: string } }).redirect_urls.callback_url,
    );
    expect(sent).toHaveLength(2);
    expect(sent[0]).not.toBe(sent[1]);
  });
});
