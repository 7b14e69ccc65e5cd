// The service the "first call" cold starts talk to: node:http on 127.0.0.1 in the measured
// process itself (the bench's own process is blocked in spawnSync and could not answer), one
// fixed JSON reply to any request, for both SDKs. Each process makes one call and exits; a stuck
// call ends the process after 10 s rather than hanging the bench.
import { createServer } from 'node:http';

const reply = JSON.stringify({ object: 'balance', message: 'Mobile Payout Initiated', status: 200 });

/** Starts the server; resolves with its port and a close that ends open connections too. */
export async function startLoopback() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': reply.length });
      response.end(reply);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  setTimeout(() => process.exit(2), 10_000).unref();
  return {
    port: server.address().port,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
