/** The service's endpoint paths, exactly as the API reference writes them, relative to the base URL (card and mobile-money payments share one, with its trailing slash). Shared by the client and the sandbox. */
export const endpointPaths = {
  payment: 'api/payment/payment-initiate-callback/',
  checkoutSession: 'checkout.sessions/hosted/redirect/session',
  payout: 'api/payout/mobile-money-payout',
} as const;
