// A route that refuses a callback with a body quoting a secret: the bare hp_sig value of that
// delivery, or the API key the sandbox received in the client's Authorization header. Neither may
// reach the log events, the pretty and JSON log lines, the report or sandbox.deliveries; a route's
// plain code (`invalid_signature`) and an excerpt such as `"Cannot POST /hooks"` still show.
import type { RequestListener } from 'node:http';
import { describe, expect, it } from 'vitest';
import { signCallbackUrl } from '../../src/callbacks/signing.js';
import { PaymentsClient } from '../../src/client.js';
import { formatSandboxLogEvent, type SandboxLogEvent } from '../../src/sandbox/index.js';
import { amount, closedAfterEach, customer } from './helpers.js';

const opened = closedAfterEach();
const SECRET = 'leak-sweep-secret-0123456789';
const API_KEY = 'sk_live_LEAKSWEEPq7f3a9b21Z';
// A key without a digit: it passes the rule an `error` code is read by.
const WORDY_KEY = 'sk_test_leaksweep_onlyletters';

/** Answers every callback with `status` and what `body` makes of the URL the route was posted to. */
const answering =
  (status: number, contentType: string, body: (url: URL) => string): RequestListener =>
  (req, res) => {
    req.resume();
    req.on('end', () =>
      res
        .writeHead(status, { 'content-type': contentType })
        .end(body(new URL(req.url!, 'http://route.test'))),
    );
  };

/** One payment whose callback goes to a route answering with `listener`; all the sandbox showed. */
async function refusedBy(listener: RequestListener, apiKey = API_KEY) {
  const route = await opened.route(listener);
  const url = await signCallbackUrl(route, { secret: SECRET, reference: 'ORDER-1' });
  const events: SandboxLogEvent[] = [];
  const lines: string[] = [];
  const json: string[] = [];
  const sandbox = await opened.sandbox({
    callbackDelayMs: 0,
    deliveryRetries: 0,
    log: (event) => {
      events.push(event);
      lines.push(formatSandboxLogEvent(event));
      json.push(JSON.stringify(event));
    },
  });
  await new PaymentsClient({ baseUrl: sandbox.url, apiKey }).initiateMobileMoneyPayment({
    customer_details: customer,
    amount,
    callback_details: { transaction_reference: 'ORDER-1', callback_url: url },
  });
  const report = await sandbox.waitForIdle();
  const shown = [
    JSON.stringify(events),
    lines.join('\n'),
    json.join('\n'),
    report.summary,
    JSON.stringify(report),
    JSON.stringify(sandbox.deliveries),
  ].join('\n');
  return { signature: new URL(url).searchParams.get('hp_sig')!, report, shown };
}

describe('a refusal quoting the delivery signature or the API key', () => {
  it('does not show a bare hp_sig value given as the JSON error word', async () => {
    const { signature, report, shown } = await refusedBy(
      answering(401, 'application/json', (url) => JSON.stringify({ error: url.searchParams.get('hp_sig') })),
    );
    expect(report.failed).toBe(1);
    expect(shown).not.toContain(signature);
    expect(shown).not.toContain(signature.slice(0, 12));
  });

  it('does not show a bare hp_sig value in a text answer', async () => {
    const { signature, shown } = await refusedBy(
      answering(500, 'text/plain', (url) => `Error: boom ${url.searchParams.get('hp_sig')}`),
    );
    expect(shown).toContain('Error: boom [redacted]');
    expect(shown).not.toContain(signature.slice(0, 12));
  });

  it('does not show the API key the sandbox received, given as the JSON error word', async () => {
    const { report, shown } = await refusedBy(
      answering(401, 'application/json', () => JSON.stringify({ error: API_KEY })),
    );
    expect(report.failed).toBe(1);
    expect(shown).not.toContain(API_KEY);
    expect(shown).not.toContain('LEAKSWEEP');
  });

  it('does not show a digit-free API key given as the JSON error word', async () => {
    const { shown } = await refusedBy(
      answering(401, 'application/json', () => JSON.stringify({ error: WORDY_KEY })),
      WORDY_KEY,
    );
    expect(shown).not.toContain(WORDY_KEY);
  });

  it('does not show the API key inside a text answer (a stack trace quoting the config)', async () => {
    const { report, shown } = await refusedBy(
      answering(500, 'text/plain', () => `Error: config {"apiKey":"${API_KEY}"}\n    at app.js:1:1`),
    );
    expect(shown).not.toContain('LEAKSWEEP');
    expect(report.failures[0]?.lastAnswer).toContain('[redacted]');
  });

  it('still shows a plain code and a route excerpt', async () => {
    const code = await refusedBy(
      answering(401, 'application/json', () => JSON.stringify({ error: 'invalid_signature' })),
    );
    expect(code.report.failures[0]?.lastAnswer).toBe('401 invalid_signature');
    const page = await refusedBy(
      answering(
        404,
        'text/html',
        () => '<!DOCTYPE html><html><body><pre>Cannot POST /hooks</pre></body></html>',
      ),
    );
    expect(page.report.failures[0]?.lastAnswer).toBe('404 "Cannot POST /hooks"');
  });

  it.each([['sig'], ['test'], ['key123']])(
    'still shows the code and hint with a test key %j shorter than 8 characters, which is no secret to hide',
    async (apiKey) => {
      const { report } = await refusedBy(
        answering(401, 'application/json', () => JSON.stringify({ error: 'invalid_signature' })),
        apiKey,
      );
      expect(report.failures[0]?.lastAnswer).toBe('401 invalid_signature');
      expect(report.summary).toContain('hint:');
    },
  );
});
