// The client loads ky on its first call, not when the entry is imported or a client is built:
// ky's import probes the Fetch API, which in Node loads the whole fetch implementation.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as Ky from 'ky';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { payoutInput } from '../helpers/inputs.js';
import { startServer, type TestServer } from '../helpers/servers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.doUnmock('ky');
  vi.resetModules();
});

/** Answers every request with the payout reply and counts the requests. */
async function payoutService(): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  server = await startServer((_request: IncomingMessage, response: ServerResponse) => {
    requests += 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: 'Mobile Payout Initiated', status: 200 }));
  });
  return { url: server.url, requests: () => requests };
}

/** The main entry, freshly imported with ky replaced by a wrapper that counts its use. */
async function importWithCountingKy() {
  const counts = { imports: 0, instances: 0 };
  vi.resetModules();
  vi.doMock('ky', async (importOriginal) => {
    counts.imports += 1;
    const real = await importOriginal<typeof Ky>();
    const create: typeof real.default.create = (options) => {
      counts.instances += 1;
      return real.default.create(options);
    };
    return { ...real, default: { create } };
  });
  const entry = await import('../../src/index.js');
  return { ...entry, counts };
}

describe('PaymentsClient transport loading', () => {
  it('imports ky on the first call, not when the entry loads or a client is built', async () => {
    const { PaymentsClient, counts } = await importWithCountingKy();
    const service = await payoutService();
    const client = new PaymentsClient({ baseUrl: service.url, apiKey: 'sk_test_0123456789' });
    expect(counts).toEqual({ imports: 0, instances: 0 });

    await expect(client.initiatePayout(payoutInput)).resolves.toMatchObject({ status: 200 });
    expect(counts).toEqual({ imports: 1, instances: 1 });
    expect(service.requests()).toBe(1);
  });

  it('builds one ky instance per client, shared by concurrent first calls and later ones', async () => {
    const { PaymentsClient, counts } = await importWithCountingKy();
    const service = await payoutService();
    const client = new PaymentsClient({ baseUrl: service.url });
    await Promise.all([client.initiatePayout(payoutInput), client.initiatePayout(payoutInput)]);
    await client.initiatePayout(payoutInput);
    expect(counts.instances).toBe(1);
    expect(service.requests()).toBe(3);

    const second = new PaymentsClient({ baseUrl: service.url });
    await second.initiatePayout(payoutInput);
    expect(counts.instances).toBe(2);
  });

  it('rejects with a ConnectionError and sends nothing when ky cannot be loaded', async () => {
    vi.resetModules();
    vi.doMock('ky', () => {
      throw new Error("Cannot find package 'ky'");
    });
    const { ConnectionError, PaymentsClient } = await import('../../src/index.js');
    const service = await payoutService();
    const client = new PaymentsClient({ baseUrl: service.url });
    const calls = [client.initiatePayout(payoutInput), client.initiatePayout(payoutInput)];
    for (const call of calls) {
      const error: unknown = await call.catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toMatch(/initiatePayout could not load ky.*nothing was sent/);
      expect((error as Error).cause).toBeInstanceOf(Error);
    }
    expect(service.requests()).toBe(0);
  });
});
