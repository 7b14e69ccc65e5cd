// An outside canary sweep: paths by which the call's card number, cvc, API key or callback
// signature (`hp_sig`) reached an error, a cause, a hook's event or a kept body. Each block checks
// what a merchant's logs can print: message, stack, String(), JSON, util.inspect with hidden
// properties at any depth, and the hooks' events.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { signCallbackUrl } from '../../src/callbacks/index.js';
import {
  ApiError,
  ConnectionError,
  PaymentsClient,
  type CardPaymentInput,
  type ClientOptions,
  type RequestLogEvent,
  type ResponseLogEvent,
} from '../../src/index.js';
import { abortedOnceSent } from '../helpers/aborted.js';
import { caught } from '../helpers/caught.js';
import { startServer } from '../helpers/servers.js';
import { withoutSourceNoise } from '../helpers/source-noise.js';

const card = '4917385127649357';
const grouped = '4917 3851 2764 9357';
const cvc = '857';
const apiKey = 'sk_live_CANARYKEYq7f3a9b21Z';
const callbackUrl = 'https://shop.example/hooks/payments';

const input = {
  customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
  amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
  card_details: { card_number: card, expiry_month: 12, expiry_year: 2030, cvc },
  callback_details: { transaction_reference: 'ORDER-77', callback_url: callbackUrl },
} satisfies CardPaymentInput;

/** The input with its callback URL signed, and the `hp_sig` it carries. */
async function signedInput(): Promise<{ signed: CardPaymentInput; sig: string }> {
  const url = await signCallbackUrl(callbackUrl, { secret: 'whsec_leak_sweep', reference: 'ORDER-77' });
  const sig = new URL(url).searchParams.get('hp_sig') ?? '';
  return { signed: { ...input, callback_details: { ...input.callback_details, callback_url: url } }, sig };
}

/** Every text a log line may be made of. */
const dumps = (value: unknown): string =>
  [
    String(value),
    JSON.stringify(value),
    (value as Error | undefined)?.stack,
    inspect(value, { showHidden: true, depth: Infinity }),
  ].join('\n');

/**
 * What of the secrets a text shows: six digits in a row of the card's first twelve (whatever
 * separates them), the cvc as a number of its own, the key, or ten characters of `hp_sig`.
 * Source positions such as `http.ts:857:13`, with their paths, are no cvc.
 */
function leaks(text: string, sig?: string): string[] {
  const plain = withoutSourceNoise(text);
  const digits = plain.replace(/\\[nrt]|\\u0020|[\s\-._/\\]/g, '');
  const windows = [0, 1, 2, 3, 4, 5, 6].map((start) => card.slice(start, start + 6));
  return [
    windows.some((window) => digits.includes(window)) && 'card number',
    new RegExp(`(?<![0-9.])${cvc}(?![0-9])`).test(plain) && 'cvc',
    plain.includes('CANARYKEY') && 'API key',
    sig !== undefined && plain.includes(sig.slice(0, 10)) && 'hp_sig',
  ].filter((found) => found !== false);
}

/** A client whose `fetch` answers `status` with `body`, recording the hooks' events. */
function answering(status: number, body: string, options: Partial<ClientOptions> = {}) {
  const events: (RequestLogEvent | ResponseLogEvent)[] = [];
  const client = new PaymentsClient({
    baseUrl: 'https://api.example/',
    apiKey,
    fetch: async () => new Response(body, { status, headers: { 'content-type': 'application/json' } }),
    hooks: {
      beforeRequest: (event) => void events.push(event),
      afterResponse: (event) => void events.push(event),
    },
    ...options,
  });
  return { client, events };
}

describe("the caller's abort reason", () => {
  const reason = () => new Error(`checkout cancelled: ${JSON.stringify(input.card_details)} key=${apiKey}`);

  it('reaches ConnectionError.cause without the card number, cvc or key, aborted before sending', async () => {
    const client = new PaymentsClient({ baseUrl: 'https://api.example/', apiKey });
    const controller = new AbortController();
    controller.abort(reason());
    const error = await caught(() => client.initiateCardPayment(input, { signal: controller.signal }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause).toMatchObject({
      message: expect.stringContaining('checkout cancelled'),
    });
    expect(leaks(dumps(error))).toEqual([]);
  });

  it('reaches ConnectionError.cause without them, aborted once sent, also as a string', async () => {
    for (const given of [reason(), `stale form ${card} ${apiKey}`]) {
      const error = await abortedOnceSent(input, apiKey, given);
      expect(error).toMatchObject({ name: 'ConnectionError', aborted: true, sent: true });
      expect(leaks(dumps(error))).toEqual([]);
    }
  });
});

describe("a custom fetch's network error", () => {
  it.each([
    ['the card number', card],
    ['the API key', apiKey],
  ])('with %s as its address: the ConnectionError message names the code without it', async (_, address) => {
    const client = new PaymentsClient({
      baseUrl: 'https://api.example/',
      apiKey,
      fetch: () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', address });
      },
    });
    const error = await caught(() => client.initiateCardPayment(input));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toContain('ECONNREFUSED');
    expect(leaks(dumps(error))).toEqual([]);
  });
});

