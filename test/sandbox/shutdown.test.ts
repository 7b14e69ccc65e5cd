// close() leaves no open handle: a child process that starts a sandbox, uses it (a request, a
// pending delivery with a retry timer, a keep-alive connection) and closes it exits by itself.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForNode, runNodeScript } from './helpers.js';

let dir: string;

beforeAll(async () => {
  dir = await bundleForNode('sandbox', 'src/sandbox/index.ts');
  await writeFile(
    join(dir, 'child.mjs'),
    `import { startSandbox } from './sandbox.js';
const sandbox = await startSandbox({ callbackDelayMs: 0, retryDelayMs: 60_000, log: false });
const response = await fetch(sandbox.url + '/api/payout/mobile-money-payout', {
  method: 'POST',
  headers: { 'content-type': 'application/json', connection: 'keep-alive' },
  body: JSON.stringify({
    customer_details: { full_name: 'A', phone_number: '254712345678', email: 'a@example.com' },
    destination: { type: 'mobile_wallet', country_code: 'KE', mobile_number: '254712345678', wallet_name: 'W' },
    transfer: { amount: '10', currency: 'KES', reference_id: 123456789012, description: 'x' },
    webhook_endpoint: { webhook_url: 'http://127.0.0.1:9/unreachable' },
  }),
});
await response.json();
await new Promise((resolve) => setTimeout(resolve, 100)); // first attempt fails, a 60 s retry is scheduled
await sandbox.close();
process.stdout.write(JSON.stringify({ status: response.status, states: sandbox.deliveries.map((d) => d.state) }));
`,
  );
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('close()', () => {
  it('leaves nothing running: the child process exits by itself', async () => {
    const started = Date.now();
    const result = await runNodeScript(join(dir, 'child.mjs'), 10_000);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ status: 200, states: ['cancelled'] });
    expect(Date.now() - started).toBeLessThan(8000);
  });
});
