// hosted-payments/sandbox — a local, faithful stand-in for the service: a real HTTP server with
// the four endpoints, the hosted checkout page, and callbacks delivered with retries. The
// payloads it sends are built in ./payloads.ts; hosted-payments/testing exports those builders.
export { startSandbox } from './server.js';
export type { StartSandboxOptions, Sandbox } from './server.js';
export { sandboxTestValues } from './outcomes.js';
export { createSandboxApp, sandboxPaths } from './app.js';
export type { SandboxApp, SandboxAppOptions } from './app.js';
export type { SandboxBehaviourOptions } from './sandbox-state.js';
export { completeCheckout } from './complete-checkout.js';
export type { CheckoutCompletion, CompleteCheckoutOptions } from './complete-checkout.js';
export type {
  CallbackAnswer,
  CallbackDelivery,
  CallbackTransport,
  DeliveryAttempt,
  WaitForIdleOptions,
} from './delivery.js';
export type { DeliveryReport, DeliveryReportEntry } from './report.js';
export { createSandboxLogger, formatSandboxLogEvent } from './log.js';
export type { SandboxLogEvent, SandboxLogFormat, SandboxLogger } from './log.js';
