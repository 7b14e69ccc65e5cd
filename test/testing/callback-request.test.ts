// hosted-payments/testing: a fixture as a ready, signed Request for the merchant's handler; and
// an entry that loads without msw, importing the sandbox one way only.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { callbackEventTypes } from '../../src/callbacks/events.js';
import { createCallbackHandler } from '../../src/callbacks/handler.js';
import type { CallbackEvent } from '../../src/callbacks/events.js';
import { callbackFixtures, createCallbackRequest } from '../../src/testing/index.js';
import { captureRejection } from '../helpers/inputs.js';

const secret = 'testing-helper-secret-0123456789';

function handlerWithInbox() {
  const events: CallbackEvent[] = [];
  const handler = createCallbackHandler({ secret, onEvent: (event) => void events.push(event) });
  return { handler, events };
}

describe('createCallbackRequest', () => {
  it.each(callbackEventTypes)('turns the %s fixture into a request the handler accepts', async (type) => {
    const { handler, events } = handlerWithInbox();
    const response = await handler(await createCallbackRequest(type, { secret }));
    expect(response.status).toBe(200);
    expect(events).toEqual([expect.objectContaining({ type })]);
  });

  it('signs for the given reference and writes it into the payload, so the cross-check passes', async () => {
    const { handler, events } = handlerWithInbox();
    const request = await createCallbackRequest('checkout.succeeded', {
      secret,
      reference: '5005',
      url: 'https://shop.example/webhooks/checkout',
    });
    expect(new URL(request.url).searchParams.get('hp_ref')).toBe('5005');
    expect(new URL(request.url).pathname).toBe('/webhooks/checkout');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect((await handler(request)).status).toBe(200);
    expect(events[0]).toMatchObject({ type: 'checkout.succeeded', reference: '5005' });
    // the shared fixture is left as it was
    expect(callbackFixtures['checkout.succeeded'].order_id).toBe('1001');
  });

  it('applies overrides to the fixture', async () => {
    const { handler, events } = handlerWithInbox();
    const request = await createCallbackRequest('payout.succeeded', { secret, overrides: { amount: '777' } });
    expect((await handler(request)).status).toBe(200);
    expect(String(events[0]?.amount)).toBe('777');
  });

  it.each([
    ['payment.card.succeeded', '999', 'amount captured'],
    ['payment.mobile_money.succeeded', 999, 'amount_captured'],
  ] as const)(
    'carries an amount override of %s into its captured amount, so the handler accepts it',
    async (type, amount, captured) => {
      const { handler, events } = handlerWithInbox();
      const request = await createCallbackRequest(type, { secret, overrides: { amount } as never });
      const body = (await request.clone().json()) as Record<string, unknown>;
      expect(body[captured]).toBe(amount);
      expect((await handler(request)).status).toBe(200);
      expect(events[0]).toMatchObject({ type, amount: '999' });
    },
  );

  it('is refused by a handler with another secret (401), so a test can prove the route verifies', async () => {
    const other = createCallbackHandler({
      secret: 'another-secret-0123456789',
      onEvent: () => {
        throw new Error('must not run');
      },
    });
    const response = await other(await createCallbackRequest('payment.card.succeeded', { secret }));
    expect(response.status).toBe(401);
  });

  it('refuses a secret shorter than 16 characters, as signCallbackUrl does', async () => {
    await expect(createCallbackRequest('payout.failed', { secret: 'short' })).rejects.toThrow();
  });
});

