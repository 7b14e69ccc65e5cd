// Aborting a call with a reason of its own (the first failure of sibling calls, "abort the rest")
// says nothing about whether the request went out: a reason whose code reads as a refused
// connection (a database's ECONNREFUSED, another SDK ConnectionError) must not make a request
// the service received look unsent — the tracker would expire it and the docs say call again.
import { expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { ConnectionError } from '../../src/errors.js';
import { startServer } from '../helpers/servers.js';
import { mobileMoneyPaymentInput } from '../helpers/inputs.js';

it.each([
  [
    'a database driver',
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  ],
  ['a name lookup', Object.assign(new Error('getaddrinfo ENOTFOUND db.internal'), { code: 'ENOTFOUND' })],
  [
    'another ConnectionError',
    new ConnectionError('refused', {
      sent: false,
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    }),
  ],
])(
  'aborted with %s\'s refused-connection error once sent: sent true, "may have received"',
  async (_, reason) => {
    let received = 0;
    const server = await startServer((request) => {
      request.resume();
      request.on('end', () => (received += 1)); // never answers
    });
    try {
      const client = new PaymentsClient({
        baseUrl: server.url,
        apiKey: 'sk_test_abort_reason',
        timeout: 5_000,
      });
      const controller = new AbortController();
      const call = client
        .initiateMobileMoneyPayment(mobileMoneyPaymentInput, { signal: controller.signal })
        .catch((error: unknown) => error);
      while (received === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.abort(reason);
      const error = await call;
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ aborted: true, sent: true });
      expect((error as Error).message).toMatch(/may have received the request/);
    } finally {
      await server.close();
    }
  },
);
