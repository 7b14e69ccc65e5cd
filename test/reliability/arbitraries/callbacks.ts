// fast-check arbitraries for callback payloads, built from the real schemas (src/callbacks/schemas.ts):
// valid payloads of each variant (through the sandbox's payload builders, checked against the
// schema), and mutations of them — dropped keys, swapped types, space-vs-underscore key
// variants, unicode, huge numbers, deep nesting, `__proto__` and other dangerous keys — delivered
// as an object, a JSON string or UTF-8 bytes.
import fc from 'fast-check';
import { callbackSchemas } from '../../../src/callbacks/schemas.js';
import {
  callbackPayloadTypes,
  cardPaymentFailurePayload,
  cardPaymentSuccessPayload,
  checkoutFailurePayload,
  checkoutSuccessPayload,
  mobileMoneyPaymentFailurePayload,
  mobileMoneyPaymentSuccessPayload,
  payoutFailurePayload,
  payoutSuccessPayload,
  type CallbackPayloadType,
} from '../../../src/sandbox/payloads.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Payload = Record<string, unknown>;

/** Every key any variant's schema documents (the union, for cross-variant key swaps). */
export const documentedKeys: readonly string[] = [
  ...new Set(Object.values(callbackSchemas).flatMap((schema) => Object.keys(schema.shape))),
];

/** The documented keys of one variant, from its schema. */
export const keysOf = (type: CallbackPayloadType): readonly string[] =>
  Object.keys(callbackSchemas[type].shape);

const amount = fc.integer({ min: 1, max: 10_000_000 });
const currency = fc.constantFrom('KES', 'USD', 'UGX', 'TZS', 'EUR');
// fc.string over a fixed alphabet: far faster to generate than fc.stringMatching
const chars = (alphabet: string) => fc.constantFrom(...alphabet.split(''));
const upperDigits = chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
const id = (prefix: string) =>
  fc.string({ unit: upperDigits, minLength: 6, maxLength: 14 }).map((s) => prefix + s);
const timestamp = fc.integer({ min: 1_000_000_000, max: 2_000_000_000 });
const brand = fc.constantFrom('MOBILE-MONEY', 'M-PESA', 'AIRTEL-MONEY', 'T-KASH');
const reference = fc.oneof(
  fc.string({
    unit: chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'),
    minLength: 1,
    maxLength: 24,
  }),
  fc.integer({ min: 1, max: 2 ** 40 }).map(String),
);
const method = fc.constantFrom('card' as const, 'mobile_money' as const);

/** A valid payload of the given variant, as the service would post it. */
export const validPayload = (type: CallbackPayloadType): fc.Arbitrary<Payload> => {
  switch (type) {
    case 'payment.card.succeeded':
      return fc
        .record({ amount, currency, id: id('PAY'), transactionId: id('TXN'), timestamp })
        .map((i) => ({ ...cardPaymentSuccessPayload(i) }));
    case 'payment.card.failed':
      return fc
        .record({ amount, currency, id: id('PAY'), transactionId: id('TXN'), timestamp })
        .map((i) => ({ ...cardPaymentFailurePayload(i) }));
    case 'payment.mobile_money.succeeded':
      return fc
        .tuple(fc.record({ amount, id: id('PAY'), transactionId: id('TXN'), timestamp }), brand)
        .map(([i, b]) => ({ ...mobileMoneyPaymentSuccessPayload(i, b) }));
    case 'payment.mobile_money.failed':
      return fc
        .record({
          amount,
          id: id('PAY'),
          timestamp,
          transactionReference: reference,
          responseStatus: fc.constantFrom(406, 400, 402, 500),
          message: fc.oneof(fc.constant('Insufficient funds'), fc.string({ maxLength: 40 })),
        })
        .map((i) => ({ ...mobileMoneyPaymentFailurePayload(i) }));
    case 'checkout.succeeded':
      return fc
        .tuple(fc.record({ method, orderId: reference, amount }), brand)
        .map(([i, b]) => ({ ...checkoutSuccessPayload(i, b) }));
    case 'checkout.failed':
      return fc
        .tuple(
          fc.record({
            method,
            orderId: reference,
            amount,
            message: fc.constantFrom('Insufficient funds', 'Declined'),
          }),
          brand,
        )
        .map(([i, b]) => ({ ...checkoutFailurePayload(i, b) }));
    case 'payout.succeeded':
      return fc
        .record({
          amount,
          currency,
          referenceId: reference,
          payoutFee: fc.integer({ min: 0, max: 500 }),
          walletBalance: fc.integer({ min: 0, max: 10_000_000 }),
          transactionId: id('PYT'),
        })
        .map((i) => ({ ...payoutSuccessPayload(i) }));
    case 'payout.failed':
      return fc
        .record({
          amount,
          currency,
          referenceId: reference,
          walletBalance: fc.integer({ min: 0, max: 10_000_000 }),
          transactionId: id('PYT'),
        })
        .map((i) => ({ ...payoutFailurePayload(i) }));
  }
};

