// `trigger` posts as the service does: it follows no redirect (fetch would turn a 302 into a GET
// and re-post a 308 to another path, then blame the secret or the path for what came back) and
// gives up on a route that never answers, saying which, instead of waiting for ever.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { run, type CliIo } from '../../src/cli/program.js';

const SECRET = 'cli-redirect-secret-0123456789';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t) };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

/** A server whose /redirect answers `status` to /webhooks/payments/, and whose /hang never answers. */
async function start(status: number) {
  const posted: string[] = [];
  server = createServer((req, res) => {
    req.resume();
    if (req.url?.startsWith('/redirect')) {
      res.writeHead(status, { location: '/webhooks/payments/' }).end();
      return;
    }
    if (req.url?.startsWith('/hang')) return;
    posted.push(`${req.method} ${req.url}`);
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, posted };
}

describe('trigger and a redirect', () => {
  it.each([302, 307, 308])(
    'does not follow a %i: says the route redirected, exit 1, nothing re-posted',
    async (status) => {
      const { base, posted } = await start(status);
      const { io, out, err } = capture();
      const code = await run(
        ['trigger', 'payout.succeeded', '--url', `${base}/redirect`, '--secret', SECRET],
        io,
      );
      expect(code).toBe(1);
      expect(out()).toContain(`HTTP ${status}`);
      expect(err()).toMatch(/redirect.*\/webhooks\/payments\/.*not followed/);
      expect(err()).not.toMatch(/secret|path may be wrong/);
      expect(posted).toEqual([]);
    },
  );
});

describe('trigger and a route that never answers', () => {
  it('gives up after --timeout ms, saying so, exit 1', async () => {
    const { base } = await start(200);
    const { io, err } = capture();
    const started = Date.now();
    const code = await run(['trigger', 'payout.succeeded', '--url', `${base}/hang`, '--timeout', '300'], io);
    expect(code).toBe(1);
    expect(err()).toMatch(/no answer .*within 300 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a --timeout that is not a whole number of ms from 1', async () => {
    const { io, err } = capture();
    expect(
      await run(['trigger', 'payout.succeeded', '--url', 'http://127.0.0.1:9/x', '--timeout', '0'], io),
    ).toBe(2);
    expect(err()).toContain('--timeout');
  });
});
