// hosted-payments/sandbox — a local, faithful stand-in for the service: a real HTTP server with
// the four endpoints, the hosted checkout page, and callbacks delivered with retries.
export { startSandbox } from './server.js';
export type { StartSandboxOptions, Sandbox } from './server.js';
export { sandboxTestValues } from './outcomes.js';
export { createSandboxApp, sandboxPaths } from './app.js';
export type { SandboxApp, SandboxAppOptions, SandboxBehaviourOptions } from './app.js';
export type { CallbackDelivery, CallbackTransport, DeliveryAttempt } from './delivery.js';
export { formatSandboxLogEvent } from './log.js';
export type { SandboxLogEvent, SandboxLogger } from './log.js';
