// The documented sandbox test values, written out as the digits the docs give (not read back from
// `sandboxTestValues`, so a changed constant cannot pass unnoticed), and the payout that spends the
// wallet down to exactly 0: `amount + fee` equal to the balance is not "above the balance".
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { amount, closedAfterEach, customer, payoutTo, startMerchantSite } from './helpers.js';

const opened = closedAfterEach();

async function setUp(options: Parameters<typeof opened.sandbox>[0] = {}) {
  const site = await startMerchantSite();
  const sandbox = await opened.sandbox({ callbackDelayMs: 0, log: false, ...options });
  const client = new PaymentsClient({ baseUrl: sandbox.url });
  return { site, sandbox, client };
}

const mobileMoney = (siteUrl: string, phone_number: string, transaction_reference: string) => ({
  customer_details: { ...customer, phone_number },
  amount,
  callback_details: { transaction_reference, callback_url: `${siteUrl}/hooks/momo` },
});

const payout = (siteUrl: string, amountValue: number, reference_id: number) =>
  payoutTo(`${siteUrl}/hooks/payout`, amountValue, reference_id);

describe('documented test phones, as written in the docs', () => {
  it('254700000406 fails with response_status 406, insufficient funds', async () => {
    const { site, client } = await setUp();
    try {
      await client.initiateMobileMoneyPayment(mobileMoney(site.url, '254700000406', 'ORDER-406'));
      const [callback] = await site.waitForCallbacks(1);
      expect(callback!.body).toMatchObject({
        transaction_reference: 'ORDER-406',
        response_status: 406,
        paid: 'False',
        message: 'Insufficient funds',
      });
    } finally {
      await site.close();
    }
  });

  it('254700000000 is accepted and its callback dropped', async () => {
    const { site, sandbox, client } = await setUp();
    try {
      const response = await client.initiateMobileMoneyPayment(
        mobileMoney(site.url, '254700000000', 'ORDER-LOST'),
      );
      expect(response.message).toMatch(/Payment Initiated$/);
      const report = await sandbox.waitForIdle();
      expect(report).toMatchObject({ dropped: 1, delivered: 0 });
      expect(site.attempts).toEqual([]);
    } finally {
      await site.close();
    }
  });
});

describe('a payout against the wallet balance', () => {
  it('succeeds when amount + fee equals the balance exactly, leaving 0', async () => {
    const { site, sandbox, client } = await setUp({ walletBalance: 1_050, payoutFee: 50 });
    try {
      await client.initiatePayout(payout(site.url, 1_000, 123456789012));
      const [callback] = await site.waitForCallbacks(1);
      expect(callback!.body).toMatchObject({
        status: 'Success',
        message: 'Payout Successful',
        payout_fee: '50',
        wallet_balance: '0',
      });
      expect(sandbox.walletBalance).toBe(0);
    } finally {
      await site.close();
    }
  });

  it('fails one unit above the balance, balance unchanged', async () => {
    const { site, sandbox, client } = await setUp({ walletBalance: 1_050, payoutFee: 50 });
    try {
      await client.initiatePayout(payout(site.url, 1_001, 123456789012));
      const [callback] = await site.waitForCallbacks(1);
      expect(callback!.body).toMatchObject({ status: 'Failed', wallet_balance: '1050' });
      expect(sandbox.walletBalance).toBe(1_050);
    } finally {
      await site.close();
    }
  });
});
