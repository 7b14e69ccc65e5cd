/**
 * Endpoint 3: creates a checkout session and answers with the link to its hosted page.
 *
 * @module
 */

import type { Hono } from 'hono';
import { endpointPaths } from '../../internal/endpoints.js';
import { checkoutSessionRequestSchema } from '../../requests/checkout-session.js';
import { makeSandboxId } from '../payloads.js';
import { currencyIssues } from '../currency.js';
import { checkBody, readJsonBody, refuseInvalid, type SandboxEnv } from '../request-body.js';
import { MAX_SESSIONS, type SandboxState } from '../sandbox-state.js';

/** The path of a session's hosted page, under the sandbox's origin (and path prefix). */
export const checkoutPagePath = '/checkout/:sessionId';

/** Serves `POST /checkout.sessions/hosted/redirect/session`. */
export function checkoutSessionRoutes(app: Hono<SandboxEnv>, state: SandboxState): void {
  app.post(`/${endpointPaths.checkoutSession}`, async (c) => {
    const read = await readJsonBody(c, 'checkout session');
    if (!read.ok) return read.response;
    const extra = currencyIssues(read.body, ['amount', 'currency']);
    const parsed = checkBody(checkoutSessionRequestSchema, read.body, { extra });
    if (!parsed.ok) return refuseInvalid(c, 'checkout session', parsed.issues);
    const body = parsed.data;
    const id = makeSandboxId('cs_');
    if (state.sessions.size >= MAX_SESSIONS) {
      const oldest = state.sessions.keys().next().value;
      if (oldest !== undefined) state.sessions.delete(oldest);
    }
    const orderId = String(body.amount.order_id);
    state.sessions.set(id, {
      id,
      orderId,
      amount: body.amount.total,
      currency: body.amount.currency,
      customerName: body.customer_details.full_name,
      state: 'open',
      successUrl: body.redirect_urls.success_url,
      failedUrl: body.redirect_urls.failed_url,
      callbackUrl: body.redirect_urls.callback_url,
    });
    const origin = state.publicUrl ?? new URL(c.req.url).origin;
    const checkoutLink = `${origin}/checkout/${id}`;
    c.set('summary', `order ${orderId}, ${body.amount.total} ${body.amount.currency} → ${checkoutLink}`);
    // status is a boolean on this endpoint, and order_id a string echo.
    return c.json({ checkout_link: checkoutLink, status: true, order_id: orderId }, 200);
  });
}
