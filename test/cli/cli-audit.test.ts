// `hosted-payments trigger` as a merchant reads its output: what it posts by default and with
// --brand, the exit code over every --repeat answer, the hints only where they apply, the
// reference and the route's answer printed safely (no terminal escapes, no signature), and an
// unreachable route named by its system code. The route is a stand-in `fetch` (CliIo.fetch).
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { answerExcerpt } from '../../src/sandbox/answer-excerpt.js';
import { run, type CliIo } from '../../src/cli/program.js';

const SECRET = 'cli-audit-secret-0123456789';

interface Posted {
  url: string;
  body: Record<string, unknown>;
}

/** A route answering `answers` in turn (the last one again), recording what was posted. */
function route(...answers: (() => Response)[]) {
  const posted: Posted[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    posted.push({ url, body: JSON.parse(String(init.body)) as Record<string, unknown> });
    return answers[Math.min(posted.length, answers.length) - 1]!();
  }) as typeof globalThis.fetch;
  return { fetch, posted };
}

function capture(extra: Partial<CliIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: {}, ...extra };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

const ok = () =>
  new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } });
const URL_ = 'http://127.0.0.1:3000/hooks';

describe('trigger posts the documented defaults and the flags given', () => {
  it('posts amount 1500 in KES by default', async () => {
    const { fetch, posted } = route(ok);
    const { io } = capture({ fetch });
    expect(await run(['trigger', 'payout.succeeded', '--url', URL_, '--secret', SECRET], io)).toBe(0);
    expect(posted[0]!.body).toMatchObject({ amount: '1500', currency: 'KES' });
  });

  it('writes --brand into a mobile-money payload', async () => {
    const { fetch, posted } = route(ok);
    const { io } = capture({ fetch });
    const args = ['trigger', 'payment.mobile_money.succeeded', '--url', URL_, '--brand', 'M-PESA'];
    expect(await run(args, io)).toBe(0);
    expect(posted[0]!.body.message).toBe('M-PESA Payment Success');
  });

  it('refuses --amount 0, even for a failure, exiting 2 and posting nothing', async () => {
    const { fetch, posted } = route(ok);
    const { io, err } = capture({ fetch });
    expect(await run(['trigger', 'payout.failed', '--url', URL_, '--amount', '0'], io)).toBe(2);
    expect(err()).toMatch(/^error: --amount: /);
    expect(posted).toHaveLength(0);
  });

  it('points to --help after a refused argument', async () => {
    const { io, err } = capture();
    expect(await run(['trigger', 'payout.succeeded'], io)).toBe(2);
    expect(err()).toContain('(run with --help for usage)');
  });

  it('prints one line per post, without a copy count when posting once', async () => {
    const { fetch } = route(ok);
    const { io, out } = capture({ fetch });
    await run(['trigger', 'payout.succeeded', '--url', URL_], io);
    expect(out().split('\n')[0]).toBe('posted payout.succeeded (reference 123456789012) → HTTP 200 ');
  });
});

describe('trigger --repeat exits by every answer', () => {
  it('takes --repeat up to 100, posting that many times', async () => {
    const { fetch, posted } = route(ok);
    const { io } = capture({ fetch });
    expect(await run(['trigger', 'payout.succeeded', '--url', URL_, '--repeat', '100'], io)).toBe(0);
    expect(posted).toHaveLength(100);
  });

  it('exits 1 when an earlier copy was refused, though the last was accepted', async () => {
    const { fetch } = route(() => new Response('busy', { status: 503 }), ok);
    const { io } = capture({ fetch });
    expect(await run(['trigger', 'payout.succeeded', '--url', URL_, '--repeat', '2'], io)).toBe(1);
  });

  it('still hints at the missing secret when only an earlier unsigned copy got 401', async () => {
    const { fetch } = route(() => new Response('{"error":"missing_signature"}', { status: 401 }), ok);
    const { io, err } = capture({ fetch });
    await run(['trigger', 'payout.succeeded', '--url', URL_, '--repeat', '2'], io);
    expect(err()).toContain('posted unsigned');
  });
});

