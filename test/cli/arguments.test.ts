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
