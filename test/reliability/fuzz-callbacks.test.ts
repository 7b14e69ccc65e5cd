// Fuzzing the callback reader: ≥ 100,000 generated and mutated payloads (seeded, reproducible:
// FUZZ_SEED overrides the seed, FUZZ_SCALE the run counts). safeParseCallback must never throw,
// every accepted event's data must pass its variant schema and have the documented types of
// spec §2.9, and nothing may pollute a prototype.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeParseCallback } from '../../src/callbacks/parse.js';
import { callbackSchemas } from '../../src/callbacks/schemas.js';
import { callbackWarningCodes } from '../../src/callbacks/events.js';
import { callbackFixtures } from '../../src/testing/fixtures.js';
import { callbackPayloadTypes, type CallbackPayloadType } from '../../src/sandbox/payloads.js';
import { anyValidPayload, garbageBody, mutatedPayload, pollutingPayload } from './arbitraries/callbacks.js';
import { recordFigures, resetFigures } from './helpers/figures.js';

const SECTION = 'fuzz-callbacks';
const seed = Number(process.env.FUZZ_SEED ?? 20_240_601);
const scale = Number(process.env.FUZZ_SCALE ?? 1);
const runs = {
  valid: Math.round(16_000 * scale),
  mutated: Math.round(64_000 * scale),
  garbage: Math.round(16_000 * scale),
  polluting: Math.round(4_000 * scale),
};

// Spec §2.9, written out independently of the schemas: the documented type of every key.
type Kind = 'string' | 'integer' | 'number' | 'paid';
const S: Kind = 'string';
const I: Kind = 'integer';
const N: Kind = 'number';
const P: Kind = 'paid';
const checkout = {
  payment_method: S,
  paid: P,
  response_status: I,
  order_id: S,
  message: S,
  amount: S,
  payment_status: S,
};
const documented: Record<CallbackPayloadType, Record<string, Kind>> = {
  'payment.card.succeeded': {
    id: S,
    status: I,
    'payment method': S,
    message: S,
    amount: S,
    currency: S,
    'amount captured': S,
    'payment status': S,
    'transaction id': S,
    paid: P,
    timestamp: I,
  },
  'payment.card.failed': {
    id: S,
    status: I,
    'payment method': S,
    message: S,
    amount: S,
    currency: S,
    'payment status': S,
    'transaction id': S,
    paid: P,
    timestamp: I,
  },
  'payment.mobile_money.succeeded': {
    id: S,
    response_status: I,
    payment_method: S,
    message: S,
    amount: N,
    amount_captured: N,
    payment_status: S,
    'transaction id': S,
    paid: P,
    timestamp: I,
  },
  'payment.mobile_money.failed': {
    id: S,
    transaction_reference: S,
    response_status: I,
    amount: N,
    paid: P,
    'payment status': S,
    message: S,
    timestamp: I,
  },
  'checkout.succeeded': checkout,
  'checkout.failed': checkout,
  'payout.succeeded': {
    amount: S,
    currency: S,
    message: S,
    payout_fee: S,
    reference_id: S,
    status: S,
    transaction_id: S,
    wallet_balance: S,
  },
  'payout.failed': {
    amount: S,
    currency: S,
    message: S,
    reference_id: S,
    status: S,
    transaction_id: S,
    wallet_balance: S,
  },
};
const hasKind = (value: unknown, kind: Kind): boolean =>
  kind === 'string'
    ? typeof value === 'string'
    : kind === 'integer'
      ? Number.isSafeInteger(value)
      : kind === 'number'
        ? typeof value === 'number' && Number.isFinite(value)
        : value === 'True' || value === 'False';

const statusWord = (value: unknown) =>
  typeof value === 'string' ? value.trim().toLowerCase().replace(/\.$/, '') : value;

