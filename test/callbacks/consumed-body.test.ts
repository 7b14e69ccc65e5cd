// A Request whose body a middleware already read (Hono's c.req.json(), a NextRequest read before
// the route) cannot be verified as what the sender posted: the route is set up wrong, so the answer
// is 500 handler_failed (the sender retries, and the retry is processed once the route is mounted
// right), as toNodeListener answers behind a body parser, never a 400 the sender gives up on.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createCallbackHandler, type CallbackHandlerError } from '../../src/callbacks/index.js';
import { createCallbackRequest } from '../../src/testing/index.js';

const secret = 'whsec_consumed_body_0123';

function route() {
  const errors: { error: CallbackHandlerError; status: number }[] = [];
  const events: string[] = [];
  const handler = createCallbackHandler({
    secret,
    onEvent: (event) => {
      events.push(event.type);
    },
    onError: (error, { status }) => {
      errors.push({ error, status });
    },
  });
  return { handler, errors, events };
}

describe('a callback Request whose body was already read', () => {
  it('is 500 handler_failed, onError saying the body was read before the handler and what to do', async () => {
    const { handler, errors, events } = route();
    const request = await createCallbackRequest('payout.succeeded', { secret });
    await request.text();
    const response = await handler(request);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'handler_failed' });
    expect(events).toEqual([]);
    expect(errors.map(({ status }) => status)).toEqual([500]);
    expect(errors[0]!.error.message).toMatch(/already read/);
    expect(errors[0]!.error.message).toMatch(/before/);
  });

  it('given to the handler a second time (a test replaying a delivery), says a Request is read once', async () => {
    const { handler, errors, events } = route();
    const request = await createCallbackRequest('payout.succeeded', { secret });
    expect((await handler(request)).status).toBe(200);
    expect((await handler(request)).status).toBe(500);
    expect(events).toEqual(['payout.succeeded']);
    expect(errors[0]!.error.message).toMatch(
      /or a handler was given this same Request before: build a new Request for each delivery/,
    );
  });

  it('is 500 behind a Hono middleware that read c.req.json(), and 200 once the route comes first', async () => {
    const { handler, events } = route();
    const app = new Hono();
    app.use('/late/*', async (c, next) => {
      await c.req.json();
      await next();
    });
    app.post('/late/hooks', (c) => handler(c.req.raw));
    app.post('/early/hooks', (c) => handler(c.req.raw));
    const late = await app.fetch(
      await createCallbackRequest('payout.succeeded', { secret, url: 'https://shop.example/late/hooks' }),
    );
    expect(late.status).toBe(500);
    const early = await app.fetch(
      await createCallbackRequest('payout.succeeded', { secret, url: 'https://shop.example/early/hooks' }),
    );
    expect(early.status).toBe(200);
    expect(events).toEqual(['payout.succeeded']);
  });
});
