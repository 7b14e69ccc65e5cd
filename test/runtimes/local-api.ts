// A stand-in for the service on 127.0.0.1 (node:http), for the runtime matrix: answers the card
// initiation with the documented response, serves the callback fixtures as JSON, and records
// each request (raw body and headers) under the run id that prefixes its path, so each runtime's
// requests can be checked separately.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface LocalApi {
  readonly url: string;
  /** The base URL one run should use: `${url}/${runId}`. */
  baseFor(runId: string): string;
  requests(runId: string): readonly RecordedRequest[];
  close(): Promise<void>;
}

export async function startLocalApi(fixtures: unknown): Promise<LocalApi> {
  const recorded = new Map<string, RecordedRequest[]>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const [, runId = '', ...rest] = (req.url ?? '/').split('/');
      const path = `/${rest.join('/')}`;
      const list = recorded.get(runId) ?? [];
      list.push({
        method: req.method ?? '',
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      recorded.set(runId, list);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && path === '/fixtures') return json(200, fixtures);
      if (req.method === 'POST' && path === '/api/payment/payment-initiate-callback/') {
        return json(200, { message: 'Card Payment Initiated', status: 200 });
      }
      json(404, { error: 'not found' });
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseFor: (runId) => `${url}/${runId}`,
    requests: (runId) => recorded.get(runId) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