describe('trigger hints only where they apply', () => {
  it('does not blame the secret for a 401 that is not invalid_signature', async () => {
    const { fetch } = route(() => new Response('Unauthorized', { status: 401 }));
    const { io, err } = capture({ fetch });
    expect(await run(['trigger', 'payout.succeeded', '--url', URL_, '--secret', SECRET], io)).toBe(1);
    expect(err()).not.toContain('refused the signature');
  });

  it('says where the secret came from after a 401 invalid_signature', async () => {
    const { fetch } = route(() => new Response('{"error":"invalid_signature"}', { status: 401 }));
    const { io, err } = capture({ fetch, env: { HOSTED_PAYMENTS_WEBHOOK_SECRET: SECRET } });
    await run(['trigger', 'payout.succeeded', '--url', URL_], io);
    expect(err()).toContain('the secret from $HOSTED_PAYMENTS_WEBHOOK_SECRET');
  });

  it('an empty secret says how to post unsigned instead', async () => {
    const { io, err } = capture({ env: { HOSTED_PAYMENTS_WEBHOOK_SECRET: '' } });
    expect(await run(['trigger', 'payout.succeeded', '--url', URL_], io)).toBe(2);
    expect(err()).toContain('leave out both --secret and $HOSTED_PAYMENTS_WEBHOOK_SECRET');
  });
});

describe('trigger prints safely', () => {
  it('never prints the signature the route echoes back on its own', async () => {
    let signature = '';
    const { fetch } = route(() => new Response(JSON.stringify({ got: signature }), { status: 400 }));
    const spy = (async (url: string, init: RequestInit) => {
      signature = new URL(url).searchParams.get('hp_sig') ?? '';
      return fetch(url, init);
    }) as typeof globalThis.fetch;
    const { io, out, err } = capture({ fetch: spy });
    expect(await run(['trigger', 'payout.succeeded', '--url', URL_, '--secret', SECRET], io)).toBe(1);
    expect(signature).not.toBe('');
    expect(out()).toContain('[redacted]');
    expect(out() + err()).not.toContain(signature);
  });

  it('escapes control characters of --reference in its report line', async () => {
    const { fetch } = route(ok);
    const { io, out } = capture({ fetch });
    await run(
      ['trigger', 'payment.mobile_money.failed', '--url', URL_, '--reference', 'ORDER-\u001b[2J7'],
      io,
    );
    expect(out()).not.toContain('\u001b');
    expect(out()).toContain('(reference ORDER-');
  });

  it('names an unreachable route by its system code', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const { io, err } = capture();
    expect(await run(['trigger', 'payout.succeeded', '--url', `http://127.0.0.1:${port}/hooks`], io)).toBe(1);
    expect(err()).toContain(`could not reach http://127.0.0.1:${port}: ECONNREFUSED`);
  });
});

describe('the answer excerpt is the one line a person would read', () => {
  it('shows the text of an HTML page sent as text/html, even when it does not start with a tag', () => {
    expect(answerExcerpt('Error: <b>Cannot POST</b> /hooks', 'text/html; charset=utf-8')).toBe(
      'Error: Cannot POST /hooks',
    );
  });

  it('shows the text of an HTML page sent without a content type', () => {
    expect(answerExcerpt('<html><body><h1>502 Bad Gateway</h1></body></html>', null)).toBe('502 Bad Gateway');
  });

  it("leaves out a page's head and styles", () => {
    const page =
      '<html><head><title>Error</title><style>body{color:red}</style></head>' +
      '<body><pre>Cannot POST /hooks</pre></body></html>';
    expect(answerExcerpt(page, 'text/html')).toBe('Cannot POST /hooks');
  });

  it('joins lines and white space runs into one line, without blanks at its ends', () => {
    expect(answerExcerpt('  line one\n\n   line two  \n', 'text/plain')).toBe('line one line two');
  });

  it('cuts a long answer at 200 characters and marks the cut', () => {
    expect(answerExcerpt('x'.repeat(300), 'text/plain')).toBe(`${'x'.repeat(200)}…`);
  });
});

