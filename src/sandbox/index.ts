// hosted-payments/sandbox — a local stand-in for the service (filled by the sandbox work).
export {};
