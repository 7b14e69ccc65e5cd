// The listener mounts, without a cast, on every Node server the adapter serves at runtime
// (node.test.ts, edges.test.ts): node:http, node:https, Express 5 and node:http2's compatibility API.
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import express from 'express';
import { describe, expectTypeOf, it } from 'vitest';
import { createCallbackHandler, toNodeListener } from '../../src/callbacks/index.js';

const listener = toNodeListener(
  createCallbackHandler({ secret: 'a-webhook-secret-of-32-characters!', onEvent: () => {} }),
);

describe('toNodeListener types', () => {
  it('is a node:http and node:https request listener', () => {
    expectTypeOf(http.createServer(listener)).toEqualTypeOf<http.Server>();
    expectTypeOf(https.createServer({}, listener)).toEqualTypeOf<https.Server>();
  });

  it('is an Express 5 route handler', () => {
    const app = express();
    app.post('/webhooks/payments', listener);
    express.Router().post('/webhooks/payments', express.raw({ type: '*/*' }), listener);
  });

  it('is a node:http2 compatibility-API request listener, plain and secure', () => {
    expectTypeOf(http2.createServer(listener)).toEqualTypeOf<http2.Http2Server>();
    expectTypeOf(http2.createSecureServer({}, listener)).toEqualTypeOf<http2.Http2SecureServer>();
  });

  it('answers by itself: it returns nothing to await', () => {
    expectTypeOf(listener).returns.toEqualTypeOf<void>();
  });
});
