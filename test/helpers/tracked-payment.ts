// The tracked STK push the tracker tests send: a shop instance's client, recording its
// initiations in that instance's tracker, to a service faked behind the built-in fetch
// (test/helpers/fake-service.ts).
import { PaymentsClient, type ClientOptions } from '../../src/client.js';
import type { MobileMoneyPaymentInput } from '../../src/index.js';
import type { TransactionTracker } from '../../src/transactions/index.js';

export const trackedSecret = 'whsec_tracked_payment_0123456789abcdef';

/** A client of `baseUrl` whose initiations `tracker` records (`options` added). */
export const trackedClient = (
  baseUrl: string,
  tracker: TransactionTracker,
  options: Partial<ClientOptions> = {},
): PaymentsClient =>
  new PaymentsClient({
    baseUrl,
    apiKey: 'sk_test_tracked_payment',
    transactions: { tracker, secret: trackedSecret },
    ...options,
  });

/** An STK push of 900 KES for the order `reference`. */
export const stkPush = (reference: string) =>
  ({
    customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
    amount: { delivery_fee: 100, discount_fee: 50, total: 900, currency: 'KES' },
    callback_details: { transaction_reference: reference, callback_url: 'https://shop.example/webhooks' },
  }) satisfies MobileMoneyPaymentInput;
