// A request to the sandbox over a real socket whose body has no declared length (chunked, as a
// custom fetch streaming its body sends it), or a method without a body: the sandbox answers what
// it answers any other such request, never a 500 of its own.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const paymentPath = '/api/payment/payment-initiate-callback/';

/** Sends `chunks` with Transfer-Encoding: chunked; resolves with the status and body. */
function chunked(url: string, method: string, chunks: readonly string[]) {
  return new Promise<{ status: number; body: string; allow: string | undefined }>((resolve, reject) => {
    const outgoing = request(
      url,
      { method, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            body,
            allow: response.headers.allow as string | undefined,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    for (const chunk of chunks) outgoing.write(chunk);
    outgoing.end();
  });
}

describe('startSandbox, a body of no declared length', () => {
  it('reads a chunked POST as any other: 400 naming the fields it lacks', async () => {
    sandbox = await startSandbox({ log: false });
    const answer = await chunked(`${sandbox.url}${paymentPath}`, 'POST', ['{"a":', '1}']);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses a chunked POST over its 1 MiB cap with 413', async () => {
    sandbox = await startSandbox({ log: false });
    const big = Array.from({ length: 1100 }, () => 'x'.repeat(1024));
    const answer = await chunked(`${sandbox.url}${paymentPath}`, 'POST', ['"', ...big, '"']);
    expect(answer.status).toBe(413);
  });

  it.each(['DELETE', 'OPTIONS'])('answers %s on an endpoint 405 with Allow: POST', async (method) => {
    sandbox = await startSandbox({ log: false });
    const response = await fetch(`${sandbox.url}${paymentPath}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toMatchObject({ error: 'method_not_allowed' });
  });
});
