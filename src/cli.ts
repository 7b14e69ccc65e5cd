#!/usr/bin/env node
// The `hosted-payments` bin (filled by the sandbox work).
export {};
