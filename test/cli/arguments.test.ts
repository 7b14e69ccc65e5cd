// The CLI's exit codes are a contract a merchant's script reads: 0 when every answer was 2xx, 1
// otherwise, 2 for bad arguments. A bad argument is refused before anything is posted or started,
// with a message naming the flag.
import { describe, expect, it } from 'vitest';
import { run, type CliIo } from '../../src/cli/program.js';

const SECRET = 'cli-arguments-secret-0123456789';
const URL_OK = 'http://127.0.0.1:9/hooks';

/** An io whose fetch records every post instead of sending it, with an empty environment. */
function capture(extra: Partial<CliIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const posted: { url: string; body: string }[] = [];
  const io: CliIo = {
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    env: {},
    fetch: (async (url: string, init: RequestInit) => {
      posted.push({ url, body: String(init.body) });
      return new Response('{"received":true}', { status: 200, statusText: 'OK' });
    }) as typeof fetch,
    ...extra,
  };
  return { io, out: () => out.join(''), err: () => err.join(''), posted };
}

describe('a bad argument exits 2, naming what was wrong, and nothing is posted or started', () => {
  it.each([
    ['trigger without --url', ['trigger', 'payout.succeeded'], '--url'],
    ['trigger --repeat 0', ['trigger', 'payout.succeeded', '--url', URL_OK, '--repeat', '0'], '--repeat'],
    ['trigger with an unknown flag', ['trigger', 'payout.succeeded', '--url', URL_OK, '--bogus'], '--bogus'],
    [
      'trigger with an extra argument',
      ['trigger', 'payout.succeeded', 'extra', '--url', URL_OK],
      'too many arguments',
    ],
    ['sandbox --port abc', ['sandbox', '--port', 'abc'], '--port'],
    ['sandbox --log loud', ['sandbox', '--log', 'loud'], '--log'],
    ['sandbox with an unknown flag', ['sandbox', '--bogus'], '--bogus'],
    ['sandbox --failure-rate 2', ['sandbox', '--failure-rate', '2'], '--failure-rate'],
    ['an unknown command', ['nope'], 'nope'],
  ])('%s', async (_, argv, named) => {
    const { io, err, posted } = capture({ onListening: () => expect.fail('the sandbox started') });
    expect(await run(argv, io)).toBe(2);
    expect(err()).toContain(named);
    expect(posted).toHaveLength(0);
  });

  it('--help and --version still exit 0', async () => {
    expect(await run(['--help'], capture().io)).toBe(0);
    expect(await run(['--version'], capture().io)).toBe(0);
    expect(await run(['trigger', '--help'], capture().io)).toBe(0);
  });

  it('a route that answers 2xx still exits 0 (the arguments were good)', async () => {
    const { io, posted } = capture();
    expect(await run(['trigger', 'payout.succeeded', '--url', URL_OK, '--secret', SECRET], io)).toBe(0);
    expect(posted).toHaveLength(1);
  });
});

describe('trigger posts only to an absolute http(s) URL, and never prints a secret', () => {
  it.each([
    ['an ftp: URL', 'ftp://127.0.0.1/hooks', ['--secret', SECRET]],
    ['a data: URL, unsigned', 'data:text/plain,ok', []],
    ['a relative URL', '/webhooks/payments', []],
    ['a URL with a user name and password', 'http://user:hunter2pw@127.0.0.1:9/x', ['--secret', SECRET]],
  ])('refuses %s with exit 2, naming --url', async (_, url, more) => {
    const { io, err, out, posted } = capture();
    expect(await run(['trigger', 'payout.succeeded', '--url', url, ...more], io)).toBe(2);
    expect(err()).toContain('--url');
    expect(err() + out()).not.toContain('hunter2pw');
    expect(err() + out()).not.toContain('hp_sig');
    expect(posted).toHaveLength(0);
  });

  it('an unreachable route: exit 1, the URL shown without its query (signature) or password', async () => {
    const { io, err, out } = capture({
      // As undici words some failures: the whole URL in the message.
      fetch: (async (url: string) => {
        throw new TypeError(`fetch failed for ${url}`);
      }) as typeof fetch,
    });
    const code = await run(
      ['trigger', 'payout.succeeded', '--url', 'http://127.0.0.1:9/hooks?token=tok3n', '--secret', SECRET],
      io,
    );
    expect(code).toBe(1);
    expect(err()).toContain('could not reach http://127.0.0.1:9');
    for (const secret of ['hp_sig', 'tok3n', SECRET]) expect(err() + out()).not.toContain(secret);
  });

  it('an unknown --flag=value is named without its value', async () => {
    const { io, err, posted } = capture();
    const code = await run(['trigger', 'payout.succeeded', '--url', URL_OK, `--secrte=${SECRET}`], io);
    expect(code).toBe(2);
    expect(err()).toContain('--secrte');
    expect(err()).not.toContain(SECRET);
    expect(posted).toHaveLength(0);
  });

  it('an empty --secret is refused rather than posting unsigned', async () => {
    const { io, err, posted } = capture();
    expect(await run(['trigger', 'payout.succeeded', '--url', URL_OK, '--secret', ''], io)).toBe(2);
    expect(err()).toContain('--secret');
    expect(posted).toHaveLength(0);
  });

  it('an empty HOSTED_PAYMENTS_WEBHOOK_SECRET is refused rather than posting unsigned', async () => {
    const { io, err, posted } = capture({ env: { HOSTED_PAYMENTS_WEBHOOK_SECRET: '' } });
    expect(await run(['trigger', 'payout.succeeded', '--url', URL_OK], io)).toBe(2);
    expect(err()).toContain('HOSTED_PAYMENTS_WEBHOOK_SECRET');
    expect(posted).toHaveLength(0);
  });

  it('a secret too short to sign with is refused naming --secret, without echoing it', async () => {
    const { io, err, posted } = capture();
    expect(await run(['trigger', 'payout.succeeded', '--url', URL_OK, '--secret', 'sh0rtpw'], io)).toBe(2);
    expect(err()).toContain('--secret');
    expect(err()).not.toContain('sh0rtpw');
    expect(posted).toHaveLength(0);
  });

  it('without any secret, posts the URL unsigned, as documented', async () => {
    const { io, posted } = capture();
    expect(await run(['trigger', 'payout.succeeded', '--url', URL_OK], io)).toBe(0);
    expect(posted.map((post) => post.url)).toEqual([URL_OK]);
  });
});

