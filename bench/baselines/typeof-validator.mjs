// The floor for `parseCallback(object)`: what a merchant would hand-write without a library —
// classify the payload by its keys (spec §2.9), check every documented key with `typeof` and
// return a small event. No tolerance for type variants, no warnings, no error messages.

const isString = (v) => typeof v === 'string';
const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);
const isInt = (v) => Number.isInteger(v);

function fail() {
  return undefined;
}

function card(p) {
  if (
    !isString(p.id) ||
    !isInt(p.status) ||
    !isString(p['payment method']) ||
    !isString(p.message) ||
    !isString(p.amount) ||
    !isString(p.currency) ||
    !isString(p['payment status']) ||
    !isString(p['transaction id']) ||
    !isString(p.paid) ||
    !isInt(p.timestamp)
  )
    return fail();
  if (p['amount captured'] !== undefined) {
    if (!isString(p['amount captured']) || p.paid !== 'True') return fail();
    return { type: 'payment.card.succeeded', paid: true, amount: p.amount, data: p };
  }
  if (p.paid !== 'False') return fail();
  return { type: 'payment.card.failed', paid: false, amount: p.amount, data: p };
}

function mobileMoneySuccess(p) {
  if (
    !isString(p.id) ||
    !isInt(p.response_status) ||
    !isString(p.payment_method) ||
    !isString(p.message) ||
    !isNumber(p.amount) ||
    !isNumber(p.amount_captured) ||
    !isString(p.payment_status) ||
    !isString(p['transaction id']) ||
    p.paid !== 'True' ||
    !isInt(p.timestamp)
  )
    return fail();
  return { type: 'payment.mobile_money.succeeded', paid: true, amount: String(p.amount), data: p };
}

function mobileMoneyFailure(p) {
  if (
    !isString(p.id) ||
    !isString(p.transaction_reference) ||
    !isInt(p.response_status) ||
    !isNumber(p.amount) ||
    p.paid !== 'False' ||
    !isString(p['payment status']) ||
    !isString(p.message) ||
    !isInt(p.timestamp)
  )
    return fail();
  return { type: 'payment.mobile_money.failed', paid: false, amount: String(p.amount), data: p };
}

function checkout(p) {
  if (
    !isString(p.payment_method) ||
    !isString(p.paid) ||
    !isInt(p.response_status) ||
    !isString(p.order_id) ||
    !isString(p.message) ||
    !isString(p.amount) ||
    !isString(p.payment_status)
  )
    return fail();
  const complete = p.payment_status === 'Payment complete.';
  if (!complete && p.payment_status !== 'Payment Incomplete.') return fail();
  return {
    type: complete ? 'checkout.succeeded' : 'checkout.failed',
    paid: complete,
    amount: p.amount,
    data: p,
  };
}

function payout(p) {
  if (
    !isString(p.amount) ||
    !isString(p.currency) ||
    !isString(p.message) ||
    !isString(p.reference_id) ||
    !isString(p.status) ||
    !isString(p.transaction_id) ||
    !isString(p.wallet_balance)
  )
    return fail();
  if (p.status === 'Success') {
    if (!isString(p.payout_fee)) return fail();
    return { type: 'payout.succeeded', paid: true, amount: p.amount, data: p };
  }
  if (p.status !== 'Failed') return fail();
  return { type: 'payout.failed', paid: false, amount: p.amount, data: p };
}

/** Returns a small event, or `undefined` when the payload is not one of the eight. */
export function validateCallbackByHand(p) {
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return fail();
  if ('payment method' in p) return card(p);
  if ('payout_fee' in p || 'wallet_balance' in p) return payout(p);
  if ('order_id' in p) return checkout(p);
  if ('transaction_reference' in p) return mobileMoneyFailure(p);
  if ('amount_captured' in p) return mobileMoneySuccess(p);
  return fail();
}
