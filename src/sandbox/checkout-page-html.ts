/**
 * The hosted checkout page behind `checkout_link`: one self-contained, accessible HTML document
 * (no external assets, no script needed — a plain form POST; CSS `:has()` hides the fields of the
 * method not chosen). The customer picks card or mobile-money and pays or fails.
 *
 * @module
 */

import type { PaymentMethodKind } from '../callbacks/events.js';
import { sandboxTestValues } from './outcomes.js';

/**
 * A checkout session created by endpoint 3, as the page needs it.
 *
 * @example
 * ```ts
 * renderCheckoutPage({ id: 'cs_1', orderId: '1001', amount: '2500', currency: 'KES', customerName: 'Jane', state: 'open' }, { brand: 'M-PESA', action: '/checkout/cs_1' });
 * ```
 */
export interface CheckoutSessionView {
  readonly id: string;
  readonly orderId: string;
  /** Whole-number amount string (`amount.total`). */
  readonly amount: string;
  readonly currency: string;
  readonly customerName: string;
  readonly state: 'open' | 'paid' | 'failed';
}

/**
 * Values typed by the customer, echoed back on a re-rendered form. Never the card number or cvc.
 *
 * @example
 * ```ts
 * const values: CheckoutFormValues = { method: 'mobile_money', phone_number: '0712345678' };
 * ```
 */
export interface CheckoutFormValues {
  readonly method?: PaymentMethodKind;
  readonly expiry_month?: string;
  readonly expiry_year?: string;
  readonly phone_number?: string;
}

/**
 * Field name → message, shown next to the field and in the live error summary.
 *
 * @example
 * ```ts
 * const errors: CheckoutFormErrors = { cvc: 'CVC: expected 3 digits.' };
 * ```
 */
export type CheckoutFormErrors = Readonly<
  Partial<Record<'card_number' | 'expiry' | 'cvc' | 'phone_number', string>>
>;

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * Formats an amount for display: `KES 2,500` (Intl where it knows the currency).
 *
 * @example
 * ```ts
 * formatAmount('2500', 'KES'); // 'KES 2,500.00'
 * ```
 */
export function formatAmount(amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'code' })
      .format(Number(amount))
      .replace(/\u00a0/g, ' ');
  } catch {
    return `${currency} ${amount}`;
  }
}