/** Any failure signal left in the data of an event reported as paid (spec §2.9). */
function failureSignalsOfPaid(
  type: string,
  data: Record<string, unknown>,
  codes: readonly string[],
): string[] {
  const found: string[] = [];
  const documentedContradiction = codes.includes('paid_flag_contradicts_payment_status');
  if (data.paid !== undefined && data.paid !== 'True' && !documentedContradiction)
    found.push(`paid ${String(data.paid)}`);
  for (const key of ['payment status', 'payment_status']) {
    if (data[key] !== undefined && statusWord(data[key]) !== 'payment complete')
      found.push(`${key} not complete`);
  }
  if (type.startsWith('payment.mobile_money') && data.response_status !== 200)
    found.push('response_status not 200');
  if (type.startsWith('payout') && data.status !== 'Success') found.push('payout status not Success');
  return found.map((signal) => `paid: true with ${signal}`);
}

const tally = {
  payloads: 0,
  accepted: 0,
  rejected: 0,
  throws: 0,
  acceptedWithBadData: 0,
  prototypePollution: 0,
  acceptedByType: Object.fromEntries(callbackPayloadTypes.map((t) => [t, 0])) as Record<string, number>,
};
const objectPrototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort().join();

/** Problems with one result (empty when it is sound), and the type it was accepted as. */
function check(input: unknown): { problems: string[]; acceptedAs?: string } {
  const problems = inspectResult(input);
  return { problems, acceptedAs: lastAcceptedType };
}

let lastAcceptedType: string | undefined;

function inspectResult(input: unknown): string[] {
  lastAcceptedType = undefined;
  tally.payloads++;
  let result: ReturnType<typeof safeParseCallback>;
  try {
    result = safeParseCallback(input);
  } catch (error) {
    tally.throws++;
    return [`threw ${String(error)}`];
  }
  const problems: string[] = [];
  if (
    Object.getOwnPropertyNames(Object.prototype).sort().join() !== objectPrototypeKeys ||
    ({} as Record<string, unknown>).polluted !== undefined ||
    ({} as Record<string, unknown>).paid !== undefined
  ) {
    tally.prototypePollution++;
    problems.push('Object.prototype was modified');
  }
  if (!result.success) {
    tally.rejected++;
    if (!(result.error instanceof Error) || result.error.name !== 'CallbackParseError') {
      problems.push(`rejected with ${String(result.error)} instead of a CallbackParseError`);
    }
    return problems;
  }
  tally.accepted++;
  const { event } = result;
  lastAcceptedType = event.type;
  tally.acceptedByType[event.type] = (tally.acceptedByType[event.type] ?? 0) + 1;
  const data = event.data as Record<string, unknown>;
  const bad: string[] = [];
  if (!(callbackPayloadTypes as readonly string[]).includes(event.type))
    bad.push(`unknown type ${event.type}`);
  else {
    const parsed = callbackSchemas[event.type].safeParse(data);
    if (!parsed.success) bad.push(`data fails ${event.type} schema: ${parsed.error.message.slice(0, 300)}`);
    for (const [key, kind] of Object.entries(documented[event.type])) {
      if (!Object.hasOwn(data, key)) bad.push(`data lacks ${key}`);
      else if (!hasKind(data[key], kind))
        bad.push(`data[${JSON.stringify(key)}] is not ${kind}: ${String(data[key])}`);
    }
  }
  const proto = Object.getPrototypeOf(data);
  if (proto !== Object.prototype && proto !== null) bad.push('event.data has a foreign prototype');
  if (typeof event.paid !== 'boolean') bad.push('paid is not boolean');
  if (event.type.endsWith('.succeeded') !== event.paid) bad.push(`paid ${event.paid} for ${event.type}`);
  if (typeof event.amount !== 'string') bad.push('amount is not a string');
  if (
    !Array.isArray(event.warnings) ||
    event.warnings.some(
      (w) => !(callbackWarningCodes as readonly string[]).includes(w.code) || typeof w.message !== 'string',
    )
  )
    bad.push('warnings');
  if (!/^(?:0|[1-9]\d*)(?:\.\d+)?$/.test(event.amount)) bad.push('amount is not a plain decimal');
  if (event.occurredAt !== undefined && Number.isNaN(event.occurredAt.getTime())) bad.push('Invalid Date');
  if (event.paid)
    bad.push(
      ...failureSignalsOfPaid(
        event.type,
        data,
        event.warnings.map((w) => w.code),
      ),
    );
  if (bad.length > 0) tally.acceptedWithBadData++;
  return [...problems, ...bad];
}

