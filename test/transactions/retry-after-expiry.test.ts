// A tracked initiation that the service answered 503 (Retry-After) is retried only while its
// transaction is still pending. Once the merchant has given up on it (the documented cron expired
// it, the customer was told to pay again) or its callback has settled it, sending it again would
// start a second payment of an order already closed: the retry is not sent, and the call fails as
// one whose earlier request the service may have received (ConnectionError, sent: true).
import { describe, expect, it } from 'vitest';
import { ConnectionError } from '../../src/errors.js';
import { createTransactionTracker, type TransactionTracker } from '../../src/transactions/index.js';
import { fakeService } from '../helpers/fake-service.js';
import { stkPush, trackedClient } from '../helpers/tracked-payment.js';

const initiated = { message: 'MOBILE-MONEY Payment Initiated', status: 200 };

/** A service that answers the first request 503 with Retry-After: 1, every later one 200. */
function busyOnce() {
  const sent: string[] = [];
  const baseUrl = fakeService(async (request) => {
    sent.push(await request.text());
    return sent.length === 1
      ? new Response('{"error":"busy"}', {
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '1' },
        })
      : Response.json(initiated);
  });
  return { baseUrl, sent };
}

async function payWhileWaiting(
  reference: string,
  meanwhile: (tracker: TransactionTracker) => Promise<unknown>,
) {
  const tracker = createTransactionTracker();
  const { baseUrl, sent } = busyOnce();
  const client = trackedClient(baseUrl, tracker, { retry: { limit: 2 } });
  const paying = client.initiateMobileMoneyPayment(stkPush(reference)).catch((e: unknown) => e);
  // During the Retry-After wait, once the first request was answered.
  await expect.poll(() => sent.length, { timeout: 900, interval: 10 }).toBe(1);
  await meanwhile(tracker);
  return { outcome: await paying, sent, tracker };
}

describe('a tracked initiation retried after a 503', () => {
  it('is not sent again once the transaction was expired while it waited', async () => {
    const { outcome, sent, tracker } = await payWhileWaiting('ORD-GIVEN-UP', (t) =>
      t.expireIfPending('ORD-GIVEN-UP'),
    );
    expect(sent).toHaveLength(1);
    expect(outcome).toBeInstanceOf(ConnectionError);
    expect(outcome).toMatchObject({ sent: true });
    expect(await tracker.get('ORD-GIVEN-UP')).toMatchObject({ state: 'expired' });
  });

  it('is not sent again once its callback settled the transaction while it waited', async () => {
    const { outcome, sent, tracker } = await payWhileWaiting('ORD-PAID-MEANWHILE', (t) =>
      t.settle('ORD-PAID-MEANWHILE', { outcome: 'succeeded', transactionId: 'TX-1' }),
    );
    expect(sent).toHaveLength(1);
    expect(outcome).toBeInstanceOf(ConnectionError);
    expect(outcome).toMatchObject({ sent: true });
    expect(await tracker.get('ORD-PAID-MEANWHILE')).toMatchObject({ state: 'succeeded' });
  });

  it('is sent again while the transaction is still pending', async () => {
    const { outcome, sent, tracker } = await payWhileWaiting('ORD-STILL-PENDING', async () => undefined);
    expect(sent).toHaveLength(2);
    expect(outcome).toEqual(initiated);
    expect(await tracker.get('ORD-STILL-PENDING')).toMatchObject({ state: 'pending' });
  });
});
