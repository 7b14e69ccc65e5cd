// hosted-payments/testing — fixtures, callback payload builders and signed callback requests, so
// merchants unit-test their own routes without a server. Loads without msw: the msw handlers
// live in hosted-payments/testing/msw.
export { callbackFixtures } from './fixtures.js';
export { createCallbackRequest } from './callback-request.js';
export type { CallbackRequestOptions } from './callback-request.js';
export {
  buildCallbackPayload,
  cardPaymentFailurePayload,
  cardPaymentSuccessPayload,
  checkoutFailurePayload,
  checkoutSuccessPayload,
  mobileMoneyPaymentFailurePayload,
  mobileMoneyPaymentSuccessPayload,
  payoutFailurePayload,
  payoutSuccessPayload,
} from '../sandbox/payloads.js';
export type {
  BuildCallbackPayloadOptions,
  CallbackPayloadByType,
  CheckoutPayloadInput,
  PaymentPayloadInput,
  PayoutPayloadInput,
} from '../sandbox/payloads.js';
// `CheckoutPayloadInput.method`'s type: the same one the main entry exports.
export type { PaymentMethodKind } from '../callbacks/events.js';
