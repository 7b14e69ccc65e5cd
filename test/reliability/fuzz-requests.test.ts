// Fuzzing the request builders: generated invalid inputs for every builder, each rejected with a
// ValidationError whose issues name the offending path, and (through the client) not one request
// reaching the network — msw counts every request that leaves.
import fc from 'fast-check';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { ValidationError, formatIssuePath } from '../../src/errors.js';
import { buildCardPaymentRequest, cardPaymentRequestSchema } from '../../src/requests/card-payment.js';
import {
  buildCheckoutSessionRequest,
  checkoutSessionRequestSchema,
} from '../../src/requests/checkout-session.js';
import {
  buildMobileMoneyPaymentRequest,
  mobileMoneyPaymentRequestSchema,
} from '../../src/requests/mobile-money-payment.js';
import { buildPayoutRequest, payoutRequestSchema } from '../../src/requests/payout.js';
import { builders, invalidCase, validInput, type Builder, type InvalidCase } from './arbitraries/requests.js';
import { recordFigures, resetFigures } from './helpers/figures.js';
import { Capture, findSecrets } from './helpers/secrets.js';

const SECTION = 'fuzz-requests';
const seed = Number(process.env.FUZZ_SEED ?? 20_240_601);
const scale = Number(process.env.FUZZ_SCALE ?? 1);

/* eslint-disable @typescript-eslint/no-explicit-any -- the fuzzer feeds deliberately ill-typed inputs */
const build: Record<Builder, (input: any) => unknown> = {
  card: (input) => buildCardPaymentRequest(input),
  mobileMoney: (input) => buildMobileMoneyPaymentRequest(input),
  checkout: (input) => buildCheckoutSessionRequest(input),
  payout: (input) => buildPayoutRequest(input),
};
/* eslint-enable @typescript-eslint/no-explicit-any */
const wireSchema = {
  card: cardPaymentRequestSchema,
  mobileMoney: mobileMoneyPaymentRequestSchema,
  checkout: checkoutSessionRequestSchema,
  payout: payoutRequestSchema,
};

const capture = new Capture();
const tally = { invalidInputs: 0, rejectedWithPath: 0, validInputs: 0 } as Record<string, number>;

/** Asserts the builder rejects the case with a ValidationError naming its path; returns the error. */
export function expectRejected(c: InvalidCase, error: unknown): ValidationError {
  if (!(error instanceof ValidationError)) {
    throw new Error(`${c.builder}: ${c.description}: expected a ValidationError, got ${String(error)}`);
  }
  const wanted = formatIssuePath(c.path);
  const named = error.issues.map((i) => formatIssuePath(i.path));
  if (!named.includes(wanted)) {
    throw new Error(`${c.builder}: ${c.description}: no issue names ${wanted}; issues: ${named.join(', ')}`);
  }
  for (const issue of error.issues) {
    if (!Array.isArray(issue.path) || typeof issue.message !== 'string' || issue.message === '') {
      throw new Error(`${c.builder}: malformed issue ${JSON.stringify(issue)}`);
    }
  }
  return error;
}

// Every request that leaves the process is counted: msw sees each one, handled or not.
const baseUrl = 'https://payments.fuzz.test';
let networkRequests = 0;
const server = setupServer(
  // The documented replies; a checkout echoes the order_id it was sent.
  http.post(`${baseUrl}/*`, async ({ request }) => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/api/payout/')) {
      return HttpResponse.json({ message: 'Mobile Payout Initiated', status: 200 });
    }
    if (!pathname.startsWith('/checkout.sessions/')) {
      // A card payment carries card_details; a mobile-money reply names the brand it was sent.
      const sent = (await request.json()) as {
        customer_details?: { payment_method?: unknown };
        card_details?: unknown;
      };
      const brand = sent.card_details === undefined ? String(sent.customer_details?.payment_method) : 'Card';
      return HttpResponse.json({ message: `${brand} Payment Initiated`, status: 200 });
    }
    const sent = (await request.json()) as { amount?: { order_id?: unknown } };
    return HttpResponse.json({
      checkout_link: 'https://pay.fuzz.test/c/1',
      status: true,
      order_id: String(sent.amount?.order_id),
    });
  }),
);
server.events.on('request:start', () => {
  networkRequests++;
});

