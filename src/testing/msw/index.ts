// hosted-payments/testing/msw — msw handlers that answer like the sandbox, for unit tests
// without a server. The one entry that needs msw installed.
export { createPaymentsHandlers } from './handlers.js';
export type { PaymentsHandlers, PaymentsHandlersOptions } from './handlers.js';
