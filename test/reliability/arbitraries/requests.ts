// fast-check arbitraries for the four request builders: valid friendly inputs (varied formats),
// and single invalidating mutations, each with the path its ValidationError must name.
import fc from 'fast-check';
import { testCards, testCvc } from '../helpers/secrets.js';

export type Path = readonly (string | number)[];
export type Input = Record<string, unknown>;
export type Builder = 'card' | 'mobileMoney' | 'checkout' | 'payout';
export const builders: readonly Builder[] = ['card', 'mobileMoney', 'checkout', 'payout'];

const year = new Date().getUTCFullYear();
const paymentPhone = fc.constantFrom(
  '0712345678',
  '+254 712 345 678',
  '712345678',
  '254712345678',
  '0112345678',
);
const payoutPhone = fc.constantFrom('0712345678', '+254 712 345 678', '254798765432');
const money = (min: number) =>
  fc.integer({ min, max: 1_000_000 }).chain((n) => fc.constantFrom<unknown>(n, String(n), BigInt(n)));
const currency = fc.constantFrom('KES', 'kes', 'USD', 'UGX');
const url = fc.constantFrom('https://shop.example/hooks/payments', 'http://127.0.0.1:3000/cb?x=1');
const letters = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'.split(''));
const text = fc
  .tuple(
    letters,
    fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz .'-".split('')), maxLength: 30 }),
  )
  .map(([first, rest]) => first + rest);
const orderRef = fc.integer({ min: 0, max: 99_999_999 }).map((n) => `order-${n}`);
const products = fc.option(
  fc.array(
    fc.record(
      {
        product_id: fc.integer({ min: 0, max: 10_000 }),
        product_name: text,
        quantity: fc.integer({ min: 1, max: 50 }),
        unit_price: fc.integer({ min: 0, max: 100_000 }),
      },
      { requiredKeys: ['product_name', 'quantity', 'unit_price'] },
    ),
    { minLength: 1, maxLength: 3 },
  ),
  { nil: undefined },
);
const amount = (withOrderId: boolean) =>
  fc.record({
    ...(withOrderId ? { order_id: fc.integer({ min: 1, max: 1_000_000 }) } : {}),
    delivery_fee: money(1),
    discount_fee: money(1),
    total: money(1),
    currency,
  });
const customer = (phone: fc.Arbitrary<string>) =>
  fc.record({
    full_name: text,
    phone_number: phone,
    email: fc.constantFrom('jane@example.com', 'a.b+c@shop.co.ke'),
  });
const withoutUndefined = (value: Input): Input =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));

export const validInput: Record<Builder, fc.Arbitrary<Input>> = {
  card: fc
    .record({
      customer_details: customer(paymentPhone),
      products,
      amount: amount(false),
      card_details: fc.record({
        card_number: fc.constantFrom(...testCards, '4242 4242 4242 4242', '4242-4242-4242-4242'),
        expiry_month: fc.integer({ min: 1, max: 12 }),
        expiry_year: fc.integer({ min: year + 1, max: year + 10 }),
        cvc: fc.constantFrom(testCvc, Number(testCvc), '831'),
      }),
      callback_details: fc.record({ transaction_reference: orderRef, callback_url: url }),
    })
    .map(withoutUndefined),
  mobileMoney: fc
    .record({
      customer_details: customer(paymentPhone),
      products,
      amount: amount(false),
      callback_details: fc.record({ transaction_reference: orderRef, callback_url: url }),
    })
    .map(withoutUndefined),
  checkout: fc.record({
    customer_details: customer(paymentPhone),
    amount: amount(true),
    redirect_urls: fc.record({ success_url: url, failed_url: url, callback_url: url }),
  }),
  payout: fc.record({
    customer_details: customer(payoutPhone),
    destination: fc.record({
      type: fc.constant('mobile'),
      country_code: fc.constantFrom('KE', 'ke'),
      mobile_number: payoutPhone,
      wallet_name: fc.constantFrom('MOBILE-MONEY', 'M-PESA'),
    }),
    transfer: fc.record({
      amount: money(1),
      currency,
      reference_id: fc.integer({ min: 100_000_000_000, max: 999_999_999_999 }),
      description: text,
    }),
    webhook_endpoint: fc.record({ webhook_url: url }),
  }),
};

const DROP = Symbol('drop');
type Replacement = unknown;

