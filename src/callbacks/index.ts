// hosted-payments/callbacks — the webhook half of the SDK, without ky in its import graph.
export {};
