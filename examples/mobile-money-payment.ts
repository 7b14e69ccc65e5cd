// Endpoint 2: a mobile-money (STK push) payment. Run: npx tsx examples/mobile-money-payment.ts
// (against a local sandbox; set PAYMENTS_BASE_URL to use another service). With the sandbox,
// phone 254700000406 fails with insufficient funds: PHONE=254700000406 npx tsx examples/mobile-money-payment.ts
import { PaymentsClient } from 'hosted-payments';
import { signCallbackUrl } from 'hosted-payments/callbacks';
import { exampleEnvironment } from './support/environment.js';

const env = await exampleEnvironment();
const client = new PaymentsClient({ baseUrl: env.baseUrl, mobileMoneyBrand: 'MOBILE-MONEY' });

const reference = `ORDER-${Date.now()}`;
const callback_url = await signCallbackUrl(env.webhookUrl, { secret: env.secret, reference });

try {
  const response = await client.initiateMobileMoneyPayment({
    // Any common spelling of a Kenyan number; the SDK sends 2547XXXXXXXX.
    customer_details: {
      full_name: 'Jane Doe',
      phone_number: process.env.PHONE ?? '+254 712 345 678',
      email: 'jane@example.com',
    },
    amount: { delivery_fee: 100, discount_fee: 50, total: 2600, currency: 'KES' },
    products: [{ product_name: 'Coffee beans 1kg', quantity: 2, unit_price: 1250 }],
    callback_details: { transaction_reference: reference, callback_url },
  });
  console.log('initiated:', response.message);

  const event = await env.nextEvent();
  if (event.type === 'payment.mobile_money.succeeded')
    console.log(`callback: ${event.type} amount=${event.amount}`);
  else console.log(`callback: ${event.type} reference=${event.reference} reason=${event.message}`);
} finally {
  await env.close();
}
