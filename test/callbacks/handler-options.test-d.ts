// The handler passes onEvent and expected every event that passes its checks, failed ones
// included, and a context whose reference is undefined under verify: false. Their types must not
// let a merchant's function assume less: a function written for one event type (a checkout-only
// shop's "mark paid") or for a verified reference does not compile as onEvent or expected.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createCallbackHandler,
  type CallbackContext,
  type CallbackEvent,
  type CallbackHandlerOptions,
  type CheckoutSucceededEvent,
  type ExpectedPayment,
  type PayoutSucceededEvent,
} from '../../src/callbacks/index.js';

const secret = 'whsec_handler_options_0123456789';
declare function markPaid(reference: string, amount: string): Promise<void>;

describe('createCallbackHandler options', () => {
  it('refuses an onEvent written for one event type: the failed ones reach it too', () => {
    createCallbackHandler({
      secret,
      // @ts-expect-error a checkout.failed would reach a function typed for checkout.succeeded
      onEvent: (event: CheckoutSucceededEvent, { reference }) => markPaid(reference, event.amount),
    });
    async function onPayoutDelivered(event: PayoutSucceededEvent, context: CallbackContext<string>) {
      await markPaid(context.reference, event.data.payout_fee);
    }
    // @ts-expect-error a payout.failed would reach it typed as a success
    createCallbackHandler({ secret, onEvent: onPayoutDelivered });
  });

  it('refuses an expected written for one event type', () => {
    createCallbackHandler({
      secret,
      onEvent: () => undefined,
      // @ts-expect-error every event type is looked up, failed ones included
      expected: (event: CheckoutSucceededEvent) => ({ amount: event.amount }),
    });
  });

  it('refuses a context typed as verified (reference: string) under verify: false', () => {
    // @ts-expect-error with verify: false a card success carries no reference: undefined
    createCallbackHandler({
      verify: false,
      onEvent: (_event: CallbackEvent, context: CallbackContext<string>) => markPaid(context.reference, '1'),
    });
    // @ts-expect-error options typed as verified (reference: string) cannot turn verification off
    const options: CallbackHandlerOptions<string> = { verify: false, onEvent: () => undefined };
    void options;
  });

  it('accepts what the handler passes: every event, the reference a string when verified', () => {
    createCallbackHandler({
      secret,
      onEvent: async (event, { reference }) => {
        expectTypeOf(event).toEqualTypeOf<CallbackEvent>();
        expectTypeOf(reference).toEqualTypeOf<string>();
        if (event.type === 'checkout.succeeded') await markPaid(reference, event.amount);
      },
      expected: (event, context) => {
        expectTypeOf(event).toEqualTypeOf<CallbackEvent>();
        expectTypeOf(context.reference).toEqualTypeOf<string>();
        return undefined;
      },
    });
    createCallbackHandler({
      verify: false,
      onEvent: (_event, context: CallbackContext<string | undefined>) => {
        expectTypeOf(context.reference).toEqualTypeOf<string | undefined>();
      },
    });
    const handle = (event: CallbackEvent, context: CallbackContext<string>): Promise<void> =>
      event.paid ? markPaid(context.reference, event.amount) : Promise.resolve();
    createCallbackHandler({ secret, onEvent: handle });
    const options: CallbackHandlerOptions = { secret, onEvent: () => undefined };
    createCallbackHandler(options);
    // Options typed as verified, with no verify: the reference is a string.
    const verified: CallbackHandlerOptions<string> = {
      secret,
      onEvent: (_event, { reference }) => markPaid(reference, '1'),
    };
    createCallbackHandler(verified);
    const defaults: Partial<CallbackHandlerOptions<string>> = { dedupe: false };
    createCallbackHandler({
      ...defaults,
      secret,
      onEvent: (_event, { reference }) => markPaid(reference, '1'),
    });
  });

  it("gives expected no transaction or settlement: it runs before the tracker's settle", () => {
    createCallbackHandler({
      secret,
      onEvent: () => undefined,
      expected: (_event, context): ExpectedPayment | undefined => {
        // @ts-expect-error not known yet when expected runs
        void context.transaction;
        // @ts-expect-error not known yet when expected runs
        void context.settlement;
        return undefined;
      },
    });
  });
});