/** Runs `hosted-payments sandbox` with `flags` until `body` is done; resolves with its output. */
async function withSandbox(flags: string[], body: (base: string) => Promise<void>) {
  const controller = new AbortController();
  let listening: (url: string) => void = () => undefined;
  const ready = new Promise<string>((resolve) => (listening = resolve));
  const { io, out, err } = capture({ signal: controller.signal, onListening: (url) => listening(url) });
  const running = run(['sandbox', '--port', '0', ...flags], io);
  const base = await Promise.race([
    ready,
    running.then((code) => Promise.reject(new Error(`exit ${code}: ${err()}`))),
  ]);
  try {
    await body(base);
  } finally {
    controller.abort();
  }
  expect(await running).toBe(0);
  return { base, out: out(), err: err() };
}

describe('hosted-payments sandbox', () => {
  it(
    'stops at once when asked to before it listened, and then no longer answers',
    { timeout: 5_000 },
    async () => {
      const { io, out } = capture({ signal: AbortSignal.abort() });
      let base = '';
      expect(await run(['sandbox', '--port', '0'], { ...io, onListening: (url) => (base = url) })).toBe(0);
      expect(out()).toContain('sandbox stopped');
      await expect(fetch(`${base}/api/payout/mobile-money-payout`, { method: 'POST' })).rejects.toThrow();
    },
  );

  it('by default binds to 127.0.0.1 only, without a network warning or a failure rate, and says so once', async () => {
    const { base, out } = await withSandbox([], async () => undefined);
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(out).toContain('(bound to 127.0.0.1:');
    expect(out).not.toContain('warning');
    expect(out).not.toContain('failure rate');
    expect(out.split('listening on')).toHaveLength(2);
  });

  it('uses --wallet-balance, --payout-fee, --brand and --duplicates in what it sends', async () => {
    const received: Record<string, unknown>[] = [];
    const site = createHttpServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        received.push(JSON.parse(text) as Record<string, unknown>);
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const hooks = `http://127.0.0.1:${(site.address() as AddressInfo).port}/hooks`;
    try {
      const flags = ['--callback-delay', '0', '--log', 'silent'];
      flags.push('--wallet-balance', '5000', '--payout-fee', '7', '--brand', 'M-PESA', '--duplicates', '1');
      await withSandbox(flags, async (base) => {
        const client = new PaymentsClient({ baseUrl: base, mobileMoneyBrand: 'M-PESA' });
        await client.initiatePayout({
          customer_details: { full_name: 'John Doe', phone_number: '0712345678', email: 'john@example.com' },
          destination: {
            type: 'mobile_wallet',
            country_code: 'KE',
            mobile_number: '0712345678',
            wallet_name: 'M-PESA',
          },
          transfer: { amount: 1000, currency: 'KES', reference_id: 123456789012, description: 'refund' },
          webhook_endpoint: { webhook_url: hooks },
        });
        await client.initiateMobileMoneyPayment({
          customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
          amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
          callback_details: { transaction_reference: 'ORDER-7', callback_url: hooks },
        });
        await expect.poll(() => received.length, { timeout: 5000 }).toBe(4);
      });
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
    const payouts = received.filter((body) => 'reference_id' in body);
    expect(payouts).toHaveLength(2);
    expect(payouts[0]).toMatchObject({ payout_fee: '7', wallet_balance: '3993' });
    const payments = received.filter((body) => !('reference_id' in body));
    expect(payments).toHaveLength(2);
    expect(payments[0]).toMatchObject({ message: 'M-PESA Payment Success' });
  });

  it.each(['', '1e-1', '0x1'])('refuses --failure-rate %j, exiting 2', async (rate) => {
    // Were the rate taken, the sandbox would stop at once: the signal is already aborted.
    const { io, err } = capture({ signal: AbortSignal.abort() });
    expect(await run(['sandbox', '--port', '0', '--failure-rate', rate], io)).toBe(2);
    expect(err()).toContain('--failure-rate');
  });

  it('states its defaults in its help: port 4010, a callback delay of 200 ms', async () => {
    const { io, out } = capture();
    expect(await run(['sandbox', '--help'], io)).toBe(0);
    const help = out().replace(/\s+/g, ' ');
    expect(help).toContain('(0 = any free port) (default: 4010)');
    expect(help).toContain('each callback, in ms (default: 200)');
  });
});
