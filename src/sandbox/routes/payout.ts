/**
 * Endpoint 4: a mobile-money payout from the sandbox's wallet.
 *
 * @module
 */

import type { Hono } from 'hono';
import { endpointPaths } from '../../internal/endpoints.js';
import { toValidationIssues } from '../../internal/issues.js';
import { payoutRequestSchema } from '../../requests/payout.js';
import { decidePayout } from '../outcomes.js';
import { payoutFailurePayload, payoutSuccessPayload } from '../payloads.js';
import { readJsonBody, refuseInvalid, type SandboxEnv } from '../request-body.js';
import type { SandboxState } from '../sandbox-state.js';

/** Serves `POST /api/payout/mobile-money-payout`. */
export function payoutRoutes(app: Hono<SandboxEnv>, state: SandboxState): void {
  app.post(`/${endpointPaths.payout}`, async (c) => {
    const read = await readJsonBody(c);
    if (!read.ok) return read.response;
    const parsed = payoutRequestSchema.safeParse(read.body);
    if (!parsed.success) return refuseInvalid(c, 'payout', toValidationIssues(parsed.error.issues));
    const body = parsed.data;
    const { transfer } = body;
    const outcome = decidePayout({
      amount: Number(transfer.amount),
      balance: state.walletBalance,
      fee: state.payoutFee,
    });
    state.walletBalance = outcome.balanceAfter;
    const common = {
      amount: transfer.amount,
      currency: transfer.currency,
      referenceId: String(transfer.reference_id),
      walletBalance: outcome.balanceAfter,
    };
    const url = body.webhook_endpoint.webhook_url;
    if (outcome.ok) {
      state.queue.enqueue(
        'payout.succeeded',
        url,
        payoutSuccessPayload({ ...common, payoutFee: outcome.fee }),
      );
    } else {
      state.queue.enqueue('payout.failed', url, payoutFailurePayload(common));
    }
    const result = outcome.ok ? `succeeds, fee ${outcome.fee}` : 'fails (above wallet balance)';
    c.set(
      'summary',
      `${transfer.amount} ${transfer.currency}, ref ${transfer.reference_id} → ${result}, wallet ${outcome.balanceAfter}`,
    );
    return c.json({ message: 'Mobile Payout Initiated', status: 200 }, 200);
  });
}
