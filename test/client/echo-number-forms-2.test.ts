// Card secrets echoed in the number forms of other platforms: a double printed with 14 (PHP) or
// 15 (.NET Framework) significant digits gives the card back with its Luhn digit; a leading-zero
// cvc echoed as an integer inside an escaped JSON string. And a number that is not the card
// (4.0E15) is left as it is.
import { createServer } from 'node:http';
import { expect, it } from 'vitest';
import { ApiError, PaymentsClient, type ResponseLogEvent } from '../../src/index.js';
import { cardPaymentInput } from '../helpers/inputs.js';
import { listenForThisTest } from '../helpers/servers.js';

async function echoed(
  body: string,
  card: Partial<typeof cardPaymentInput.card_details>,
  encoding?: 'string',
) {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(body);
    });
  });
  const port = await listenForThisTest(server);
  const events: ResponseLogEvent[] = [];
  const client = new PaymentsClient({
    baseUrl: `http://127.0.0.1:${port}`,
    ...(encoding === undefined ? {} : { cardFieldEncoding: encoding }),
    hooks: { afterResponse: (event) => void events.push(event) },
  });
  const input = { ...cardPaymentInput, card_details: { ...cardPaymentInput.card_details, ...card } };
  const error = await client.initiateCardPayment(input).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  return [(error as ApiError).body, ...events.map((e) => e.responseBody)].join('\n');
}

it.each([
  ['PHP (precision 14)', '4.1111111111111E+15'],
  ['.NET Framework double.ToString() (15 significant digits)', '4.11111111111111E+15'],
])('removes a card number a service printed as a double in %s', async (_label, printed) => {
  // 14 or 15 of the 16 digits; the last is the Luhn check digit, so the card is given back.
  const text = await echoed(`{"error":"Invalid card_number ${printed}"}`, {
    card_number: '4111 1111 1111 1111',
  });
  expect(text).not.toContain(printed);
});

it('leaves an unrelated 4.0E15 alone (it is not the card 4111111111111111)', async () => {
  const text = await echoed('{"error":"limit 4.0E15 exceeded"}', { card_number: '4111 1111 1111 1111' });
  expect(text).toContain('4.0E15');
});

it('removes a leading-zero cvc echoed as an integer inside an escaped JSON string', async () => {
  const text = await echoed('{"error":"rejected {\\"cvc\\":12}"}', { cvc: '012' }, 'string');
  expect(text).not.toMatch(/cvc\\":12/);
});