const assertSound = (input: unknown) => {
  const { problems } = check(input);
  if (problems.length > 0) throw new Error(problems.join('\n'));
};

beforeAll(() => resetFigures(SECTION));
afterAll(() => {
  recordFigures(SECTION, {
    seed,
    payloads: tally.payloads,
    accepted: tally.accepted,
    rejected: tally.rejected,
    throws: tally.throws,
    acceptedWithDataFailingItsSchema: tally.acceptedWithBadData,
    prototypePollution: tally.prototypePollution,
    ...Object.fromEntries(Object.entries(tally.acceptedByType).map(([t, n]) => [`accepted.${t}`, n])),
  });
});

describe('fuzzing safeParseCallback', { timeout: 240_000 }, () => {
  it('accepts every valid payload of each variant as that variant, with sound data', () => {
    fc.assert(
      fc.property(
        anyValidPayload,
        fc.constantFrom('object', 'json', 'bytes'),
        ({ type, payload }, encoding) => {
          const input =
            encoding === 'object'
              ? payload
              : encoding === 'json'
                ? JSON.stringify(payload)
                : new TextEncoder().encode(JSON.stringify(payload));
          const { problems, acceptedAs } = check(input);
          if (problems.length > 0) throw new Error(problems.join('\n'));
          if (acceptedAs !== type) throw new Error(`valid ${type} (${encoding}) was not accepted as ${type}`);
        },
      ),
      { seed, numRuns: runs.valid },
    );
  });

  it('never throws on mutated payloads, and every accepted event has data that passes its schema', () => {
    fc.assert(
      fc.property(mutatedPayload, ({ input }) => assertSound(input)),
      { seed: seed + 1, numRuns: runs.mutated },
    );
  });

  it('never throws on bodies that are not payloads at all (any JSON, strings, bytes, broken JSON)', () => {
    fc.assert(
      fc.property(garbageBody, (input) => assertSound(input)),
      { seed: seed + 2, numRuns: runs.garbage },
    );
  });

  it('lets no __proto__ or constructor.prototype key pollute a prototype or the event', () => {
    fc.assert(
      fc.property(pollutingPayload, (input) => {
        assertSound(input);
        const result = safeParseCallback(input);
        if (result.success) {
          // the attack's values must not have leaked into the verdict through a prototype
          expect(Object.getPrototypeOf(result.event.data)).not.toHaveProperty('polluted');
        }
      }),
      { seed: seed + 3, numRuns: runs.polluting },
    );
  });

  // A documented number given as a digit string too long for a double must be refused, never
  // "converted" to Infinity.
  it.each([
    ['payment.mobile_money.succeeded', 'amount'],
    ['payment.mobile_money.succeeded', 'amount_captured'],
    ['payment.mobile_money.failed', 'amount'],
  ] as const)('%s: never turns a numeric string too large for a double in %s into Infinity', (type, key) => {
    const payload = { ...callbackFixtures[type], [key]: '9'.repeat(400) };
    const problems = check(payload).problems;
    expect(problems).toEqual([]);
  });

  it('ran at least 100,000 payloads with zero throws, zero unsound events and zero pollution', () => {
    if (scale >= 1) expect(tally.payloads).toBeGreaterThanOrEqual(100_000);
    expect(tally.throws).toBe(0);
    expect(tally.acceptedWithBadData).toBe(0);
    expect(tally.prototypePollution).toBe(0);
    // the generators reach every variant
    for (const type of callbackPayloadTypes) expect(tally.acceptedByType[type]).toBeGreaterThan(0);
  });
});
