// onEvent, expected or the dedupe store may throw a value that cannot even be inspected: a revoked
// Proxy throws on `instanceof`. The handler's promise rejected (no answer: the framework's own 500,
// onError never told). It is answered like any other failure: 500 handler_failed, onError gets a
// PaymentsError with the value as its cause, and the claim is released so the retry is processed.
import { describe, expect, it } from 'vitest';
import {
  createCallbackHandler,
  createMemoryDedupeStore,
  type CallbackHandlerOptions,
} from '../../src/callbacks/index.js';
import { PaymentsError } from '../../src/errors.js';
import { createCallbackRequest } from '../../src/testing/index.js';

const secret = 'whsec_uninspectable_throw_0123456789';

const revoked = (): object => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

const deliver = async (handler: (request: Request) => Promise<Response>) =>
  handler(await createCallbackRequest('payment.mobile_money.succeeded', { secret, reference: 'ORD-PROXY' }));

/** A handler whose `throwing` part throws `thrown` once; what onEvent processed and onError heard. */
function route(throwing: 'onEvent' | 'expected' | 'begin', thrown: unknown) {
  let throws = 1;
  const once = () => {
    if (throws-- > 0) throw thrown;
  };
  const processed: string[] = [];
  const told: { error: unknown; status: number; reason: string }[] = [];
  const memory = createMemoryDedupeStore();
  const options: CallbackHandlerOptions<string> = {
    secret,
    onEvent: (event) => {
      if (throwing === 'onEvent') once();
      processed.push(event.type);
    },
    ...(throwing === 'expected' ? { expected: () => (once(), undefined) } : {}),
    dedupe: {
      begin: async (key, ttl) => {
        if (throwing === 'begin') once();
        return memory.begin(key, ttl);
      },
      complete: (key, ttl) => memory.complete(key, ttl),
      abandon: (key) => memory.abandon(key),
    },
    onError: (error, { status, reason }) => void told.push({ error, status, reason }),
  };
  return { handler: createCallbackHandler(options), processed, told };
}

describe.each(['onEvent', 'expected', 'begin'] as const)('%s throws a revoked Proxy', (throwing) => {
  it('answers 500 handler_failed, tells onError with the value as cause, and processes the retry', async () => {
    const thrown = revoked();
    const { handler, processed, told } = route(throwing, thrown);
    const first = await deliver(handler);
    expect(first.status).toBe(500);
    expect(await first.json()).toEqual({ error: 'handler_failed' });
    expect(told).toHaveLength(1);
    expect(told[0]!.status).toBe(500);
    expect(told[0]!.reason).toBe('handler_failed');
    expect(told[0]!.error).toBeInstanceOf(PaymentsError);
    expect((told[0]!.error as Error).cause === thrown).toBe(true);
    expect(processed).toEqual([]);

    const retry = await deliver(handler);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('x-callback-duplicate')).toBeNull();
    expect(processed).toEqual(['payment.mobile_money.succeeded']);
  });
});
