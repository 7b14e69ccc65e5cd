// The client call: initiateMobileMoneyPayment (the client's one ky transport) on loopback, 32 in
// flight, against the same POST with bare fetch, same body and headers, same server. The server runs
// in its own process (baselines/loopback-server.mjs). On a real network the provider's round trip
// dominates both.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { compare } from '../lib/measure.mjs';
import { createBareFetchClient } from '../baselines/bare-fetch.mjs';
import { mobileMoneyInput, mobileMoneyWireBody } from '../fixtures/callbacks.mjs';

async function startServer() {
  const child = fork(new URL('../baselines/loopback-server.mjs', import.meta.url), [], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const [chunk] = await once(child.stdout, 'data');
  return { url: `http://127.0.0.1:${String(chunk).trim()}`, stop: () => child.kill('SIGTERM') };
}

export async function runRequestSuite({ sdk, mode }) {
  const { PaymentsClient, buildMobileMoneyPaymentRequest } = sdk.main;
  const figures = [
    {
      id: 'request.concurrent32',
      label: 'client call (ky), 32 in flight on loopback',
      unit: 'ratio',
      goal: { max: 2 },
      oursLabel: '/req',
      baselineLabel: '/req bare fetch',
    },
  ];
  if (PaymentsClient === undefined) {
    for (const figure of figures) figure.error = 'PaymentsClient not exported yet';
    return figures;
  }
  const server = await startServer();
  try {
    const apiKey = 'sk_bench_0123456789';
    const client = new PaymentsClient({ baseUrl: server.url, apiKey });
    const wireBody = buildMobileMoneyPaymentRequest
      ? buildMobileMoneyPaymentRequest(mobileMoneyInput)
      : mobileMoneyWireBody;
    const bare = createBareFetchClient({ baseUrl: server.url, apiKey });
    const ours = () => client.initiateMobileMoneyPayment(mobileMoneyInput);
    const baseline = () => bare(wireBody);
    const check = await ours();
    if (check?.status !== 200) throw new Error(`unexpected response ${JSON.stringify(check)}`);

    Object.assign(
      figures[0],
      await compare({
        ours,
        baseline,
        rounds: mode.requestRounds,
        options: mode.concurrent,
        perOp: mode.concurrent.concurrency,
      }),
    );
  } finally {
    server.stop();
  }
  return figures;
}