beforeAll(() => {
  resetFigures(SECTION);
  server.listen({ onUnhandledRequest: () => undefined });
});
afterAll(() => {
  server.close();
  const leaks = findSecrets(capture.items);
  recordFigures(SECTION, {
    seed,
    ...tally,
    errorsScannedForSecrets: capture.size,
    secretsFound: leaks.length,
  });
});

describe('fuzzing the request builders', { timeout: 120_000 }, () => {
  it.each(builders)(
    '%s: builds every generated valid input into a body its wire schema accepts',
    (builder) => {
      fc.assert(
        fc.property(validInput[builder], (input) => {
          const body = build[builder](input);
          tally.validInputs!++;
          const parsed = wireSchema[builder].safeParse(body);
          if (!parsed.success)
            throw new Error(`${builder}: built body fails the wire schema: ${parsed.error.message}`);
        }),
        { seed, numRuns: Math.round(400 * scale) },
      );
    },
  );

  it.each(builders)(
    '%s: rejects every generated invalid input with a ValidationError naming its path',
    (builder) => {
      fc.assert(
        fc.property(invalidCase(builder), (c) => {
          let error: unknown;
          try {
            build[builder](c.input);
          } catch (e) {
            error = e;
          }
          tally.invalidInputs!++;
          expectRejected(c, error);
          capture.add(`${builder} ValidationError`, error);
          tally.rejectedWithPath!++;
        }),
        { seed: seed + 10, numRuns: Math.round(2_500 * scale) },
      );
    },
  );

  it('sends nothing for an invalid input: every client method rejects before the network', async () => {
    const client = new PaymentsClient({ baseUrl, timeout: 5_000 });
    /* eslint-disable @typescript-eslint/no-explicit-any */
    const call: Record<Builder, (input: any) => Promise<unknown>> = {
      card: (input) => client.initiateCardPayment(input),
      mobileMoney: (input) => client.initiateMobileMoneyPayment(input),
      checkout: (input) => client.createCheckoutSession(input),
      payout: (input) => client.initiatePayout(input),
    };
    /* eslint-enable @typescript-eslint/no-explicit-any */
    let calls = 0;
    for (const builder of builders) {
      const cases = fc.sample(invalidCase(builder), { seed: seed + 20, numRuns: Math.round(500 * scale) });
      for (const c of cases) {
        const error = await call[builder](c.input).then(
          () => new Error(`${builder}: ${c.description}: the call resolved`),
          (e: unknown) => e,
        );
        expectRejected(c, error);
        capture.add(`${builder} client ValidationError`, error);
        calls++;
      }
    }
    tally.invalidClientCalls = calls;
    tally.requestsReachingNetwork = networkRequests;
    expect(networkRequests).toBe(0);

    // Control: the counter does see requests — one valid call per method reaches msw.
    for (const builder of builders) {
      const [input] = fc.sample(validInput[builder], { seed, numRuns: 1 });
      await call[builder](input);
    }
    expect(networkRequests).toBe(builders.length);
  });

  it('accepts an apiKey only if HTTP carries it unchanged, and never echoes a refused one', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 0, maxLength: 24 }),
        fc.string({ unit: 'binary', maxLength: 4 }),
        (middle, edge) => {
          const apiKey = `${edge}sk_fuzz_${middle}${edge}`;
          let error: unknown;
          try {
            new PaymentsClient({ baseUrl, apiKey });
          } catch (e) {
            error = e;
          }
          const carried = (() => {
            try {
              return (
                new Headers({ authorization: `Bearer ${apiKey}` }).get('authorization') === `Bearer ${apiKey}`
              );
            } catch {
              return false;
            }
          })();
          if (error === undefined) {
            if (!carried)
              throw new Error(`accepted an apiKey the wire would change: ${JSON.stringify(apiKey)}`);
            return;
          }
          expect(error).toBeInstanceOf(ValidationError);
          const dump = `${(error as Error).message} ${JSON.stringify(error)}`;
          if (dump.includes('sk_fuzz_')) throw new Error('a refused apiKey was echoed');
        },
      ),
      { seed: seed + 30, numRuns: Math.round(2_000 * scale) },
    );
  });

  it('never puts a card number or cvc in a ValidationError (message, JSON, inspect, stack)', () => {
    expect(capture.size).toBeGreaterThan(0);
    expect(findSecrets(capture.items)).toEqual([]);
  });
});
