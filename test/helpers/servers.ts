// Real servers on 127.0.0.1. For the client: failures msw cannot fake faithfully (refused and
// reset connections, a server that never answers, a body that stalls). For the webhook route:
// listening on a free port, closing with every connection, requests written byte for byte.
import { createServer, type RequestListener } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export interface TestServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startServer(listener: RequestListener): Promise<TestServer> {
  const server = createServer(listener);
  const port = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, close: () => closeServer(server) };
}

/** A URL nothing listens on: a server started and closed again. */
export async function refusedUrl(): Promise<string> {
  const server = await startServer(() => undefined);
  await server.close();
  return server.url;
}

/** Answers nothing: destroys the socket as soon as the request arrives. */
export const resetting: RequestListener = (request) => request.socket.destroy();

/** Never answers. */
export const silent: RequestListener = () => undefined;

/** Sends headers and half a body, then stalls. */
export const stalling: RequestListener = (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"message":');
};

/** A server of any kind a webhook test starts: node:http, node:http2, @hono/node-server's. */
interface Closable {
  listen(port: number, host: string): unknown;
  close(callback: () => void): unknown;
  address(): AddressInfo | string | null;
  once(event: 'listening', listener: () => void): unknown;
  closeAllConnections?: () => void;
}

/** Closes a server and, where it can, every connection still open on it (keep-alive, a stalled client). */
export const closeServer = (server: Closable): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });

/** Listens on 127.0.0.1 at a free port and answers the port; close it with {@link closeServer}. */
export async function listenOnLoopback(server: Closable): Promise<number> {
  await new Promise<void>((resolve) => {
    server.once('listening', resolve);
    server.listen(0, '127.0.0.1');
  });
  return (server.address() as AddressInfo).port;
}

/** {@link listenOnLoopback} inside a test: the server and its connections close when the test ends. */
export async function listenForThisTest(server: Closable): Promise<number> {
  onTestFinished(() => closeServer(server));
  return listenOnLoopback(server);
}

/**
 * Writes `parts` on a raw socket, in order, each its own write, and answers the status of the
 * answer's status line once its head has arrived: for requests `fetch` will not send (a transfer
 * coding, a body in one TCP segment with its head).
 */
export function statusOfRawRequest(port: number, ...parts: (string | Uint8Array)[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (data: Buffer) => {
      text += data.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (status !== null && text.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on('error', reject);
    for (const part of parts) socket.write(part);
  });
}

/**
 * A service answering every request with the STK push reply, for this test; `received()` counts
 * the requests that reached it.
 */
export async function countingService(): Promise<{ url: string; received: () => number }> {
  let received = 0;
  const server = createServer((request, response) => {
    received += 1;
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"message":"MOBILE-MONEY Payment Initiated","status":200}');
    });
  });
  return { url: `http://127.0.0.1:${await listenForThisTest(server)}`, received: () => received };
}