const STYLE = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0b5cad; --bad: #b42318; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f3f5f7; }
header, footer { max-width: 34rem; margin: 0 auto; padding: 1rem 1.25rem; color: var(--muted); font-size: .875rem; }
header strong { color: var(--ink); }
main { max-width: 34rem; margin: 0 auto; background: #fff; border: 1px solid var(--line); border-radius: .75rem; padding: 1.5rem 1.25rem; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
h2 { font-size: 1rem; margin: 1.5rem 0 .5rem; }
dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; }
.total { font-size: 1.75rem; font-weight: 700; }
fieldset { border: 1px solid var(--line); border-radius: .5rem; margin: 1rem 0; padding: .75rem 1rem 1rem; }
legend { font-weight: 600; padding: 0 .25rem; }
.choice { display: inline-flex; align-items: center; gap: .4rem; margin-right: 1.5rem; }
.field { margin-top: .75rem; }
.field label { display: block; font-weight: 500; }
.row { display: flex; gap: .75rem; }
.row .field { flex: 1; }
input[type=text], input[type=tel] { width: 100%; font: inherit; padding: .5rem .6rem; border: 1px solid #8c959f; border-radius: .375rem; }
input:focus-visible, button:focus-visible { outline: 3px solid #79b8ff; outline-offset: 2px; }
[aria-invalid=true] { border-color: var(--bad); }
.hint { color: var(--muted); font-size: .875rem; margin: .25rem 0 0; }
.error { color: var(--bad); font-size: .875rem; margin: .25rem 0 0; }
#form-errors:not(:empty) { border: 1px solid var(--bad); border-radius: .5rem; padding: .5rem .75rem; color: var(--bad); }
.actions { display: flex; gap: .75rem; flex-wrap: wrap; margin-top: 1.25rem; }
button { font: inherit; font-weight: 600; border-radius: .5rem; padding: .65rem 1.25rem; cursor: pointer; border: 1px solid var(--accent); }
button.pay { background: var(--accent); color: #fff; flex: 1; }
button.fail { background: #fff; color: var(--bad); border-color: var(--bad); }
form:has(#method-card:checked) #mobile-money-fields, form:has(#method-mobile-money:checked) #card-fields { display: none; }
code { font-size: .875rem; background: #f6f8fa; padding: .1rem .3rem; border-radius: .25rem; }
ul { padding-left: 1.25rem; margin: .25rem 0; }
`;

function field(input: {
  name: string;
  label: string;
  type?: 'text' | 'tel';
  autocomplete: string;
  inputmode?: string;
  value?: string;
  hint?: string;
  error?: string;
  errorKey?: string;
  extra?: string;
}): string {
  const id = `field-${input.name.replace(/_/g, '-')}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [input.hint ? hintId : '', input.error ? errorId : ''].filter(Boolean).join(' ');
  return `<div class="field">
      <label for="${id}">${escapeHtml(input.label)}</label>
      <input type="${input.type ?? 'text'}" id="${id}" name="${input.name}" autocomplete="${input.autocomplete}"${
        input.inputmode ? ` inputmode="${input.inputmode}"` : ''
      }${input.value ? ` value="${escapeHtml(input.value)}"` : ''}${describedBy ? ` aria-describedby="${describedBy}"` : ''}${
        input.error ? ' aria-invalid="true"' : ''
      }${input.extra ?? ''}>
      ${input.hint ? `<p class="hint" id="${hintId}">${escapeHtml(input.hint)}</p>` : ''}
      ${input.error ? `<p class="error" id="${errorId}">${escapeHtml(input.error)}</p>` : ''}
    </div>`;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><strong>hosted-payments</strong> sandbox — a local stand-in; no real money moves.</header>
<main id="main">
${body}
</main>
<footer>Hosted checkout page served by <code>hosted-payments/sandbox</code>.</footer>
</body>
</html>
`;
}

/**
 * Renders the hosted checkout page of a session: the order total and currency, a choice of
 * card or mobile-money, the fields of each, "Pay" and "Simulate a failed payment", and an
 * `aria-live` error summary. `errors` and `values` re-render the form after a bad submission.
 * Long because it is one HTML template, kept whole so the page reads top to bottom as the
 * customer sees it.
 *
 * @example
 * ```ts
 * const html = renderCheckoutPage(session, { brand: 'M-PESA', action: `/checkout/${session.id}` });
 * ```
 */
export function renderCheckoutPage(
  session: CheckoutSessionView,
  options: { brand: string; action: string; errors?: CheckoutFormErrors; values?: CheckoutFormValues },
): string {
  const total = formatAmount(session.amount, session.currency);
  if (session.state !== 'open') {
    return layout(
      `Checkout complete — order ${session.orderId}`,
      `<h1>This checkout is complete</h1>
<p role="status">Order <strong>${escapeHtml(session.orderId)}</strong> (${escapeHtml(total)}) was ${
        session.state === 'paid' ? 'paid' : 'not paid'
      }. You can close this page.</p>`,
    );
  }
  const brand = escapeHtml(options.brand);
  const errors = options.errors ?? {};
  const values = options.values ?? {};
  const method = values.method ?? 'card';
  const errorList = Object.values(errors).filter((message): message is string => Boolean(message));
  const summary =
    errorList.length > 0
      ? `<p><strong>The payment was not submitted:</strong></p><ul>${errorList
          .map((message) => `<li>${escapeHtml(message)}</li>`)
          .join('')}</ul>`
      : '';
  const expiryError = errors.expiry;
  return layout(
    `Pay ${total} — order ${session.orderId}`,
    `<h1>Checkout</h1>
<section aria-labelledby="summary-heading">
  <h2 id="summary-heading">Order summary</h2>
  <dl>
    <dt>Order</dt><dd>${escapeHtml(session.orderId)}</dd>
    <dt>Customer</dt><dd>${escapeHtml(session.customerName)}</dd>
    <dt>Total</dt><dd class="total" id="order-total">${escapeHtml(total)}</dd>
  </dl>
</section>
<form method="post" action="${escapeHtml(options.action)}" aria-labelledby="pay-heading" novalidate>
  <h2 id="pay-heading">Payment</h2>
  <div id="form-errors" role="alert" aria-live="assertive">${summary}</div>
  <fieldset>
    <legend>Payment method</legend>
    <span class="choice"><input type="radio" id="method-card" name="method" value="card"${
      method === 'card' ? ' checked' : ''
    }><label for="method-card">Card</label></span>
    <span class="choice"><input type="radio" id="method-mobile-money" name="method" value="mobile_money"${
      method === 'mobile_money' ? ' checked' : ''
    }><label for="method-mobile-money">${brand}</label></span>
  </fieldset>
  <fieldset id="card-fields">
    <legend>Card details</legend>
    ${field({
      name: 'card_number',
      label: 'Card number',
      autocomplete: 'cc-number',
      inputmode: 'numeric',
      hint: `Test cards: ${sandboxTestValues.cards.success} pays, ${sandboxTestValues.cards.declined} is declined.`,
      error: errors.card_number,
    })}
    <div class="row">
      ${field({
        name: 'expiry_month',
        label: 'Expiry month',
        autocomplete: 'cc-exp-month',
        inputmode: 'numeric',
        extra: ' placeholder="MM"',
        value: values.expiry_month,
        error: expiryError,
      })}
      ${field({
        name: 'expiry_year',
        label: 'Expiry year',
        autocomplete: 'cc-exp-year',
        inputmode: 'numeric',
        extra: ' placeholder="YYYY"',
        value: values.expiry_year,
      })}
      ${field({
        name: 'cvc',
        label: 'CVC',
        autocomplete: 'cc-csc',
        inputmode: 'numeric',
        error: errors.cvc,
        extra: ' placeholder="123"',
      })}
    </div>
  </fieldset>
  <fieldset id="mobile-money-fields">
    <legend>${brand} phone</legend>
    ${field({
      name: 'phone_number',
      label: 'Phone number',
      type: 'tel',
      autocomplete: 'tel',
      inputmode: 'tel',
      value: values.phone_number,
      hint: `Format 2547XXXXXXXX. ${sandboxTestValues.phones.insufficientFunds} fails with insufficient funds.`,
      error: errors.phone_number,
    })}
  </fieldset>
  <div class="actions">
    <button type="submit" class="pay" name="action" value="pay">Pay ${escapeHtml(total)}</button>
    <button type="submit" class="fail" name="action" value="fail">Simulate a failed payment</button>
  </div>
</form>`,
  );
}

/**
 * The page shown when a checkout link names no session.
 *
 * @example
 * ```ts
 * return c.html(renderCheckoutNotFound(), 404);
 * ```
 */
export function renderCheckoutNotFound(): string {
  return layout(
    'Checkout not found',
    `<h1>Checkout not found</h1><p>This checkout link is unknown to the sandbox (it may have been restarted).</p>`,
  );
}
