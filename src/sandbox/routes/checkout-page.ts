/**
 * The hosted checkout page behind `checkout_link`: `GET` renders it, `POST` is its form. The
 * customer pays by card or mobile-money (or chooses to fail); the form is checked like the real
 * page would, the callback sent, and the browser redirected to `success_url` or `failed_url`.
 *
 * @module
 */

import type { Hono } from 'hono';
import {
  checkCardNumber,
  checkCvc,
  checkExpiryMonth,
  checkExpiryYear,
  checkNotExpired,
} from '../../validation/card.js';
import { checkPhoneNumber } from '../../validation/phone.js';
import {
  renderCheckoutNotFound,
  renderCheckoutPage,
  type CheckoutFormErrors,
  type CheckoutFormValues,
} from '../checkout-page-html.js';
import { CHECKOUT_STATE_HEADER } from '../complete-checkout.js';
import { maskCardNumber } from '../../internal/redact.js';
import { decideCardPayment, decideMobileMoneyPayment, type PaymentOutcome } from '../outcomes.js';
import type { PaymentMethodKind } from '../../callbacks/events.js';
import { checkoutFailurePayload, checkoutSuccessPayload } from '../payloads.js';
import type { SandboxContext, SandboxEnv } from '../request-body.js';
import type { CheckoutSession, SandboxState } from '../sandbox-state.js';
import { checkoutPagePath } from './checkout-session.js';

type FormText = (name: string) => string;

/** The decision on a submitted form: an outcome to send, or the field errors to show. */
type FormResult =
  { readonly outcome: PaymentOutcome; readonly summary: string } | { readonly errors: CheckoutFormErrors };

function cardForm(state: SandboxState, text: FormText): FormResult {
  const errors: { -readonly [K in keyof CheckoutFormErrors]: CheckoutFormErrors[K] } = {};
  const card = checkCardNumber(text('card_number'));
  if (!card.ok) errors.card_number = `Card number: ${card.message}.`;
  const month = checkExpiryMonth(text('expiry_month'));
  const year = checkExpiryYear(text('expiry_year'));
  if (!month.ok) errors.expiry = `Expiry month: ${month.message}.`;
  else if (!year.ok) errors.expiry = `Expiry year: ${year.message}.`;
  else {
    const notExpired = checkNotExpired(month.value, year.value, new Date());
    if (!notExpired.ok) errors.expiry = `Expiry: ${notExpired.message}.`;
  }
  const cvc = checkCvc(text('cvc'));
  if (!cvc.ok) errors.cvc = `CVC: ${cvc.message}.`;
  if (!card.ok || Object.keys(errors).length > 0) return { errors };
  return {
    outcome: state.withFailureRate(decideCardPayment(card.value), 402),
    summary: `card ${maskCardNumber(card.value)}`,
  };
}

function mobileMoneyForm(state: SandboxState, text: FormText): FormResult {
  const phone = checkPhoneNumber(text('phone_number'), 'payment');
  if (!phone.ok) return { errors: { phone_number: `Phone number: ${phone.message}.` } };
  return {
    outcome: state.withFailureRate(decideMobileMoneyPayment(phone.value), 406),
    summary: `${state.brand} ${phone.value}`,
  };
}

function decideForm(state: SandboxState, method: PaymentMethodKind, text: FormText): FormResult {
  if (text('action') === 'fail') {
    return {
      outcome: { ok: false, reason: 'Payment cancelled by the customer', responseStatus: 200 },
      summary: `${method === 'card' ? 'card' : state.brand}, failure chosen on the page`,
    };
  }
  return method === 'card' ? cardForm(state, text) : mobileMoneyForm(state, text);
}

function sendCheckoutCallback(
  state: SandboxState,
  session: CheckoutSession,
  method: PaymentMethodKind,
  outcome: PaymentOutcome,
) {
  const input = { method, orderId: session.orderId, amount: session.amount };
  const reference = String(session.orderId);
  if (outcome.ok) {
    const payload = checkoutSuccessPayload(input, state.brand);
    state.deliver(outcome, 'checkout.succeeded', session.callbackUrl, payload, reference);
  } else {
    const payload = checkoutFailurePayload({ ...input, message: outcome.reason }, state.brand);
    state.deliver(outcome, 'checkout.failed', session.callbackUrl, payload, reference);
  }
}

async function submitForm(state: SandboxState, c: SandboxContext, session: CheckoutSession) {
  const page = { brand: state.brand, action: `${state.pathPrefix}${c.req.path}` };
  const completed = () => {
    c.header(CHECKOUT_STATE_HEADER, session.state);
    return c.html(renderCheckoutPage(session, page), 409);
  };
  if (session.state !== 'open') return completed();
  const form = await c.req.parseBody();
  // Another submit may have completed the page while this body was read. From this check to
  // `session.state` being set below nothing awaits, so exactly one submit completes the page; a
  // submit refused for field errors leaves it open, for the customer to correct.
  if (session.state !== 'open') return completed();
  const text: FormText = (name) => {
    const value = form[name];
    return typeof value === 'string' ? value.trim() : '';
  };
  const method: PaymentMethodKind = text('method') === 'mobile_money' ? 'mobile_money' : 'card';
  const result = decideForm(state, method, text);
  if ('errors' in result) {
    // Only a value its own field accepts is put back: a card number or cvc typed into the wrong
    // field would otherwise be written into the page.
    const kept = (name: string, check: (value: string) => { ok: boolean }) =>
      check(text(name)).ok ? text(name) : undefined;
    const values: CheckoutFormValues = {
      method,
      expiry_month: kept('expiry_month', checkExpiryMonth),
      expiry_year: kept('expiry_year', checkExpiryYear),
      phone_number: kept('phone_number', (value) => checkPhoneNumber(value, 'payment')),
    };
    c.set('summary', `order ${session.orderId}: form errors in ${Object.keys(result.errors).join(', ')}`);
    return c.html(renderCheckoutPage(session, { ...page, errors: result.errors, values }), 422);
  }
  const { outcome } = result;
  session.state = outcome.ok ? 'paid' : 'failed';
  sendCheckoutCallback(state, session, method, outcome);
  c.set('summary', `order ${session.orderId}: ${result.summary} → ${outcome.ok ? 'paid' : 'failed'}`);
  c.header(CHECKOUT_STATE_HEADER, session.state);
  // success_url on success, failed_url on failure.
  return c.redirect(outcome.ok ? session.successUrl : session.failedUrl, 303);
}

/** Serves `GET` and `POST /checkout/:sessionId`. */
export function checkoutPageRoutes(app: Hono<SandboxEnv>, state: SandboxState): void {
  // A page holding a card form: the browser keeps no copy of it (back, history, a shared cache).
  app.use(checkoutPagePath, async (c, next) => {
    await next();
    c.header('cache-control', 'no-store');
  });
  app.get(checkoutPagePath, (c) => {
    const session = state.sessions.get(c.req.param('sessionId'));
    if (!session) return c.html(renderCheckoutNotFound(), 404);
    c.header(CHECKOUT_STATE_HEADER, session.state);
    return c.html(
      renderCheckoutPage(session, { brand: state.brand, action: `${state.pathPrefix}${c.req.path}` }),
    );
  });

  app.post(checkoutPagePath, async (c) => {
    const session = state.sessions.get(c.req.param('sessionId'));
    if (!session) return c.html(renderCheckoutNotFound(), 404);
    return submitForm(state, c, session);
  });
}
