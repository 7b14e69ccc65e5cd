// What a merchant relies on from the Redis stores' shared options, with stand-in clients (no
// redis-server): a hung Redis is given up on after the default 2 s, a commandTimeoutMs no timer can
// hold is refused by name, a failed reply names the store and keeps the client's error, the
// default key prefix, and ioredis `stringNumbers` replies ('1') read as numbers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { caught } from '../helpers/caught.js';
import { createRedisDedupeStore } from '../../src/redis/index.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the command deadline of a Redis store', () => {
  it('rejects a call Redis never answers after the default 2000 ms, naming commandTimeoutMs', async () => {
    vi.useFakeTimers();
    const hung = { eval: () => new Promise<never>(() => undefined) };
    const store = createRedisDedupeStore({ client: hung });
    const outcome = store.begin('evt-1', 60_000).then(
      () => 'answered',
      (error: unknown) => error as Error,
    );
    await vi.advanceTimersByTimeAsync(2_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('did not answer within 2000 ms (commandTimeoutMs)');
  });

  it('refuses a commandTimeoutMs above the largest timer with a RangeError naming it', async () => {
    const error = await caught(() =>
      createRedisDedupeStore({ client: { eval: async () => 'new' }, commandTimeoutMs: 2_147_483_648 }),
    );
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(/^createRedisDedupeStore: commandTimeoutMs /);
  });

  it("names the store on a failed reply and keeps the client's error as the cause", async () => {
    const failure = new Error('READONLY You cannot write against a read only replica.');
    const store = createRedisDedupeStore({
      client: {
        eval: async () => {
          throw failure;
        },
      },
    });
    const error = (await caught(() => store.begin('evt-1', 60_000))) as Error;
    expect(error.message).toBe(
      'Redis dedupe store: Error: READONLY You cannot write against a read only replica.',
    );
    expect(error.cause).toBe(failure);
  });
});

describe('the key prefix and replies of a Redis store', () => {
  it('refuses a prefix that is not a string, saying what it got', async () => {
    const error = await caught(() =>
      createRedisDedupeStore({ client: { eval: async () => 'new' }, prefix: 42 as never }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('createRedisDedupeStore: prefix must be a string, got number');
  });

  it("uses 'hosted-payments:dedupe:' when no prefix is given, and '' when '' is given", async () => {
    const keys: unknown[] = [];
    const client = {
      eval: async (_script: string, _n: number, key: unknown) => {
        keys.push(key);
        return 'new';
      },
    };
    await createRedisDedupeStore({ client }).begin('evt-1', 60_000);
    await createRedisDedupeStore({ client, prefix: '' }).begin('evt-2', 60_000);
    expect(keys).toEqual(['hosted-payments:dedupe:evt-1', 'evt-2']);
  });

  it("completes when the client answers '1' as a string (ioredis stringNumbers)", async () => {
    const replies = ['new', '1'];
    const client = { eval: async () => replies.shift() };
    const store = createRedisDedupeStore({ client, completeRetryMs: 0 });
    await expect(store.begin('evt-1', 60_000)).resolves.toBe('new');
    await expect(store.complete('evt-1', 60_000)).resolves.toBeUndefined();
  });
});
