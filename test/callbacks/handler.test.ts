import { describe, expect, it, vi } from 'vitest';
import {
  callbackDedupeKey,
  createCallbackHandler,
  createMemoryDedupeStore,
  CallbackParseError,
  parseCallback,
  safeParseCallback,
  signCallbackUrl,
  type CallbackContext,
  type CallbackEvent,
  type CallbackHandlerOptions,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';

const cardSuccess = callbackFixtures['payment.card.succeeded'];
const checkoutCardSuccess = callbackFixtures['checkout.succeeded']; // card, paid 'False'; order_id '1001'
const checkoutFailure = callbackFixtures['checkout.failed']; // order_id '1003', amount '2500'
const mobileMoneyFailure = callbackFixtures['payment.mobile_money.failed'];
const payoutSuccess = callbackFixtures['payout.succeeded']; // reference_id '123456789012', 1000 KES

const secret = 'whsec_0123456789abcdef';
const route = 'https://shop.example/webhooks/payments';

const post = (url: string, body: BodyInit | null, init: RequestInit = {}) =>
  new Request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' }, ...init });

const signed = (reference: string) => signCallbackUrl(route, { secret, reference });

function setup(options: Partial<CallbackHandlerOptions> = {}) {
  const events: CallbackEvent[] = [];
  const onEvent = vi.fn(async (event: CallbackEvent, _context: CallbackContext) => {
    events.push(event);
  });
  const handler = createCallbackHandler({ secret, onEvent, ...options });
  return { handler, onEvent, events };
}

const json = async (response: Response) => ({
  status: response.status,
  body: (await response.json()) as unknown,
});

/** The hp_sig of a signed URL: a checkout callback's dedupe key includes it. */
const signatureOf = (url: string) => new URL(url).searchParams.get('hp_sig') ?? undefined;

describe('createCallbackHandler', () => {
  it('answers 200 after onEvent resolves, with the signed reference in the context', async () => {
    const { handler, onEvent } = setup();
    const url = await signed('1003');
    const response = await handler(post(url, JSON.stringify(checkoutFailure)));
    // 200 without a body: a body would be a web stream, costing more than parsing the callback
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    expect(response.headers.get('x-callback-duplicate')).toBeNull();
    expect(onEvent).toHaveBeenCalledTimes(1);
    const [event, context] = onEvent.mock.calls[0]!;
    expect(event.type).toBe('checkout.failed');
    expect(context).toMatchObject({
      reference: '1003',
      dedupeKey: callbackDedupeKey(parseCallback(checkoutFailure), '1003', signatureOf(url)),
    });
  });

  it('gives onEvent, expected and onError their fields and the request, in every context', async () => {
    const seen: Record<string, unknown>[] = [];
    const { handler } = setup({
      expected: (_event, context) => {
        seen.push({ from: 'expected', reference: context.reference, url: context.request.url });
        expect('dedupeKey' in context).toBe(false);
        return undefined;
      },
      onError: (_error, { status, reason, request }) => {
        seen.push({ from: 'onError', status, reason, url: request.url });
      },
      onEvent: (_event, context) => {
        const { reference, dedupeKey, request } = context;
        seen.push({
          from: 'onEvent',
          reference,
          dedupeKey,
          url: request.url,
          same: request === context.request,
        });
        expect(context.transaction).toBeUndefined();
        expect(context.settlement).toBeUndefined();
      },
    });
    const url = await signed('1003');
    expect((await handler(post(url, JSON.stringify(checkoutFailure)))).status).toBe(200);
    expect((await handler(post(route, JSON.stringify(checkoutFailure)))).status).toBe(401);
    expect(seen).toEqual([
      { from: 'expected', reference: '1003', url },
      {
        from: 'onEvent',
        reference: '1003',
        dedupeKey: callbackDedupeKey(parseCallback(checkoutFailure), '1003', signatureOf(url)),
        url,
        same: true,
      },
      { from: 'onError', status: 401, reason: 'invalid_signature', url: route },
    ]);
  });

  it('passes the contradictory card success through with its warning', async () => {
    const { handler, events } = setup();
    const response = await handler(post(await signed('1001'), JSON.stringify(checkoutCardSuccess)));
    expect(response.status).toBe(200);
    expect(events[0]?.warnings.map((warning) => warning.code)).toEqual([
      'paid_flag_contradicts_payment_status',
    ]);
  });

  it("answers 422 to the contradiction with onContradiction: 'reject'", async () => {
    const { handler, onEvent } = setup({ onContradiction: 'reject' });
    const response = await handler(post(await signed('1001'), JSON.stringify(checkoutCardSuccess)));
    expect(await json(response)).toEqual({ status: 422, body: { error: 'contradictory_outcome' } });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('answers 405 to anything but POST', async () => {
    const { handler } = setup();
    const response = await handler(new Request(await signed('R'), { method: 'GET' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('answers 401 to a missing or wrong signature, before reading the body', async () => {
    const { handler, onEvent } = setup();
    expect((await handler(post(route, JSON.stringify(cardSuccess)))).status).toBe(401);
    const forged = new URL(await signed('1003'));
    forged.searchParams.set('hp_ref', 'ORDER-9999');
    expect((await handler(post(forged.href, JSON.stringify(checkoutFailure)))).status).toBe(401);
    const otherSecret = await signCallbackUrl(route, { secret: 'another-secret-0123', reference: 'R' });
    expect((await handler(post(otherSecret, JSON.stringify(cardSuccess)))).status).toBe(401);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('accepts unsigned requests with verify: false', async () => {
    const onEvent = vi.fn((_event: CallbackEvent, _context: CallbackContext) => undefined);
    const handler = createCallbackHandler({ verify: false, onEvent });
    expect((await handler(post(route, JSON.stringify(cardSuccess)))).status).toBe(200);
    expect(onEvent.mock.calls[0]![1].reference).toBeUndefined();
  });

  it('answers 400 to an unparseable or undocumented body, never echoing it', async () => {
    const { handler, onEvent } = setup();
    for (const body of [
      '{"broken": ',
      '',
      'null',
      '[]',
      JSON.stringify({ ...cardSuccess, timestamp: 'SECRET-VALUE' }),
    ]) {
      const response = await handler(post(await signed('R'), body));
      const text = await response.text();
      expect(response.status).toBe(400);
      expect(text).toBe('{"error":"invalid_payload"}');
    }
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('answers 409 when the payload reference is not the signed one', async () => {
    const { handler, onEvent } = setup();
    for (const payload of [checkoutFailure, mobileMoneyFailure, payoutSuccess]) {
      const response = await handler(post(await signed('SOMETHING-ELSE'), JSON.stringify(payload)));
      expect(await json(response)).toEqual({ status: 409, body: { error: 'reference_mismatch' } });
    }
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('uses the signed reference alone for payloads that carry none (card success)', async () => {
    const { handler, onEvent } = setup();
    expect((await handler(post(await signed('MY-ORDER'), JSON.stringify(cardSuccess)))).status).toBe(200);
    expect(onEvent.mock.calls[0]![1].reference).toBe('MY-ORDER');
  });

  describe('size cap', () => {
    const big = JSON.stringify({ ...payoutSuccess, padding: 'x'.repeat(70_000) });

    it('answers 413 from Content-Length without reading the body', async () => {
      const { handler } = setup();
      let pulled = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++;
          controller.enqueue(new Uint8Array(1024));
        },
      });
      const request = post(await signed('R'), body, {
        headers: { 'content-length': '1000000' },
        duplex: 'half',
      } as RequestInit);
      expect(await json(await handler(request))).toEqual({
        status: 413,
        body: { error: 'payload_too_large' },
      });
      expect(pulled).toBeLessThanOrEqual(1);
    });

    it('answers 413 to a chunked body without Content-Length, reading no further than the cap', async () => {
      const { handler } = setup({ maxBodyBytes: 10_000 });
      let sent = 0;
      let cancelled = false;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          sent += 1000;
          controller.enqueue(new Uint8Array(1000).fill(0x20));
          if (sent >= 1_000_000) controller.close();
        },
        cancel() {
          cancelled = true;
        },
      });
      const request = new Request(await signed('R'), { method: 'POST', body, duplex: 'half' } as RequestInit);
      expect(request.headers.get('content-length')).toBeNull();
      expect((await handler(request)).status).toBe(413);
      expect(cancelled).toBe(true);
      expect(sent).toBeLessThan(20_000);
    });

    it('refuses a body longer than the Content-Length it declares (a Request built in process)', async () => {
      const { handler, onEvent } = setup({ maxBodyBytes: 10_000 });
      const request = post(await signed('123456789012'), big, { headers: { 'content-length': '100' } });
      expect(request.headers.get('content-length')).toBe('100');
      expect(await json(await handler(request))).toEqual({
        status: 413,
        body: { error: 'payload_too_large' },
      });
      expect(onEvent).not.toHaveBeenCalled();
    });

    it('accepts a body just under the cap and refuses one just over', async () => {
      const { handler } = setup({ maxBodyBytes: big.length });
      expect((await handler(post(await signed('123456789012'), big))).status).toBe(200);
      const { handler: smaller } = setup({ maxBodyBytes: big.length - 1 });
      expect((await smaller(post(await signed('123456789012'), big))).status).toBe(413);
    });

    it('defaults to 64 KiB', async () => {
      const { handler } = setup();
      expect((await handler(post(await signed('123456789012'), big))).status).toBe(413);
    });
  });

  describe('deduplication', () => {
    it('answers 200 to a sequential duplicate without calling onEvent again', async () => {
      const { handler, onEvent } = setup();
      const url = await signed('1003');
      expect((await handler(post(url, JSON.stringify(checkoutFailure)))).status).toBe(200);
      const again = await handler(post(url, JSON.stringify(checkoutFailure)));
      expect(again.status).toBe(200);
      expect(again.headers.get('x-callback-duplicate')).toBe('true');
      expect(onEvent).toHaveBeenCalledTimes(1);
    });

    it('answers 503 with Retry-After to a duplicate arriving while the first is processed', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const onEvent = vi.fn(() => gate);
      const handler = createCallbackHandler({ secret, onEvent });
      const url = await signed('1003');
      const first = handler(post(url, JSON.stringify(checkoutFailure)));
      await vi.waitFor(() => expect(onEvent).toHaveBeenCalledTimes(1));
      const second = await handler(post(url, JSON.stringify(checkoutFailure)));
      expect(second.status).toBe(503);
      expect(second.headers.get('retry-after')).toBe('5');
      release();
      expect((await first).status).toBe(200);
      expect((await handler(post(url, JSON.stringify(checkoutFailure)))).status).toBe(200);
      expect(onEvent).toHaveBeenCalledTimes(1);
    });

    it('calls onEvent exactly once for many concurrent duplicates', async () => {
      const { handler, onEvent } = setup();
      const url = await signed('123456789012');
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => handler(post(url, JSON.stringify(payoutSuccess)))),
      );
      expect(onEvent).toHaveBeenCalledTimes(1);
      expect(responses.every((response) => [200, 503].includes(response.status))).toBe(true);
    });

    it('treats a success after a failure of the same order as a new event', async () => {
      const { handler, onEvent } = setup();
      const url = await signed('1003');
      await handler(post(url, JSON.stringify(checkoutFailure)));
      await handler(
        post(
          url,
          JSON.stringify({
            ...checkoutFailure,
            paid: 'True',
            payment_status: 'Payment complete.',
            message: 'MOBILE-MONEY Payment Successful',
          }),
        ),
      );
      expect(onEvent.mock.calls.map(([event]) => event.type)).toEqual([
        'checkout.failed',
        'checkout.succeeded',
      ]);
    });

    it('can be turned off', async () => {
      const { handler, onEvent } = setup({ dedupe: false });
      const url = await signed('1003');
      await handler(post(url, JSON.stringify(checkoutFailure)));
      await handler(post(url, JSON.stringify(checkoutFailure)));
      expect(onEvent).toHaveBeenCalledTimes(2);
    });

    it('uses the store it is given', async () => {
      const store = createMemoryDedupeStore();
      const url = await signed('1003');
      await store.complete(
        callbackDedupeKey(parseCallback(checkoutFailure), '1003', signatureOf(url)),
        60_000,
      );
      const { handler, onEvent } = setup({ dedupe: store });
      expect((await handler(post(url, JSON.stringify(checkoutFailure)))).status).toBe(200);
      expect(onEvent).not.toHaveBeenCalled();
    });
  });

  describe('a store whose begin() answers something else than its four states', () => {
    // A store written as `begin: (k, t) => redis.set(k, 1, 'PX', t, 'NX')` answers 'OK' or null.
    it.each([
      [null, 'null'],
      [undefined, 'undefined'],
      [false, 'boolean'],
      ['OK', 'string'],
      ['duplicate', 'string'],
      ['DONE', 'string'],
      [0, 'number'],
      [{ hidden: 'never-echoed' }, 'object'],
    ])('answers 500 handler_failed to %j and never calls onEvent', async (reply, type) => {
      const calls: string[] = [];
      const store = {
        begin: async () => reply as never,
        complete: async () => void calls.push('complete'),
        abandon: async () => void calls.push('abandon'),
      };
      const refusals: string[] = [];
      const { handler, onEvent } = setup({
        dedupe: store,
        onError: (error, { status, reason }) => void refusals.push(`${status} ${reason} ${error.message}`),
      });
      const url = await signed('1003');
      for (let delivery = 0; delivery < 2; delivery++) {
        const response = await handler(post(url, JSON.stringify(checkoutFailure)));
        expect(await json(response)).toEqual({ status: 500, body: { error: 'handler_failed' } });
      }
      expect(onEvent).not.toHaveBeenCalled();
      expect(calls).toEqual([]);
      expect(refusals).toHaveLength(2);
      expect(refusals[0]).toMatch(/^500 handler_failed /);
      expect(refusals[0]).toContain(`begin() answered ${type}`);
      expect(refusals[0]).toContain("'new', 'in_progress', 'done' or 'full'");
      expect(refusals[0]).not.toContain('never-echoed');
    });
  });

  describe('a store whose complete() and abandon() do not return promises', () => {
    // The handler awaits begin()'s plain value; complete() and abandon() were chained with .catch,
    // so a plain undefined answered 500 after processing, and a synchronous throw rejected the handler.
    const plainStore = (misbehave: 'undefined' | 'throws') => {
      const seen = new Set<string>();
      const calls: string[] = [];
      const act = (name: string, run: () => void) => {
        calls.push(name);
        run();
        if (misbehave === 'throws') throw new Error(`${name} failed`);
      };
      return {
        calls,
        store: {
          begin: (key: string) => (seen.has(key) ? 'done' : (seen.add(key), 'new')),
          complete: (key: string) => act('complete', () => seen.add(key)),
          abandon: (key: string) => act('abandon', () => seen.delete(key)),
        } as never,
      };
    };

    it.each(['undefined', 'throws'] as const)(
      'answers 200 to a processed delivery, and 500 with the retry processed when onEvent throws (complete/abandon %s)',
      async (misbehave) => {
        const { store, calls } = plainStore(misbehave);
        let attempts = 0;
        const { handler } = setup({
          dedupe: store,
          onEvent: () => {
            attempts += 1;
            if (attempts === 1) throw new Error('database down');
          },
        });
        const url = await signed('1003');
        const first = await handler(post(url, JSON.stringify(checkoutFailure)));
        expect(await json(first)).toEqual({ status: 500, body: { error: 'handler_failed' } });
        const retry = await handler(post(url, JSON.stringify(checkoutFailure)));
        expect(retry.status).toBe(200);
        expect(attempts).toBe(2);
        expect(calls).toEqual(['abandon', 'complete']);
      },
    );
  });

  it('answers 500 when onEvent throws, and processes the retry exactly once', async () => {
    let attempts = 0;
    const processed: string[] = [];
    const onError = vi.fn();
    const handler = createCallbackHandler({
      secret,
      onError,
      onEvent: async (event) => {
        attempts++;
        if (attempts === 1) throw new Error('database down');
        processed.push(event.type);
      },
    });
    const url = await signed('1003');
    const first = await handler(post(url, JSON.stringify(checkoutFailure)));
    expect(await json(first)).toEqual({ status: 500, body: { error: 'handler_failed' } });
    expect(onError).toHaveBeenCalledWith(
      expect.any(Error),
      expect.objectContaining({ status: 500, reason: 'handler_failed' }),
    );
    expect((await handler(post(url, JSON.stringify(checkoutFailure)))).status).toBe(200);
    expect((await handler(post(url, JSON.stringify(checkoutFailure)))).status).toBe(200);
    expect(processed).toEqual(['checkout.failed']);
    expect(attempts).toBe(2);
  });

  describe('expected amount and currency', () => {
    it('answers 422 when the amount differs', async () => {
      const { handler, onEvent } = setup({ expected: () => ({ amount: '2501' }) });
      const response = await handler(post(await signed('1003'), JSON.stringify(checkoutFailure)));
      expect(await json(response)).toEqual({ status: 422, body: { error: 'amount_mismatch' } });
      expect(onEvent).not.toHaveBeenCalled();
    });

    it('answers 422 when the currency differs', async () => {
      const { handler } = setup({ expected: async () => ({ amount: 1000, currency: 'UGX' }) });
      const response = await handler(post(await signed('123456789012'), JSON.stringify(payoutSuccess)));
      expect(await json(response)).toEqual({ status: 422, body: { error: 'currency_mismatch' } });
    });

    it('compares amounts numerically and currencies case-insensitively', async () => {
      const expected = vi.fn((_event: CallbackEvent, _context: { reference: string | undefined }) => ({
        amount: '1000.00',
        currency: 'kes',
      }));
      const { handler, onEvent } = setup({ expected });
      expect((await handler(post(await signed('123456789012'), JSON.stringify(payoutSuccess)))).status).toBe(
        200,
      );
      expect(onEvent).toHaveBeenCalledTimes(1);
      expect(expected.mock.calls[0]![1]).toMatchObject({ reference: '123456789012' });
    });

    it('skips the check when the lookup returns undefined', async () => {
      const { handler } = setup({ expected: () => undefined });
      expect((await handler(post(await signed('1003'), JSON.stringify(checkoutFailure)))).status).toBe(200);
    });
  });

  it('ignores a throwing onError', async () => {
    const { handler } = setup({
      onError: () => {
        throw new Error('logger down');
      },
    });
    expect((await handler(post(route, '{}'))).status).toBe(401);
  });

  it('works with a public origin behind a proxy', async () => {
    const { handler } = setup({ publicOrigin: 'https://shop.example' });
    const url = new URL(await signed('1003'));
    url.host = '10.0.0.5:3000';
    url.protocol = 'http:';
    expect((await handler(post(url.href, JSON.stringify(checkoutFailure)))).status).toBe(200);
  });
});

describe('identifiers that are not Unicode text', () => {
  // JSON may escape a lone surrogate ("\ud800"); such an id is not text. It is refused when the
  // payload is read (400 invalid_payload, a CallbackParseError for onError), never an untyped
  // error out of the dedupe key and a 500 the sender would retry for ever.
  const cases = [
    ['payment.card.succeeded', 'id', { ...cardSuccess }],
    ['payment.card.succeeded', 'transaction id', { ...cardSuccess }],
    ['payout.succeeded', 'transaction_id', { ...payoutSuccess }],
  ] as const;

  it.each(cases)(
    '%s with a lone surrogate in %s: refused as invalid_payload',
    async (_type, key, payload) => {
      const body = JSON.stringify({ ...payload, [key]: 'PAY-X' }).replace('PAY-X', 'PAY-\\ud800');
      const error = safeParseCallback(body).error;
      expect(error?.reason).toBe('invalid_payload');
      expect(error?.issues).toEqual([expect.objectContaining({ path: [key] })]);
      const onError = vi.fn();
      const { handler, onEvent } = setup({ onError });
      const reference = key === 'transaction_id' ? payoutSuccess.reference_id : 'ORDER-1';
      const answer = await json(await handler(post(await signed(reference), body)));
      expect(answer).toEqual({ status: 400, body: { error: 'invalid_payload' } });
      expect(onEvent).not.toHaveBeenCalled();
      expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(CallbackParseError);
    },
  );

  it('callbackDedupeKey refuses an event built by hand with one, with a TypeError naming the field', () => {
    const event = {
      ...parseCallback(cardSuccess),
      data: { ...cardSuccess, id: 'PAY-\ud800' },
    } as CallbackEvent;
    expect(() => callbackDedupeKey(event)).toThrow(TypeError);
    expect(() => callbackDedupeKey(event)).toThrow(/id/);
  });
});

describe('onContradiction', () => {
  it.each(['Reject', 'warning', '', null, true])('refuses %j where it is set', (value) => {
    const options = { onContradiction: value } as unknown as { onContradiction: 'warn' };
    expect(() => parseCallback(checkoutCardSuccess, options)).toThrow(TypeError);
    expect(() => safeParseCallback(checkoutCardSuccess, options)).toThrow(/onContradiction/);
    expect(() => createCallbackHandler({ secret, onEvent: () => undefined, ...options })).toThrow(
      /onContradiction must be 'warn' or 'reject'/,
    );
  });
});

describe('bodyTimeoutMs', () => {
  it('refuses a deadline longer than a timer can hold (it would fire at once: every delivery a 408)', () => {
    expect(() => setup({ bodyTimeoutMs: 3e9 })).toThrow(
      /bodyTimeoutMs must be a whole number from 1 to 2147483647, got 3000000000/,
    );
    expect(() => setup({ bodyTimeoutMs: 2_147_483_647 })).not.toThrow();
  });
});

describe('an onEvent that outlives processingTimeoutMs', () => {
  // The claim lasts processingTimeoutMs. A delivery that arrives after it runs onEvent again (the
  // documented limit); when the first one then fails, releasing the claim would free the second
  // delivery's claim too, and a third copy would run while the second still does.
  it('does not release a claim it no longer holds: a third copy waits (503) while the second runs', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    try {
      const url = await signed('1003');
      let releaseSecond!: () => void;
      const secondRunning = new Promise<void>((resolve) => (releaseSecond = resolve));
      let calls = 0;
      let secondAnswer: Promise<Response> | undefined;
      const handler = createCallbackHandler({
        secret,
        processingTimeoutMs: 1_000,
        onEvent: async () => {
          calls++;
          if (calls === 1) {
            vi.advanceTimersByTime(1_001); // the first claim has expired
            secondAnswer = handler(post(url, JSON.stringify(checkoutFailure)));
            await vi.waitUntil(() => calls === 2);
            throw new Error('the first delivery fails after its claim expired');
          }
          if (calls === 2) await secondRunning;
        },
      });
      const first = await handler(post(url, JSON.stringify(checkoutFailure)));
      expect(first.status).toBe(500);
      const third = await handler(post(url, JSON.stringify(checkoutFailure)));
      expect(third.status).toBe(503);
      expect(calls).toBe(2);
      releaseSecond();
      expect((await secondAnswer!).status).toBe(200);
      const fourth = await handler(post(url, JSON.stringify(checkoutFailure)));
      expect({ status: fourth.status, duplicate: fourth.headers.get('x-callback-duplicate') }).toEqual({
        status: 200,
        duplicate: 'true',
      });
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
