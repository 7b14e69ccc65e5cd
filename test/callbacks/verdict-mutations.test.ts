// A fast-check property over the eight spec payloads: whatever is changed, added or removed,
// a payload that gained a failure signal it did not have is never an event with paid: true.
// The failure signals are written out here from the spec, independently of src/callbacks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeParseCallback } from '../../src/callbacks/index.js';
import { describedPayloads } from '../fixtures/described-payloads.js';

type Payload = Record<string, unknown>;
type SpecType = (typeof describedPayloads)[number][0];

const statusWord = (value: unknown): string | undefined =>
  typeof value === 'string' ? value.trim().toLowerCase().replace(/\.$/, '') : undefined;

/** The failure signals a payload of the original's type carries (spec §2.9 and §7). */
function failureSignals(type: SpecType, payload: Payload): Set<string> {
  const signals = new Set<string>();
  if (payload.paid === 'False' || payload.paid === false) signals.add('paid');
  for (const key of ['payment status', 'payment_status']) {
    if (statusWord(payload[key]) === 'payment incomplete') signals.add(key);
  }
  if (type.startsWith('payment.mobile_money')) {
    const code = payload.response_status;
    const readable = typeof code === 'number' || (typeof code === 'string' && /^\d+$/.test(code));
    if (readable && Number(code) !== 200) signals.add('response_status');
  }
  if (type.startsWith('payout') && payload.status === 'Failed') signals.add('status');
  // The failure shape: the success key of the original success payload is gone.
  const successKey: Partial<Record<SpecType, string>> = {
    'payment.card.succeeded': 'amount captured',
    'payment.mobile_money.succeeded': 'amount_captured',
    'payout.succeeded': 'payout_fee',
  };
  const key = successKey[type];
  if (key !== undefined && payload[key] === undefined) signals.add(`shape (${key} absent)`);
  return signals;
}

const signalValues = fc.constantFrom<unknown>(
  'False',
  false,
  'True',
  true,
  'Payment incomplete.',
  'Payment Incomplete.',
  ' payment INCOMPLETE ',
  'Payment complete.',
  'Payment Failed',
  'Completed',
  406,
  '406',
  200,
  0,
  'Failed',
  'Success',
  '0',
  '',
  null,
);
const keys = fc.constantFrom(
  'paid',
  'payment status',
  'payment_status',
  'response_status',
  'status',
  'amount captured',
  'amount_captured',
  'payout_fee',
  'transaction_reference',
  'order_id',
  'amount',
);

type Mutation = { kind: 'set'; key: string; value: unknown } | { kind: 'drop'; key: string };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    key: keys,
    value: fc.oneof({ arbitrary: signalValues, weight: 4 }, { arbitrary: fc.jsonValue(), weight: 1 }),
  }),
  fc.record({ kind: fc.constant('drop' as const), key: keys }),
);

const apply = (payload: Payload, mutations: readonly Mutation[]): Payload => {
  const out: Payload = { ...payload };
  for (const m of mutations) {
    if (m.kind === 'drop') delete out[m.key];
    else out[m.key] = m.value;
  }
  return out;
};

describe('no mutation that introduces a failure signal produces paid: true', () => {
  it('holds for every spec payload under up to four mutations', () => {
    let introduced = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...describedPayloads),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        ([type, original], mutations, asText) => {
          const mutated = apply(original, mutations);
          const before = failureSignals(type, original);
          const gained = [...failureSignals(type, mutated)].filter((signal) => !before.has(signal));
          const result = safeParseCallback(asText ? JSON.stringify(mutated) : mutated);
          if (gained.length === 0) return;
          introduced++;
          if (result.success && result.event.paid) {
            throw new Error(`${type} gained ${gained.join(', ')} yet parsed as ${result.event.type}`);
          }
        },
      ),
      { numRuns: 5_000, seed: 20_261_123 },
    );
    // the generator does introduce failure signals, often
    expect(introduced).toBeGreaterThan(200);
  });

  it('holds for the cases the reliability review found', () => {
    const cases: [SpecType, Payload][] = [
      ['payment.card.failed', { 'amount captured': '0' }],
      ['payment.card.succeeded', { 'payment status': 'Payment incomplete.' }],
      [
        'payment.mobile_money.succeeded',
        { payment_status: 'Payment Incomplete.', paid: 'False', amount_captured: 0 },
      ],
      ['payment.mobile_money.succeeded', { response_status: 406 }],
      ['checkout.succeeded', { payment_status: 'Payment Failed' }],
      ['payout.succeeded', { status: 'Failed' }],
    ];
    expect.assertions(cases.length);
    for (const [type, change] of cases) {
      const original = describedPayloads.find(([t]) => t === type)![1] as Payload;
      const result = safeParseCallback({ ...original, ...change });
      expect(result.success && result.event.paid).toBe(false);
    }
  });
});
