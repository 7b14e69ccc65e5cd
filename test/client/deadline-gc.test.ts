// A call with totalTimeout ends at it, whatever it waits on, while garbage is collected. A signal
// that follows another through a weak reference only (a Request's: the beforeRequest hook was once
// raced against ky's request.signal) can be collected with a call whose work never settles, and the
// call never ends (an unsettled top-level await, exit code 13). Held here by collecting garbage
// while each call waits, the caller's own signal given too (the call then combines it with its
// deadline).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, expect, it } from 'vitest';
import { PaymentsClient, type ClientOptions } from '../../src/index.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';
import { stalling, startServer, type TestServer } from '../helpers/servers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const never = (): Promise<never> => new Promise<never>(() => undefined);

// A body that never ends, from a custom fetch: nothing but the call holds its stream.
const stalledBody: ClientOptions['fetch'] = async () =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"message":"'));
      },
    }),
    { headers: { 'content-type': 'application/json' } },
  );

it.each<[string, () => Promise<Partial<ClientOptions>>, { sent: boolean }]>([
  ['a headers function that never settles', async () => ({ headers: never }), { sent: false }],
  [
    'a beforeRequest hook that never settles',
    async () => ({ hooks: { beforeRequest: never } }),
    { sent: false },
  ],
  ["a custom fetch's body that never ends", async () => ({ fetch: stalledBody }), { sent: true }],
  [
    "a service's body that stalls after the headers",
    async () => {
      server = await startServer(stalling);
      return { baseUrl: server.url };
    },
    { sent: true },
  ],
])('ends a call waiting on %s at totalTimeout, garbage collected meanwhile', async (_, options, expected) => {
  const client = new PaymentsClient({
    baseUrl: 'http://127.0.0.1:9',
    timeout: 20_000,
    totalTimeout: 200,
    ...(await options()),
  });
  const collecting = setInterval(gc, 10);
  try {
    const outcome = await Promise.race([
      client
        .initiateMobileMoneyPayment(mobileMoneyPaymentInput, { signal: new AbortController().signal })
        .catch((error: unknown) => error),
      new Promise((resolve) => setTimeout(resolve, 3_000, 'still waiting')),
    ]);
    expect(outcome).toMatchObject({ name: 'TimeoutError', timeout: 200, ...expected });
  } finally {
    clearInterval(collecting);
  }
});
