// A local HTTP server that misbehaves on purpose, one fault per first path segment, so a client
// pointed at `${url}/<fault>` meets that fault on every endpoint:
//
//   slow-headers   accepts the request and never answers
//   slow-body      sends 200 + JSON headers and the first bytes of a body, then stalls
//   reset-body     sends 200 headers and half a body, then resets the connection
//   reset          resets the connection before any response
//   html-500       500 with an HTML error page
//   json-503       503 with a JSON error body
//   rate-limited   429 with Retry-After: 1
//   truncated-json 200, Content-Type JSON, body cut mid-string
//   wrong-shape    200 with valid JSON of the wrong shape
//   not-json       200, Content-Type JSON, body is plain text
//   echo-500       500 whose body and headers echo the request's card number and cvc
//   ok             the documented success response of each endpoint
//
// Every request is recorded (method, path, fault) so tests can assert nothing was repeated.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export const faults = [
  'slow-headers',
  'slow-body',
  'reset-body',
  'reset',
  'html-500',
  'json-503',
  'rate-limited',
  'truncated-json',
  'wrong-shape',
  'not-json',
  'echo-500',
  'ok',
] as const;
export type Fault = (typeof faults)[number];

export interface RecordedRequest {
  readonly method: string;
  readonly fault: string;
  readonly path: string;
  readonly body: string;
  /** The `x-call-id` header the scenario sets on every call. */
  readonly callId: string;
}

export interface MisbehavingServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** The documented reply; a checkout echoes the order_id it was sent. */
const okBody = (path: string, body: string): unknown => {
  if (path.startsWith('/checkout.sessions/')) {
    const orderId = /"order_id":"?([^",}]+)/.exec(body)?.[1] ?? '';
    return { checkout_link: 'https://pay.example.test/c/1', status: true, order_id: orderId };
  }
  if (path.startsWith('/api/payout/')) return { message: 'Mobile Payout Initiated', status: 200 };
  // Card and mobile-money payments share the path; the client refuses the card reply to the other.
  if (!body.includes('"card_details"')) return { message: 'MOBILE-MONEY Payment Initiated', status: 200 };
  return { message: 'Card Payment Initiated', status: 200 };
};

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

const reset = (socket: Socket) => {
  // RST rather than FIN where the platform allows it
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
};

export async function startMisbehavingServer(options: { stallMs?: number } = {}): Promise<MisbehavingServer> {
  const stallMs = options.stallMs ?? 60_000;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const [, fault = '', ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    const callId = String(req.headers['x-call-id'] ?? '');
    requests.push({ method: req.method ?? '', fault, path, body, callId });
    const stall = () => {
      const t = setTimeout(() => {
        timers.delete(t);
        res.destroy();
      }, stallMs);
      timers.add(t);
    };
    switch (fault as Fault) {
      case 'slow-headers':
        return stall();
      case 'slow-body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
        res.write('{"message":"Card');
        return stall();
      case 'reset-body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
        res.write('{"message":"Card Payment', () => setTimeout(() => reset(req.socket), 20));
        return;
      case 'reset':
        return reset(req.socket);
      case 'html-500':
        res.writeHead(500, { 'content-type': 'text/html; charset=utf-8' });
        return res.end('<!doctype html><html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>');
      case 'json-503':
        res.writeHead(503, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: 'maintenance' }));
      case 'rate-limited':
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        return res.end(JSON.stringify({ error: 'too many requests' }));
      case 'truncated-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"message":"Card Payment Initiated","sta');
      case 'wrong-shape':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ ok: true, data: [1, 2, 3] }));
      case 'not-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('OK');
      case 'echo-500': {
        // the card number and cvc echoed in headers too, the number grouped in fours
        const card = /"card_number":"?(\d+)/.exec(body)?.[1];
        const cvc = /"cvc":"?(\d+)/.exec(body)?.[1];
        res.writeHead(500, {
          'content-type': 'application/json',
          ...(card ? { 'x-echo-card': card.replace(/(\d{4})(?=\d)/g, '$1 ') } : {}),
          ...(cvc ? { 'x-echo-cvc': `cvc=${cvc}` } : {}),
        });
        return res.end(JSON.stringify({ error: 'could not process', request: body }));
      }
      case 'ok':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(okBody(path, body)));
      default:
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end(`unknown fault ${fault}`);
    }
  };

  const server: Server = createServer((req, res) => void handle(req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
