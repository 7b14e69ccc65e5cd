/**
 * Endpoint 4: a mobile-money payout from the sandbox's wallet.
 *
 * @module
 */

import type { Hono } from 'hono';
import { endpointPaths } from '../../internal/endpoints.js';
import { payoutRequestSchema } from '../../requests/payout.js';
import { decidePayout, sandboxTestValues } from '../outcomes.js';
import { currencyIssues } from '../currency.js';
import { payoutFailurePayload, payoutSuccessPayload } from '../payloads.js';
import { checkBody, readJsonBody, refuseConflict, refuseInvalid, type SandboxEnv } from '../request-body.js';
import { MAX_PAYOUT_REFERENCES, type SandboxState } from '../sandbox-state.js';

// The recipient is accepted under either key (the API reference names it customer_details, its
// example client_details); a payout with both is refused for the key its closest reading left over.
const BOTH_RECIPIENT_KEYS = 'the payout recipient goes under customer_details or client_details, not both';
const RECIPIENT_HINTS = { customer_details: BOTH_RECIPIENT_KEYS, client_details: BOTH_RECIPIENT_KEYS };

/** Records `reference` as used, forgetting the oldest beyond {@link MAX_PAYOUT_REFERENCES}. */
function rememberReference(state: SandboxState, reference: string): void {
  if (state.payoutReferences.size >= MAX_PAYOUT_REFERENCES) {
    const oldest = state.payoutReferences.values().next().value;
    if (oldest !== undefined) state.payoutReferences.delete(oldest);
  }
  state.payoutReferences.add(reference);
}

/** Serves `POST /api/payout/mobile-money-payout`. */
export function payoutRoutes(app: Hono<SandboxEnv>, state: SandboxState): void {
  app.post(`/${endpointPaths.payout}`, async (c) => {
    const read = await readJsonBody(c, 'payout');
    if (!read.ok) return read.response;
    const extra = currencyIssues(read.body, ['transfer', 'currency']);
    const parsed = checkBody(payoutRequestSchema, read.body, { extra, hints: RECIPIENT_HINTS });
    if (!parsed.ok) return refuseInvalid(c, 'payout', parsed.issues);
    const body = parsed.data;
    const { transfer } = body;
    const referenceId = String(transfer.reference_id);
    // reference_id is "a unique 12-digit value per transfer" (spec §2.7, §8): a payout answered
    // 200 uses it for good, whether it then succeeds or fails; a payout refused does not.
    if (state.payoutReferences.has(referenceId)) {
      c.set('summary', `refused: ref ${referenceId} already used by an earlier payout`);
      return refuseConflict(
        c,
        'Payout refused: transfer.reference_id was already used by an earlier payout',
        {
          path: ['transfer', 'reference_id'],
          code: 'duplicate_reference_id',
          message:
            'already used by an earlier payout of this sandbox; each transfer needs its own 12-digit reference_id (generateReferenceId() makes one)',
        },
      );
    }
    rememberReference(state, referenceId);
    const outcome = decidePayout({
      amount: Number(transfer.amount),
      balance: state.walletBalance,
      fee: state.payoutFee,
    });
    state.walletBalance = outcome.balanceAfter;
    const common = {
      amount: transfer.amount,
      currency: transfer.currency,
      referenceId,
      walletBalance: outcome.balanceAfter,
    };
    const url = body.webhook_endpoint.webhook_url;
    // The test phone: the payout is made and its callback lost, as for a payment to it.
    const lost = outcome.ok && body.destination.mobile_number === sandboxTestValues.phones.noCallback;
    if (outcome.ok) {
      const payload = payoutSuccessPayload({ ...common, payoutFee: outcome.fee });
      state.deliver({ ok: true, dropCallback: lost }, 'payout.succeeded', url, payload, referenceId);
    } else {
      state.queue.enqueue('payout.failed', url, payoutFailurePayload(common), referenceId);
    }
    const result = outcome.ok
      ? `succeeds, fee ${outcome.fee}${lost ? ', no callback (test value)' : ''}`
      : 'fails (above wallet balance)';
    c.set(
      'summary',
      `${transfer.amount} ${transfer.currency}, ref ${transfer.reference_id} → ${result}, wallet ${outcome.balanceAfter}`,
    );
    return c.json({ message: 'Mobile Payout Initiated', status: 200 }, 200);
  });
}
