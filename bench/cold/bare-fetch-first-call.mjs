// Cold start + first call of the floor of any client on the Fetch API: one bare `fetch` POST of a
// JSON body to the same loopback server, read to the end. Node loads its fetch implementation
// (undici) on the first use of `fetch`; ky, and so the client, call it.
import { startLoopback } from './loopback.mjs';

const service = await startLoopback();
const response = await fetch(`http://127.0.0.1:${service.port}/api/payouts`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer sk_test_0123456789' },
  body: JSON.stringify({ transfer: { amount: '1000', currency: 'KES' } }),
});
await response.json();
service.close();
