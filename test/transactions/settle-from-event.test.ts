// docs/transactions.md's `settleFromEvent` (settling from your own route, run as pasted) against
// the handler: a mobile-money or checkout callback documents no currency, but one it carries under
// any spelling (`Currency`, `currency_code`, `currencyCode`) is the event's `currency`, so the
// recipe refuses another currency than the recorded one as the handler does, and a currency that
// is no three-letter code is refused when the callback is parsed.
import { afterAll, describe, expect, it } from 'vitest';
import {
  callbackDedupeKey,
  parseCallback,
  safeParseCallback,
  type CallbackEvent,
} from '../../src/callbacks/index.js';
import { callbackFixtures } from '../../src/testing/index.js';
import {
  TransactionConflictError,
  createTransactionTracker,
  type TransactionTracker,
} from '../../src/transactions/index.js';
import { documentedFunction, removeDocumentedFiles } from '../helpers/documented.js';

type SettleFromEvent = (
  tracker: TransactionTracker,
  reference: string,
  signature: string,
  event: CallbackEvent,
) => Promise<{ readonly result: string }>;

afterAll(removeDocumentedFiles);

const mobileMoney = callbackFixtures['payment.mobile_money.succeeded'];
const checkout = callbackFixtures['checkout.succeeded'];

async function recorded(kind: 'mobile_money' | 'checkout', reference: string, amount: string) {
  const tracker = createTransactionTracker();
  await tracker.begin({ reference, kind, amount, currency: 'KES' });
  return tracker;
}

describe("the documented settleFromEvent and a currency under another key's spelling", () => {
  it.each([
    ['Currency', 'USD'],
    ['currency_code', 'USD'],
    ['currencyCode', 'usd'],
    ['currency', 'USD'],
  ])(
    'refuses a mobile-money success saying %s %s on a KES order, as the handler does',
    async (key, currency) => {
      const settleFromEvent = await documentedFunction<SettleFromEvent>('settleFromEvent');
      const reference = String(mobileMoney.transaction_reference);
      const tracker = await recorded('mobile_money', reference, String(mobileMoney.amount));
      const event = parseCallback(JSON.stringify({ ...mobileMoney, [key]: currency }));
      expect(event.currency).toBe(currency);
      const error = await settleFromEvent(tracker, reference, 'sig', event).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransactionConflictError);
      expect(error).toMatchObject({ reason: 'currency_mismatch' });
      expect(await tracker.get(reference)).toMatchObject({ state: 'pending' });
    },
  );

  it.each([['Currency'], ['currencyCode']])(
    'refuses a checkout success saying %s USD on a KES order',
    async (key) => {
      const settleFromEvent = await documentedFunction<SettleFromEvent>('settleFromEvent');
      const reference = String(checkout.order_id);
      const tracker = await recorded('checkout', reference, String(checkout.amount));
      const event = parseCallback(JSON.stringify({ ...checkout, [key]: 'USD' }));
      expect(event.currency).toBe('USD');
      const signature = 'sig';
      expect(callbackDedupeKey(event, reference, signature)).toMatch(/^checkout\.succeeded:/);
      await expect(settleFromEvent(tracker, reference, signature, event)).rejects.toMatchObject({
        reason: 'currency_mismatch',
      });
      expect(await tracker.get(reference)).toMatchObject({ state: 'pending' });
    },
  );

  it('settles a mobile-money success whose currency, in any spelling, is the recorded one', async () => {
    const settleFromEvent = await documentedFunction<SettleFromEvent>('settleFromEvent');
    const reference = String(mobileMoney.transaction_reference);
    const tracker = await recorded('mobile_money', reference, String(mobileMoney.amount));
    const event = parseCallback(JSON.stringify({ ...mobileMoney, Currency_Code: 'kes' }));
    await expect(settleFromEvent(tracker, reference, 'sig', event)).resolves.toMatchObject({
      result: 'settled',
    });
    expect(await tracker.get(reference)).toMatchObject({ state: 'succeeded' });
  });

  it('leaves the currency of a mobile-money or checkout callback that carries none undefined', () => {
    expect(parseCallback(JSON.stringify(mobileMoney)).currency).toBeUndefined();
    expect(parseCallback(JSON.stringify(checkout)).currency).toBeUndefined();
  });
});

describe('a currency that is no three-letter code, under any spelling', () => {
  const payloads = { 'mobile-money': mobileMoney, checkout };
  it.each([
    ['mobile-money', 'currency', 'KE'],
    ['mobile-money', 'Currency', 840],
    ['mobile-money', 'currency_code', 'KES '],
    ['checkout', 'currencyCode', 'ＫＥＳ'],
    ['checkout', 'currency', { code: 'KES' }],
    ['checkout', 'currency', null],
  ] as const)('is refused on a %s callback: %s %j', (kind, key, currency) => {
    const result = safeParseCallback(JSON.stringify({ ...payloads[kind], [key]: currency }));
    expect(result.event).toBeUndefined();
    expect(result.error).toMatchObject({ reason: 'invalid_payload' });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.code])).toEqual([
      [key, 'invalid_currency'],
    ]);
  });
});
