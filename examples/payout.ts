// Endpoint 4: a mobile-money payout. Run: npx tsx examples/payout.ts
// (against a local sandbox: its wallet starts at 100000 and a payout above it fails).
import { PaymentsClient, generateReferenceId } from 'hosted-payments';
import { signCallbackUrl } from 'hosted-payments/callbacks';
import { exampleEnvironment } from './support/environment.js';

const env = await exampleEnvironment();
// The spec shows the recipient both as customer_details and client_details; pick per service.
const client = new PaymentsClient({ baseUrl: env.baseUrl, payoutRecipientKey: 'customer_details' });

// 12 digits (a string), the first not 0, unique per transfer: keep it with your payout record.
// The same string signs the callback URL and comes back as event.reference.
const reference_id = generateReferenceId();
const webhook_url = await signCallbackUrl(env.webhookUrl, { secret: env.secret, reference: reference_id });

try {
  const response = await client.initiatePayout({
    customer_details: { full_name: 'John Otieno', phone_number: '0712345678', email: 'john@example.com' },
    destination: {
      type: 'MOBILE',
      country_code: 'KE',
      mobile_number: '254712345678',
      wallet_name: 'MOBILE-MONEY',
    },
    transfer: {
      amount: Number(process.env.AMOUNT ?? 1000),
      currency: 'KES',
      reference_id,
      description: 'Refund of order 1001',
    },
    webhook_endpoint: { webhook_url },
  });
  console.log('initiated:', response.message);

  const event = await env.nextEvent();
  if (event.type === 'payout.succeeded') {
    console.log(`callback: ${event.type} fee=${event.data.payout_fee} balance=${event.data.wallet_balance}`);
  } else {
    console.log(`callback: ${event.type} reference=${event.reference} message=${event.message}`);
  }
} finally {
  await env.close();
}
