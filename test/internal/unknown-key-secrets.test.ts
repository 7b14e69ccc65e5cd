// A key is whatever the caller put there: a secret spread into an options object, or a card
// number that became a key (`{ [card]: … }`), is refused as unknown like any misspelt name, but
// the refusal must not carry it into a message, an issue's path or a log. A key that could be a
// name (letters, `_`, `-`, `.` and spaces) is still quoted, so a misspelling is found at a glance.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createCallbackHandler, type CallbackHandlerOptions } from '../../src/callbacks/index.js';
import {
  buildCardPaymentRequest,
  PaymentsClient,
  ValidationError,
  type ClientOptions,
} from '../../src/index.js';
import { createTransactionTracker } from '../../src/transactions/index.js';
import { caught } from '../helpers/caught.js';
import { cardPaymentInput } from '../helpers/inputs.js';
import { callbackFixtures } from '../../src/testing/index.js';

const apiKey = 'sk_live_51Hc0ffee4242deadbeef';
const webhookSecret = 'whsec_9f86d081884c7d659a2f';
const card = '4111111111111111';

/** Every text the failure shows a merchant's log. */
const dump = (error: unknown) =>
  [String(error), JSON.stringify(error), inspect(error, { depth: 20, showHidden: true })].join('\n');

describe('a secret or card number where a key goes', () => {
  it.each([
    [
      'a client option',
      () =>
        new PaymentsClient({
          baseUrl: 'https://api.example.com',
          [apiKey]: true,
        } as unknown as ClientOptions),
      apiKey,
    ],
    [
      'a nested client option',
      () =>
        new PaymentsClient({
          baseUrl: 'https://api.example.com',
          retry: { limit: 1, [apiKey]: 1 },
        } as unknown as ClientOptions),
      apiKey,
    ],
    [
      'a card payment field',
      () =>
        buildCardPaymentRequest({
          ...cardPaymentInput,
          card_details: { ...cardPaymentInput.card_details, [card]: true },
        } as unknown as typeof cardPaymentInput),
      card,
    ],
    [
      'a webhook route option',
      () =>
        createCallbackHandler({
          secret: webhookSecret,
          onEvent: () => undefined,
          [webhookSecret]: true,
        } as unknown as CallbackHandlerOptions),
      webhookSecret,
    ],
    ['a tracker option', () => createTransactionTracker({ [apiKey]: 1 } as never), apiKey],
    [
      "a tracker transaction's field",
      () =>
        createTransactionTracker().begin({
          reference: 'order-1',
          kind: 'card',
          amount: '1500',
          [card]: true,
        } as never),
      card,
    ],
    [
      "a tracker settlement's field",
      async () => {
        const tracker = createTransactionTracker();
        await tracker.begin({ reference: 'order-2', kind: 'card', amount: '1500' });
        return tracker.settle('order-2', { outcome: 'succeeded', [apiKey]: 1 } as never);
      },
      apiKey,
    ],
  ])('is refused as %s without being shown', async (_name, make, value) => {
    const error = await caught(make);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/unknown (?:key|option|field) of \d+ characters/);
    expect(dump(error)).not.toContain(value);
    if (error instanceof ValidationError) expect(JSON.stringify(error.issues)).not.toContain(value);
  });

  it('a misspelt name is still quoted', async () => {
    const error = await caught(
      () => new PaymentsClient({ baseUrl: 'https://api.example.com', timout: 1 } as unknown as ClientOptions),
    );
    expect((error as ValidationError).issues).toEqual([
      expect.objectContaining({
        path: ['timout'],
        code: 'unrecognized_keys',
        message: expect.stringContaining('unknown key "timout"'),
      }),
    ]);
  });

  it("is not listed when the webhook route's expected() returns an object with it and neither amount nor currency", async () => {
    const errors: unknown[] = [];
    const handler = createCallbackHandler({
      verify: false,
      expected: () => ({ [card]: '1500' }) as never,
      onEvent: () => undefined,
      onError: (error) => void errors.push(error),
    });
    const response = await handler(
      new Request('https://shop.example/hooks', {
        method: 'POST',
        body: JSON.stringify(callbackFixtures['payment.card.succeeded']),
      }),
    );
    expect(response.status).toBe(500);
    expect(errors).toHaveLength(1);
    expect(dump(errors[0])).not.toContain(card);
    expect(String(errors[0])).toMatch(/1 field not shown/);
  });
});