export const anyValidPayload: fc.Arbitrary<{ type: CallbackPayloadType; payload: Payload }> = fc
  .constantFrom(...callbackPayloadTypes)
  .chain((type) => validPayload(type).map((payload) => ({ type, payload })));

const deep = (depth: number, leaf: unknown, kind: 'array' | 'object'): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
};

/** Values that break naive readers: wrong types, edge numbers, unicode, documented-looking strings. */
export const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 2 },
  { arbitrary: fc.integer(), weight: 2 },
  { arbitrary: fc.double(), weight: 2 }, // includes NaN, ±Infinity, -0 (object form only survives them)
  {
    arbitrary: fc.constantFrom(
      null,
      undefined,
      true,
      false,
      0,
      -1,
      200,
      406,
      2 ** 53 + 1,
      1e308,
      -1e308,
      Number.MAX_SAFE_INTEGER,
      '',
      ' ',
      'True',
      'False',
      'true',
      'false',
      ' True',
      'TRUE',
      '1',
      '0',
      '200',
      '406',
      '1e3',
      '0x10',
      '-5',
      '12.50',
      '١٢٣', // Arabic-Indic digits
      '１２３', // full-width digits
      '9'.repeat(400),
      '1'.repeat(20),
      'Payment complete.',
      'Payment incomplete.',
      'Payment Incomplete.',
      'payment complete.',
      ' PAYMENT INCOMPLETE ',
      'Payment Failed',
      'Completed',
      '1,500.00',
      '1500.00',
      '01500',
      '+5',
      '999999999999999934464',
      1e21,
      9_000_000_000_000,
      'Success',
      'Failed',
      'CARD',
      'MOBILE-MONEY',
      '\u0000',
      '\ud800', // lone surrogate
      '👍🏽',
      '<script>alert(1)</script>',
      '__proto__',
    ),
    weight: 4,
  },
  { arbitrary: fc.bigInt().map((b) => b.toString()), weight: 1 },
  { arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }), weight: 1 },
  {
    arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    weight: 1,
  },
  {
    arbitrary: fc
      .tuple(fc.integer({ min: 50, max: 3_000 }), fc.constantFrom('array' as const, 'object' as const))
      .map(([d, kind]) => deep(d, 'x', kind)),
    weight: 1,
  },
);

/** Keys that attack prototypes or look like documented keys with a twist. */
export const dangerousKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'valueOf',
    'hasOwnProperty',
    'then',
    'type',
    'data',
    'warnings',
    '',
    ' ',
  ),
  fc.constantFrom(...documentedKeys),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

const keyVariant = (key: string): fc.Arbitrary<string> =>
  fc.constantFrom(
    key.replaceAll(' ', '_'),
    key.replaceAll('_', ' '),
    key.toUpperCase(),
    key.charAt(0).toUpperCase() + key.slice(1),
    `${key} `,
    ` ${key}`,
    key.replaceAll(' ', '\u00a0'), // no-break space
    key.replaceAll(' ', ''),
  );

export type Mutation =
  | { readonly kind: 'drop'; readonly key: string }
  | { readonly kind: 'set'; readonly key: string; readonly value: unknown }
  | { readonly kind: 'rename'; readonly key: string; readonly to: string }
  | { readonly kind: 'add'; readonly key: string; readonly value: unknown }
  | { readonly kind: 'swapType'; readonly key: string };

