// hosted-payments/callbacks — the webhook half of the SDK, without ky in its import graph:
// schemas, parseCallback, the handler and its Node adapter, URL signing, deduplication.
export {
  cardPaymentSuccessCallbackSchema,
  cardPaymentFailureCallbackSchema,
  mobileMoneyPaymentSuccessCallbackSchema,
  mobileMoneyPaymentFailureCallbackSchema,
  checkoutSuccessCallbackSchema,
  checkoutFailureCallbackSchema,
  payoutSuccessCallbackSchema,
  payoutFailureCallbackSchema,
  callbackSchemas,
} from './schemas.js';
export type {
  CardPaymentSuccessCallback,
  CardPaymentFailureCallback,
  MobileMoneyPaymentSuccessCallback,
  MobileMoneyPaymentFailureCallback,
  CheckoutSuccessCallback,
  CheckoutFailureCallback,
  PayoutSuccessCallback,
  PayoutFailureCallback,
  CallbackPayload,
} from './schemas.js';
export { callbackEventTypes, callbackWarningCodes, PAID_FLAG_CONTRADICTION } from './events.js';
export type {
  CallbackEvent,
  CallbackEventType,
  CallbackEventOf,
  CallbackEventBase,
  CallbackWarning,
  CallbackWarningCode,
  PaymentMethodKind,
  CardPaymentSucceededEvent,
  CardPaymentFailedEvent,
  MobileMoneyPaymentSucceededEvent,
  MobileMoneyPaymentFailedEvent,
  CheckoutSucceededEvent,
  CheckoutFailedEvent,
  PayoutSucceededEvent,
  PayoutFailedEvent,
} from './events.js';
export { parseCallback, safeParseCallback } from './parse.js';
export type { ParseCallbackOptions, SafeParseCallbackResult } from './parse.js';
export { signCallbackUrl, verifyCallbackUrl, callbackSignatureParams } from './signing.js';
export type { SignCallbackUrlOptions, VerifyCallbackUrlOptions, VerifiedCallbackUrl } from './signing.js';
export { createMemoryDedupeStore, callbackDedupeKey } from './dedupe.js';
export type { DedupeStore, DedupeState, MemoryDedupeStoreOptions } from './dedupe.js';
export { createCallbackHandler } from './handler.js';
export type {
  CallbackHandler,
  CallbackHandlerOptions,
  CallbackContext,
  ExpectedPayment,
  CallbackRejectionReason,
  CallbackHandlerError,
} from './handler.js';
export { toNodeListener } from './node.js';
export type { NodeCallbackRequest, NodeCallbackListener } from './node.js';
export { CallbackParseError, CallbackVerificationError, callbackParseReasons } from '../errors.js';
export type { ValidationIssue, CallbackVerificationReason, CallbackParseReason } from '../errors.js';