describe('createCallbackRequest builds only what the service could send', () => {
  const refusal = captureRejection;

  it.each([
    ['payout.succeeded', 'reference_id'],
    ['checkout.failed', 'order_id'],
  ] as const)('refuses a %s reference its payload cannot carry (ORDER-7), naming %s', async (type, field) => {
    const error = await refusal(() => createCallbackRequest(type, { secret, reference: 'ORDER-7' }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^createCallbackRequest: reference: /);
    expect(error.message).toContain(field);
  });

  it('signs for a reference given as an override of the reference field', async () => {
    const { handler, events } = handlerWithInbox();
    const request = await createCallbackRequest('payout.failed', {
      secret,
      overrides: { reference_id: '999999999999' },
    });
    expect(new URL(request.url).searchParams.get('hp_ref')).toBe('999999999999');
    expect((await handler(request)).status).toBe(200);
    expect(events[0]).toMatchObject({ reference: '999999999999' });
  });

  it('refuses an override of a type the payload never has (reference_id as a number)', async () => {
    const error = await refusal(() =>
      createCallbackRequest('payout.failed', { secret, overrides: { reference_id: 999999999999 } as never }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^createCallbackRequest: overrides\.reference_id: /);
  });

  it('refuses a reference and a different reference field in overrides', async () => {
    const error = await refusal(() =>
      createCallbackRequest('payout.failed', {
        secret,
        reference: '111111111111',
        overrides: { reference_id: '222222222222' },
      }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain('reference_id');
    expect(error.message).toContain('reference');
  });

  it.each([
    ['payment.card.succeeded', 'amount', 'abc'],
    ['payment.card.failed', 'amount', '-5'],
    ['payment.card.succeeded', 'amount captured', '12.5'],
    ['payment.mobile_money.failed', 'amount', 12.5],
    ['payout.succeeded', 'payout_fee', 'abc'],
    ['payout.failed', 'wallet_balance', 'abc'],
    ['payout.failed', 'amount', ''],
    ['payout.succeeded', 'currency', 'XYZ'],
  ] as const)(
    'refuses a %s override of %s that is not of its form (%j), naming it',
    async (type, key, value) => {
      const error = await refusal(() =>
        createCallbackRequest(type, { secret, overrides: { [key]: value } as never }),
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(new RegExp(`^createCallbackRequest: overrides\\.${key}: expected `));
    },
  );

  it.each([
    ['checkout.succeeded', 'payment_status', 'Payment Incomplete.'],
    ['checkout.succeeded', 'payment_method', 'MOBILE-MONEY'],
    ['payment.card.succeeded', 'paid', 'False'],
    ['payment.card.failed', 'payment status', 'Payment pending.'],
    ['payment.mobile_money.succeeded', 'response_status', 406],
    ['payment.mobile_money.failed', 'response_status', 200],
    ['payment.card.succeeded', 'timestamp', -1],
  ] as const)(
    'refuses a %s override of %s (%j) that makes a payload of another outcome, or one the handler refuses or warns about',
    async (type, key, value) => {
      const error = await refusal(() =>
        createCallbackRequest(type, { secret, overrides: { [key]: value } as never }),
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/^createCallbackRequest: overrides/);
      expect(error.message).toContain(key);
      expect(error.message).toContain(type);
    },
  );

  it.each(['ftp://shop.example/hooks', 'shop.example/hooks', 'https://merchant:hunter2@shop.example/hooks'])(
    'refuses the url %s in its own name, never quoting the URL or its password',
    async (url) => {
      const error = await refusal(() => createCallbackRequest('payout.failed', { secret, url }));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/^createCallbackRequest: url: expected /);
      expect(error.message).not.toContain('hunter2');
      expect(error.message).not.toContain('hp_sig');
    },
  );

  it.each(['short', ''])(
    'refuses the secret %j in its own name, saying it needs 16 characters',
    async (bad) => {
      const error = await refusal(() => createCallbackRequest('payout.failed', { secret: bad }));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/^createCallbackRequest: secret /);
      expect(error.message).toContain('16 characters');
    },
  );

  it.each([
    ['padded', `${secret}\n`, 'has white space at its start or end'],
    ['blank', ' '.repeat(20), 'is blank'],
  ])('refuses a %s secret in its own name, as the handler would', async (_, bad, what) => {
    const error = await refusal(() => createCallbackRequest('payout.failed', { secret: bad }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(new RegExp(`^createCallbackRequest: secret ${what}`));
  });

  it.each([
    ['an array', []],
    ['a Map', new Map([['amount', '5']])],
  ])('refuses overrides given as %s, whose fields would be dropped', async (_, overrides) => {
    const error = await refusal(() =>
      createCallbackRequest('payout.failed', { secret, overrides: overrides as never }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(
      /^createCallbackRequest: overrides must be a plain object of payload fields/,
    );
  });

  it.each([
    ['checkout.failed', 'order_id', '007'],
    ['payout.succeeded', 'reference_id', '012345678901'],
    ['payment.mobile_money.failed', 'transaction_reference', ' '],
  ] as const)(
    'refuses a %s override of %s (%j) its payload cannot carry, naming that override',
    async (type, key, value) => {
      const error = await refusal(() =>
        createCallbackRequest(type, { secret, overrides: { [key]: value } as never }),
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(new RegExp(`^createCallbackRequest: overrides\\.${key}: expected `));
    },
  );

  it('refuses an override key the payload of the type does not have, naming it', async () => {
    const error = await refusal(() =>
      createCallbackRequest('payout.failed', { secret, overrides: { amout: '5' } as never }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^createCallbackRequest: overrides: unknown key "amout"/);
    expect(error.message).toContain('amount');
  });

  it('refuses an event type it does not know, listing the eight', async () => {
    const error = await refusal(() => createCallbackRequest('payment.refunded' as never, { secret }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain('"payment.refunded"');
    for (const type of callbackEventTypes) expect(error.message).toContain(type);
  });

  it('says secret is required when called without options', async () => {
    const error = await refusal(() =>
      (createCallbackRequest as (type: string) => Promise<Request>)('payout.failed'),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^createCallbackRequest: secret is required/);
  });
});

describe('module layering', () => {
  it('hosted-payments/testing bundles without msw', async () => {
    const result = await build({
      entryPoints: ['src/testing/index.ts'],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.includes('src/sandbox/payloads.ts'))).toBe(true);
    expect(inputs.filter((path) => path.includes('node_modules/msw'))).toEqual([]);
  });

  it('the sandbox never imports from testing (testing → sandbox, one way)', async () => {
    const files = (await readdir('src/sandbox', { recursive: true })).filter((file) => file.endsWith('.ts'));
    const offenders: string[] = [];
    for (const file of files) {
      const text = await readFile(join('src/sandbox', file), 'utf8');
      if (/from '(\.\.\/)+testing\//.test(text)) offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });
});
