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
} from './errors.js';
export type {
  ValidationIssue,
  IssuePath,
  CallbackVerificationReason,
  PaymentsErrorName,
  ErrorByName,
} from './errors.js';

// --- client, requests, validation (issue 2) ---

// --- callbacks (issue 3): re-exported from ./callbacks/index.js ---
