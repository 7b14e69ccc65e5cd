// The pending-transaction tracker behind a load balancer: four webhook processes on one real
// redis-server settle 2,000 transactions whose callbacks arrive 1–3 times each, in random order,
// with 30 % of first attempts failing — each transaction settles exactly once with its own
// outcome, and a waitFor started in another process than the receiver resolves with it. Then a
// Redis kill + restart in the middle of a run: nothing settled twice, nothing lost.
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackEventType } from '../../src/callbacks/events.js';
import { signCallbackUrl } from '../../src/callbacks/signing.js';
import { createRedisTransactionStore, type RedisTransactionStore } from '../../src/redis/index.js';
import { buildCallbackPayload } from '../../src/sandbox/payloads.js';
import {
  createTransactionTracker,
  type TransactionKind,
  type TransactionTracker,
} from '../../src/transactions/index.js';
import { bundleScenario } from './helpers/child.js';
import { prng } from './helpers/merchant.js';
import { startRedisServer, type RedisServer } from './helpers/redis-server.js';

const SECRET = 'whsec_reliability_tracker';
const PUBLIC_ORIGIN = 'https://merchant.example';
const INSTANCES = 4;

interface Report {
  kind: string;
  instance: string;
  port?: number;
  reference?: string;
  settlement?: string;
  state?: string;
  status?: number;
  reason?: string;
  name?: string;
}

interface Cluster {
  ports: number[];
  reports: Report[];
  /** Sends `kind` (with `perInstance[i]` to instance i) and resolves when every instance answered. */
  request(kind: 'wait' | 'flush', perInstance?: object[]): Promise<void>;
  stop(): Promise<void>;
}

async function startCluster(redisPort: number): Promise<Cluster> {
  const file = await bundleScenario('test/reliability/scenarios/tracker-process.ts');
  const reports: Report[] = [];
  const children: ChildProcess[] = [];
  const acks = new Map<string, () => void>();
  const ports = await Promise.all(
    Array.from({ length: INSTANCES }, (_, i) => {
      const child = spawn(process.execPath, [file], {
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        env: {
          ...process.env,
          INSTANCE: String(i),
          SECRET,
          PUBLIC_ORIGIN,
          REDIS_PORT: String(redisPort),
          PROCESSING_TIMEOUT_MS: '2000',
        },
      });
      children.push(child);
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      return new Promise<number>((resolve, reject) => {
        child.once('exit', (code) =>
          reject(new Error(`tracker process ${i} exited with ${code}: ${stderr}`)),
        );
        child.on('message', (m: Report) => {
          if (m.kind === 'listening') resolve(m.port!);
          else if (m.kind === 'flushed' || m.kind === 'waiting') acks.get(`${m.kind}:${m.instance}`)?.();
          else reports.push(m);
        });
      });
    }),
  );
  return {
    ports,
    reports,
    request: (kind, perInstance) =>
      Promise.all(
        children.map(
          (child, i) =>
            new Promise<void>((resolve) => {
              acks.set(`${kind === 'flush' ? 'flushed' : 'waiting'}:${i}`, resolve);
              child.send({ kind, ...perInstance?.[i] });
            }),
        ),
      ).then(() => undefined),
    stop: async () => {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
              child.once('exit', () => {
                clearTimeout(timer);
                resolve();
              });
              if (child.connected) child.send({ kind: 'stop' });
            }),
        ),
      );
    },
  };
}

const eventTypes: Record<TransactionKind, [succeeded: CallbackEventType, failed: CallbackEventType]> = {
  card: ['payment.card.succeeded', 'payment.card.failed'],
  mobile_money: ['payment.mobile_money.succeeded', 'payment.mobile_money.failed'],
  checkout: ['checkout.succeeded', 'checkout.failed'],
  payout: ['payout.succeeded', 'payout.failed'],
};
const kinds: TransactionKind[] = ['card', 'mobile_money', 'checkout', 'payout'];

interface Planned {
  reference: string;
  outcome: 'succeeded' | 'failed';
  waiter: number;
  path: string;
  body: string;
}

let redis: RedisServer;
let client: Redis;
let store: RedisTransactionStore;
let tracker: TransactionTracker;
let cluster: Cluster;