describe('trigger and sandbox refuse a flag value the payload could not carry', () => {
  const trigger = (type: string, ...flags: string[]) => [
    'trigger',
    type,
    '--url',
    URL_OK,
    '--secret',
    SECRET,
    ...flags,
  ];

  it.each([
    ['--currency abc', trigger('payment.card.succeeded', '--currency', 'abc'), '--currency'],
    ['--currency XYZ', trigger('payout.succeeded', '--currency', 'XYZ'), '--currency'],
    ['--amount 12.5', trigger('payout.succeeded', '--amount', '12.5'), '--amount'],
    ['--amount abc', trigger('payment.mobile_money.succeeded', '--amount', 'abc'), '--amount'],
    ['--amount 0', trigger('payment.card.succeeded', '--amount', '0'), '--amount'],
    ['a checkout --reference ORDER-7', trigger('checkout.succeeded', '--reference', 'ORDER-7'), 'order_id'],
    ['an empty --brand', trigger('payment.mobile_money.succeeded', '--brand', ''), '--brand'],
    ['--brand CARD', trigger('payment.mobile_money.succeeded', '--brand', 'CARD'), '--brand'],
    ['an empty --reference', trigger('payment.card.succeeded', '--reference', ''), '--reference'],
    [
      '--currency for a mobile-money payload, which carries none',
      trigger('payment.mobile_money.succeeded', '--currency', 'USD'),
      '--currency',
    ],
    [
      '--currency for a checkout payload, which carries none',
      trigger('checkout.succeeded', '--currency', 'KES'),
      '--currency',
    ],
    [
      '--brand for a card payload, which carries none',
      trigger('payment.card.succeeded', '--brand', 'M-PESA'),
      '--brand',
    ],
    [
      '--brand for a payout payload, which carries none',
      trigger('payout.failed', '--brand', 'M-PESA'),
      '--brand',
    ],
  ])('%s exits 2 naming it, posting nothing', async (_, argv, named) => {
    const { io, err, posted } = capture();
    expect(await run(argv, io)).toBe(2);
    expect(err()).toContain(named);
    expect(posted).toHaveLength(0);
  });

  it('sandbox --brand "" exits 2 naming --brand, starting nothing', async () => {
    const { io, err } = capture({ onListening: () => expect.fail('the sandbox started') });
    expect(await run(['sandbox', '--port', '0', '--brand', ''], io)).toBe(2);
    expect(err()).toContain('--brand');
  });

  it('signs --reference into the URL of a card success, whose payload has no field for it', async () => {
    const { io, posted } = capture();
    expect(await run(trigger('payment.card.succeeded', '--reference', 'ORDER-77'), io)).toBe(0);
    expect(new URL(posted[0]!.url).searchParams.get('hp_ref')).toBe('ORDER-77');
  });

  it('a payout in kes carries KES, as the request builders send it', async () => {
    const { io, posted } = capture();
    expect(await run(trigger('payout.succeeded', '--currency', 'kes', '--amount', '250'), io)).toBe(0);
    expect(JSON.parse(posted[0]!.body)).toMatchObject({ currency: 'KES', amount: '250' });
  });
});
