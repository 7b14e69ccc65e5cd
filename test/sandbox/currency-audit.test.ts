// A payout whose currency is not in the wire format (four letters) is refused once for it: the
// schema reports the format, and the sandbox's ISO 4217 rule stays out of the way, so the merchant
// sees one issue for transfer.currency rather than two. Nothing is paid out.
import { describe, expect, it } from 'vitest';
import { buildPayoutRequest } from '../../src/index.js';
import { closedAfterEach, payoutTo } from './helpers.js';

const opened = closedAfterEach();

describe('a malformed payout currency', () => {
  it('is one issue naming transfer.currency, and the wallet is untouched', async () => {
    const sandbox = await opened.sandbox({ log: false });
    const wire = JSON.parse(
      JSON.stringify(buildPayoutRequest(payoutTo('http://127.0.0.1:9/hooks/payout', 1000))),
    ) as { transfer: Record<string, unknown> };
    const response = await fetch(`${sandbox.url}/api/payout/mobile-money-payout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...wire, transfer: { ...wire.transfer, currency: 'KESX' } }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { message: string; issues: { field: string }[] };
    expect(body.message).toBe('Invalid payout: transfer.currency');
    expect(body.issues.map((issue) => issue.field)).toEqual(['transfer.currency']);
    expect(sandbox.walletBalance).toBe(100_000);
  });
});
