// Card secrets a service echoes in a form of its own, removed from ApiError.body and the
// afterResponse hook's responseBody: a cvc with a leading zero, sent as the string "012" and read
// into an integer (Jackson's default), echoed as 12; a card number read into a double and printed
// as Java does, 4.11111111111102E15, which drops the trailing zero the E15 gives back.
import { createServer } from 'node:http';
import { expect, it } from 'vitest';
import { ApiError, PaymentsClient, type ResponseLogEvent } from '../../src/index.js';
import { cardPaymentInput } from '../helpers/inputs.js';
import { listenForThisTest } from '../helpers/servers.js';

async function replying(status: number, body: string): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    });
  });
  const port = await listenForThisTest(server);
  return `http://127.0.0.1:${port}`;
}

async function failure(client: PaymentsClient, input: typeof cardPaymentInput, events: ResponseLogEvent[]) {
  const error = await client.initiateCardPayment(input).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  return [(error as ApiError).body, (error as ApiError).message, ...events.map((e) => e.responseBody)].join(
    '\n',
  );
}

it('redacts a leading-zero cvc sent as a string and echoed as the integer the service read', async () => {
  // cardFieldEncoding 'string' exists for cvcs such as 012; a service that coerces "012" to an
  // integer (Jackson does by default) echoes 12 in its refusal.
  const baseUrl = await replying(422, '{"error":"cvc must have 3 digits","cvc":12}');
  const events: ResponseLogEvent[] = [];
  const client = new PaymentsClient({
    baseUrl,
    cardFieldEncoding: 'string',
    hooks: { afterResponse: (event) => void events.push(event) },
  });
  const input = { ...cardPaymentInput, card_details: { ...cardPaymentInput.card_details, cvc: '012' } };
  const text = await failure(client, input, events);
  expect(text).not.toMatch(/"cvc":\s*12\b/);
});

it.each(['12.0', '1.2E1'])(
  'redacts a leading-zero cvc sent as a string and echoed as the double the service read: %s',
  async (echoed) => {
    const baseUrl = await replying(422, `{"error":"cvc must have 3 digits","cvc":${echoed}}`);
    const events: ResponseLogEvent[] = [];
    const client = new PaymentsClient({
      baseUrl,
      cardFieldEncoding: 'string',
      hooks: { afterResponse: (event) => void events.push(event) },
    });
    const input = { ...cardPaymentInput, card_details: { ...cardPaymentInput.card_details, cvc: '012' } };
    const text = await failure(client, input, events);
    expect(text).not.toContain(echoed);
    expect(text).toContain('"cvc":"[redacted]"');
  },
);

it('redacts a card number echoed as a Java double (trailing zero dropped from the significand)', async () => {
  // 4111111111111020 read into a double and printed by Java / Jackson: 4.11111111111102E15 — all
  // of the number but its final 0, which the E15 gives back.
  const baseUrl = await replying(400, '{"error":"Invalid card_number 4.11111111111102E15"}');
  const events: ResponseLogEvent[] = [];
  const client = new PaymentsClient({
    baseUrl,
    hooks: { afterResponse: (event) => void events.push(event) },
  });
  const input = {
    ...cardPaymentInput,
    card_details: { ...cardPaymentInput.card_details, card_number: '4111 1111 1111 1020' },
  };
  const text = await failure(client, input, events);
  expect(text).not.toContain('11111111102');
});
