// Real node:http servers on 127.0.0.1 for failures msw cannot fake faithfully: refused and
// reset connections, a server that never answers, a body that stalls.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startServer(listener: RequestListener): Promise<TestServer> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
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
