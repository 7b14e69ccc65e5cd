// Starts a real redis-server (Debian package `redis-server`) on 127.0.0.1, a free port and a temp
// dir, with AOF persistence (appendfsync always) so a restart keeps what was written. Stops it, and
// restarts it on the same port and dir to simulate an outage.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the server with SIGKILL (no shutdown save; AOF already fsynced every write). */
  kill(): Promise<void>;
  /** Starts it again on the same port and dir. */
  start(): Promise<void>;
  /** Stops it and removes its dir. */
  stop(): Promise<void>;
}

export const redisServerBinary = process.env.REDIS_SERVER_BIN ?? 'redis-server';

const ping = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let data = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      data += chunk.toString();
      if (data.includes('\r\n')) done(data.startsWith('+PONG'));
    });
  });

const waitFor = async (check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

export async function startRedisServer(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'hp-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let output = '';

  const launch = async () => {
    const proc = spawn(
      redisServerBinary,
      [
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--protected-mode',
        'no',
        '--daemonize',
        'no',
        '--loglevel',
        'warning',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    proc.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    proc.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    await waitFor(
      async () => {
        if (proc.exitCode !== null) throw new Error(`redis-server exited with ${proc.exitCode}: ${output}`);
        return ping(port);
      },
      10_000,
      `redis-server on port ${port}`,
    );
  };

  const kill = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const gone = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await gone;
  };

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    start: launch,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