// Invalid values by field (spec §2, §8 and DESIGN.md "Inputs and the wire").
const badText = [undefined, DROP, '', '   ', 5, null, ['x'], { a: 1 }];
const badPaymentPhone = [
  DROP,
  '0812345678',
  '25471234567',
  '254612345678',
  '2547123456789',
  'abc',
  712345678,
  '',
  null,
];
const badPayoutPhone = [...badPaymentPhone, '0112345678', '254112345678'];
const badEmail = [DROP, 'not-an-email', '', 'a@', 'jane@', 5, null];
const badTotal = [
  DROP,
  0,
  -1,
  12.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '1e3',
  ' 10',
  '',
  '0x10',
  '-5',
  'abc',
  null,
  -1n,
  true,
];
const badFee = [DROP, 0, '0', 0n, -1, 1.5, 'abc', '1e3', Number.NaN, null, -2n];
const badCurrency = [DROP, 'KE', 'KESS', '123', '', 5, null, 'K$S'];
const badUrl = [
  DROP,
  'ftp://shop.example/cb',
  'not a url',
  '/relative/path',
  'javascript:alert(1)',
  '',
  5,
  null,
  'mailto:a@b.c',
];
const badCardNumber = [
  DROP,
  '4242424242424241', // Luhn
  '424242424242424', // 15 digits
  '42424242424242424', // 17 digits
  '4242x24242424242',
  '',
  2 ** 53 + 2, // above 2^53: a JS number that may already have lost digits
  4242424242424241,
  null,
  { number: testCards[0] },
];
const badMonth = [DROP, 0, 13, '1a', 1.5, -1, '', null];
const badYear = [DROP, 99, 20301, year - 1, '20x0', 1.5, null];
const badCvc = [DROP, '12', '1234', 'abc', 12, 1000, '', null, '012'];
const badQuantity = [DROP, 0, -1, 1.5, 'x', null];
const badPrice = [DROP, -1, 'x', Number.NaN, null];
const badOrderId = [-1, 1.5, 'abc', null, 2 ** 60];
const badReferenceId = [12345, '012345678901', 1_234_567_890_123, 'abc', -1, 1.5, null];
const badCountry = [DROP, 'KEN', 'K', '12', '', 5, 'UK', 'EU', 'zz'];

type Target = { readonly path: Path; readonly values: readonly Replacement[] };

const paymentTargets = (withCard: boolean): Target[] => [
  { path: ['customer_details'], values: [DROP, null, 'x', 5, []] },
  { path: ['customer_details', 'full_name'], values: badText },
  { path: ['customer_details', 'payment_method'], values: ['', '  ', 5, null] },
  { path: ['customer_details', 'phone_number'], values: badPaymentPhone },
  { path: ['customer_details', 'email'], values: badEmail },
  { path: ['customer_details', 'location'], values: [5, null, {}] },
  { path: ['amount'], values: [null, 'x', 5, []] },
  { path: ['amount', 'total'], values: badTotal },
  { path: ['amount', 'delivery_fee'], values: badFee },
  { path: ['amount', 'discount_fee'], values: badFee },
  { path: ['amount', 'currency'], values: badCurrency },
  { path: ['amount', 'order_id'], values: badOrderId },
  { path: ['products'], values: [null, 'x', {}, 5] },
  { path: ['products', 0], values: [null, 'x', 5] },
  { path: ['products', 0, 'product_name'], values: badText },
  { path: ['products', 0, 'quantity'], values: badQuantity },
  { path: ['products', 0, 'unit_price'], values: badPrice },
  { path: ['callback_details'], values: [DROP, null, 'x'] },
  { path: ['callback_details', 'transaction_reference'], values: badText },
  { path: ['callback_details', 'callback_url'], values: badUrl },
  ...(withCard
    ? [
        { path: ['card_details'], values: [DROP, null, testCards[0]] },
        { path: ['card_details', 'card_number'], values: badCardNumber },
        { path: ['card_details', 'expiry_month'], values: badMonth },
        { path: ['card_details', 'expiry_year'], values: badYear },
        { path: ['card_details', 'cvc'], values: badCvc },
      ]
    : []),
];

export const invalidTargets: Record<Builder, Target[]> = {
  card: paymentTargets(true),
  mobileMoney: paymentTargets(false),
  checkout: [
    { path: ['customer_details'], values: [DROP, null, 'x'] },
    { path: ['customer_details', 'full_name'], values: badText },
    { path: ['customer_details', 'phone_number'], values: badPaymentPhone },
    { path: ['customer_details', 'email'], values: badEmail },
    { path: ['amount'], values: [DROP, null, 'x'] },
    { path: ['amount', 'order_id'], values: [DROP, ...badOrderId] },
    { path: ['amount', 'total'], values: badTotal },
    { path: ['amount', 'delivery_fee'], values: badFee },
    { path: ['amount', 'currency'], values: badCurrency },
    { path: ['redirect_urls'], values: [DROP, null, 'https://shop.example'] },
    { path: ['redirect_urls', 'success_url'], values: badUrl },
    { path: ['redirect_urls', 'failed_url'], values: badUrl },
    { path: ['redirect_urls', 'callback_url'], values: badUrl },
  ],
  payout: [
    { path: ['customer_details'], values: [DROP, null, 'x'] },
    { path: ['customer_details', 'full_name'], values: badText },
    { path: ['customer_details', 'phone_number'], values: badPayoutPhone },
    { path: ['customer_details', 'email'], values: badEmail },
    { path: ['destination'], values: [DROP, null] },
    { path: ['destination', 'type'], values: badText },
    { path: ['destination', 'country_code'], values: badCountry },
    { path: ['destination', 'mobile_number'], values: badPayoutPhone },
    { path: ['destination', 'wallet_name'], values: badText },
    { path: ['transfer'], values: [DROP, null] },
    { path: ['transfer', 'amount'], values: badTotal },
    { path: ['transfer', 'currency'], values: badCurrency },
    { path: ['transfer', 'reference_id'], values: badReferenceId },
    { path: ['transfer', 'description'], values: badText },
    { path: ['webhook_endpoint'], values: [DROP, null] },
    { path: ['webhook_endpoint', 'webhook_url'], values: badUrl },
  ],
};

