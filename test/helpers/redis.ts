// One real redis-server for a test file (test/reliability/helpers/redis-server.ts), with the
// ioredis clients its tests open and key prefixes none of them share.
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { startRedisServer, type RedisServer } from '../reliability/helpers/redis-server.js';

export interface UseRedis {
  /** The server, started in beforeAll (kill, start and port for tests that need them). */
  readonly server: RedisServer;
  /** A client of the server, `maxRetriesPerRequest: 1` unless `options` say otherwise; quit in afterAll. */
  client(options?: RedisOptions): Redis;
  /** `${name}0:`, `${name}1:`, …: a key prefix no other call in the file returns. */
  prefix(name: string): string;
}

/**
 * Registers the file's beforeAll (start a redis-server) and afterAll (quit, or else disconnect,
 * every client `client()` made, then stop the server). Call it at the top of the file, before the
 * file's own hooks: their afterAll (closing stores) then runs before the clients quit.
 */
export function useRedis(): UseRedis {
  let server: RedisServer | undefined;
  const clients: Redis[] = [];
  let prefixes = 0;

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((client) => client.quit().catch(() => client.disconnect())));
    await server?.stop();
  });

  const started = (): RedisServer => {
    if (!server) throw new Error('useRedis(): the redis-server starts in beforeAll');
    return server;
  };
  return {
    get server() {
      return started();
    },
    client(options) {
      const client = new Redis(started().port, '127.0.0.1', { maxRetriesPerRequest: 1, ...options });
      clients.push(client);
      return client;
    },
    prefix: (name) => `${name}${prefixes++}:`,
  };
}