beforeAll(async () => {
  redis = await startRedisServer();
  client = new Redis(redis.port, '127.0.0.1', { maxRetriesPerRequest: 1, retryStrategy: () => 100 });
  client.on('error', () => undefined); // reconnect noise while Redis restarts is expected
  store = createRedisTransactionStore({ client });
  tracker = createTransactionTracker({ store });
  cluster = await startCluster(redis.port);
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
  await store?.close();
  await client?.quit().catch(() => client.disconnect());
  await redis?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Records `count` transactions (kinds in turn, outcomes at random) and their callbacks. */
async function plan(count: number, first: number, random: () => number): Promise<Planned[]> {
  const planned = Array.from({ length: count }, (_, n) => {
    const i = first + n;
    const kind = kinds[i % kinds.length]!;
    return {
      i,
      kind,
      // Payout references are 12-digit reference_ids; the others are order references.
      reference:
        kind === 'payout'
          ? String(100_000_000_000 + i)
          : kind === 'checkout'
            ? String(1_000 + i)
            : `ORD-${i}`,
      outcome: random() < 0.5 ? ('succeeded' as const) : ('failed' as const),
      waiter: Math.floor(random() * INSTANCES),
    };
  });
  const out: Planned[] = [];
  for (let start = 0; start < planned.length; start += 100) {
    const batch = planned.slice(start, start + 100).map(async ({ i, kind, reference, outcome, waiter }) => {
      const amount = 100 + i;
      await tracker.begin({ reference, kind, amount, currency: kind === 'mobile_money' ? undefined : 'KES' });
      const type = eventTypes[kind][outcome === 'succeeded' ? 0 : 1];
      const signed = new URL(
        await signCallbackUrl(`${PUBLIC_ORIGIN}/webhooks/payments`, { secret: SECRET, reference }),
      );
      return {
        reference,
        outcome,
        waiter,
        path: signed.pathname + signed.search,
        body: JSON.stringify(buildCallbackPayload(type, { reference, amount })),
      };
    });
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/**
 * Delivers every callback 1–3 times, all deliveries shuffled, 16 at a time, each to a random
 * instance other than the transaction's waiter; 30 % of first attempts are answered 500 by the
 * instance. A delivery is retried until it gets a 2xx, like the service's retries.
 */
async function deliverAll(
  planned: Planned[],
  random: () => number,
  onProgress?: (done: number) => Promise<void> | void,
): Promise<{ attempts: number; refused: Map<number, number> }> {
  const deliveries: Planned[] = [];
  for (const p of planned) for (let n = 1 + Math.floor(random() * 3); n > 0; n--) deliveries.push(p);
  for (let i = deliveries.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
  }
  let next = 0;
  let done = 0;
  let attempts = 0;
  const refused = new Map<number, number>();
  const worker = async () => {
    while (next < deliveries.length) {
      const p = deliveries[next++]!;
      for (let attempt = 0; ; attempt++) {
        const receivers = cluster.ports.filter((_, i) => i !== p.waiter);
        const port = receivers[Math.floor(random() * receivers.length)]!;
        attempts++;
        const response = await fetch(`http://127.0.0.1:${port}${p.path}`, {
          method: 'POST',
          body: p.body,
          headers: {
            'content-type': 'application/json',
            'x-test-fail-attempt': attempt === 0 && random() < 0.3 ? '1' : '0',
          },
        }).catch(() => undefined);
        await response?.arrayBuffer();
        if (response?.ok) break;
        if (response !== undefined && response.status < 500) {
          refused.set(response.status, (refused.get(response.status) ?? 0) + 1);
          break;
        }
        if (attempt > 400) throw new Error(`delivery of ${p.reference} never succeeded`);
        await sleep(response?.status === 503 ? 50 : 20);
      }
      done++;
      await onProgress?.(done);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return { attempts, refused };
}

/** Waits until every waitFor since report `from` has answered (or `deadlineMs` passed). */
async function waitForWaiters(from: number, count: number, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  const answered = () =>
    cluster.reports.slice(from).filter((r) => r.kind === 'waited' || r.kind === 'wait-failed').length;
  while (answered() < count) {
    if (Date.now() > deadline) break;
    await sleep(50);
  }
}

/**
 * What the instances reported since `from`, against the plan. Each transaction must be settled by
 * one `onEvent` report marked `'settled'`, with its own outcome, in an instance other than its
 * waiter — except, with `lostReplies`, a transaction whose settling script ran while Redis was
 * killed before its reply came back: the store holds the settlement, the delivery failed, and the
 * redelivery's `onEvent` is marked `'duplicate'`. Never two `'settled'`, never another outcome.
 */
function check(planned: Planned[], from: number, options: { lostReplies?: boolean } = {}) {
  const reports = cluster.reports.slice(from);
  const events = new Map<string, Report[]>();
  const waited = new Map<string, Report[]>();
  for (const r of reports) {
    const map =
      r.kind === 'event' ? events : r.kind === 'waited' || r.kind === 'wait-failed' ? waited : undefined;
    if (map === undefined || r.reference === undefined) continue;
    map.set(r.reference, [...(map.get(r.reference) ?? []), r]);
  }
  const problems: string[] = [];
  let lostReplies = 0;
  for (const p of planned) {
    const seen = events.get(p.reference) ?? [];
    const settledBy = seen.filter((r) => r.settlement === 'settled');
    if (seen.some((r) => r.state !== p.outcome)) problems.push(`${p.reference}: ${JSON.stringify(seen)}`);
    if (settledBy.length === 0 && options.lostReplies === true && seen.length > 0) lostReplies++;
    else if (settledBy.length !== 1) problems.push(`${p.reference}: settled ${settledBy.length} times`);
    else if (settledBy[0]!.instance === String(p.waiter))
      problems.push(`${p.reference}: received by its waiter`);
    const w = waited.get(p.reference) ?? [];
    if (
      w.length !== 1 ||
      w[0]!.kind !== 'waited' ||
      w[0]!.state !== p.outcome ||
      w[0]!.instance !== String(p.waiter)
    ) {
      problems.push(`${p.reference}: waitFor ${JSON.stringify(w)}`);
    }
  }
  const errors = reports.filter(
    (r) => r.kind === 'error' && r.reason !== 'handler_failed' && r.reason !== 'in_progress',
  );
  return { problems, errors, lostReplies };
}

describe('the tracker on four webhook processes and one Redis', () => {
  it('settles 2,000 transactions exactly once, each awaited in another process than the receiver', async () => {
    const random = prng(12);
    const planned = await plan(2_000, 0, random);
    const perInstance = Array.from({ length: INSTANCES }, (_, i) => ({
      references: planned.filter((p) => p.waiter === i).map((p) => p.reference),
      timeout: 120_000,
    }));
    const from = cluster.reports.length;
    await cluster.request('wait', perInstance);
    const { refused } = await deliverAll(planned, random);
    await waitForWaiters(from, planned.length, 30_000);
    await cluster.request('flush');
    expect(refused).toEqual(new Map());
    const { problems, errors } = check(planned, from);
    expect(problems.slice(0, 10)).toEqual([]);
    expect(errors).toEqual([]);
    for (const p of planned.slice(0, 50)) expect((await tracker.get(p.reference))?.state).toBe(p.outcome);
  }, 120_000);

  it('settles nothing twice and loses nothing when Redis is killed and restarted mid-run', async () => {
    const random = prng(34);
    const planned = await plan(400, 10_000, random);
    const perInstance = Array.from({ length: INSTANCES }, (_, i) => ({
      references: planned.filter((p) => p.waiter === i).map((p) => p.reference),
      timeout: 120_000,
    }));
    const from = cluster.reports.length;
    await cluster.request('wait', perInstance);
    let restarted: Promise<void> | undefined;
    const { refused } = await deliverAll(planned, random, (done) => {
      if (done === 300 && restarted === undefined) {
        restarted = (async () => {
          await redis.kill();
          await sleep(500);
          await redis.start();
        })();
      }
    });
    await restarted;
    await waitForWaiters(from, planned.length, 30_000);
    await cluster.request('flush');
    expect(refused).toEqual(new Map());
    const { problems, errors, lostReplies } = check(planned, from, { lostReplies: true });
    expect(problems.slice(0, 10)).toEqual([]);
    expect(errors).toEqual([]);
    expect(lostReplies).toBeLessThan(16); // at most the deliveries in flight when Redis died
    for (const p of planned) expect((await tracker.get(p.reference))?.state).toBe(p.outcome);
    // Some deliveries failed while Redis was down and were redelivered after the restart.
    expect(cluster.reports.slice(from).some((r) => r.kind === 'error' && r.reason === 'handler_failed')).toBe(
      true,
    );
  }, 120_000);
});
