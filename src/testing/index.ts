// hosted-payments/testing — msw handlers and callback fixtures (filled by the sandbox work).
export {};