const mutationFor = (keys: readonly string[]): fc.Arbitrary<Mutation> => {
  const key = fc.constantFrom(...keys);
  return fc.oneof(
    { arbitrary: key.map((k) => ({ kind: 'drop' as const, key: k })), weight: 3 },
    { arbitrary: fc.record({ kind: fc.constant('set' as const), key, value: weirdValue }), weight: 4 },
    { arbitrary: key.map((k) => ({ kind: 'swapType' as const, key: k })), weight: 3 },
    {
      arbitrary: key.chain((k) => keyVariant(k).map((to) => ({ kind: 'rename' as const, key: k, to }))),
      weight: 3,
    },
    {
      arbitrary: fc.record({ kind: fc.constant('add' as const), key: dangerousKey, value: weirdValue }),
      weight: 2,
    },
  );
};

/** Sets an own, enumerable property even for `__proto__` (which `obj[k] = v` would not). */
const define = (target: Payload, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

const swapType = (value: unknown): unknown => {
  if (typeof value === 'string') return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value === 'True';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value === null ? 'null' : null;
};

export function applyMutations(payload: Payload, mutations: readonly Mutation[]): Payload {
  const out: Payload = {};
  for (const [k, v] of Object.entries(payload)) define(out, k, v);
  for (const m of mutations) {
    switch (m.kind) {
      case 'drop':
        delete out[m.key];
        break;
      case 'set':
      case 'add':
        define(out, m.key, m.value);
        break;
      case 'swapType':
        if (Object.hasOwn(out, m.key)) define(out, m.key, swapType(out[m.key]));
        break;
      case 'rename':
        if (Object.hasOwn(out, m.key)) {
          const value = out[m.key];
          delete out[m.key];
          define(out, m.to, value);
        }
        break;
    }
  }
  return out;
}

export type Encoding = 'object' | 'json' | 'bytes';

/** JSON text keeping `__proto__` as an ordinary key (JSON.stringify does). */
export const encode = (payload: Payload, encoding: Encoding): unknown => {
  if (encoding === 'object') return payload;
  let text: string;
  try {
    text = JSON.stringify(payload, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch {
    return payload; // e.g. nesting too deep for JSON.stringify: deliver as an object
  }
  return encoding === 'json' ? text : new TextEncoder().encode(text);
};

/** A valid payload, mutated 1–4 times, in one of the three encodings. */
export const mutatedPayload: fc.Arbitrary<{
  type: CallbackPayloadType;
  mutations: Mutation[];
  input: unknown;
}> = fc.constantFrom(...callbackPayloadTypes).chain((type) =>
  fc
    .tuple(
      validPayload(type),
      fc.array(mutationFor([...keysOf(type), ...documentedKeys]), { minLength: 1, maxLength: 4 }),
      fc.constantFrom<Encoding>('object', 'object', 'json', 'bytes'),
    )
    .map(([payload, mutations, encoding]) => ({
      type,
      mutations,
      input: encode(applyMutations(payload, mutations), encoding),
    })),
);

/** Bodies that are not payloads at all: any JSON value, any string, any bytes, broken JSON. */
export const garbageBody: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.anything({
    maxDepth: 3,
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withNullPrototype: true,
  }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }),
  anyValidPayload.chain(({ payload }) =>
    fc.nat({ max: 200 }).map((cut) => JSON.stringify(payload).slice(0, cut)),
  ),
  anyValidPayload.map(({ payload }) => `${JSON.stringify(payload)}garbage`),
  fc.constantFrom(
    '',
    'null',
    '[]',
    '{}',
    '"{}"',
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '\ufeff{}',
    `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
  ),
);

/** Payloads carrying `__proto__`/`constructor.prototype` at the top level and nested, as JSON. */
export const pollutingPayload: fc.Arbitrary<unknown> = fc
  .tuple(
    anyValidPayload,
    fc.constantFrom('__proto__', 'constructor'),
    fc.constantFrom<Encoding>('object', 'json', 'bytes'),
  )
  .map(([{ payload }, key, encoding]) => {
    const attack =
      key === '__proto__' ? { polluted: 'yes', paid: 'True' } : { prototype: { polluted: 'yes' } };
    const copy = applyMutations(payload, [{ kind: 'add', key, value: attack }]);
    return encode(copy, encoding);
  });
