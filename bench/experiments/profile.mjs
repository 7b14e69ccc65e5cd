// CPU profile of one path, for the findings: node --cpu-prof --cpu-prof-dir=<dir> bench/experiments/profile.mjs <handler|parse|parse-invalid|request> [n]
// then: node bench/experiments/top.mjs <dir>/*.cpuprofile
import { callbacksEntry, mainEntry } from '../lib/sdk.mjs';
import { delivery, deliveryInit, callbackUrl } from '../fixtures/deliveries.mjs';
import { invalidPayloads, validPayloads, mobileMoneyInput } from '../fixtures/callbacks.mjs';

const [what = 'handler', count = '100000'] = process.argv.slice(2);
const n = Number(count);
const callbacks = await import(callbacksEntry);
if (what === 'handler') {
  const handler = callbacks.createCallbackHandler({ verify: false, onEvent() {} });
  for (let i = 0; i < n; i++) await handler(new Request(callbackUrl, deliveryInit(delivery(i))));
} else if (what === 'parse') {
  const texts = Object.values(validPayloads).map((p) => JSON.stringify(p));
  for (let i = 0; i < n; i++) callbacks.parseCallback(texts[i % texts.length]);
} else if (what === 'parse-object') {
  const objects = Object.values(validPayloads);
  for (let i = 0; i < n; i++) callbacks.parseCallback(objects[i % objects.length]);
} else if (what === 'parse-invalid') {
  const texts = Object.values(invalidPayloads).map((p) => JSON.stringify(p));
  for (let i = 0; i < n; i++) {
    try {
      callbacks.parseCallback(texts[i % texts.length]);
    } catch {
      // expected
    }
  }
} else if (what === 'request' || what === 'request-bare' || what === 'request-builder') {
  const { fork } = await import('node:child_process');
  const { once } = await import('node:events');
  const child = fork(new URL('../baselines/loopback-server.mjs', import.meta.url), [], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const [chunk] = await once(child.stdout, 'data');
  const { PaymentsClient, buildMobileMoneyPaymentRequest } = await import(mainEntry);
  const { createBareFetchClient } = await import('../baselines/bare-fetch.mjs');
  const baseUrl = `http://127.0.0.1:${String(chunk).trim()}`;
  const client = new PaymentsClient({ baseUrl, apiKey: 'sk' });
  const bare = createBareFetchClient({ baseUrl, apiKey: 'sk' });
  const wire = buildMobileMoneyPaymentRequest(mobileMoneyInput);
  const one =
    what === 'request'
      ? () => client.initiateMobileMoneyPayment(mobileMoneyInput)
      : what === 'request-builder'
        ? () => bare(buildMobileMoneyPaymentRequest(mobileMoneyInput))
        : () => bare(wire);
  for (let i = 0; i < n; i += 32) await Promise.all(Array.from({ length: 32 }, one));
  child.kill();
}
