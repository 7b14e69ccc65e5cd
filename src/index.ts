// hosted-payments — the public surface of the main entry. Named exports only; types with
// `export type`; nothing else lives here (STYLE.md habit 1).

// --- errors (src/errors.ts) ---
export {
  PaymentsError,
  ValidationError,
  ApiError,
  ConnectionError,
  TimeoutError,
  CallbackParseError,
  CallbackVerificationError,
  isPaymentsError,
  formatIssuePath,
  paymentsErrorNames,
  callbackParseReasons,
} from './errors.js';
export type {
  ValidationIssue,
  IssuePath,
  CallbackVerificationReason,
  CallbackParseReason,
  PaymentsErrorName,
  ErrorByName,
} from './errors.js';

// --- client, requests, validation ---
export { PaymentsClient } from './client.js';
export type { ClientOptions } from './client.js';
export type {
  ClientHooks,
  HeadersOption,
  Operation,
  RequestLogEvent,
  RequestOptions,
  ResponseLogEvent,
  RetryOptions,
} from './http.js';
export {
  buildCardPaymentRequest,
  cardPaymentInputSchema,
  cardPaymentRequestSchema,
} from './requests/card-payment.js';
export type {
  CardFieldEncoding,
  CardPaymentBuildOptions,
  CardPaymentInput,
  CardPaymentRequest,
} from './requests/card-payment.js';
export {
  buildMobileMoneyPaymentRequest,
  mobileMoneyPaymentInputSchema,
  mobileMoneyPaymentRequestSchema,
} from './requests/mobile-money-payment.js';
export type {
  MobileMoneyPaymentBuildOptions,
  MobileMoneyPaymentInput,
  MobileMoneyPaymentRequest,
} from './requests/mobile-money-payment.js';
export {
  buildCheckoutSessionRequest,
  checkoutSessionInputSchema,
  checkoutSessionRequestSchema,
} from './requests/checkout-session.js';
export type { CheckoutSessionInput, CheckoutSessionRequest } from './requests/checkout-session.js';
export { buildPayoutRequest, payoutInputSchema, payoutRequestSchema } from './requests/payout.js';
export type {
  PayoutBuildOptions,
  PayoutInitiationInput,
  PayoutInput,
  PayoutRecipientKey,
  PayoutRequest,
} from './requests/payout.js';
export {
  cardPaymentResponseSchema,
  checkoutSessionResponseSchema,
  mobileMoneyPaymentResponseSchema,
  payoutResponseSchema,
} from './requests/responses.js';
export type {
  CardPaymentResponse,
  CheckoutSessionResponse,
  MobileMoneyPaymentResponse,
  PayoutResponse,
} from './requests/responses.js';
export { normalizePhoneNumber } from './validation/phone.js';
export type { PhoneNumberPurpose } from './validation/phone.js';
export type { UnitPrice } from './validation/product.js';
export { isValidCardNumber } from './validation/card.js';
export { generateReferenceId } from './validation/reference-id.js';

// --- callbacks: re-exported from ./callbacks/index.js ---
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
  callbackEventTypes,
  callbackWarningCodes,
  parseCallback,
  safeParseCallback,
  PAID_FLAG_CONTRADICTION,
  signCallbackUrl,
  verifyCallbackUrl,
  callbackSignatureParams,
  createMemoryDedupeStore,
  callbackDedupeKey,
  createCallbackHandler,
  toNodeListener,
} from './callbacks/index.js';
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
  ParseCallbackOptions,
  SafeParseCallbackResult,
  SignCallbackUrlOptions,
  VerifyCallbackUrlOptions,
  VerifiedCallbackUrl,
  DedupeStore,
  DedupeState,
  MemoryDedupeStoreOptions,
  CallbackHandler,
  CallbackHandlerOptions,
  CallbackContext,
  ExpectedPayment,
  CallbackRejectionReason,
  CallbackHandlerError,
  NodeCallbackRequest,
  NodeCallbackListener,
} from './callbacks/index.js';
