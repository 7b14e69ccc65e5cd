// An afterResponse hook that throws (a logger that is down) throws after the service answered: the
// request was sent, so the call fails with a ConnectionError that says so (`sent` true, "keep it
// pending until its callback"), the hook's error its cause with the call's secrets taken out, and
// a tracked payment stays pending. A hook or headers function that throws before anything is sent
// still fails the call with its own error.
import { createServer } from 'node:http';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConnectionError, PaymentsClient, type ClientOptions } from '../../src/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';
import { cardPaymentInput, cvc, mobileMoneyPaymentInput } from '../helpers/inputs.js';
import { listenForThisTest } from '../helpers/servers.js';
import { withoutSourceNoise } from '../helpers/source-noise.js';

/** A service that answers every request `reply`, keeping what it received. */
async function service(reply = '{"message":"MOBILE-MONEY Payment Initiated","status":200}') {
  const received: { body: string; authorization: string | undefined }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ body, authorization: request.headers.authorization });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(reply);
    });
  });
  return { url: `http://127.0.0.1:${await listenForThisTest(server)}`, received };
}

const secret = 'whsec_after_response_throws_0123456789';

describe('an afterResponse hook that throws after a 200', () => {
  it.each([
    [
      'throws',
      () => {
        throw new Error('logger down');
      },
      { name: 'Error', message: 'logger down' },
    ],
    [
      'rejects',
      async () => {
        await Promise.resolve();
        throw new TypeError('x is undefined');
      },
      { name: 'TypeError', message: 'x is undefined' },
    ],
  ])(
    '%s: a ConnectionError saying the request was sent, its cause the hook error; the record stays pending',
    async (_, afterResponse, cause) => {
      const { url, received } = await service();
      const tracker = createTransactionTracker();
      const client = new PaymentsClient({
        baseUrl: url,
        transactions: { tracker, secret },
        hooks: { afterResponse },
      });
      const error = await caught(() => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput));
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ sent: true, aborted: false });
      expect((error as Error).message).toBe(
        'initiateMobileMoneyPayment: the afterResponse hook threw after the service answered HTTP 200; the request was sent: keep it pending until its callback',
      );
      expect((error as Error).cause).toMatchObject(cause);
      expect(received).toHaveLength(1);
      expect(await tracker.get('order-1002')).toMatchObject({ state: 'pending' });
    },
  );

  it("takes the card number, cvc, API key and hp_sig out of the hook's error", async () => {
    const { url, received } = await service('{"message":"Card Payment Initiated","status":200}');
    const apiKey = 'sk_test_after_response_key';
    const client = new PaymentsClient({
      baseUrl: url,
      apiKey,
      transactions: { tracker: createTransactionTracker(), secret },
      hooks: {
        // A logger whose error quotes what it was given raw: the wire body and the Authorization.
        afterResponse: () => {
          const sent = received[0]!;
          throw new Error(`logger down: ${sent.body} ${String(sent.authorization)}`, {
            cause: new Error(`queue full: ${sent.body}`),
          });
        },
      },
    });
    const error = await caught(() => client.initiateCardPayment(cardPaymentInput));
    expect(error).toBeInstanceOf(ConnectionError);
    const signature = /hp_sig=([^&"]+)/.exec(received[0]!.body)?.[1];
    expect(signature).toBeDefined();
    expect(received[0]!.body).toContain('9999999999999995');
    // Without what a machine writes by chance (source positions with their paths).
    const shown = withoutSourceNoise(
      [
        (error as Error).message,
        String(error),
        String((error as Error).cause),
        JSON.stringify(error),
        inspect(error, { depth: 20, showHidden: true }),
      ].join('\n'),
    );
    expect(shown).toContain('logger down');
    expect(shown).toContain('queue full');
    expect(shown).not.toMatch(/9999[\s-]?9999[\s-]?9999[\s-]?9995/);
    expect(shown).not.toMatch(new RegExp(`(?<!\\d)${cvc}(?!\\d)`));
    expect(shown).not.toContain(apiKey);
    expect(shown).not.toContain(signature);
  });
});

describe('a hook or headers function that throws before anything is sent', () => {
  it.each<[string, (error: Error) => Partial<ClientOptions>]>([
    ['the first beforeRequest hook', (error) => ({ hooks: { beforeRequest: () => Promise.reject(error) } })],
    [
      'the headers function',
      (error) => ({
        headers: () => {
          throw error;
        },
      }),
    ],
  ])('%s: the call fails with its own error, nothing sent', async (_, options) => {
    const { url, received } = await service();
    const own = new Error('token fetch failed');
    const client = new PaymentsClient({ baseUrl: url, ...options(own) });
    expect(await caught(() => client.initiateMobileMoneyPayment(mobileMoneyPaymentInput))).toBe(own);
    expect(received).toHaveLength(0);
  });
});
