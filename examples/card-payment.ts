// Endpoint 1: a card payment. Run: npx tsx examples/card-payment.ts
// (against a local sandbox; set PAYMENTS_BASE_URL to use another service).
import { PaymentsClient, ValidationError } from 'hosted-payments';
import { signCallbackUrl } from 'hosted-payments/callbacks';
import { exampleEnvironment } from './support/environment.js';

const env = await exampleEnvironment();
const client = new PaymentsClient({ baseUrl: env.baseUrl, apiKey: process.env.PAYMENTS_API_KEY });

const reference = `ORDER-${Date.now()}`;
// The service signs nothing: sign the callback URL so the webhook route can trust what arrives.
const callback_url = await signCallbackUrl(env.webhookUrl, { secret: env.secret, reference });

try {
  const response = await client.initiateCardPayment({
    customer_details: { full_name: 'Jane Doe', phone_number: '0712 345 678', email: 'jane@example.com' },
    amount: { delivery_fee: 100, discount_fee: 50, total: 1500, currency: 'KES' },
    products: [{ product_name: 'Coffee beans 1kg', quantity: 1, unit_price: 1500 }],
    card_details: { card_number: '4242 4242 4242 4242', expiry_month: 12, expiry_year: 2030, cvc: '123' },
    callback_details: { transaction_reference: reference, callback_url },
  });
  console.log('initiated:', response.message);

  const event = await env.nextEvent();
  console.log(`callback: ${event.type} paid=${event.paid} amount=${event.amount} ${event.currency ?? ''}`);
} catch (error) {
  if (error instanceof ValidationError)
    console.error(error.message); // names every bad field
  else throw error;
  process.exitCode = 1;
} finally {
  await env.close();
}
