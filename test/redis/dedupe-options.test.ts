// createRedisDedupeStore's option values, checked at creation: a client without the method the
// store calls would fail every delivery, and a completeRetryMs that is not a finite number of
// milliseconds would make complete() retry for ever during an outage. No redis-server needed.
import { describe, expect, it } from 'vitest';
import { caught } from '../helpers/caught.js';
import { createRedisDedupeStore, type RedisDedupeStoreOptions } from '../../src/redis/index.js';

const client = { eval: async () => 'new' };

const refusal = async (options: unknown) =>
  caught(() => createRedisDedupeStore(options as RedisDedupeStoreOptions)) as Promise<Error>;

describe('createRedisDedupeStore', () => {
  it.each([
    ['no options', undefined],
    ['no client', {}],
    ['client: undefined', { client: undefined }],
    ['client: {}', { client: {} }],
    ['client: null', { client: null }],
    ['a client whose eval is not a function', { client: { eval: 'EVAL' } }],
  ])('refuses %s with a TypeError naming client', async (_name, options) => {
    const error = await refusal(options);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^createRedisDedupeStore: client must be .*eval/);
  });

  it.each([42, null, { toString: () => 'a:' }])(
    'refuses prefix %j with a TypeError naming prefix',
    async (prefix) => {
      const error = await refusal({ client, prefix });
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/^createRedisDedupeStore: prefix must be a string/);
    },
  );

  // As commandTimeoutMs and the transaction store's number options: a value that is not a number
  // is a TypeError, a number out of range a RangeError, each naming the option.
  it.each([
    ["'abc'", 'abc'],
    ["'100' (a string)", '100'],
    ['null', null],
  ])('refuses completeRetryMs %s at creation with a TypeError naming it', async (_name, completeRetryMs) => {
    const error = await refusal({ client, completeRetryMs });
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(
      /^createRedisDedupeStore: completeRetryMs must be a whole number from 0 to /,
    );
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-5', -5],
    ['-0.5', -0.5],
    ['2.5', 2.5],
  ])('refuses completeRetryMs %s at creation with a RangeError naming it', async (_name, completeRetryMs) => {
    const error = await refusal({ client, completeRetryMs });
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(
      /^createRedisDedupeStore: completeRetryMs must be a whole number from 0 to /,
    );
  });

  it('names client before any other option when client is missing', async () => {
    const error = await refusal({ commandTimeoutMs: 'soon', completeRetryMs: 'x', prefix: 42 });
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^createRedisDedupeStore: client must be/);
  });

  it('accepts the documented values: 0 tries once, any prefix string, any client with eval', async () => {
    for (const options of [
      { client },
      { client, completeRetryMs: 0 },
      { client, completeRetryMs: 2_500, prefix: '' },
      { client, commandTimeoutMs: 1 },
      { client, prefix: 'shop-a:dedupe:' },
    ]) {
      const store = createRedisDedupeStore(options);
      expect(await store.begin('k', 1_000)).toBe('new');
    }
  });

  it('with completeRetryMs 0, complete() tries once and rejects at once while Redis is down', async () => {
    let calls = 0;
    const down = {
      eval: async () => {
        calls++;
        throw new Error('ECONNREFUSED');
      },
    };
    const store = createRedisDedupeStore({ client: down, completeRetryMs: 0 });
    await expect(store.complete('k', 1_000)).rejects.toThrow('ECONNREFUSED');
    expect(calls).toBe(1);
  });

  it('complete() gives up within completeRetryMs + commandTimeoutMs when Redis never answers', async () => {
    const hung = { eval: () => new Promise<never>(() => undefined) };
    const store = createRedisDedupeStore({ client: hung, completeRetryMs: 300, commandTimeoutMs: 100 });
    const started = Date.now();
    await expect(store.complete('k', 1_000)).rejects.toThrow(/did not answer within 100 ms/);
    // The bound the docs give for processingTimeoutMs, with room for timers firing late.
    expect(Date.now() - started).toBeLessThan(300 + 100 + 500);
  });
});
