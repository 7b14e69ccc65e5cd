// N merchant webhook processes (scenarios/handler-process.ts) behind a round-robin proxy — one
// public callback URL, several instances, as merchants deploy them — and the ledger of what
// each instance's onEvent did, collected over IPC.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bundleScenario } from './child.js';
import { newLedger, type Ledger } from './merchant.js';
import type { Capture } from './secrets.js';

interface Report {
  kind: 'listening' | 'attempt' | 'processed' | 'error' | 'flushed' | 'injected';
  instance: string;
  port?: number;
  key?: string;
  reference?: string;
  at?: number;
  status?: number;
  reason?: string;
  text?: string;
}

export interface HandlerCluster {
  /** The proxy's URL: the one callback origin the sender knows. */
  readonly url: string;
  /** Each instance's own URL (for delivering to a chosen instance directly). */
  readonly instanceUrls: string[];
  readonly ledger: Ledger;
  /** processed events per instance. */
  readonly perInstance: Map<string, number>;
  /** Handler refusals by `status reason`. */
  readonly refusals: Map<string, number>;
  injected: number;
  /** Resolves once every report sent so far by every instance has arrived. */
  flush(): Promise<void>;
  /** Stops every instance and the proxy; resolves with whether each process exited by itself. */
  stop(): Promise<{ exitedByThemselves: boolean }>;
}

export async function startHandlerCluster(options: {
  instances: number;
  secret: string;
  redisPort?: number;
  env?: Record<string, string>;
  capture?: Capture;
}): Promise<HandlerCluster> {
  const file = await bundleScenario('test/reliability/scenarios/handler-process.ts');
  const ledger = newLedger();
  const perInstance = new Map<string, number>();
  const refusals = new Map<string, number>();
  let backends: number[] = [];
  let next = 0;

  const proxy: Server = createServer((req, res) => {
    const port = backends[next++ % backends.length]!;
    const upstream = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  proxy.keepAliveTimeout = 2_000;
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  const children: ChildProcess[] = [];
  const flushWaiters = new Map<string, () => void>();
  const cluster: HandlerCluster = {
    url,
    instanceUrls: [],
    ledger,
    perInstance,
    refusals,
    injected: 0,
    flush: () =>
      Promise.all(
        children.map(
          (child, i) =>
            new Promise<void>((resolve) => {
              flushWaiters.set(String(i), resolve);
              child.send({ kind: 'flush' });
            }),
        ),
      ).then(() => undefined),
    stop: async () => {
      const exits = children.map(
        (child) =>
          new Promise<boolean>((resolve) => {
            if (child.exitCode !== null) return resolve(true);
            const timer = setTimeout(() => {
              child.kill('SIGKILL');
              resolve(false);
            }, 5_000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve(true);
            });
          }),
      );
      for (const child of children) if (child.connected) child.send({ kind: 'stop' });
      const exited = await Promise.all(exits);
      await new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        proxy.closeAllConnections();
      });
      return { exitedByThemselves: exited.every(Boolean) };
    },
  };

  const listening: Promise<number>[] = [];
  for (let i = 0; i < options.instances; i++) {
    const child = spawn(process.execPath, [file], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: {
        ...process.env,
        ...options.env,
        INSTANCE: String(i),
        SECRET: options.secret,
        PUBLIC_ORIGIN: url,
        ...(options.redisPort === undefined ? {} : { REDIS_PORT: String(options.redisPort) }),
      },
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    children.push(child);
    listening.push(
      new Promise<number>((resolve, reject) => {
        child.once('exit', (code) =>
          reject(new Error(`handler process ${i} exited with ${code}: ${stderr}`)),
        );
        child.on('message', (m: Report) => {
          switch (m.kind) {
            case 'listening':
              resolve(m.port!);
              break;
            case 'attempt': {
              const key = m.key!;
              ledger.attempts.set(key, (ledger.attempts.get(key) ?? 0) + 1);
              if (ledger.processed.has(key)) ledger.callsAfterSuccess++;
              break;
            }
            case 'processed': {
              const key = m.key!;
              ledger.processed.set(key, (ledger.processed.get(key) ?? 0) + 1);
              if (!ledger.processedAt.has(key)) ledger.processedAt.set(key, m.at!);
              if (m.reference !== undefined && !ledger.processedAtByReference.has(m.reference)) {
                ledger.processedAtByReference.set(m.reference, m.at!);
              }
              perInstance.set(m.instance, (perInstance.get(m.instance) ?? 0) + 1);
              break;
            }
            case 'error': {
              const k = `${m.status} ${m.reason}`;
              refusals.set(k, (refusals.get(k) ?? 0) + 1);
              options.capture?.add(`handler process error ${k}`, m.text ?? '');
              break;
            }
            case 'injected':
              cluster.injected++;
              break;
            case 'flushed':
              flushWaiters.get(m.instance)?.();
              break;
          }
        });
      }),
    );
  }
  backends = await Promise.all(listening);
  cluster.instanceUrls.push(...backends.map((port) => `http://127.0.0.1:${port}`));
  return cluster;
}
