// hosted-payments/testing — msw handlers, callback payload builders and fixtures, so merchants
// unit-test their own code without a server. msw is imported here only.
export { createPaymentsHandlers } from './handlers.js';
export type { PaymentsHandlers, PaymentsHandlersOptions } from './handlers.js';
export { callbackFixtures } from './fixtures.js';
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
} from './payloads.js';
export type {
  BuildCallbackPayloadOptions,
  CallbackPayloadByType,
  CheckoutPayloadInput,
  CheckoutPaymentMethod,
  PaymentPayloadInput,
  PayoutPayloadInput,
} from './payloads.js';
