// Endpoint 3: a hosted redirect checkout. Run: npx tsx examples/checkout-session.ts
// Prints the checkout link and keeps running until the order is paid: open the link in a browser
// and pay on the sandbox's checkout page (or press Ctrl-C). With PAY=1 the example pays the page
// itself with completeCheckout — the same form post the customer's browser makes.
import { PaymentsClient } from 'hosted-payments';
import { signCallbackUrl } from 'hosted-payments/callbacks';
import { completeCheckout } from 'hosted-payments/sandbox';
import { exampleEnvironment } from './support/environment.js';

const env = await exampleEnvironment();
const client = new PaymentsClient({ baseUrl: env.baseUrl });
process.once('SIGINT', () => {
  console.log('\nstopped before the order was paid');
  void env.close().then(() => process.exit(130));
});

const orderId = Math.floor(Date.now() / 1000) % 1_000_000_000;
// order_id is what the checkout callback carries back: sign the URL for it. A checkout callback
// has no transaction id, so give each session's URL a parameter of its own before signing it:
// two sessions of one order (a second tab) paid by the same method and amount would otherwise
// send identical callbacks, and the second payment would be dropped as a duplicate.
const sessionUrl = new URL(env.webhookUrl);
sessionUrl.searchParams.set('session', crypto.randomUUID());
const callback_url = await signCallbackUrl(sessionUrl, {
  secret: env.secret,
  reference: String(orderId),
});

try {
  const session = await client.createCheckoutSession({
    customer_details: { full_name: 'Jane Doe', phone_number: '0712345678', email: 'jane@example.com' },
    amount: { order_id: orderId, delivery_fee: 100, discount_fee: 50, total: 4200, currency: 'KES' },
    redirect_urls: {
      success_url: 'https://shop.example/orders/thank-you',
      failed_url: 'https://shop.example/orders/payment-failed',
      callback_url,
    },
  });
  console.log(`checkout link for order ${session.order_id}: ${session.checkout_link}`);

  if (process.env.PAY === '1') {
    // What the customer does on the hosted page: pick mobile money and pay.
    const { paid, redirectedTo } = await completeCheckout(session.checkout_link, { method: 'mobile_money' });
    console.log(`paid on the page: ${paid}, redirected to ${redirectedTo}`);
  } else {
    console.log('open it in your browser and pay; waiting for the callback (Ctrl-C to stop)…');
  }
  const event = await env.nextEvent(24 * 60 * 60 * 1000);
  console.log(`callback: ${event.type} order=${event.reference} paid=${event.paid}`);
} finally {
  await env.close();
}
