// The `headers` function is called once per call, before its first request, and every attempt of
// the call (its retries, after backoff or Retry-After) sends the same headers: one value per call,
// as an idempotency or correlation key wants. docs/client.md said "before every request", which
// read as per attempt; a token it fetches must outlive the call's retries.
import { createServer } from 'node:http';
import { expect, it } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';
import { listenForThisTest } from '../helpers/servers.js';

it('is called once per call; its retries send the same headers', async () => {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      seen.push(String(request.headers['x-token']));
      const ok = seen.length === 3;
      response.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
      response.end(ok ? '{"message":"MOBILE-MONEY Payment Initiated","status":200}' : '{}');
    });
  });
  const port = await listenForThisTest(server);
  let minted = 0;
  const client = new PaymentsClient({
    baseUrl: `http://127.0.0.1:${port}`,
    headers: () => ({ 'x-token': `t${++minted}` }),
    retry: { limit: 2, backoffLimit: 10 },
  });
  await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput);
  expect(seen).toEqual(['t1', 't1', 't1']);
  expect(minted).toBe(1);
  await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput).catch(() => undefined);
  expect(seen[3]).toBe('t2');
});
