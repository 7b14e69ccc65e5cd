// The CLI's errors speak in flags, and a route's HTML error page is not dumped whole: a port clash
// names --port, and a trigger to a path the route does not serve prints the status, a short
// one-line excerpt of the page and a hint that the path may be wrong.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { run, type CliIo } from '../../src/cli/program.js';

function capture(extra: Partial<CliIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), ...extra };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function listen(listener: RequestListener): Promise<number> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

// What Express 5 answers to a POST on a path it has no route for.
const EXPRESS_404 =
  '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot POST /webhook/payments</pre>\n</body>\n</html>\n';

describe('hosted-payments sandbox on a port in use', () => {
  it('says to give another port with --port, not an option name of startSandbox', async () => {
    const port = await listen((_req, res) => res.end());
    const { io, err } = capture();
    expect(await run(['sandbox', '--port', String(port)], io)).toBe(1);
    expect(err()).toContain(`port ${port} is in use`);
    expect(err()).toContain('--port');
    expect(err()).not.toContain('startSandbox');
  });
});

describe('hosted-payments trigger to a path the route does not serve', () => {
  it('prints the status, a one-line excerpt of the HTML page and a hint that the path may be wrong', async () => {
    const port = await listen((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(EXPRESS_404);
    });
    const { io, out, err } = capture();
    const url = `http://127.0.0.1:${port}/webhook/payments`;
    expect(await run(['trigger', 'payout.succeeded', '--url', url], io)).toBe(1);
    expect(out()).toContain('HTTP 404');
    expect(out()).toContain('Cannot POST /webhook/payments');
    expect(out()).not.toContain('<!DOCTYPE');
    expect(out()).not.toContain('\\n');
    expect(err()).toMatch(/hint: .*404.*path/);
    expect(err()).toContain('/webhook/payments');
  });

  it('keeps a JSON refusal as it was answered', async () => {
    const port = await listen((_req, res) => {
      res.writeHead(422, { 'content-type': 'application/json' }).end('{"error":"unparseable_callback"}');
    });
    const { io, out } = capture();
    await run(['trigger', 'payout.succeeded', '--url', `http://127.0.0.1:${port}/hooks`], io);
    expect(out()).toContain('{"error":"unparseable_callback"}');
  });
});
