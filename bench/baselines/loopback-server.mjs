// The loopback stand-in for the service: node:http on 127.0.0.1, run in its own process so the
// server's work does not share an event loop with the client being measured. It reads the whole
// request body and answers the documented initiation response (spec §2.8). Prints its port.
import { createServer } from 'node:http';

const body = JSON.stringify({ message: 'MOBILE-MONEY Payment Initiated', status: 200 });
const length = String(Buffer.byteLength(body));

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': length });
    response.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
process.on('disconnect', () => server.close(() => process.exit(0)));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
