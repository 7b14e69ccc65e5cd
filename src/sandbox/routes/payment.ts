/**
 * Endpoints 1 and 2, which share one path: a card payment when `card_details` is present and
 * `payment_method` names the card method, a mobile-money (STK push) payment otherwise.
 *
 * @module
 */

import type { Hono } from 'hono';
import { endpointPaths } from '../../internal/endpoints.js';
import { cardPaymentRequestSchema, type CardPaymentRequest } from '../../requests/card-payment.js';
import {
  mobileMoneyPaymentRequestSchema,
  type MobileMoneyPaymentRequest,
} from '../../requests/mobile-money-payment.js';
import { maskCardNumber } from '../../internal/redact.js';
import { checkNotExpired } from '../../validation/card.js';
import { decideCardPayment, decideMobileMoneyPayment } from '../outcomes.js';
import {
  cardPaymentFailurePayload,
  cardPaymentSuccessPayload,
  mobileMoneyPaymentFailurePayload,
  mobileMoneyPaymentSuccessPayload,
} from '../payloads.js';
import { currencyIssues } from '../currency.js';
import {
  checkBody,
  readJsonBody,
  refuseInvalid,
  type SandboxContext,
  type SandboxEnv,
} from '../request-body.js';
import type { SandboxState } from '../sandbox-state.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Amount of a payment: `amount.total`, else the sum of the products, else 0 (amount is optional). */
function paymentTotal(body: CardPaymentRequest | MobileMoneyPaymentRequest): string {
  if (body.amount) return body.amount.total;
  const sum = (body.products ?? []).reduce(
    (total, product) => total + Number(product.quantity) * Number(product.unit_price),
    0,
  );
  return String(Math.round(sum));
}

function cardPayment(state: SandboxState, c: SandboxContext, body: CardPaymentRequest) {
  const cardNumber = String(body.card_details.card_number);
  const amount = paymentTotal(body);
  const currency = body.amount?.currency ?? 'KES';
  const outcome = state.withFailureRate(decideCardPayment(cardNumber), 402);
  const url = body.callback_details.callback_url;
  const reference = body.callback_details.transaction_reference;
  if (outcome.ok) {
    const payload = cardPaymentSuccessPayload({ amount, currency });
    state.deliver(outcome, 'payment.card.succeeded', url, payload, reference);
  } else {
    const payload = cardPaymentFailurePayload({ amount, currency });
    state.deliver(outcome, 'payment.card.failed', url, payload, reference);
  }
  const result = outcome.ok ? 'succeeds' : 'declined';
  c.set('summary', `card ${maskCardNumber(cardNumber)}, ${amount} ${currency}, ref ${reference} → ${result}`);
  return c.json({ message: 'Card Payment Initiated', status: 200 }, 200);
}

function mobileMoneyPayment(state: SandboxState, c: SandboxContext, body: MobileMoneyPaymentRequest) {
  const { brand } = state;
  const amount = paymentTotal(body);
  const reference = body.callback_details.transaction_reference;
  const phone = body.customer_details.phone_number;
  const outcome = state.withFailureRate(decideMobileMoneyPayment(phone), 406);
  const url = body.callback_details.callback_url;
  if (outcome.ok) {
    const payload = mobileMoneyPaymentSuccessPayload({ amount }, brand);
    state.deliver(outcome, 'payment.mobile_money.succeeded', url, payload, reference);
  } else {
    const payload = mobileMoneyPaymentFailurePayload({
      amount,
      transactionReference: reference,
      responseStatus: outcome.responseStatus,
      message: outcome.reason,
    });
    state.deliver(outcome, 'payment.mobile_money.failed', url, payload, reference);
  }
  const result = outcome.dropCallback ? 'no callback (test value)' : outcome.ok ? 'succeeds' : 'fails (406)';
  c.set('summary', `${brand} ${phone}, ${amount}, ref ${reference} → ${result}`);
  return c.json({ message: `${brand} Payment Initiated`, status: 200 }, 200);
}

/**
 * A payment without `amount` and whose products (if any) come to 0 once rounded collects nothing: its
 * success would be a callback of amount 0, which the SDK's handler refuses (paid for nothing).
 */
function nothingToCollect(
  c: SandboxContext,
  what: string,
  body: CardPaymentRequest | MobileMoneyPaymentRequest,
): Response | undefined {
  if (paymentTotal(body) !== '0') return undefined;
  const products = body.amount === undefined && body.products !== undefined;
  return refuseInvalid(c, what, [
    {
      path: [products ? 'products' : 'amount'],
      code: 'nothing_to_collect',
      message: products
        ? 'the products come to 0 (rounded to a whole number): nothing to collect (give amount.total, a positive integer)'
        : 'neither amount nor products: nothing to collect (give amount.total, a positive integer)',
    },
  ]);
}

/** Serves `POST /api/payment/payment-initiate-callback/`. */
export function paymentRoutes(app: Hono<SandboxEnv>, state: SandboxState): void {
  app.post(`/${endpointPaths.payment}`, async (c) => {
    const read = await readJsonBody(c, 'payment');
    if (!read.ok) return read.response;
    const raw = read.body;
    const customer = isRecord(raw.customer_details) ? raw.customer_details : {};
    const method = typeof customer.payment_method === 'string' ? customer.payment_method : '';
    const isCardMethod = method.toUpperCase() === state.cardMethod;
    const extra = currencyIssues(raw, ['amount', 'currency']);
    if ('card_details' in raw && isCardMethod) {
      const parsed = checkBody(cardPaymentRequestSchema, raw, { extra });
      if (!parsed.ok) return refuseInvalid(c, 'card payment', parsed.issues);
      // An expired card is as invalid as a bad card number or cvc (spec §7.2): refused here, with
      // no callback, as the checkout page refuses it.
      const { expiry_month: month, expiry_year: year } = parsed.data.card_details;
      const notExpired = checkNotExpired(Number(month), Number(year), new Date());
      if (!notExpired.ok) {
        const { code, message } = notExpired;
        return refuseInvalid(c, 'card payment', [{ path: ['card_details', 'expiry_year'], code, message }]);
      }
      return nothingToCollect(c, 'card payment', parsed.data) ?? cardPayment(state, c, parsed.data);
    }
    // Anything else is a mobile-money payment (spec §4 rule 1), the card method without card_details
    // too. Its request has no card_details: one sent with another payment_method is refused, with
    // the rule in the message, rather than a card silently turned into an STK push.
    const hints = {
      card_details: `a request is a card payment only when customer_details.payment_method is ${state.cardMethod}; with any other payment_method it is a mobile-money payment, which has no card_details`,
    };
    const parsed = checkBody(mobileMoneyPaymentRequestSchema, raw, { extra, hints });
    if (!parsed.ok) return refuseInvalid(c, 'mobile-money payment', parsed.issues);
    // Its callback carries the amount as a JSON number: one it cannot write exactly is refused,
    // never sent as another number. The limit is written grouped: the refusal's redaction takes
    // any run of 12 to 19 digits for a card number.
    if (!Number.isSafeInteger(Number(paymentTotal(parsed.data)))) {
      return refuseInvalid(c, 'mobile-money payment', [
        {
          path: parsed.data.amount === undefined ? ['products'] : ['amount', 'total'],
          code: 'too_big',
          message:
            'expected at most 9,007,199,254,740,991 (2^53 - 1): the mobile-money callback carries the amount as a JSON number',
        },
      ]);
    }
    return (
      nothingToCollect(c, 'mobile-money payment', parsed.data) ?? mobileMoneyPayment(state, c, parsed.data)
    );
  });
}
