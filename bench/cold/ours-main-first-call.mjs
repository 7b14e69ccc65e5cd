// Cold start + first call: import the main entry, build a client and make one payout call to a
// loopback server, so what the client defers to its first call (importing ky) stays in view.
// The built package directory comes from the bench (HP_DIST), as in ours-main.mjs.
import { startLoopback } from './loopback.mjs';

const service = await startLoopback();
const { PaymentsClient } = await import(process.env.HP_DIST + '/index.js');

const client = new PaymentsClient({
  baseUrl: `http://127.0.0.1:${service.port}`,
  apiKey: 'sk_test_0123456789',
});
await client.initiatePayout({
  customer_details: { full_name: 'John Doe', phone_number: '0712345678', email: 'john@example.com' },
  destination: {
    type: 'mobile',
    country_code: 'KE',
    mobile_number: '0712345678',
    wallet_name: 'MOBILE-MONEY',
  },
  transfer: { amount: 1000, currency: 'KES', reference_id: 483920175561, description: 'Refund' },
  webhook_endpoint: { webhook_url: 'https://shop.example/hooks/payouts' },
});
service.close();