describe("the hooks' request body", () => {
  it("hides the call's own card number and cvc typed into other fields", async () => {
    const { client, events } = answering(400, '{"error":"refused"}');
    await caught(() =>
      client.initiateCardPayment({
        ...input,
        customer_details: {
          full_name: `Jane ${card}`,
          phone_number: '0712345678',
          email: 'jane@example.com',
          location: `${grouped}, cvc ${cvc}`,
        },
        products: [{ product_name: `gift card for ${card}`, quantity: 1, unit_price: 10 }],
      }),
    );
    const body = events[0]!.body as {
      customer_details: Record<string, string>;
      products: { product_name: string }[];
    };
    expect(body.customer_details.location).toBe('**** 9357, cvc [redacted]');
    expect(body.customer_details.full_name).toBe('Jane **** 9357');
    expect(body.products[0]!.product_name).toBe('gift card for **** 9357');
    expect(leaks(JSON.stringify(events))).toEqual([]);
  });

  it('keeps an amount equal to the cvc', async () => {
    const { client, events } = answering(400, '{"error":"refused"}');
    await caught(() => client.initiateCardPayment({ ...input, amount: { ...input.amount, total: 857 } }));
    expect((events[0]!.body as { amount: { total: string } }).amount.total).toBe('857');
  });
});

describe("a truncated echo of the call's own card number", () => {
  it.each([
    ['its first 15 digits', `card ${card.slice(0, 15)} rejected`, 'card **** 9357 rejected'],
    ['its first 12 digits and an ellipsis', `card ${card.slice(0, 12)}…`, 'card **** 9357…'],
    ['its first 14 digits grouped', `card ${grouped.slice(0, 17)}`, 'card **** 9357'],
    ['its last 12 digits', `card ${card.slice(4)}`, 'card **** 9357'],
    ['12 digits from its middle', `card ${card.slice(2, 14)}.`, 'card **** 9357.'],
    // With the mask's last four, the Luhn digit gives the card back from its first 11.
    [
      'its first 11 digits and an ellipsis',
      `card ${card.slice(0, 11)}… declined`,
      'card **** 9357… declined',
    ],
    ['its first 7 digits', `card ${card.slice(0, 7)}`, 'card **** 9357'],
    ['8 digits from its middle', `ref ${card.slice(4, 12)}`, 'ref **** 9357'],
    ['7 digits from its middle, grouped', `card ${card.slice(5, 8)} ${card.slice(8, 12)}`, 'card **** 9357'],
  ])('%s is redacted in ApiError.body and the afterResponse event', async (_, echo, redacted) => {
    const { client, events } = answering(400, JSON.stringify({ detail: echo }));
    const error = await caught(() => client.initiateCardPayment(input));
    expect(error).toBeInstanceOf(ApiError);
    expect(JSON.parse((error as ApiError).body)).toEqual({ detail: redacted });
    expect((events[1] as ResponseLogEvent).responseBody).toBe((error as ApiError).body);
    expect(leaks(dumps(error))).toEqual([]);
  });

  it('is redacted as halves in two fields', async () => {
    const body = JSON.stringify({ bin8: card.slice(0, 8), rest: card.slice(8) });
    const { client } = answering(400, body);
    const error = await caught(() => client.initiateCardPayment(input));
    expect(JSON.parse((error as ApiError).body)).toEqual({ bin8: '**** 9357', rest: '**** 9357' });
  });

  it("leaves other numbers alone: a phone number, an id, the card's first 6 digits (its BIN)", async () => {
    const body = JSON.stringify({ phone: '254712345678', id: '123456789012345', bin: card.slice(0, 6) });
    const { client } = answering(400, body);
    const error = await caught(() => client.initiateCardPayment(input));
    expect((error as ApiError).body).toBe(body);
  });
});

