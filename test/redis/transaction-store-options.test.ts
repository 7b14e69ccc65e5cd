// createRedisTransactionStore's option values, checked at creation as createRedisDedupeStore's
// are: a merchant who forgot the client, or passed the wrong thing, is told so by name. No
// redis-server needed.
import { describe, expect, it } from 'vitest';
import { caught } from '../helpers/caught.js';
import { createRedisTransactionStore, type RedisTransactionStoreOptions } from '../../src/redis/index.js';

const refusal = async (options: unknown) =>
  caught(() => createRedisTransactionStore(options as RedisTransactionStoreOptions)) as Promise<Error>;

describe('createRedisTransactionStore', () => {
  it.each([
    ['no options', undefined],
    ['no client', {}],
    ['client: undefined', { client: undefined }],
    ['client: null', { client: null }],
    ['client: {}', { client: {} }],
    ['a client whose eval is not a function', { client: { eval: 'EVAL' } }],
  ])('refuses %s with a TypeError naming client', async (_name, options) => {
    const error = await refusal(options);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^createRedisTransactionStore: client must be .*eval/);
  });

  it.each([42, null, { toString: () => 'a:' }])(
    'refuses prefix %j with a TypeError naming prefix',
    async (prefix) => {
      const error = await refusal({ client: { eval: async () => 1 }, prefix });
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/^createRedisTransactionStore: prefix must be a string/);
    },
  );

  // A wrong subscriber (a URL, the client's options) accepted at creation would only stop the
  // wake-ups between processes: waitFor then hears of a settlement at its next poll, seconds late.
  it.each([
    ['a URL', 'redis://localhost:6379'],
    ['null', null],
    ['an object without subscribe', { on: () => undefined }],
    ['an object without on', { subscribe: async () => 1 }],
  ])('refuses subscriber %s with a TypeError naming subscriber', async (_name, subscriber) => {
    const error = await refusal({ client: { eval: async () => 1 }, subscriber });
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^createRedisTransactionStore: subscriber must be .*subscribe/);
    expect(error.message).not.toContain('localhost');
  });

  it('names client before any other option when client is missing', async () => {
    const error = await refusal({ commandTimeoutMs: 'soon', finishedTtlMs: -1, prefix: 42 });
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^createRedisTransactionStore: client must be/);
  });
});
