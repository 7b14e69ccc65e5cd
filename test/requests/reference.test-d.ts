// One type for a merchant's reference: what generateReferenceId() returns goes unchanged into a
// payout input, into signCallbackUrl({ reference }) and compares with event.reference. This is the
// README's payout quickstart plus URL signing, as a merchant pastes it.
import { describe, expectTypeOf, it } from 'vitest';
import { signCallbackUrl, type CallbackEvent } from '../../src/callbacks/index.js';
import type { buildPayoutRequest } from '../../src/index.js';
import { PaymentsClient, generateReferenceId } from '../../src/index.js';

describe('references', () => {
  it('generateReferenceId() is the string signCallbackUrl and event.reference use', async () => {
    const client = new PaymentsClient({ baseUrl: 'https://api.example' });
    const reference_id = generateReferenceId();
    expectTypeOf(reference_id).toEqualTypeOf<string>();
    const webhook_url = await signCallbackUrl('https://shop.example/hooks/payouts', {
      secret: 'a-long-webhook-secret-for-the-example-only',
      reference: reference_id,
    });
    await client.initiatePayout({
      customer_details: { full_name: 'John Doe', phone_number: '0712345678', email: 'john@example.com' },
      destination: {
        type: 'mobile',
        country_code: 'KE',
        mobile_number: '0712345678',
        wallet_name: 'MOBILE-MONEY',
      },
      transfer: { amount: 1000, currency: 'KES', reference_id, description: 'Refund for order 1001' },
      webhook_endpoint: { webhook_url },
    });
    const event = {} as CallbackEvent;
    // Comparable without String(…): the same type (a payout callback always carries it).
    expectTypeOf(event.reference === reference_id).toEqualTypeOf<boolean>();
    expectTypeOf(reference_id).toMatchTypeOf<NonNullable<CallbackEvent['reference']>>();
  });

  it('initiatePayout does not compile without a reference_id (buildPayoutRequest does)', () => {
    type Transfer = Parameters<PaymentsClient['initiatePayout']>[0]['transfer'];
    expectTypeOf<{ amount: 1000; currency: 'KES'; description: 'x' }>().not.toMatchTypeOf<Transfer>();
    expectTypeOf<{ amount: 1000; currency: 'KES'; description: 'x' }>().toMatchTypeOf<
      Parameters<typeof buildPayoutRequest>[0]['transfer']
    >();
  });

  it('a payout input still takes the reference as a number', () => {
    expectTypeOf<{ reference_id: 483920175561 }>().toMatchTypeOf<
      Pick<Parameters<PaymentsClient['initiatePayout']>[0]['transfer'], 'reference_id'>
    >();
  });
});