describe('an echoed card number in JSON', () => {
  const groups = card.match(/.{4}/g)!;

  it.each([
    ['escaped line breaks', '\n'],
    ['escaped tabs', '\t'],
    ['escaped CRLFs', '\r\n'],
  ])('is masked with %s between its groups, the body still JSON', async (_, between) => {
    const { client } = answering(400, JSON.stringify({ c: groups.join(between) }));
    const error = (await caught(() => client.initiateCardPayment(input))) as ApiError;
    expect(JSON.parse(error.body)).toEqual({ c: '**** 9357' });
  });

  it.each([
    ['its groups as the numbers of an array', [4917, 3851, 2764, 9357], ['**** 9357']],
    ['its groups among other numbers', [1, 4917, 3851, 2764, 9357, 2], [1, '**** 9357', 2]],
    ['its halves', [49173851, 27649357], ['**** 9357']],
  ])('is masked as %s, the body still JSON', async (_, numbers, masked) => {
    const { client } = answering(400, JSON.stringify({ c: numbers }));
    const error = (await caught(() => client.initiateCardPayment(input))) as ApiError;
    expect(JSON.parse(error.body)).toEqual({ c: masked });
  });
});

describe('a reply longer than 1 MiB', () => {
  const MiB = 1024 * 1024;

  it('keeps no part of a card number the cut at 1 MiB would split, in ApiError.body and afterResponse', async () => {
    // Eight digits fall inside the first MiB: fewer than a part of the card masked on its own.
    const { client, events } = answering(500, `${'x'.repeat(MiB - 8)}${card}`);
    const error = (await caught(() => client.initiateCardPayment(input))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    const shown = (events[1] as ResponseLogEvent).responseBody;
    for (const body of [error.body, shown]) {
      expect(body.startsWith('x'.repeat(MiB - 8))).toBe(true);
      expect(body.length).toBeLessThanOrEqual(MiB);
      expect(leaks(body.slice(-100))).toEqual([]);
    }
  });

  it('keeps no part of an hp_sig the cut would split', async () => {
    const { signed, sig } = await signedInput();
    const { client, events } = answering(500, `${'x'.repeat(MiB - 'hp_sig='.length - 40)}hp_sig=${sig}`);
    const error = (await caught(() => client.initiateCardPayment(signed))) as ApiError;
    const shown = (events[1] as ResponseLogEvent).responseBody;
    for (const body of [error.body, shown]) {
      expect(body.endsWith('hp_sig=')).toBe(true);
      expect(leaks(body.slice(-100), sig)).toEqual([]);
    }
  });

  it('keeps no part of a card number split by the cut in a 2xx too long to read (body_too_large)', async () => {
    const start = '{"message":"Card Payment Initiated","status":200,"pad":"';
    const reply = `${start}${'x'.repeat(MiB - start.length - 8)}${card}"}`;
    const { client } = answering(200, reply);
    const error = (await caught(() => client.initiateCardPayment(input))) as ApiError;
    expect(error.issues).toEqual([expect.objectContaining({ code: 'body_too_large' })]);
    expect(leaks(error.body.slice(-100))).toEqual([]);
  });

  // The service sends more than the first MiB, then nothing: what was cut is answered at once, as
  // an ApiError with its status, not held until the attempt's timeout.
  it.each([
    ['100 bytes over', 500, 'x'.repeat(MiB + 100)],
    ['a card number split by the cut', 500, `${'x'.repeat(MiB - 8)}${card}`],
    ['a 2xx 100 bytes over', 200, `{"pad":"${'x'.repeat(MiB + 100)}`],
  ])('that then stalls, %s: an ApiError with its status', async (_, status, sent) => {
    const server = await startServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.write(sent); // and never ends
      });
    });
    try {
      const client = new PaymentsClient({ baseUrl: server.url, apiKey, timeout: 5_000 });
      const error = (await caught(() => client.initiateCardPayment(input))) as ApiError;
      expect(error.name).toBe('ApiError');
      expect(error.status).toBe(status);
      expect(error.body.startsWith(sent.slice(0, 1_000))).toBe(true);
      expect(leaks(dumps(error))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('an echoed card number as a list in a text that is not JSON', () => {
  it.each([
    ['commas', '4917,3851,2764,9357'],
    ['a colon, then commas', 'card 4917:3851,2764,9357'],
    ['a space before a comma', '4917 ,3851,2764,9357'],
  ])('is masked whole between %s', async (_, echo) => {
    const { client } = answering(400, echo);
    const error = (await caught(() => client.initiateCardPayment(input))) as ApiError;
    expect(error.body).not.toContain('4917');
    expect(leaks(error.body)).toEqual([]);
  });
});
