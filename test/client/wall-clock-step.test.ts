// A step of the wall clock (NTP, a resumed VM) while a call waits for its reply does not cut the
// attempt's timeout: the reply that arrives in time is read, not taken for a timeout.
import { afterEach, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';
import { startServer, type TestServer } from '../helpers/servers.js';

let server: TestServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

it('reads a reply that arrives in time after the wall clock stepped forward past the timeout', async () => {
  let offset = 0;
  const real = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => real() + offset);
  server = await startServer((request, response) => {
    request.resume();
    offset = 60 * 60_000; // the clock steps while the service works on the request
    response.writeHead(200, { 'content-type': 'application/json' });
    response.flushHeaders();
    setTimeout(() => {
      response.end(JSON.stringify({ message: 'MOBILE-MONEY Payment Initiated', status: 200 }));
    }, 50);
  });
  const client = new PaymentsClient({ baseUrl: server.url, timeout: 5_000 });
  await expect(client.initiateMobileMoneyPayment(mobileMoneyPaymentInput)).resolves.toMatchObject({
    status: 200,
  });
});

it('reports durations in whole milliseconds (the afterResponse hook, as documented)', async () => {
  server = await startServer((request, response) => {
    request.resume();
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'MOBILE-MONEY Payment Initiated', status: 200 }));
    }, 5);
  });
  const durations: number[] = [];
  const client = new PaymentsClient({
    baseUrl: server.url,
    hooks: { afterResponse: (event) => void durations.push(event.durationMs) },
  });
  await client.initiateMobileMoneyPayment(mobileMoneyPaymentInput);
  expect(durations).toHaveLength(1);
  expect(Number.isInteger(durations[0])).toBe(true);
  expect(durations[0]).toBeGreaterThanOrEqual(4);
});