/** Unknown keys, at the root and one level down (request objects are strict). */
const unknownKeyTargets: Record<Builder, Path[]> = {
  card: [[], ['customer_details'], ['card_details'], ['amount'], ['callback_details']],
  mobileMoney: [[], ['customer_details'], ['amount'], ['callback_details']],
  checkout: [[], ['customer_details'], ['amount'], ['redirect_urls']],
  payout: [[], ['customer_details'], ['destination'], ['transfer'], ['webhook_endpoint']],
};
const unknownKey = fc.constantFrom(
  'client_details',
  'customerDetails',
  'card_numbr',
  'phone',
  'amount ',
  'Email',
  '__proto__',
  'constructor',
);

const clone = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(clone);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, {
        value: clone(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return value;
};

/** Returns a copy of `input` with the value at `path` replaced (or removed, or a key added). */
export function mutate(
  input: Input,
  path: Path,
  replacement: Replacement,
  addKey?: string,
): Input | undefined {
  const root = clone(input) as Input;
  let parent: Record<string | number, unknown> = root;
  const steps = addKey === undefined ? path.slice(0, -1) : path;
  for (const step of steps) {
    const next = parent[step];
    if (next === null || typeof next !== 'object') return undefined; // path absent in this input (optional parent)
    parent = next as Record<string | number, unknown>;
  }
  if (addKey !== undefined) {
    Object.defineProperty(parent, addKey, {
      value: replacement,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return root;
  }
  const last = path[path.length - 1]!;
  if (replacement === DROP) {
    if (!(last in parent)) return undefined;
    delete parent[last];
  } else parent[last] = replacement;
  return root;
}

export interface InvalidCase {
  readonly builder: Builder;
  readonly input: Input;
  /** The path a ValidationError issue must name. */
  readonly path: Path;
  readonly description: string;
}

const describeValue = (v: unknown): string =>
  v === DROP ? 'missing' : typeof v === 'bigint' ? `${v}n` : (JSON.stringify(v) ?? String(v));

/** One valid input with one invalidating mutation, for the given builder. */
export const invalidCase = (builder: Builder): fc.Arbitrary<InvalidCase> =>
  fc
    .tuple(
      validInput[builder],
      fc.oneof(
        {
          weight: 9,
          arbitrary: fc
            .constantFrom(...invalidTargets[builder])
            .chain((t) =>
              fc.constantFrom(...t.values).map((v) => ({ t, v, key: undefined as string | undefined })),
            ),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.constantFrom(...unknownKeyTargets[builder]), unknownKey, fc.jsonValue({ maxDepth: 1 }))
            .map(([path, key, v]) => ({
              t: { path, values: [] } as Target,
              v: v as unknown,
              key: key as string | undefined,
            })),
        },
      ),
    )
    .map(([input, { t, v, key }]) => {
      // A target under an optional parent the valid input lacks: give it the parent first.
      let base = input;
      if (key === undefined && t.path[0] === 'products' && base.products === undefined) {
        base = { ...base, products: [{ product_name: 'Tea', quantity: 1, unit_price: 100 }] };
      }
      if (key === undefined && t.path[0] === 'amount' && base.amount === undefined) {
        base = { ...base, amount: { delivery_fee: 100, discount_fee: 50, total: 100, currency: 'KES' } };
      }
      const mutated = mutate(base, t.path, v, key);
      return mutated === undefined
        ? undefined
        : {
            builder,
            input: mutated,
            path: key === undefined ? t.path : [...t.path, key],
            description:
              key === undefined
                ? `${t.path.join('.')} = ${describeValue(v)}`
                : `unknown key ${[...t.path, key].join('.')}`,
          };
    })
    .filter((c): c is InvalidCase => c !== undefined);

export const anyInvalidCase: fc.Arbitrary<InvalidCase> = fc.constantFrom(...builders).chain(invalidCase);
